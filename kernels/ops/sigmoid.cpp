// sigmoid: 1 / (1 + e^−x), elementwise (ntops' kernels/sigmoid.py); torch.sigmoid(x).
// float16 inputs are computed in float32 and rounded once. Ranks 1 and 4 (element_wise.hpp).
#include "element_wise.hpp"

NT_APPLICATION void sigmoid_application(nt::Tile input, nt::Tile output) {
  output = ntl::sigmoid(input.to(ntl::float32));
}

NT_KERNEL(sigmoid_f32, unary_arrangement, sigmoid_application, nt::Tensor(1, nt::float32),
          nt::Tensor(1, nt::float32));
NT_KERNEL(sigmoid_f16, unary_arrangement, sigmoid_application, nt::Tensor(1, nt::float16),
          nt::Tensor(1, nt::float16));
NT_KERNEL(sigmoid_f32_4d, unary_arrangement, sigmoid_application, nt::Tensor(4, nt::float32),
          nt::Tensor(4, nt::float32));
NT_KERNEL(sigmoid_f16_4d, unary_arrangement, sigmoid_application, nt::Tensor(4, nt::float16),
          nt::Tensor(4, nt::float16));

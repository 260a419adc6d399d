// relu: max(x, 0), elementwise (ntops' kernels/relu.py); torch.nn.functional.relu(x). Computed
// in the input's type (exact); NaN stays NaN, as in PyTorch. Ranks 1 and 4 (element_wise.hpp).
#include "element_wise.hpp"

NT_APPLICATION void relu_application(nt::Tile input, nt::Tile output) {
  output = ntl::maximum(input, 0);
}

NT_KERNEL(relu_f32, unary_arrangement, relu_application, nt::Tensor(1, nt::float32),
          nt::Tensor(1, nt::float32));
NT_KERNEL(relu_f16, unary_arrangement, relu_application, nt::Tensor(1, nt::float16),
          nt::Tensor(1, nt::float16));
NT_KERNEL(relu_f32_4d, unary_arrangement, relu_application, nt::Tensor(4, nt::float32),
          nt::Tensor(4, nt::float32));
NT_KERNEL(relu_f16_4d, unary_arrangement, relu_application, nt::Tensor(4, nt::float16),
          nt::Tensor(4, nt::float16));

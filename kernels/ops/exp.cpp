// exp: e^x, elementwise (ntops' kernels/exp.py); torch.exp(x). float16 inputs are computed in
// float32 and rounded once. Ranks 1 and 4 (element_wise.hpp).
#include "element_wise.hpp"

NT_APPLICATION void exp_application(nt::Tile input, nt::Tile output) {
  output = ntl::exp(input.to(ntl::float32));
}

NT_KERNEL(exp_f32, unary_arrangement, exp_application, nt::Tensor(1, nt::float32),
          nt::Tensor(1, nt::float32));
NT_KERNEL(exp_f16, unary_arrangement, exp_application, nt::Tensor(1, nt::float16),
          nt::Tensor(1, nt::float16));
NT_KERNEL(exp_f32_4d, unary_arrangement, exp_application, nt::Tensor(4, nt::float32),
          nt::Tensor(4, nt::float32));
NT_KERNEL(exp_f16_4d, unary_arrangement, exp_application, nt::Tensor(4, nt::float16),
          nt::Tensor(4, nt::float16));

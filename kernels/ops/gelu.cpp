// gelu: the Gaussian error linear unit, x·Φ(x), elementwise (ntops' kernels/gelu.py).
//   gelu_*       exact form 0.5·x·(1 + erf(x/√2))      torch.nn.functional.gelu(x)
//   gelu_tanh_*  tanh approximation                     gelu(x, approximate="tanh")
//                0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))
// float16 inputs are computed in float32 and rounded once. Ranks 1 and 4 (element_wise.hpp).
#include "element_wise.hpp"

NT_APPLICATION void gelu_application(nt::Tile input, nt::Tile output) {
  auto x = input.to(ntl::float32);
  const double one_over_sqrt2 = 0.70710678118654752440;
  output = 0.5 * x * (1 + ntl::erf(x * one_over_sqrt2));
}

NT_APPLICATION void gelu_tanh_application(nt::Tile input, nt::Tile output) {
  auto x = input.to(ntl::float32);
  const double sqrt_2_over_pi = 0.79788456080286535588;
  output = 0.5 * x * (1 + ntl::tanh(sqrt_2_over_pi * (x + 0.044715 * x * x * x)));
}

NT_KERNEL(gelu_f32, unary_arrangement, gelu_application, nt::Tensor(1, nt::float32),
          nt::Tensor(1, nt::float32));
NT_KERNEL(gelu_f16, unary_arrangement, gelu_application, nt::Tensor(1, nt::float16),
          nt::Tensor(1, nt::float16));
NT_KERNEL(gelu_f32_4d, unary_arrangement, gelu_application, nt::Tensor(4, nt::float32),
          nt::Tensor(4, nt::float32));
NT_KERNEL(gelu_f16_4d, unary_arrangement, gelu_application, nt::Tensor(4, nt::float16),
          nt::Tensor(4, nt::float16));

NT_KERNEL(gelu_tanh_f32, unary_arrangement, gelu_tanh_application, nt::Tensor(1, nt::float32),
          nt::Tensor(1, nt::float32));
NT_KERNEL(gelu_tanh_f16, unary_arrangement, gelu_tanh_application, nt::Tensor(1, nt::float16),
          nt::Tensor(1, nt::float16));
NT_KERNEL(gelu_tanh_f32_4d, unary_arrangement, gelu_tanh_application, nt::Tensor(4, nt::float32),
          nt::Tensor(4, nt::float32));
NT_KERNEL(gelu_tanh_f16_4d, unary_arrangement, gelu_tanh_application, nt::Tensor(4, nt::float16),
          nt::Tensor(4, nt::float16));

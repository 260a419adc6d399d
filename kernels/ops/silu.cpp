// silu: x·sigmoid(x) = x / (1 + e^−x), elementwise (ntops' kernels/silu.py);
// torch.nn.functional.silu(x). float16 inputs are computed in float32 and rounded once.
// Ranks 1 and 4 (element_wise.hpp).
#include "element_wise.hpp"

NT_APPLICATION void silu_application(nt::Tile input, nt::Tile output) {
  auto x = input.to(ntl::float32);
  output = x / (1 + ntl::exp(-x));
}

NT_KERNEL(silu_f32, unary_arrangement, silu_application, nt::Tensor(1, nt::float32),
          nt::Tensor(1, nt::float32));
NT_KERNEL(silu_f16, unary_arrangement, silu_application, nt::Tensor(1, nt::float16),
          nt::Tensor(1, nt::float16));
NT_KERNEL(silu_f32_4d, unary_arrangement, silu_application, nt::Tensor(4, nt::float32),
          nt::Tensor(4, nt::float32));
NT_KERNEL(silu_f16_4d, unary_arrangement, silu_application, nt::Tensor(4, nt::float16),
          nt::Tensor(4, nt::float16));

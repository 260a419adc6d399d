// rsqrt: 1 / √x, elementwise (ntops' kernels/rsqrt.py); torch.rsqrt(x). Computed in float32
// and rounded once to the output's type; 0 gives +inf, negative inputs NaN.
// Ranks 1 and 4 (element_wise.hpp).
#include "element_wise.hpp"

NT_APPLICATION void rsqrt_application(nt::Tile input, nt::Tile output) {
  output = ntl::rsqrt(input.to(ntl::float32));
}

NT_KERNEL(rsqrt_f32, unary_arrangement, rsqrt_application, nt::Tensor(1, nt::float32),
          nt::Tensor(1, nt::float32));
NT_KERNEL(rsqrt_f16, unary_arrangement, rsqrt_application, nt::Tensor(1, nt::float16),
          nt::Tensor(1, nt::float16));
NT_KERNEL(rsqrt_f32_4d, unary_arrangement, rsqrt_application, nt::Tensor(4, nt::float32),
          nt::Tensor(4, nt::float32));
NT_KERNEL(rsqrt_f16_4d, unary_arrangement, rsqrt_application, nt::Tensor(4, nt::float16),
          nt::Tensor(4, nt::float16));

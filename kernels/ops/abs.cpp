// abs: |x|, elementwise (ntops' kernels/abs.py); torch.abs(x). Exact, in the input's type.
// Ranks 1 and 4 (element_wise.hpp).
#include "element_wise.hpp"

NT_APPLICATION void abs_application(nt::Tile input, nt::Tile output) { output = ntl::abs(input); }

NT_KERNEL(abs_f32, unary_arrangement, abs_application, nt::Tensor(1, nt::float32),
          nt::Tensor(1, nt::float32));
NT_KERNEL(abs_f16, unary_arrangement, abs_application, nt::Tensor(1, nt::float16),
          nt::Tensor(1, nt::float16));
NT_KERNEL(abs_f32_4d, unary_arrangement, abs_application, nt::Tensor(4, nt::float32),
          nt::Tensor(4, nt::float32));
NT_KERNEL(abs_f16_4d, unary_arrangement, abs_application, nt::Tensor(4, nt::float16),
          nt::Tensor(4, nt::float16));

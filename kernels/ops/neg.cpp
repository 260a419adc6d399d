// neg: −x, elementwise (ntops' kernels/neg.py); torch.neg(x). Exact, in the input's type.
// Ranks 1 and 4 (element_wise.hpp).
#include "element_wise.hpp"

NT_APPLICATION void neg_application(nt::Tile input, nt::Tile output) { output = -input; }

NT_KERNEL(neg_f32, unary_arrangement, neg_application, nt::Tensor(1, nt::float32),
          nt::Tensor(1, nt::float32));
NT_KERNEL(neg_f16, unary_arrangement, neg_application, nt::Tensor(1, nt::float16),
          nt::Tensor(1, nt::float16));
NT_KERNEL(neg_f32_4d, unary_arrangement, neg_application, nt::Tensor(4, nt::float32),
          nt::Tensor(4, nt::float32));
NT_KERNEL(neg_f16_4d, unary_arrangement, neg_application, nt::Tensor(4, nt::float16),
          nt::Tensor(4, nt::float16));

// matmul: `output = lhs @ rhs` for float16 matrices with float32 accumulation (the GEMM of
// matmul.hpp).

#include "matmul.hpp"

NT_KERNEL(matmul, mm_arrangement, mm_application, nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16));

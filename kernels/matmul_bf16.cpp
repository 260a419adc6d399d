// matmul_bf16: `output = lhs @ rhs` for bfloat16 matrices with float32 accumulation (the GEMM of
// matmul.hpp).

#include "matmul.hpp"

NT_KERNEL(matmul_bf16, mm_arrangement, mm_application, nt::Tensor(2, nt::bfloat16),
          nt::Tensor(2, nt::bfloat16), nt::Tensor(2, nt::bfloat16));

// --define binds a meta-parameter for code generation too: the kernel is compiled for that
// value, and the meta-parameters left free are chosen around it (on the GPU the GEMM loop with
// the most arithmetic per byte given BLOCK_SIZE_M=64 and BLOCK_SIZE_K=64: BLOCK_SIZE_N=256; on
// the CPU the lower bound, BLOCK_SIZE_N=64).
// NTC-ARGS: --define BLOCK_SIZE_M=64 --define BLOCK_SIZE_K=64

#include "../../kernels/matmul.hpp"

NT_KERNEL(mm, mm_arrangement, mm_application, nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16));

// CU: // mm with BLOCK_SIZE_K=64 BLOCK_SIZE_M=64 BLOCK_SIZE_N=256; 256 threads
// CU: ntc::dev::dot_loop<{{[0-9]+}}, false, false, true, ntc::dev::float16, 64, 64, 256, 256>(
// CU-NOT: BLOCK_SIZE_M=128
// CPP: // mm with BLOCK_SIZE_K=64 BLOCK_SIZE_M=64 BLOCK_SIZE_N=64.
// CPP: const int64_t ntc_BLOCK_SIZE_M_meta = 64;
// CPP-NOT: BLOCK_SIZE_M=128

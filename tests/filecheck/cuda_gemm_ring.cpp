// The GEMM ring of a block that has its SM alone (256 threads of 128 accumulators each need
// more than half of the register file): planned for sm_90a only, the 128×256×32 loop takes the
// most stages the planner allows, 8 (8·24 KiB of the 228 KiB SM), where the default targets
// (sm_80 too) give 6 (tests/filecheck/cuda_dot_loop.cpp) and a block that shares its SM gets at
// most 4.
// NTC-ARGS: --cuda-arch 90a

#include "../../kernels/matmul.hpp"

NT_KERNEL(mm90, mm_arrangement, mm_application, nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16));

// CU: // mm90 with BLOCK_SIZE_K=32 BLOCK_SIZE_M=128 BLOCK_SIZE_N=256; 256 threads, 196672 bytes of shared memory.
// CU: ntc::dev::dot_loop<8, false, false, true, ntc::dev::float16, 128, 32, 256, 256>(

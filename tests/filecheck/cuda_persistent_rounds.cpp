// specialize-warps stores in rounds where the whole output tile does not fit beside the ring
// (passes/SpecializeWarps.cpp): 128×256×64 tiles in four stages fill 192 KiB, so the 64 KiB
// output tile is staged half at a time (two of its four column blocks per round, 32 KiB), each
// round waiting until the copy engine has read the last.

#include "../../kernels/matmul.hpp"

NT_KERNEL(mm_rounds, mm_arrangement, mm_application, nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16));

// NTC-ARGS: --cuda-arch 90a --kernel mm_rounds --config BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,warps=8,stages=4,group=8,tma=1,persistent=1

// GIR-LABEL: IR after specialize-warps (ntc_mm_rounds_program0_tma)
// GIR: # persistent, warp-specialized: 256 consumer threads (232 registers), a producer of 128 (40 registers); stores staged at 197632 in 2 rounds, total 230400 bytes

// CU: ntc::dev::tma_ring<4, 2, 8, 1, 256> ntc_ring0{ntc_smem, 196672};
// CU: ntc::dev::tma_store<197632, 128, 1, 2, 256, true, 2>(
// CU: cudaFuncSetAttribute(ntc_mm_rounds_program0_tma<int32_t>, cudaFuncAttributeMaxDynamicSharedMemorySize, 230400)

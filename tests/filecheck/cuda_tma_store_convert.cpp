// use-tensor-maps stores by TMA a value whose element type differs from the output's
// (passes/UseTensorMaps.cpp): matmul_bf16's application casts its float32 accumulator to
// float16, and the output is bfloat16. The store gets an explicit conversion to bfloat16 in the
// value's own (wgmma accumulator) layout, which the threads make in registers before they stage
// the tile, so that the copy engine stores the staged bytes as they are; the persistent program
// takes the same store. A float32 output (not 16-bit) keeps the threads' store.

#include "../../kernels/matmul.hpp"

NT_KERNEL(mm_convert, mm_arrangement, mm_application, nt::Tensor(2, nt::bfloat16),
          nt::Tensor(2, nt::bfloat16), nt::Tensor(2, nt::bfloat16));

// NTC-ARGS: --cuda-arch 90a --kernel mm_convert --config BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,warps=8,stages=4,group=8,tma=1,persistent=1

// GIR-LABEL: IR after use-tensor-maps (ntc_mm_convert_program0_tma
// GIR: # tensor map 2: output, box [128, 64], swizzle 128
// GIR: store output[] {{.*}}tma map=2 <- cast(cast(%accumulator : float32[128, 256] #[[L:[a-z]+<[0-9x]+>]]) : float16[128, 256] #[[L]]) : bfloat16[128, 256] #[[L]]
// GIR-LABEL: IR after specialize-warps (ntc_mm_convert_program0_tma)
// GIR: # persistent, warp-specialized: 256 consumer threads

// CU: ntc::dev::tma_store<197632, 128, 1, 2, 256, true, 2>(ntc::dev::cast<ntc::dev::bfloat16>(ntc::dev::cast<ntc::dev::float16>(t_accumulator)), ntc_maps.m2,

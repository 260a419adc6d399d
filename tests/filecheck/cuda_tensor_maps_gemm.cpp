// use-tensor-maps on a GEMM main loop (passes/UseTensorMaps.cpp): with the knob tma=1 on sm_90a,
// a dot_loop that multiplies with wgmma takes both operands by TMA. Each operand gets a tensor
// map whose box is one column block of the loop's swizzled ring (A: 128 rows by 32 halves, 64-byte
// blocks; B: 32 rows by 64 halves, 128-byte blocks, four per tile), the loop a ring of one barrier
// per stage expecting both copies and one per stage that the 8 warps release, and the dot_loop call the two operands as make_tma_operand
// (the map, the ring and the coordinates of step k's tile, innermost first). The output tile,
// which fits the scratch region the ring leaves free after the loop, is staged there in the
// Swizzled layout and stored by TMA (tma_store), in boxes of 128 rows by 64 halves. No copy or
// store keeps a residual term: rhs's and output's bounds on the program coordinates are extents
// that the wrapper checks equal to the grid's (simplify-mask).

#include "../../kernels/matmul.hpp"

NT_KERNEL(mm_tma, mm_arrangement, mm_application, nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16));

// NTC-ARGS: --cuda-arch 90a --kernel mm_tma --config BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=32,tma=1

// GIR-LABEL: IR after use-tensor-maps (ntc_mm_tma_program0_tma
// GIR: # tensor map 0: lhs, box [128, 32], swizzle 64
// GIR-NEXT: # tensor map 1: rhs, box [32, 64], swizzle 128
// GIR-NEXT: # tensor map 2: output, box [128, 64], swizzle 128
// GIR-NEXT: # tma ring of group 0: 8 stages, 2 arrivals, barriers at {{[0-9]+}}, released by 8 warps, the dot loop's operands through maps 0 and 1
// GIR: store output[] vector 8 tma map=2 <- cast(%accumulator

// CU-LABEL: struct ntc_mm_tma_program0_tma_maps {
// CU: ntc::dev::tma_ring<8, 2, 8> ntc_ring0{ntc_smem, {{[0-9]+}}};
// CU: ntc::dev::dot_loop<8,
// CU: ntc::dev::make_tma_operand<2, 1>(ntc_ring0, ntc_maps.m0, [&](const Index l_k, int (&ntc_c)[2]) -> bool { ntc_c[0] = static_cast<int>((32 * l_k)); ntc_c[1] = static_cast<int>((128 * pid0)); return true; }),
// CU: ntc::dev::make_tma_operand<2, 1>(ntc_ring0, ntc_maps.m1, [&](const Index l_k, int (&ntc_c)[2]) -> bool { ntc_c[0] = static_cast<int>((256 * pid1)); ntc_c[1] = static_cast<int>((32 * l_k)); return true; }), ntc_smem);
// CU: ntc::dev::tma_store<0, 128, 1, 2>(ntc::dev::cast<ntc::dev::float16>(t_accumulator), ntc_maps.m2, ntc_smem, {static_cast<int>((256 * pid1)), static_cast<int>((128 * pid0))}, true);
// CU: ntc::rt::encode_tma(lhs, {128, 32}, ntc::rt::tma_swizzle::span64, ntc_maps.m0.bytes) &&
// CU-NEXT: ntc::rt::encode_tma(rhs, {32, 64}, ntc::rt::tma_swizzle::span128, ntc_maps.m1.bytes) &&
// CU-NEXT: ntc::rt::encode_tma(output, {128, 64}, ntc::rt::tma_swizzle::span128, ntc_maps.m2.bytes)) {
// CU: ntc_mm_tma_program0_tma<int32_t><<<

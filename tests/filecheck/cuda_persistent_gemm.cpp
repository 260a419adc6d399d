// specialize-warps with the knobs tma=1,persistent=1 (passes/SpecializeWarps.cpp): a GEMM whose
// main loop goes by TMA and whose epilogue computes on registers and stores by TMA runs as a
// persistent, warp-specialized program. The block has 256 consumer threads and a producer
// warpgroup after them (384 threads, one block per SM); the ring's copies are issued by thread
// 256 (tma_ring's Issuer), which runs the main loop's copies of every program of the block
// (dot_loop_produce) and exits, while the consumers loop over the same programs, multiply
// (dot_loop_consume) and store through a staging region of their own, synchronizing among
// themselves (tma_store<..., 256, true, 1>). The dispatcher launches at most one block per SM.

#include "../../kernels/matmul.hpp"

NT_KERNEL(mm_persistent, mm_arrangement, mm_application, nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16));

// NTC-ARGS: --cuda-arch 90a --kernel mm_persistent --config BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,warps=8,stages=3,group=8,tma=1,persistent=1

// GIR-LABEL: IR after specialize-warps (ntc_mm_persistent_program0_tma)
// GIR: # tma ring of group 0: 3 stages, 2 arrivals, barriers at 147520, released by 8 warps, the dot loop's operands through maps 0 and 1
// GIR-NEXT: # persistent, warp-specialized: 256 consumer threads (232 registers), a producer of 128 (40 registers); stores staged at 148480, total 214016 bytes

// CU-LABEL: struct ntc_mm_persistent_program0_tma_maps {
// CU: __global__ void __launch_bounds__(384, 1) ntc_mm_persistent_program0_tma(
// CU: ntc::dev::tma_ring<3, 2, 8, 1, 256> ntc_ring0{ntc_smem, 147520};
// CU-NOT: const int64_t ntc_program =
// CU: const int64_t ntc_programs = ntc::rt::ceil_div<Index>(ntc_lhs_size_0, 128) * ntc::rt::ceil_div<Index>(ntc_output_size_1, 256);
// CU-NEXT: if (threadIdx.x >= 256) {
// CU-NEXT: ntc::dev::set_max_registers<40, false>();
// CU-NEXT: if (threadIdx.x == 256) {
// CU-NEXT: unsigned ntc_filled = 0;
// CU-NEXT: for (int64_t ntc_program = blockIdx.x; ntc_program < ntc_programs; ntc_program += gridDim.x) {
// CU: const Index pid0 = ntc_band_first + ntc_in_band % ntc_band_rows;
// CU: ntc::dev::dot_loop_produce<3, ntc::dev::float16, 128, 64, 256>(static_cast<Index>(0), static_cast<Index>(ntc::rt::ceil_div<Index>(ntc_lhs_size_1, 64)), ntc::dev::make_tma_operand<2, 1>(ntc_ring0, ntc_maps.m0, {{.*}}, ntc::dev::make_tma_operand<2, 1>(ntc_ring0, ntc_maps.m1, {{.*}}, ntc_smem, ntc_filled);
// CU-NOT: t_accumulator
// CU: return;
// CU: ntc::dev::set_max_registers<232, true>();
// CU-NEXT: unsigned ntc_consumed = 0;
// CU-NEXT: for (int64_t ntc_program = blockIdx.x; ntc_program < ntc_programs; ntc_program += gridDim.x) {
// CU: auto t_accumulator = ntc::dev::full<float, ntc::dev::Shape<128, 256>, ntc::dev::Mma<8, 1>>
// CU: ntc::dev::dot_loop_consume<3, true, ntc::dev::float16, 128, 64, 256, 256>(t_accumulator, static_cast<Index>(0), static_cast<Index>(ntc::rt::ceil_div<Index>(ntc_lhs_size_1, 64)), ntc_ring0, ntc_smem, ntc_consumed);
// CU-NEXT: ntc::dev::tma_store<148480, 128, 1, 2, 256, true, 1>(ntc::dev::cast<ntc::dev::float16>(t_accumulator), ntc_maps.m2, ntc_smem,
// CU-NEXT: {{^  }$}}
// CU-NEXT: ntc::dev::tma_store_drain();
// CU: cudaFuncSetAttribute(ntc_mm_persistent_program0_tma<int32_t>, cudaFuncAttributeMaxDynamicSharedMemorySize, 214016)
// CU: ntc_mm_persistent_program0_tma<int32_t><<<dim3(static_cast<unsigned>(std::min<int64_t>(ntc_grid, ntc::rt::persistent_blocks(lhs->device.device_id)))), dim3(384), 214016,
// The programs without TMA keep one block per program.
// CU: ntc_mm_persistent_program0_vec<int32_t><<<dim3(static_cast<unsigned>(ntc_grid)), dim3(256),

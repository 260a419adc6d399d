// specialize-warps in clusters of two (the knobs cluster=2,persistent=1;
// passes/SpecializeWarps.cpp): use-tensor-maps pairs consecutive programs, two rows of one band
// column, which share the B tile of every step. The persistent blocks launch in clusters of two
// (NTC_DEV_CLUSTER_DIMS), their ring is released by the consumer warps of both blocks (16), each
// producer multicasts its half of B into both blocks' stages (make_tma_operand<2, 1, true>) and,
// after its last copies, drains the other block's releases before exiting (dot_loop_drain). The
// grid is whole clusters (persistent_blocks(device, 2)), launched only when the grid's rows of
// tiles are even.

#include "../../kernels/matmul.hpp"

NT_KERNEL(mm_cluster, mm_arrangement, mm_application, nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16));

// clang-format off
// NTC-ARGS: --cuda-arch 90a --kernel mm_cluster --config BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,warps=8,stages=4,group=8,tma=1,cluster=2,persistent=1

// GIR-LABEL: IR after specialize-warps (ntc_mm_cluster_program0_tma)
// GIR: # tma ring of group 0: 4 stages, 2 arrivals, barriers at 196672, released by 16 warps, the dot loop's operands through maps 0 and 1, in clusters of 2 sharing operand b (multicast)
// GIR-NEXT: # persistent, warp-specialized: 256 consumer threads (232 registers), a producer of 128 (40 registers)

// CU: __global__ void __launch_bounds__(384, 1) NTC_DEV_CLUSTER_DIMS(2, 1, 1) ntc_mm_cluster_program0_tma(
// CU: ntc::dev::tma_ring<4, 2, 16, 2, 256> ntc_ring0{ntc_smem, 196672};
// CU: if (threadIdx.x == 256) {
// CU: ntc::dev::dot_loop_produce<4, ntc::dev::float16, 128, 64, 256>({{.*}}ntc::dev::make_tma_operand<2, 1>(ntc_ring0, ntc_maps.m0, {{.*}}ntc::dev::make_tma_operand<2, 1, true>(ntc_ring0, ntc_maps.m1, {{.*}}, ntc_smem, ntc_filled);
// CU-NEXT: }
// CU-NEXT: ntc::dev::dot_loop_drain<4>(ntc_ring0, ntc_filled);
// CU-NEXT: }
// CU-NEXT: return;
// CU: ntc::dev::dot_loop_consume<4, true, ntc::dev::float16, 128, 64, 256, 256>(
// CU: (ntc::rt::ceil_div<int64_t>(ntc_lhs_size_0, 128)) % 2 == 0 &&
// CU: ntc_mm_cluster_program0_tma<int32_t><<<dim3(static_cast<unsigned>(std::min<int64_t>(ntc_grid, ntc::rt::persistent_blocks(lhs->device.device_id, 2)))), dim3(384), 230400,
// clang-format on

// use-tensor-maps with the knob cluster=2 (passes/UseTensorMaps.cpp): a GEMM main loop by TMA in
// the grouped order (bands of 8 rows) runs in clusters of two programs, numbered one after the
// other: two rows of one column of a band, which read the same tile of rhs at every step. That
// operand is the multicast one: make_tma_operand<..., true> copies each CTA's half of its column
// blocks into both. Every warp of both programs releases each stage (16 releasers), the kernel
// has __cluster_dims__(2, 1, 1) (NTC_DEV_CLUSTER_DIMS: none in an sm_80 pass), and the
// dispatcher launches the program only when the grid's rows of tiles divide into pairs.

#include "../../kernels/matmul.hpp"

NT_KERNEL(mm_cluster, mm_arrangement, mm_application, nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16));

// NTC-ARGS: --cuda-arch 90a --kernel mm_cluster --config BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,warps=8,stages=4,group=8,tma=1,cluster=2

// GIR-LABEL: IR after use-tensor-maps (ntc_mm_cluster_program0_tma
// GIR: # tma ring of group 0: 4 stages, 2 arrivals, barriers at {{[0-9]+}}, released by 16 warps, the dot loop's operands through maps 0 and 1, in clusters of 2 sharing operand b (multicast)

// CU-LABEL: struct ntc_mm_cluster_program0_tma_maps {
// CU: __global__ void __launch_bounds__(256) NTC_DEV_CLUSTER_DIMS(2, 1, 1) ntc_mm_cluster_program0_tma(
// CU: ntc::dev::tma_ring<4, 2, 16, 2> ntc_ring0{ntc_smem, {{[0-9]+}}};
// CU: ntc::dev::make_tma_operand<2, 1>(ntc_ring0, ntc_maps.m0,
// CU: ntc::dev::make_tma_operand<2, 1, true>(ntc_ring0, ntc_maps.m1,
// CU: if (ntc::rt::tma_device(lhs->device.device_id) &&
// CU: (ntc::rt::ceil_div<int64_t>(ntc_lhs_size_0, 128)) % 2 == 0 &&
// CU-NEXT: ntc::rt::encode_tma(lhs,
// CU: ntc_mm_cluster_program0_tma<int32_t><<<

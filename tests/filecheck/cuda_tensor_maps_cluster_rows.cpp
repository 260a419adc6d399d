// cluster=2 needs the grouped order: programs numbered row by row (group=1) are two columns of
// one row, which share no operand tile's copies through TMA in the way use-tensor-maps pairs
// them (rows of a band), so the TMA program runs alone: no cluster, 8 releasing warps, no
// condition on the grid's rows.

#include "../../kernels/matmul.hpp"

NT_KERNEL(mm_rows, mm_arrangement, mm_application, nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16));

// NTC-ARGS: --cuda-arch 90a --kernel mm_rows --config BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,warps=8,stages=4,group=1,tma=1,cluster=2

// GIR-LABEL: IR after use-tensor-maps (ntc_mm_rows_program0_tma
// GIR: # tma ring of group 0: 4 stages, 2 arrivals, barriers at {{[0-9]+}}, released by 8 warps, the dot loop's operands through maps 0 and 1{{$}}

// CU-NOT: NTC_DEV_CLUSTER_DIMS
// CU: ntc::dev::tma_ring<4, 2, 8> ntc_ring0{ntc_smem, {{[0-9]+}}};
// CU-NOT: , true>(ntc_ring0
// CU-NOT: % 2 == 0
// CU: ntc_mm_rows_program0_tma<int32_t><<<

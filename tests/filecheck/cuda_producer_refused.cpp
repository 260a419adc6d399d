// specialize-producer (passes/SpecializeProducer.cpp) leaves a program alone when its consumers
// need the whole block: here the float16 result is stored by TMA, so the released ring keeps its
// last-releaser refills and the block its 256 threads, knob producer=1 notwithstanding.

#include "query_blocks.hpp"
#include "two_products.hpp"

NT_KERNEL(stored_by_tma, query_blocks, two_products,
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64));

// NTC-ARGS: --cuda-arch 90a --kernel stored_by_tma --config stages=2,tma=1,release=1,producer=1

// clang-format off
// GIR-NOT: IR after specialize-producer
// GIR-LABEL: IR after release-stages (ntc_stored_by_tma_program2_tma
// GIR: released by 8 warps, the last one refilling
// GIR-NOT: a producer warpgroup
// GIR: stage_release iteration=i group=0, the last warp refilling:
// GIR: store o[] vector 8 tma map=2
// GIR-NOT: IR after specialize-producer

// CU-LABEL: __global__ void __launch_bounds__(256{{.*}}) ntc_stored_by_tma_program2_tma(
// CU-NEXT: extern __shared__
// CU-NEXT: const ntc::dev::Smem ntc_smem{ntc_smem_buffer};
// CU-NOT: threadIdx.x >= 256
// CU: if (ntc_ring0.release_last(
// clang-format on

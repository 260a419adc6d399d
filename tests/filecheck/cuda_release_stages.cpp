// release-stages (passes/ReleaseStages.cpp, configuration knob release=1): once every copy of a
// pipelined loop goes by TMA, the loop no longer waits for all warps at the top of each iteration before thread 0 refills
// the stage the previous iteration read. Each warp releases the stage after the loop's last
// statement that reads it (here the second product), and the one thread that
// ntc::dev::tma_ring::release_last names (lane 0 of the warp releasing last) refills it with
// the copies of iteration i + S at once; the prologue copies the first S iterations. The ring
// counts the releases (its last template argument), after its S barriers.

#include "two_products.hpp"

NT_KERNEL(released, rows, two_products,
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64));

// NTC-ARGS: --cuda-arch 90a --kernel released --config stages=2,tma=1,release=1

// GIR-LABEL: IR after use-tensor-maps (ntc_released_program2_tma, total
// GIR: # tma ring of group 0: 2 stages, 2 arrivals, barriers at [[BARS:[0-9]+]]
// GIR-NEXT: %acc = full(0)
// GIR-LABEL: IR after release-stages (ntc_released_program2_tma, total
// GIR: # tma ring of group 0: 2 stages, 2 arrivals, barriers at [[BARS]], released by 4 warps, the last one refilling
// GIR: async_copy if 0 < {{.*}}load k[0]{{.*}} tma map=0
// GIR-NEXT: async_copy if 0 < {{.*}}load v[0]{{.*}} tma map=1
// GIR-NEXT: async_commit
// GIR-NEXT: async_copy if 1 < {{.*}}load k[1]{{.*}}iteration 1 from 0{{.*}} tma map=0
// GIR-NEXT: async_copy if 1 < {{.*}}load v[1]{{.*}}iteration 1 from 0{{.*}} tma map=1
// GIR-NEXT: for i in range(0,
// GIR-NEXT: async_wait pending=0 iteration=i group=0
// GIR-NEXT: %s = dot(
// GIR-NEXT: %acc <- dot(
// GIR-NEXT: stage_release iteration=i group=0, the last warp refilling:
// GIR-NEXT: async_copy if i + 2 < {{.*}}load k[i + 2]{{.*}}iteration i + 2 from 0{{.*}} tma map=0
// GIR-NEXT: async_copy if i + 2 < {{.*}}load v[i + 2]{{.*}}iteration i + 2 from 0{{.*}} tma map=1
// GIR-NEXT: store o[]

// The program without TMA keeps its barrier.
// CU-LABEL: ntc_released_program2_vec(
// CU: ntc::dev::async_wait<0>();
// CU-LABEL: ntc_released_program2_tma(const ntc_released_args ntc_args
// CU: ntc::dev::tma_ring<2, 2, 4, 1, 0, true> ntc_ring0{ntc_smem, {{[0-9]+}}};
// CU: ntc_ring0.copy<ntc::dev::float16, 64, 64, 128, 1, 2>(static_cast<int>((1) % 2), ntc_maps.m1,
// CU: for (Index l_i = 0;
// CU-NEXT: ntc_ring0.wait<false>(static_cast<int>((l_i) % 2));
// CU-NOT: ntc::dev::barrier();
// CU: if (ntc_ring0.release_last(static_cast<int>((l_i) % 2))) {
// CU-NEXT: if ((l_i + 2) <
// CU-NEXT: ntc_ring0.refill<ntc::dev::float16, 64, 64, 128, 1, 2>(static_cast<int>(((l_i + 2)) % 2), ntc_maps.m0, ntc_smem, {{.*}}, {static_cast<int>(0), static_cast<int>(((64 * l_i) + 128))}, {{.*}});
// CU-NEXT: if ((l_i + 2) <
// CU-NEXT: ntc_ring0.refill<ntc::dev::float16, 64, 64, 128, 1, 2>(static_cast<int>(((l_i + 2)) % 2), ntc_maps.m1, {{.*}});
// CU-NEXT: }
// CU-NEXT: }

// release-stages (passes/ReleaseStages.cpp, release=1) on a loop that overlap-products rotated
// at level 2 (overlap=2): once the last product of iteration i is complete, no warp reads the
// stage of iteration i again (the first product of iteration i completed in the iteration
// before, or in the prologue), so each warp releases it there and the last one refills it with
// the copies of iteration i + S, both rings' at once. The barrier that guarded the last
// product's ring goes, and so does each wait's; the prologue's copies of iteration b + S - 1
// move before it (after the locals it assigns).

#include "exp2_products.hpp"

NT_KERNEL(released_ahead, rows, product_then_exp2,
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64));

// NTC-ARGS: --cuda-arch 90a --kernel released_ahead --config stages=2,tma=1,overlap=2,release=1

// GIR-LABEL: IR after release-stages (ntc_released_ahead_program2_tma, total
// GIR: # tma ring of group 0: 2 stages, 2 arrivals, barriers at {{[0-9]+}}, released by 4 warps, the last one refilling
// GIR: %s = full(0)
// GIR-NEXT: %p = full(0)
// GIR-NEXT: %ntc_acc_a = full(0)
// GIR-NEXT: async_copy if 1 < {{.*}}load k[1]{{.*}}iteration 1 from 0{{.*}} tma map=0
// GIR-NEXT: async_copy if 1 < {{.*}}load v[1]{{.*}}iteration 1 from 0{{.*}} tma map=1
// GIR-NEXT: if 0 < [[N:.*]]:
// GIR-NEXT: async_wait pending=0 iteration=0 group=0
// GIR-NEXT: %s <- dot(
// GIR-NEXT: %p <- exp2(%s
// GIR-NEXT: %ntc_acc_a <- convert_layout(cast(%p
// GIR-NEXT: for i in range(0, [[N]] - 1, 1):
// GIR-NEXT: async_wait pending=0 iteration=i + 1 group=0
// GIR-NEXT: dot_issue %s
// GIR-NEXT: dot_issue %acc
// GIR-NEXT: dot_wait %s pending=1
// GIR-NEXT: %p <- exp2(%s
// GIR-NEXT: %ntc_acc_a <- convert_layout(cast(%p
// GIR-NEXT: dot_wait %acc
// GIR-NEXT: stage_release iteration=i group=0, the last warp refilling:
// GIR-NEXT: async_copy if i + 2 < {{.*}}load k[i + 2]{{.*}}iteration i + 2 from 0{{.*}} tma map=0
// GIR-NEXT: async_copy if i + 2 < {{.*}}load v[i + 2]{{.*}}iteration i + 2 from 0{{.*}} tma map=1
// GIR-NEXT: if 0 < [[N]]:
// GIR-NEXT: %acc <- dot(

// CU-LABEL: ntc_released_ahead_program2_tma(const ntc_released_ahead_args ntc_args
// CU: ntc::dev::tma_ring<2, 2, 4, 1, 0, true> ntc_ring0{ntc_smem, {{[0-9]+}}};
// CU: for (Index l_i = 0;
// CU-NEXT: ntc_ring0.wait<false>(static_cast<int>(((l_i + 1)) % 2));
// CU-NOT: ntc::dev::barrier();
// CU: ntc::dev::dot_wait(t_acc, t_ntc_acc_in_flight);
// CU-NEXT: if (ntc_ring0.release_last(static_cast<int>((l_i) % 2))) {
// CU-NEXT: if ((l_i + 2) <
// CU-NEXT: ntc_ring0.refill<{{.*}}ntc_maps.m0, {{.*}});
// CU-NEXT: if ((l_i + 2) <
// CU-NEXT: ntc_ring0.refill<{{.*}}ntc_maps.m1, {{.*}});
// CU-NEXT: }
// CU-NEXT: }

// alternate-warpgroups (passes/AlternateWarpgroups.cpp, pingpong=1): in a loop that
// overlap-products rotated at level 2 and release-stages freed of its barriers, the two
// warpgroups of a 128-row program take turns issuing their products: each waits for its turn
// before the first dot_issue and passes it on after the last, so one warpgroup's middle runs
// while the other's products occupy the tensor cores. The last warpgroup passes first (the
// first one goes first) and the first one takes the last turn passed after the loop.

#include "exp2_products.hpp"

NT_ARRANGEMENT auto rows128(nt::Tensor q, nt::Tensor k, nt::Tensor v, nt::Tensor o) {
  auto q_tiled = q.tile({128, -1});
  return nt::arrange(q_tiled, every_block(k, q_tiled), every_block(v, q_tiled), o.tile({128, -1}));
}

NT_KERNEL(turns, rows128, product_then_exp2,
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64));

// NTC-ARGS: --cuda-arch 90a --config stages=2,tma=1,overlap=2,release=1,pingpong=1

// At D = 64 (program 2): 8 warps, two warpgroups.
// GIR-LABEL: IR after alternate-warpgroups (ntc_turns_program2_tma)
// GIR: turn_pass warpgroups=2 warpgroup=1
// GIR-NEXT: for i in range(0, [[N:.*]] - 1, 1):
// GIR-NEXT: async_wait pending=0 iteration=i + 1 group=0
// GIR-NEXT: turn_wait warpgroups=2
// GIR-NEXT: dot_issue %s
// GIR-NEXT: dot_issue %acc
// GIR-NEXT: turn_pass warpgroups=2
// GIR-NEXT: dot_wait %s pending=1
// GIR-NEXT: %p <- exp2(%s
// GIR-NEXT: %ntc_acc_a <- convert_layout(cast(%p
// GIR-NEXT: dot_wait %acc
// GIR-NEXT: stage_release iteration=i group=0, the last warp refilling:
// GIR: turn_wait warpgroups=2 warpgroup=0
// GIR-NEXT: if 0 < [[N]]:
// GIR-NEXT: %acc <- dot(

// The programs without TMA keep their loops as they were (no turns: a barrier each iteration).
// CU-LABEL: ntc_turns_program2(const ntc_turns_args ntc_args
// CU-NOT: turn_
// CU-LABEL: ntc_turns_program2_tma(const ntc_turns_args ntc_args
// CU: ntc::dev::turn_pass<2>(1);
// CU-NEXT: for (Index l_i = 0;
// CU-NEXT: ntc_ring0.wait<false>(
// CU-NEXT: ntc::dev::turn_wait<2>();
// CU-NEXT: ntc::dev::dot_issue(t_s,
// CU-NEXT: auto t_ntc_acc_in_flight = ntc::dev::dot_issue(t_acc,
// CU-NEXT: ntc::dev::turn_pass<2>();
// CU-NEXT: ntc::dev::dot_wait<1>(t_s);
// CU-NOT: ntc::dev::barrier();
// CU: ntc::dev::turn_wait<2>(0);
// CU-NEXT: if (0 < ntc::rt::ceil_div<Index>(ntc_k_size_0, 64)) {
// CU-NEXT: t_acc = ntc::dev::dot<float>(

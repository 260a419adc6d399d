// take-turns (passes/TakeTurns.cpp) over a loop that overlap-products rotated at level 2
// (knobs overlap=2,release=1,turns=1): each iteration issues the next first product and the
// current last one back to back, left in flight (dot_issue), and the two take one turn, as in
// FlashAttention-3's consumers: the first opens it (ntc::dev::turn<2, true, false>), the last
// closes it (turn<2, false, true>); the middle then runs under the other warpgroup's products.
// The products before and after the loop (the first iteration's head, the last one's product)
// take no turn.

#include "exp2_products.hpp"
#include "query_blocks.hpp"

NT_KERNEL(ahead, query_blocks, product_then_exp2,
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64));

// NTC-ARGS: --cuda-arch 90a --kernel ahead --config stages=2,tma=1,release=1,overlap=2,turns=1

// clang-format off
// GIR-LABEL: IR after take-turns (ntc_ahead_program2_tma)
// GIR: # turns through barriers from 2
// GIR-NOT: # turns
// GIR: async_wait pending=0 iteration=0 group=0
// GIR-NEXT: %s <- dot({{.*}}shared_stage(iteration 0 from 0){{.*}}stages=2x8192B>) : float32[128, 64] #mma<8x1>
// GIR: for i in range(0, ⌈k_size_0/64⌉ - 1, 1):
// GIR-NEXT: async_wait pending=0 iteration=i + 1 group=0
// GIR-NEXT: dot_issue %s <- dot({{.*}}, turn=2 open) : float32[128, 64] #mma<8x1>
// GIR-NEXT: dot_issue %acc <- dot({{.*}}, turn=2 continued) : float32[128, 64] #mma<8x1>
// GIR-NEXT: dot_wait %s pending=1
// GIR: dot_wait %acc
// GIR-NEXT: stage_release iteration=i group=0
// GIR: %acc <- dot(
// GIR-NOT: turn=
// GIR: store o[]

// CU-LABEL: ntc_ahead_program2_tma(const ntc_ahead_args ntc_args
// CU: ntc::dev::turns_begin<2, 2>();
// CU-NOT: ntc::dev::turn<
// CU: for (Index l_i = 0;
// CU-NEXT: ntc_ring0.wait<false>(
// CU-NEXT: ntc::dev::dot_issue(t_s, {{.*}}, ntc::dev::living_operand{}, ntc::dev::turn<2, true, false>{});
// CU-NEXT: auto t_ntc_acc_in_flight = ntc::dev::dot_issue(t_acc, {{.*}}, ntc::dev::dying_operand{}, ntc::dev::turn<2, false, true>{});
// CU-NEXT: ntc::dev::dot_wait<1>(t_s);
// CU-NOT: ntc::dev::turn<
// CU: ntc::dev::turns_end<2, 2>();
// CU-NEXT: }
// clang-format on

// take-turns (passes/TakeTurns.cpp, configuration knob turns=1): in the TMA program of 128-row
// blocks (two warpgroups) the two products at the top level of the ring's loop are issued by
// the warpgroups in turn, each product through named barriers of its own (2 and 3 for the
// scores, 4 and 5 for the accumulation); the program gives warpgroup 0 each first turn before
// its body and takes back each last one after it. The programs without TMA are left alone
// (cuda_take_turns_refused.cpp: a block of one warpgroup; cuda_take_turns_released.cpp: a ring
// whose stages are released instead of a barrier).

#include "query_blocks.hpp"
#include "two_products.hpp"

NT_KERNEL(turned, query_blocks, two_products,
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64));

// NTC-ARGS: --cuda-arch 90a --kernel turned --config stages=2,tma=1,turns=1

// clang-format off
// GIR-LABEL: IR after take-turns (ntc_turned_program2_tma)
// GIR: # turns through barriers from 2
// GIR-NEXT: # turns through barriers from 4
// GIR: for i in range(0,
// GIR-NEXT: async_wait pending=0 iteration=i group=0
// GIR: %s = dot({{.*}}, turn=2) : float32[128, 64] #mma<8x1>
// GIR-NEXT: %acc <- dot({{.*}}, a_dies, turn=4) : float32[128, 64] #mma<8x1>
// GIR-NEXT: store o[]

// CU-LABEL: ntc_turned_program2_vec(
// CU-NOT: ntc::dev::turn<
// CU-LABEL: ntc_turned_program2_tma(const ntc_turned_args ntc_args
// CU: ntc::dev::turns_begin<2, 2>();
// CU-NEXT: ntc::dev::turns_begin<4, 2>();
// CU: for (Index l_i = 0;
// CU-NEXT: ntc_ring0.wait<false>(static_cast<int>((l_i) % 2));
// CU-NEXT: ntc::dev::barrier();
// CU: auto t_s = ntc::dev::dot<float>(
// CU: ntc_smem, ntc::dev::living_operand{}, ntc::dev::turn<2>{});
// CU-NEXT: t_acc = ntc::dev::dot<float>({{.*}}, ntc_smem, ntc::dev::dying_operand{}, ntc::dev::turn<4>{});
// CU-NEXT: }
// CU-NOT: ntc::dev::turn<
// CU: ntc::dev::tma_store<
// CU: ntc::dev::turns_end<2, 2>();
// CU-NEXT: ntc::dev::turns_end<4, 2>();
// CU-NEXT: }

// clang-format on

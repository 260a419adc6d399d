// take-turns (passes/TakeTurns.cpp) with release-stages (knobs release=1,turns=1): the ring's
// loop starts its iterations with no barrier of the program (each warp releases the stages it
// read, the last one refilling them), and its products still take turns: the turns go round
// (warpgroup 0 waits for the last warpgroup's previous turn), so no warpgroup gets a turn ahead
// of another and the loop needs no barrier to keep them in step.

#include "query_blocks.hpp"
#include "two_products.hpp"

NT_KERNEL(turned, query_blocks, two_products,
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64));

// NTC-ARGS: --cuda-arch 90a --kernel turned --config stages=2,tma=1,release=1,turns=1

// clang-format off
// GIR-LABEL: IR after take-turns (ntc_turned_program2_tma)
// GIR: released by 8 warps, the last one refilling
// GIR-NEXT: # turns through barriers from 2
// GIR-NEXT: # turns through barriers from 4
// GIR: for i in range(0,
// GIR-NEXT: async_wait pending=0 iteration=i group=0
// GIR-NEXT: %s = dot({{.*}}, turn=2) : float32[128, 64] #mma<8x1>
// GIR-NEXT: %acc <- dot({{.*}}, a_dies, turn=4) : float32[128, 64] #mma<8x1>
// GIR-NEXT: stage_release iteration=i group=0, the last warp refilling:

// CU-LABEL: ntc_turned_program2_tma(const ntc_turned_args ntc_args
// CU: ntc::dev::turns_begin<2, 2>();
// CU-NEXT: ntc::dev::turns_begin<4, 2>();
// CU: for (Index l_i = 0;
// CU-NEXT: ntc_ring0.wait<false>(static_cast<int>((l_i) % 2));
// CU-NOT: ntc::dev::barrier();
// CU: auto t_s = ntc::dev::dot<float>(
// CU: ntc_smem, ntc::dev::living_operand{}, ntc::dev::turn<2>{});
// CU-NEXT: t_acc = ntc::dev::dot<float>({{.*}}, ntc_smem, ntc::dev::dying_operand{}, ntc::dev::turn<4>{});
// CU-NEXT: if (ntc_ring0.release_last(
// CU: ntc::dev::turns_end<2, 2>();
// CU-NEXT: ntc::dev::turns_end<4, 2>();
// CU-NEXT: }
// clang-format on

// choose-min-blocks (passes/ChooseMinBlocks.cpp) on attention's 128×64 step at head dimension
// 128: the loop carries 66 registers per thread (the 128×128 float accumulator and two row
// statistics) and defines 32-register locals (the scores and probabilities of a step). Twice the
// carried tiles (132) exceeds the 128 registers of two programs per SM; carried plus the largest
// local plus 24 scalars (122) fits, so the TMA program asks for two. The programs whose threads
// issue the copies themselves keep 40 registers for addresses and masks (138): no request, as
// ptxas spills them under the cap.

#include "online_softmax.hpp"
#include "query_blocks.hpp"

NT_KERNEL(step, query_blocks, online_softmax,
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 128),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 128),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 128),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 128));

// NTC-ARGS: --cuda-arch 90a --config stages=2,tma=1

// clang-format off
// CU-LABEL: // step with NP2_128=128; 256 threads
// CU-NEXT: template <class Index>
// CU-NEXT: __global__ void __launch_bounds__(256) ntc_step_program{{[0-9]+}}(
// CU: // step with NP2_128=128; 256 threads{{.*}}; vector accesses
// CU-NEXT: template <class Index>
// CU-NEXT: __global__ void __launch_bounds__(256) ntc_step_program{{[0-9]+}}_vec(
// CU: // step with NP2_128=128; 256 threads{{.*}}; pipelined copies by TMA
// CU: template <class Index>
// CU-NEXT: __global__ void __launch_bounds__(256, sizeof(Index) == 4 ? 2 : 1) ntc_step_program{{[0-9]+}}_tma(
// clang-format on

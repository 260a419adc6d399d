// Compile-only check of the named barriers that turned products claim (take-turns): a program of
// two warpgroups whose products take turns through barriers 2-3 and 4-5, as generated attention
// with `turns=1` runs them. check_turn_barriers.cmake compiles it for sm_90a with `-Xptxas -v`
// and requires ptxas to report at most MAX_BARRIERS barriers. With the barrier's number in a
// register (the thirty-sixth session's turns) ptxas cannot tell which ones a program uses and
// reports all 16 for every turned kernel.
#include <ntc/device/device.cuh>

namespace dev = ntc::dev;

namespace {
constexpr int kWarpgroups = 2;
} // namespace

/// Two turns per round, each a wait for the warpgroup's turn and a pass to the next one, over
/// `rounds` rounds; each warpgroup counts its turns into out.
__global__ void __launch_bounds__(128 * kWarpgroups) turned_rounds(int rounds, int *out) {
  dev::turns_begin<2, kWarpgroups>();
  dev::turns_begin<4, kWarpgroups>();
  int turns = 0;
  for (int r = 0; r < rounds; ++r) {
    dev::detail::turn_wait<dev::turn<2>, kWarpgroups>();
    ++turns;
    dev::detail::turn_pass<dev::turn<2>, kWarpgroups>();
    dev::detail::turn_wait<dev::turn<4, true, false>, kWarpgroups>();
    ++turns;
    dev::detail::turn_pass<dev::turn<4, false, true>, kWarpgroups>();
  }
  dev::turns_end<2, kWarpgroups>();
  dev::turns_end<4, kWarpgroups>();
  if (threadIdx.x % 128 == 0)
    out[threadIdx.x / 128] = turns;
}

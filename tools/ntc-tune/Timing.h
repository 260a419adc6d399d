//===- Timing.h - timing the candidates that passed the check -------------===//
#ifndef NTC_TUNE_TIMING_H
#define NTC_TUNE_TIMING_H

#include "Device.h"
#include "Harness.h"
#include "Library.h"

#include <string>
#include <vector>

namespace ntc::tune {

/// How long to time.
struct TimingOptions {
  int rounds = 0;             ///< timed rounds (CPU) or replays (CUDA); 0: automatic
  double secondsPerShape = 2; ///< CPU, automatic rounds: about this long for all candidates
};

/// A candidate's time.
struct TimingResult {
  double microseconds = -1; ///< median time of one call; negative when it failed
  std::string error;        ///< why it failed
};

/// How many argument sets to rotate over so that their tensors (each set `setBytes`) do not
/// stay in the last-level cache: 2× the CPU's LLC, 3× the GPU's L2, within a memory budget;
/// at least 2.
int rotatingSets(Device &device, size_t setBytes);

/// Times every library on `sets` (rotating; the arguments are valid for all of them),
/// interleaved: round-robin over the candidates, the median of each. CPU: steady_clock around
/// each call after a warm-up. CUDA: each candidate's ~20 calls over the sets captured in a CUDA
/// graph, replayed after a warm-up and timed with events, 15 replays (or direct launches when
/// a capture fails).
std::vector<TimingResult> timeCandidates(Device &device, const std::vector<const Library *> &libs,
                                         const std::vector<ArgSet *> &sets,
                                         const TimingOptions &options);

} // namespace ntc::tune

#endif // NTC_TUNE_TIMING_H

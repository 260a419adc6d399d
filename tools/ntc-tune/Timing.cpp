//===- Timing.cpp - timing the candidates that passed the check -----------===//
#include "Timing.h"

#include "Cuda.h"
#include "Interrupt.h"
#include "Util.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace ntc::tune {

namespace {

using Clock = std::chrono::steady_clock;

/// Calls per CUDA graph (and per timed batch without one).
constexpr int kCallsPerGraph = 20;
/// Replays of each graph that are timed.
constexpr int kReplays = 15;

double median(std::vector<double> values) {
  if (values.empty())
    return -1;
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

std::vector<TimingResult> timeOnHost(Device &device, const std::vector<const Library *> &libs,
                                     const std::vector<ArgSet *> &sets,
                                     const TimingOptions &options) {
  size_t n = libs.size();
  std::vector<TimingResult> results(n);
  std::vector<std::vector<double>> samples(n);
  size_t next = 0; // the set the next call uses
  auto timedCall = [&](size_t c) -> double {
    ArgSet &set = *sets[next++ % sets.size()];
    std::string error;
    Clock::time_point start = Clock::now();
    ntc_status_t status = libs[c]->call(set.args(), device.stream(), error);
    double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (status != NTC_SUCCESS) {
      results[c].error = "failed while timed: " + error;
      return -1;
    }
    return seconds;
  };
  // Warm-up: two calls each; the second estimates the time of a call.
  double roundSeconds = 0;
  for (size_t c = 0; c < n; ++c) {
    checkInterrupted();
    double estimate = 0;
    for (int i = 0; i < 2 && results[c].error.empty(); ++i)
      estimate = timedCall(c);
    if (results[c].error.empty())
      roundSeconds += estimate;
  }
  int rounds = options.rounds;
  if (rounds <= 0) {
    double wanted = roundSeconds > 0 ? options.secondsPerShape / roundSeconds : 31;
    rounds = static_cast<int>(std::clamp(wanted, 5.0, 31.0));
  }
  for (int round = 0; round < rounds; ++round) {
    checkInterrupted();
    // Start each round at another candidate so that none always follows the same one.
    for (size_t k = 0; k < n; ++k) {
      size_t c = (k + static_cast<size_t>(round)) % n;
      if (!results[c].error.empty())
        continue;
      double seconds = timedCall(c);
      if (seconds >= 0)
        samples[c].push_back(seconds * 1e6);
    }
  }
  for (size_t c = 0; c < n; ++c)
    if (results[c].error.empty())
      results[c].microseconds = median(samples[c]);
  return results;
}

std::vector<TimingResult> timeOnGpu(CudaDevice &gpu, const std::vector<const Library *> &libs,
                                    const std::vector<ArgSet *> &sets,
                                    const TimingOptions &options) {
  size_t n = libs.size();
  std::vector<TimingResult> results(n);
  int calls = std::max(kCallsPerGraph, static_cast<int>(sets.size()));
  // Queues `calls` calls of candidate c over the rotating sets; false (with the error) if one
  // fails.
  auto enqueue = [&](size_t c, std::string &error) {
    for (int i = 0; i < calls; ++i) {
      const ArgSet &set = *sets[static_cast<size_t>(i) % sets.size()];
      if (libs[c]->call(set.args(), gpu.stream(), error) != NTC_SUCCESS)
        return false;
    }
    return true;
  };
  std::vector<CudaDevice::Graph> graphs(n, nullptr);
  for (size_t c = 0; c < n; ++c) {
    checkInterrupted();
    std::string error;
    gpu.beginCapture();
    bool ok = enqueue(c, error);
    if (ok) {
      try {
        graphs[c] = gpu.endCapture();
      } catch (const Error &e) {
        error = e.what();
        ok = false;
      }
    } else {
      gpu.abortCapture();
    }
    if (!ok) {
      // Not capturable (or failed): launched directly instead.
      std::string direct;
      if (!enqueue(c, direct))
        results[c].error = "failed while timed: " + direct;
      gpu.synchronize();
    }
  }
  auto batch = [&](size_t c) {
    if (graphs[c]) {
      gpu.launch(graphs[c]);
      return;
    }
    std::string error;
    if (!enqueue(c, error))
      throw Error("failed while timed: " + error);
  };
  // Warm-up.
  for (int i = 0; i < 3; ++i)
    for (size_t c = 0; c < n; ++c)
      if (results[c].error.empty())
        batch(c);
  gpu.synchronize();
  int replays = options.rounds > 0 ? options.rounds : kReplays;
  std::vector<CudaDevice::Event> starts(n), ends(n);
  for (size_t c = 0; c < n; ++c) {
    starts[c] = gpu.createEvent();
    ends[c] = gpu.createEvent();
  }
  std::vector<std::vector<double>> samples(n);
  for (int replay = 0; replay < replays; ++replay) {
    checkInterrupted();
    for (size_t k = 0; k < n; ++k) {
      size_t c = (k + static_cast<size_t>(replay)) % n;
      if (!results[c].error.empty())
        continue;
      gpu.record(starts[c]);
      try {
        batch(c);
      } catch (const Error &e) {
        results[c].error = e.what();
      }
      gpu.record(ends[c]);
    }
    for (size_t c = 0; c < n; ++c)
      if (results[c].error.empty())
        samples[c].push_back(gpu.elapsedMs(starts[c], ends[c]) * 1000.0 / calls);
  }
  for (size_t c = 0; c < n; ++c) {
    if (results[c].error.empty())
      results[c].microseconds = median(samples[c]);
    gpu.destroy(graphs[c]);
    gpu.destroyEvent(starts[c]);
    gpu.destroyEvent(ends[c]);
  }
  return results;
}

} // namespace

int rotatingSets(Device &device, size_t setBytes) {
  size_t cache = device.cacheBytes();
  size_t factor = device.isCuda() ? 3 : 2;
  size_t budget = size_t(1) << 30; // at most 1 GiB of copies
  if (device.isCuda())
    budget = std::min<size_t>(budget << 2, static_cast<CudaDevice &>(device).freeBytes() / 4);
  if (setBytes == 0)
    return 2;
  size_t wanted = (cache * factor + setBytes - 1) / setBytes;
  size_t affordable = std::max<size_t>(budget / setBytes, 2);
  return static_cast<int>(std::clamp<size_t>(std::min(wanted, affordable), 2, 64));
}

std::vector<TimingResult> timeCandidates(Device &device, const std::vector<const Library *> &libs,
                                         const std::vector<ArgSet *> &sets,
                                         const TimingOptions &options) {
  if (device.isCuda())
    return timeOnGpu(static_cast<CudaDevice &>(device), libs, sets, options);
  return timeOnHost(device, libs, sets, options);
}

} // namespace ntc::tune

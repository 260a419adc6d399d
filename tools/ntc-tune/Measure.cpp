//===- Measure.cpp - steps 3 and 4: check, time, write the table ----------===//
#include "Cuda.h"
#include "Dtype.h"
#include "Harness.h"
#include "Interrupt.h"
#include "Steps.h"
#include "Table.h"
#include "Timing.h"
#include "Tuning.h"
#include "Util.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <numeric>
#include <set>

namespace ntc::tune {

namespace {

/// The seed of every shape's random data.
constexpr uint64_t kSeed = 20261202;

/// What the summary says about one shape.
struct Outcome {
  std::string shape;
  std::string winner;
  double winnerUs = 0;
  double defaultUs = 0;
};

/// Measures one shape: checks every candidate against the default, times the survivors.
TableEntry measureShape(Context &ctx, Device &device, const ShapeLine &line) {
  std::vector<Candidate> &candidates = ctx.candidates[line.kernel];
  const Library &base = *candidates.front().library;
  const ntc_kernel_info_t &info = base.info();
  ShapeCall call = resolveShape(line, info);

  TableEntry entry;
  entry.kernel = line.kernel;
  entry.hash = ctx.manifest.kernel(line.kernel)->hash;
  entry.target = ctx.manifest.target;
  entry.arch = device.arch();
  entry.rejected = ctx.rejected[line.kernel];
  for (int32_t i = 0; i < info.num_params; ++i) {
    const ntc_param_info_t &p = info.params[i];
    if (p.kind == NTC_PARAM_TENSOR) {
      entry.dtypes.emplace_back(p.name, dtypeName(p.dtype));
      entry.shape.emplace_back(p.name, call.sizes[static_cast<size_t>(i)]);
    } else {
      const ScalarValue &v = call.scalars[static_cast<size_t>(i)];
      NumberKind kind = numberKind(p.dtype);
      entry.scalars.emplace_back(p.name, kind == NumberKind::Float ? Json::number(v.value)
                                                                   : Json::integer(v.integer));
    }
  }

  // The default's outputs, then every candidate's against them, each into fresh poison.
  HostTensors data = makeHostTensors(info, call, kSeed);
  ArgSet first(device, info, call);
  first.upload(data);
  entry.alignment = alignmentClass(first.tensors());
  std::string error;
  if (base.call(first.args(), device.stream(), error) != NTC_SUCCESS)
    throw Error::at(line.origin, "the default configuration fails: " + error);
  HostTensors expected = first.downloadOutputs();
  std::vector<const Library *> survivors = {&base};
  std::vector<const ConfigEntry *> survivorConfigs = {candidates.front().config};
  for (size_t c = 1; c < candidates.size(); ++c) {
    checkInterrupted();
    const Candidate &candidate = candidates[c];
    ctx.progress.working(line.kernel + " check " + candidate.config->id);
    first.uploadOutputs(data);
    std::string reason;
    if (candidate.library->call(first.args(), device.stream(), error) != NTC_SUCCESS)
      reason = "fails: " + error;
    else
      reason = compareOutputs(info, call, expected, first.downloadOutputs());
    if (!reason.empty()) {
      ctx.progress.note("ntc-tune: " + line.origin + ": " + candidate.config->id +
                        " rejected: " + reason);
      entry.rejected.emplace_back(candidate.config->id, reason);
      continue;
    }
    survivors.push_back(candidate.library.get());
    survivorConfigs.push_back(candidate.config);
  }

  // Rotating copies of the arguments, then the timing.
  ctx.progress.working(line.kernel + " timing " + std::to_string(survivors.size()) +
                       " configurations");
  int count = rotatingSets(device, first.bytes());
  std::vector<std::unique_ptr<ArgSet>> copies;
  std::vector<ArgSet *> sets = {&first};
  first.upload(data);
  for (int i = 1; i < count; ++i) {
    copies.push_back(std::make_unique<ArgSet>(device, info, call));
    copies.back()->upload(data);
    sets.push_back(copies.back().get());
  }
  TimingOptions timing;
  timing.rounds = ctx.options.rounds;
  std::vector<TimingResult> times = timeCandidates(device, survivors, sets, timing);
  device.synchronize();
  if (times[0].microseconds < 0)
    throw Error::at(line.origin, "the default configuration fails while timed: " + times[0].error);
  entry.defaultConfig = {survivorConfigs[0]->id, times[0].microseconds};
  for (size_t c = 0; c < survivors.size(); ++c) {
    if (times[c].microseconds < 0) {
      entry.rejected.emplace_back(survivorConfigs[c]->id, times[c].error);
      continue;
    }
    entry.candidates.push_back({survivorConfigs[c]->id, times[c].microseconds});
  }
  // Fastest first; equal times keep the order measured (the default first). std::sort on the
  // positions, as std::stable_sort's temporary buffer is deprecated in newer libstdc++.
  std::vector<size_t> order(entry.candidates.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const double ta = entry.candidates[a].timeUs, tb = entry.candidates[b].timeUs;
    return ta < tb || (ta == tb && a < b);
  });
  std::vector<TimedConfig> ranked;
  for (size_t i : order)
    ranked.push_back(entry.candidates[i]);
  entry.candidates = std::move(ranked);
  entry.best = entry.candidates.front();
  return entry;
}

std::string formatUs(double us) {
  char buf[32];
  std::snprintf(buf, sizeof buf, us < 100 ? "%.2f us" : "%.1f us", us);
  return buf;
}

} // namespace

void openDevice(Context &ctx) {
  if (ctx.manifest.target == "cuda")
    ctx.device = makeCudaDevice(findNvcc(ctx.options));
  else
    ctx.device = makeHostDevice();
}

int measureStep(Context &ctx, const std::vector<ShapeLine> &shapes) {
  const Options &o = ctx.options;
  Device *device = ctx.device.get();
  Json table = exists(o.output) ? readTable(o.output) : emptyTable();
  Provenance provenance;
  provenance.ntcVersion = ctx.manifest.ntcVersion;
  provenance.device = device->name();
  provenance.driver = device->driverVersion();
  provenance.runtime = device->runtimeVersion();
  provenance.host = hostName();

  int status = 0;
  std::vector<Outcome> outcomes;
  std::vector<std::pair<Json, std::string>> written; // this run's entries and their shapes
  ctx.progress.start("measure", shapes.size());
  for (const ShapeLine &line : shapes) {
    checkInterrupted();
    ctx.progress.working(line.text);
    auto start = std::chrono::steady_clock::now();
    TableEntry entry;
    try {
      entry = measureShape(ctx, *device, line);
    } catch (const Error &e) {
      ctx.progress.note(e.located() ? e.what() : line.origin + ": error: " + e.what());
      ctx.progress.done(line.text, "failed");
      status = kUserError;
      continue;
    }
    entry.provenance = provenance;
    entry.provenance.date = utcNow();
    Json json = entryToJson(entry);
    for (const auto &[earlier, text] : written)
      if (sameKey(earlier, json))
        ctx.progress.note("ntc-tune: " + line.origin + ": same table key (kernel, dtypes, " +
                          "alignment, buckets) as '" + text + "': the table keeps this one");
    written.emplace_back(json, line.text);
    putEntry(table, json);
    writeFileAtomic(o.output, table.write() + "\n");
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ctx.progress.done(line.text, entry.best.config + " " + formatUs(entry.best.timeUs), seconds);
    outcomes.push_back(
        {line.text, entry.best.config, entry.best.timeUs, entry.defaultConfig.timeUs});
  }
  ctx.progress.finish();

  // Entries of these kernels measured from another version of their source.
  for (const KernelEntry &k : ctx.manifest.kernels) {
    size_t stale = 0;
    for (const Json &e : table.find("entries")->items()) {
      const Json *kernel = e.find("kernel");
      const Json *hash = e.find("hash");
      if (kernel && kernel->asString() == k.name && hash && hash->asString() != k.hash)
        ++stale;
    }
    if (stale)
      std::fprintf(stderr,
                   "ntc-tune: warning: %s keeps %zu entries of kernel %s with another hash "
                   "(measured on another version of the kernel)\n",
                   o.output.c_str(), stale, k.name.c_str());
  }

  std::printf("ntc-tune: %s: %zu of %zu shapes measured\n", o.output.c_str(), outcomes.size(),
              shapes.size());
  for (const Outcome &out : outcomes)
    std::printf("  %s\n    winner %s: %s; default %s; speedup %.2fx\n", out.shape.c_str(),
                out.winner.c_str(), formatUs(out.winnerUs).c_str(), formatUs(out.defaultUs).c_str(),
                out.winnerUs > 0 ? out.defaultUs / out.winnerUs : 1.0);
  std::fflush(stdout);
  return status;
}

} // namespace ntc::tune

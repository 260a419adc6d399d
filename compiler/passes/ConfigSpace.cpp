//===- ConfigSpace.cpp - the configurations a tuner may try ---------------===//
//
// A configuration fixes the meta-parameters and, on the GPU, the launch knobs the planner
// otherwise chooses: warps per program (GEMM loops, reductions), shared-memory stages, the
// grouped order's band, whether a pipelined loop's last product stays in flight
// (overlap-products), whether copies go by TMA (use-tensor-maps, sm_90a), whether its
// stages are then released to the last warp that reads them (release-stages) and how float
// maximum/minimum compile (select-min-max). The space a tuner
// searches is the allowed meta-parameter values crossed with a few values of each knob that
// applies, pruned by what the passes can tell without compiling: a configuration whose GEMM loop
// falls off the tensor-core path, holds too few or too many accumulators per thread, or needs
// more shared memory than an architecture gives a block is never compiled. A tuning table's
// configuration is planned for the architectures it was measured on alone (Config::archs).
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include <ntc/device/layout.cuh>

#include <algorithm>
#include <functional>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace ntc::passes {

namespace {

/// Warps per program tried for kernels with GEMM main loops.
constexpr int kGemmWarps[] = {4, 8};
/// Ring stages tried for GEMM main loops.
constexpr int kGemmStages[] = {3, 4, 6};
/// Bands of the grouped program order tried for GEMM grids (1: row order).
constexpr int64_t kGemmBands[] = {1, 8, 16};
/// Ring stages tried for other loops whose loads are pipelined (attention's).
constexpr int kRingStages[] = {2, 3, 4};
/// Warps per program tried for kernels that reduce tiles without multiplying them (row-wise
/// softmax, norms): one warp keeps a reduction in shuffles, more warps put more loads in flight.
constexpr int kReductionWarps[] = {1, 2, 4, 8};
/// Accumulator elements per thread a GEMM main loop may hold: fewer wastes warps on copies,
/// more spills (128 float registers of the 255 a thread has).
constexpr int64_t kMinAccumulators = 32, kMaxAccumulators = 128;

/// The id of a configuration that fixes nothing (a kernel without meta-parameters or knobs).
constexpr const char *kNoChoices = "none";

bool isPowerOfTwo(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

/// True when the function takes an elementwise maximum or minimum of floats (knob minmax).
bool holdsFloatMinMax(const kir::Function &f) {
  bool found = false;
  kir::forEachValue(f.body, [&](const kir::Value &v) { found = found || isFloatMinMax(v); });
  return found;
}

/// True when the laid-out function holds a statement that `matches`.
bool holdsStatement(const kir::Function &laidOut,
                    const std::function<bool(const kir::Stmt &)> &matches) {
  bool found = false;
  kir::forEachStmt(laidOut.body, [&](const kir::Stmt &s) {
    found = found || matches(s);
    return !found;
  });
  return found;
}

/// True when the laid-out function holds a statement of `kind`: an async_copy when some loop
/// copies its loads ahead (pipeline-loads), a dot_issue when overlap-products rotated a loop.
bool holdsStatement(const kir::Function &laidOut, kir::StmtKind kind) {
  return holdsStatement(laidOut, [&](const kir::Stmt &s) { return s->kind == kind; });
}

/// True when overlap-products issued a product ahead of another in `laidOut` (a wait that
/// leaves products in flight).
bool issuesAhead(const kir::Function &laidOut) {
  return holdsStatement(laidOut, [](const kir::Stmt &s) {
    return s->kind == kir::StmtKind::DotWait && s->begin.constValue() > 0;
  });
}

/// The GPU passes up to allocate-shared for a specialized function, as the CUDA backend runs
/// them (pipelined and laid out; the element-by-element twin needs no more shared memory).
SharedPlan layOut(const kir::Function &specialized, int threads, const GpuTarget &gpu) {
  kir::Function laid = fuseDotAccumulate(assignLayouts(specialized, threads, gpu));
  return allocateShared(
      overlapProducts(keepOperandsResident(swizzleShared(pipelineLoads(laid, gpu)), gpu), gpu),
      threads, gpu);
}

/// The static resource model: whether `config` compiles to a program worth timing.
bool worthCompiling(const kir::Function &specialized, const GpuTarget &gpu, bool gemm) {
  const int threads = blockThreads(specialized, gpu);
  const std::vector<DotLoop> loops = gemmLoops(specialized, threads, gpu);
  if (gemm && loops.empty())
    return false; // off the tensor-core path
  for (const DotLoop &loop : loops) {
    const int64_t perThread = loop.bm * loop.bn / threads;
    if (perThread < kMinAccumulators || perThread > kMaxAccumulators)
      return false;
  }
  return layOut(specialized, threads, gpu).totalBytes <= gpu.sharedPerBlock();
}

} // namespace

std::optional<int64_t> largestVariantSharedBytes(const kir::Function &f,
                                                 const std::map<std::string, int64_t> &metas,
                                                 const GpuTarget &gpu) {
  std::map<std::string, int64_t> values = probeValues(f, metas);
  for (const kir::PaddedExtent &p : f.padded)
    values[p.symbol] = p.pinned.value_or(p.upperBound);
  try {
    const kir::Function specialized = specialize(f, values);
    return layOut(specialized, blockThreads(specialized, gpu), gpu).totalBytes;
  } catch (const std::exception &) {
    return std::nullopt;
  }
}

std::vector<DotLoop> gemmLoops(const kir::Function &specialized, int threads,
                               const GpuTarget &gpu) {
  std::vector<DotLoop> loops;
  kir::forEachStmt(specialized.body, [&](const kir::Stmt &s) {
    if (auto loop = planDotLoop(s, threads, gpu))
      loops.push_back(*loop);
    return true;
  });
  return loops;
}

std::string configId(const KernelSpec &spec, const Config &config) {
  std::string id;
  auto add = [&](const std::string &name, int64_t value) {
    id += (id.empty() ? "" : ",") + name + "=" + std::to_string(value);
  };
  for (const MetaParam &m : spec.metas)
    if (auto it = config.metas.find(m.name); it != config.metas.end())
      add(m.name, it->second);
  if (config.knobs.threads > 0)
    add("warps", config.knobs.threads / 32);
  if (config.knobs.stages > 0)
    add("stages", config.knobs.stages);
  if (config.knobs.bandRows > 0)
    add("group", config.knobs.bandRows);
  if (config.knobs.overlap > 0)
    add("overlap", config.knobs.overlap);
  if (config.knobs.tma > 0)
    add("tma", config.knobs.tma);
  if (config.knobs.cluster > 1)
    add("cluster", config.knobs.cluster);
  if (config.knobs.persistent > 0)
    add("persistent", config.knobs.persistent);
  if (config.knobs.release > 0)
    add("release", config.knobs.release);
  if (config.knobs.minmax > 0)
    add("minmax", config.knobs.minmax);
  if (config.knobs.turns > 0)
    add("turns", config.knobs.turns);
  if (config.knobs.producer > 0)
    add("producer", config.knobs.producer);
  return id.empty() ? std::string(kNoChoices) : id;
}

Config parseConfigId(const KernelSpec &spec, const std::string &id) {
  Config config;
  std::stringstream items(id == kNoChoices ? std::string() : id);
  std::string item;
  while (std::getline(items, item, ',')) {
    const size_t eq = item.find('=');
    const std::string name = item.substr(0, eq);
    int64_t value = 0;
    size_t used = 0;
    try {
      if (eq != std::string::npos)
        value = std::stoll(item.substr(eq + 1), &used);
    } catch (const std::exception &) {
      used = 0;
    }
    if (eq == std::string::npos || used == 0 || used != item.size() - eq - 1)
      throw std::invalid_argument("'" + item + "' is not NAME=INTEGER");
    const MetaParam *meta = nullptr;
    for (const MetaParam &m : spec.metas)
      meta = m.name == name ? &m : meta;
    if (meta) {
      if (value < meta->lo || value > meta->hi || !isPowerOfTwo(value))
        throw std::invalid_argument(name + "=" + std::to_string(value) +
                                    " is not a power of two in [" + std::to_string(meta->lo) +
                                    ", " + std::to_string(meta->hi) + "]");
      config.metas[name] = value;
    } else if (name == "warps" && value >= 1 && value <= 32) {
      config.knobs.threads = static_cast<int>(value) * 32;
    } else if (name == "stages" && value >= 2 && value <= 16) {
      config.knobs.stages = static_cast<int>(value);
    } else if (name == "group" && value >= 1 && value <= 1024) {
      config.knobs.bandRows = value;
    } else if (name == "overlap" && value >= 0 && value <= 2) {
      config.knobs.overlap = static_cast<int>(value);
    } else if (name == "tma" && (value == 0 || value == 1)) {
      config.knobs.tma = static_cast<int>(value);
    } else if (name == "cluster" && (value == 1 || value == 2)) {
      config.knobs.cluster = static_cast<int>(value);
    } else if (name == "persistent" && (value == 0 || value == 1)) {
      config.knobs.persistent = static_cast<int>(value);
    } else if (name == "release" && (value == 0 || value == 1)) {
      config.knobs.release = static_cast<int>(value);
    } else if (name == "minmax" && (value == 0 || value == 1)) {
      config.knobs.minmax = static_cast<int>(value);
    } else if (name == "turns" && (value == 0 || value == 1)) {
      config.knobs.turns = static_cast<int>(value);
    } else if (name == "producer" && (value == 0 || value == 1)) {
      config.knobs.producer = static_cast<int>(value);
    } else if (name == "warps" || name == "stages" || name == "group" || name == "overlap" ||
               name == "tma" || name == "cluster" || name == "persistent" || name == "release" ||
               name == "minmax" || name == "turns" || name == "producer") {
      throw std::invalid_argument(name + "=" + std::to_string(value) +
                                  " is out of range (warps 1-32, stages 2-16, group 1-1024, "
                                  "overlap 0-2, tma 0-1, cluster 1-2, persistent 0-1, release "
                                  "0-1, minmax 0-1, turns 0-1, producer 0-1)");
    } else {
      throw std::invalid_argument("'" + name + "' is neither a meta-parameter of " + spec.name +
                                  " nor warps, stages, group, overlap, tma, cluster, persistent, "
                                  "release, minmax, turns or producer");
    }
  }
  for (const MetaParam &m : spec.metas)
    if (!config.metas.count(m.name))
      throw std::invalid_argument("it does not give " + m.name);
  // Clusters share TMA copies: without them the knob would compile nothing different.
  if (config.knobs.cluster > 1 && config.knobs.tma != 1)
    throw std::invalid_argument("cluster=" + std::to_string(config.knobs.cluster) +
                                " needs tma=1 (the programs of a cluster share TMA copies)");
  // Stages are released to TMA copies only.
  if (config.knobs.release == 1 && config.knobs.tma != 1)
    throw std::invalid_argument("release=1 needs tma=1 (the last warp to release a stage issues "
                                "its TMA copies)");
  // The producer warpgroup issues TMA copies.
  if (config.knobs.persistent == 1 && config.knobs.tma != 1)
    throw std::invalid_argument("persistent=1 needs tma=1 (its producer issues TMA copies)");
  // The warpgroups take turns at the products of a TMA program's loops; a warp-specialized
  // program's consumers synchronize by the ring's barriers alone.
  if (config.knobs.turns == 1 && (config.knobs.tma != 1 || config.knobs.persistent == 1))
    throw std::invalid_argument("turns=1 needs tma=1 and no persistent=1 (the warpgroups take "
                                "turns at the products of a TMA program's loops)");
  // The producer issues the copies of a released TMA loop (with persistent=1, of every program
  // of its block).
  if (config.knobs.producer == 1 && (config.knobs.tma != 1 || config.knobs.release != 1))
    throw std::invalid_argument("producer=1 needs tma=1 and release=1 (the producer warpgroup "
                                "issues the copies of a released TMA loop)");
  return config;
}

Config defaultConfig(const kir::Function &f, Target target, const GpuTarget &gpu) {
  return Config{defaultMetaValues(pinPaddedExtents(f), target, gpu), LaunchKnobs{}, {}};
}

GpuTarget configuredTarget(const GpuTarget &gpu, const Config &config) {
  GpuTarget configured = gpu;
  configured.knobs = config.knobs;
  std::vector<GpuArch> runs;
  for (const GpuArch &a : gpu.archs)
    if (std::find(config.archs.begin(), config.archs.end(), a.major * 10 + a.minor) !=
        config.archs.end())
      runs.push_back(a);
  if (!runs.empty())
    configured.archs = runs;
  return configured;
}

std::vector<Config> configSpace(const kir::Function &translated, Target target,
                                const GpuTarget &gpu) {
  const kir::Function f = pinPaddedExtents(translated);
  std::vector<Config> space{defaultConfig(f, target, gpu)};
  std::vector<std::string> ids{configId(f.spec, space.front())};
  auto add = [&](const Config &c) {
    const std::string id = configId(f.spec, c);
    if (std::find(ids.begin(), ids.end(), id) == ids.end()) {
      ids.push_back(id);
      space.push_back(c);
    }
  };
  for (const auto &metas : metaCombinations(f.spec)) {
    std::optional<kir::Function> specialized;
    try {
      specialized = specialize(f, probeValues(f, metas));
    } catch (const std::exception &) {
      continue; // a combination the kernel rejects (e.g. a compile-time assertion)
    }
    if (target == Target::Cpu) {
      add(Config{metas, LaunchKnobs{}, {}});
      continue;
    }
    // With sm_90a among the architectures, every configuration of a GEMM loop or a pipelined
    // loop once more with tma=1 (its copies by TMA where use-tensor-maps can).
    const int tmaChoices = gpu.hasHopper() ? 2 : 1;
    auto tryConfig = [&](const LaunchKnobs &knobs) {
      const Config c{metas, knobs, {}};
      if (configFits(f, c, target, gpu))
        add(c);
    };
    auto tryWithTma = [&](LaunchKnobs knobs) {
      for (int tma = 0; tma < tmaChoices; ++tma) {
        knobs.tma = tma;
        tryConfig(knobs);
      }
    };
    const int threads = blockThreads(*specialized, gpu);
    try {
      if (const std::vector<DotLoop> loops = gemmLoops(*specialized, threads, gpu);
          !loops.empty()) {
        // Clusters share a 2-D operand tile (use-tensor-maps' clusterSharedOperand): without one
        // (bmm's operands are 3-D), cluster=2 would compile the same program as cluster=1.
        auto twoDimensional = [&](const kir::Value &v) {
          return f.spec.params[f.spec.arranged[v->param].source].ndim == 2;
        };
        const bool sharable = std::any_of(loops.begin(), loops.end(), [&](const DotLoop &l) {
          return twoDimensional(l.a) || twoDimensional(l.b);
        });
        // Persistent and warp-specialized (specialize-warps): one GEMM loop and a body on
        // registers, multiplying with wgmma, whose ring and a column block of its 16-bit output
        // tile (staged apart, in rounds) fit in shared memory; two consumer warpgroups (a 128-row
        // tile: one warpgroup's tile is too small to gain).
        const bool persistable =
            gpu.hasHopper() && loops.size() == 1 && warpSpecializable(*specialized, false);
        for (int warps : kGemmWarps)
          for (int stages : kGemmStages)
            for (int64_t band : kGemmBands) {
              tryWithTma(LaunchKnobs{warps * 32, stages, band});
              // By TMA in clusters of two programs of one band, which share a tile.
              if (gpu.hasHopper() && sharable && band % 2 == 0)
                tryConfig(LaunchKnobs{warps * 32, stages, band, 0, 1, 2});
              if (!persistable || warps != 8)
                continue;
              // Persistent (persistent blocks in clusters of two, cluster=2,persistent=1,
              // measured 0.5-2.5% slower than without at the table's GEMM shapes, are not in the
              // space; --config still takes them).
              const std::vector<DotLoop> planned = gemmLoops(*specialized, warps * 32, gpu);
              if (planned.size() == 1 &&
                  dev::layout::gemm_wgmma_shape(
                      static_cast<int>(planned.front().bm), static_cast<int>(planned.front().bk),
                      static_cast<int>(planned.front().bn), warps * 32, stages) &&
                  planned.front().smemBytes / planned.front().stages * stages + 2048 +
                          128 * planned.front().bm <=
                      gpu.sharedPerBlock())
                tryConfig(LaunchKnobs{warps * 32, stages, band, 0, 1, 0, 1});
            }
      } else if (holdsStatement(layOut(*specialized, threads, gpu).function,
                                kir::StmtKind::AsyncCopy)) {
        const bool minMax = holdsFloatMinMax(*specialized);
        for (int stages : kRingStages) {
          tryWithTma(LaunchKnobs{0, stages, 0});
          // By TMA with stages released to the last warp that reads them (release-stages).
          if (gpu.hasHopper())
            tryConfig(LaunchKnobs{0, stages, 0, 0, 1, 0, 0, 1});
          // Both by TMA with float maximum/minimum as one instruction (select-min-max).
          if (gpu.hasHopper() && minMax)
            for (int release : {0, 1})
              tryConfig(LaunchKnobs{0, stages, 0, 0, 1, 0, 0, release, 1});
        }
        // Each ring again with its last product in flight, where overlap-products applies.
        GpuTarget overlapping = gpu;
        overlapping.knobs.overlap = 1;
        if (holdsStatement(layOut(*specialized, threads, overlapping).function,
                           kir::StmtKind::DotIssue))
          for (int stages : kRingStages)
            tryWithTma(LaunchKnobs{0, stages, 0, 1});
        // And with the next first product issued ahead of the last (overlap-products, level 2).
        overlapping.knobs.overlap = 2;
        if (issuesAhead(layOut(*specialized, threads, overlapping).function))
          for (int stages : kRingStages) {
            tryWithTma(LaunchKnobs{0, stages, 0, 2});
            // By TMA with stages released once their last product completes (release-stages).
            if (gpu.hasHopper())
              tryConfig(LaunchKnobs{0, stages, 0, 2, 1, 0, 0, 1});
          }
      } else if (reducesWithoutProducts(*specialized)) {
        tryConfig(LaunchKnobs{});
        for (int warps : kReductionWarps)
          tryConfig(LaunchKnobs{warps * 32, 0, 0});
      } else {
        tryConfig(LaunchKnobs{});
      }
    } catch (const std::exception &) {
      // The passes reject these meta-parameters on the GPU: never compiled.
    }
  }
  return space;
}

bool configFits(const kir::Function &translated, const Config &config, Target target,
                const GpuTarget &gpu) {
  try {
    const kir::Function f = pinPaddedExtents(translated);
    const kir::Function specialized = specialize(f, probeValues(f, config.metas));
    if (target == Target::Cpu)
      return true;
    const bool gemm = !gemmLoops(specialized, blockThreads(specialized, gpu), gpu).empty();
    return worthCompiling(specialized, configuredTarget(gpu, config), gemm);
  } catch (const std::exception &) {
    return false;
  }
}

std::string kernelHash(const kir::Function &f) {
  std::ostringstream text;
  text << std::setprecision(17) << kir::print(f);
  for (const ParamSpec &p : f.spec.params) {
    text << p.name << ":" << static_cast<int>(p.kind) << ":" << dtypeName(p.dtype) << ":" << p.ndim
         << ":" << (p.jaggedDim ? *p.jaggedDim : -1);
    for (double v : p.constexprValues)
      text << ":" << v;
    text << "\n";
  }
  for (const MetaParam &m : f.spec.metas)
    text << m.name << "[" << m.lo << "," << m.hi << "]\n";
  // FNV-1a, 64 bits.
  uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : text.str()) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  std::ostringstream hex;
  hex << std::hex << std::setw(16) << std::setfill('0') << hash;
  return hex.str();
}

} // namespace ntc::passes

//===- DefaultMetas.cpp - meta-parameter values without a tuning table ----===//
//
// Until a tuning table picks per shape, every kernel is compiled for one analytic choice of
// its meta-parameters. On the GPU the choice is driven by the GEMM main loops: each allowed
// combination is specialized and its loops planned (planDotLoop); the winner has the most
// arithmetic per byte moved, then the deepest ring of shared stages, then the larger k step.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include <algorithm>
#include <tuple>

namespace ntc::passes {

namespace {

/// The block size that GPU block sizes grow towards when no GEMM loop decides.
constexpr int64_t kGpuBlockSize = 128;
/// Float accumulator registers per thread that a planned loop may hold.
constexpr int64_t kAccumulatorRegisters = 128;
/// Elements of the largest tile per thread that blockThreads aims for.
constexpr int64_t kElementsPerThread = 4;
/// The same for programs that reduce tiles and multiply none (softmax, norms).
constexpr int64_t kReductionElementsPerThread = 8;
/// Accumulator elements per thread below which a GEMM main loop gets no more warps: eight
/// warps of 64×64 for a 128×256 block (measured on the H200: 4096³ at 414 TFLOP/s against
/// 326 with sixteen warps of 64×32, whose 128 registers per thread cannot hold two fragment
/// buffers without spilling).
constexpr int64_t kGemmAccumulatorsPerThread = 128;
/// Most threads a block with a GEMM main loop gets.
constexpr int kMaxGemmThreads = 512;

int64_t numel(const std::vector<Expr> &shape) {
  int64_t n = 1;
  for (const Expr &e : shape)
    n *= e.asConst().value_or(1);
  return n;
}

/// Every allowed combination of meta-parameter values (powers of two in [lo, hi]).
std::vector<std::map<std::string, int64_t>> combinations(const KernelSpec &spec) {
  std::vector<std::map<std::string, int64_t>> all{{}};
  for (const MetaParam &m : spec.metas) {
    std::vector<std::map<std::string, int64_t>> next;
    for (const auto &c : all)
      for (int64_t v = m.lo; v <= m.hi; v *= 2) {
        auto d = c;
        d[m.name] = v;
        next.push_back(d);
        if (v <= 0)
          break;
      }
    all = std::move(next);
  }
  return all;
}

/// (arithmetic intensity, stages, k step) of the weakest GEMM loop of a specialized kernel,
/// or nullopt when it has none or one does not fit.
std::optional<std::tuple<double, int, int64_t>> score(const kir::Function &specialized,
                                                      const GpuTarget &gpu) {
  int threads = blockThreads(specialized, gpu);
  std::optional<std::tuple<double, int, int64_t>> worst;
  bool fits = true;
  kir::forEachStmt(specialized.body, [&](const kir::Stmt &s) {
    if (auto loop = planDotLoop(s, threads, gpu)) {
      if (loop->bm * loop->bn > kAccumulatorRegisters * threads)
        fits = false;
      double intensity = double(loop->bm * loop->bn) / double(loop->bm + loop->bn);
      auto mine = std::make_tuple(intensity, loop->stages, loop->bk);
      if (!worst || mine < *worst)
        worst = mine;
    }
    return true;
  });
  if (!fits)
    return std::nullopt;
  return worst;
}

} // namespace

int blockThreads(const kir::Function &specialized, const GpuTarget &gpu) {
  int64_t largest = 1;
  bool reduces = false, multiplies = false;
  kir::forEachValue(specialized.body, [&](const kir::Value &v) {
    largest = std::max(largest, numel(v->type.shape));
    reduces |= v->kind == kir::ValueKind::Reduce;
    multiplies |= v->kind == kir::ValueKind::Dot;
  });
  // A program that reduces tiles without multiplying them is bound by memory: more elements
  // per thread put more of its loads in flight at once and more of each reduction in a
  // thread's registers. The layouts keep a warp's accesses on consecutive addresses whatever
  // the count (chunks of at most 4 elements; cyclic for element-by-element accesses, see
  // assign-cyclic-layouts), so both the vector program and its element-by-element twin get 8.
  const int64_t perThread =
      reduces && !multiplies ? kReductionElementsPerThread : kElementsPerThread;
  int threads = 32;
  while (threads < 256 && threads * perThread < largest)
    threads *= 2;
  // A GEMM main loop keeps its accumulator in mma fragments: more warps, each with a smaller
  // part of it, as long as every thread keeps kGemmAccumulatorsPerThread of them (larger warp
  // tiles load fewer fragments per mma, and leave room for two fragment buffers).
  kir::forEachStmt(specialized.body, [&](const kir::Stmt &s) {
    for (int t = kMaxGemmThreads; t > threads; t /= 2) {
      auto loop = planDotLoop(s, t, gpu);
      if (loop && loop->bm * loop->bn >= t * kGemmAccumulatorsPerThread) {
        threads = t;
        break;
      }
    }
    return true;
  });
  return threads;
}

std::map<std::string, int64_t> defaultMetaValues(const kir::Function &f, Target target,
                                                 const GpuTarget &gpu) {
  std::map<std::string, int64_t> values;
  for (const MetaParam &m : f.spec.metas) {
    int64_t v = m.lo;
    if (target == Target::Cuda)
      while (v * 2 <= m.hi && v * 2 <= kGpuBlockSize)
        v *= 2;
    values[m.name] = v;
  }
  if (target != Target::Cuda || f.spec.metas.empty())
    return values;
  // GEMM loops decide. Padded extents take their smallest compiled value for the comparison.
  std::optional<std::tuple<double, int, int64_t>> best;
  for (auto candidate : combinations(f.spec)) {
    auto full = candidate;
    for (const kir::PaddedExtent &p : f.padded)
      full[p.symbol] = std::min<int64_t>(16, p.upperBound);
    std::optional<std::tuple<double, int, int64_t>> s;
    try {
      s = score(specialize(f, full), gpu);
    } catch (const std::exception &) {
      continue; // a combination the kernel rejects (e.g. a compile-time assertion)
    }
    if (s && (!best || *s > *best)) {
      best = s;
      values = candidate;
    }
  }
  return values;
}

} // namespace ntc::passes

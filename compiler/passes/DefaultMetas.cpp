//===- DefaultMetas.cpp - meta-parameter values without a tuning table ----===//
//
// Until a tuning table picks per shape, every kernel is compiled for one analytic choice of
// its meta-parameters. On the GPU the choice is driven by the GEMM main loops: each allowed
// combination is specialized and its loops planned (planDotLoop); among those whose
// accumulator fits the registers (fewer per thread when an epilogue loads a tile as large as
// the accumulator) the winner has the most arithmetic per byte moved, then the deepest ring of
// shared stages, then the larger k step, then the taller tile.
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
/// Accumulators per thread of a GEMM main loop whose program also loads, outside the loop, a
/// tile as large as the accumulator (an epilogue operand: addmm's input, linear's residual, a
/// composed kernel's). Both tiles, the conversion of the accumulator and the epilogue's
/// temporaries are then live together: with 128 accumulators per thread (128×256 on eight
/// warps) the epilogue spills. Measured on the H200 with ntc-tune (docs/performance.md, eighth
/// session): in 8 of 9 kernel and shape pairs of addmm, linear and a composed linear the best
/// configuration keeps 32 per thread (64×64 on four warps or 128×64 on eight), 1.1-3.9× faster
/// than 128×256; in the ninth (linear 4096³) 64×64 is within 2% of it. The default this gives,
/// 128×64×64 on eight warps with four stages (two programs per SM), ran the composed linear
/// 1.5-2.1× faster than 128×256.
constexpr int64_t kEpilogueAccumulatorsPerThread = 32;

bool isHalf(DType t) { return t == DType::Float16 || t == DType::BFloat16; }

/// True when some statement of the function is a GEMM main loop (planDotLoop).
bool hasDotLoop(const kir::Function &f, const GpuTarget &gpu) {
  bool found = false;
  kir::forEachStmt(f.body, [&](const kir::Stmt &s) {
    for (int t = kMaxGemmThreads; t >= 32 && !found; t /= 2)
      found = planDotLoop(s, t, gpu).has_value();
    return !found;
  });
  return found;
}

/// Shared memory the CUDA runtime reserves for each resident block (bytes).
constexpr int64_t kReservedSharedPerBlock = 1024;

/// Rows of the wgmma of one warpgroup.
constexpr int64_t kWarpgroupRows = 64;

/// The rows of the shortest float16/bfloat16 product of a specialized function (0: none).
int64_t productRows(const kir::Function &specialized) {
  int64_t rows = 0;
  kir::forEachValue(specialized.body, [&](const kir::Value &v) {
    if (v->kind == kir::ValueKind::Dot && v->type.shape.size() == 2 && v->type.shape[0].isConst() &&
        isHalf(v->operands[0]->type.dtype))
      rows =
          rows == 0 ? v->type.shape[0].constValue() : std::min(rows, v->type.shape[0].constValue());
  });
  return rows;
}

int64_t numel(const std::vector<Expr> &shape) {
  int64_t n = 1;
  for (const Expr &e : shape)
    n *= e.asConst().value_or(1);
  return n;
}

/// Elements of the largest tile that a program loads outside its GEMM main loops (0: none).
int64_t largestLoadOutsideDotLoops(const kir::Function &specialized, int threads,
                                   const GpuTarget &gpu) {
  int64_t largest = 0;
  for (const kir::Stmt &s : specialized.body) {
    if (planDotLoop(s, threads, gpu))
      continue;
    kir::forEachValue(std::vector<kir::Stmt>{s}, [&](const kir::Value &v) {
      if (v->kind == kir::ValueKind::Load)
        largest = std::max(largest, numel(v->type.shape));
    });
  }
  return largest;
}

/// (arithmetic intensity, stages, k step, rows) of the weakest GEMM loop of a specialized
/// kernel, or nullopt when it has none or one does not fit. Rows last: of two tiles that are
/// otherwise equal, the taller (the one measured).
std::optional<std::tuple<double, int, int64_t, int64_t>> score(const kir::Function &specialized,
                                                               const GpuTarget &gpu) {
  int threads = blockThreads(specialized, gpu);
  std::optional<std::tuple<double, int, int64_t, int64_t>> worst;
  bool fits = true;
  const int64_t epilogueLoad = largestLoadOutsideDotLoops(specialized, threads, gpu);
  kir::forEachStmt(specialized.body, [&](const kir::Stmt &s) {
    if (auto loop = planDotLoop(s, threads, gpu)) {
      const int64_t perThread = epilogueLoad >= loop->bm * loop->bn ? kEpilogueAccumulatorsPerThread
                                                                    : kAccumulatorRegisters;
      if (loop->bm * loop->bn > perThread * threads)
        fits = false;
      double intensity = double(loop->bm * loop->bn) / double(loop->bm + loop->bn);
      auto mine = std::make_tuple(intensity, loop->stages, loop->bk, loop->bm);
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

std::vector<std::map<std::string, int64_t>> metaCombinations(const KernelSpec &spec) {
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

std::map<std::string, int64_t> probeValues(const kir::Function &f,
                                           std::map<std::string, int64_t> values) {
  for (const kir::PaddedExtent &p : f.padded)
    values[p.symbol] = std::min(kMinPaddedExtent, p.upperBound);
  for (const ParamSpec &p : f.spec.params)
    if (p.kind == ParamSpec::Kind::Constexpr && !p.constexprValues.empty())
      values[p.name] = static_cast<int64_t>(p.constexprValues.front());
  return values;
}

bool reducesWithoutProducts(const kir::Function &f) {
  bool reduces = false, multiplies = false;
  kir::forEachValue(f.body, [&](const kir::Value &v) {
    reduces |= v->kind == kir::ValueKind::Reduce;
    multiplies |= v->kind == kir::ValueKind::Dot;
  });
  return reduces && !multiplies;
}

int blockThreads(const kir::Function &specialized, const GpuTarget &gpu) {
  if (gpu.knobs.threads > 0)
    return gpu.knobs.threads;
  int64_t largest = 1;
  kir::forEachValue(specialized.body, [&](const kir::Value &v) {
    largest = std::max(largest, numel(v->type.shape));
  });
  // A program that reduces tiles without multiplying them is bound by memory: more elements
  // per thread put more of its loads in flight at once and more of each reduction in a
  // thread's registers. The layouts keep a warp's accesses on consecutive addresses whatever
  // the count (chunks of at most 4 elements; cyclic for element-by-element accesses, see
  // assign-cyclic-layouts), so both the vector program and its element-by-element twin get 8.
  const int64_t perThread =
      reducesWithoutProducts(specialized) ? kReductionElementsPerThread : kElementsPerThread;
  int threads = 32;
  while (threads < 256 && threads * perThread < largest)
    threads *= 2;
  // Tensor-core products outside GEMM main loops (attention's) get at most one warp per 16-row
  // slab of the shortest one: every warp then holds whole rows (row statistics need no shared
  // memory) and a warpgroup's four slabs are the 64 rows of one wgmma.
  const int64_t rows = productRows(specialized);
  if (rows >= 16 && !hasDotLoop(specialized, gpu))
    threads = std::min<int64_t>(threads, std::max<int64_t>(32, 2 * rows));
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
  // GEMM loops decide. Otherwise, tensor-core products outside GEMM loops (attention's chain
  // of two products with the softmax between them): one warpgroup of 64 rows per program, so
  // that two or more programs share an SM and one's softmax overlaps another's products
  // (measured on the H200: 4×32×4096×128 attention at 218 TFLOP/s with 64 rows against 181 with
  // 128 rows of one program per SM); among those, the largest other block sizes that fit.
  std::optional<std::tuple<double, int, int64_t, int64_t>> best;
  std::optional<int64_t> largest; // the block sizes' product of the best 64-row candidate
  bool largestPairs = false;      // whether two programs of it fit an SM
  std::map<std::string, int64_t> gemm, chosen;
  for (auto candidate : metaCombinations(f.spec)) {
    std::optional<kir::Function> specialized;
    try {
      specialized = specialize(f, probeValues(f, candidate));
    } catch (const std::exception &) {
      continue; // a combination the kernel rejects (e.g. a compile-time assertion)
    }
    if (auto s = score(*specialized, gpu); s && (!best || *s > *best)) {
      best = s;
      gemm = candidate;
    }
    if (productRows(*specialized) != kWarpgroupRows)
      continue;
    int64_t size = 1;
    for (const auto &[name, v] : candidate)
      size *= std::max<int64_t>(v, 1);
    // Only values whose every variant compiles (a float32 attention's key block of 128 rows
    // needs more shared memory than a block has at head dimension 128); of those, values whose
    // largest variant leaves room for two programs per SM on the tuned architecture first.
    const std::optional<int64_t> bytes = largestVariantSharedBytes(f, candidate, gpu);
    if (!bytes || *bytes > gpu.sharedPerBlock())
      continue;
    const bool pairs =
        2 * (*bytes + kReservedSharedPerBlock) <= gpu.tuning().sharedPerMultiprocessor;
    if (!largest || std::make_pair(pairs, size) > std::make_pair(largestPairs, *largest)) {
      largest = size;
      largestPairs = pairs;
      chosen = candidate;
    }
  }
  if (best)
    return gemm;
  if (largest)
    return chosen;
  // Block sizes grown towards 128 shrink again, the one grown most above its lower bound first,
  // until the largest variant fits a block's shared memory.
  for (;;) {
    const std::optional<int64_t> bytes = largestVariantSharedBytes(f, values, gpu);
    if (!bytes || *bytes <= gpu.sharedPerBlock())
      return values;
    const MetaParam *shrink = nullptr;
    for (const MetaParam &m : f.spec.metas)
      if (m.lo > 0 && values[m.name] > m.lo &&
          (!shrink || values[m.name] / m.lo >= values[shrink->name] / shrink->lo))
        shrink = &m;
    if (!shrink)
      return values;
    values[shrink->name] /= 2;
  }
}

} // namespace ntc::passes

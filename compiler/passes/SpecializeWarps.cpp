//===- SpecializeWarps.cpp - persistent, warp-specialized GEMM programs ----===//
//
// With the configuration knob `persistent=1` (and tma=1), a program whose GEMM main loop goes by
// TMA (use-tensor-maps gave it a ring of its own) becomes persistent and warp-specialized, as
// hand-written Hopper GEMMs are: the grid has one block per SM (or fewer), each running program
// ids blockIdx.x, blockIdx.x + gridDim.x, ... in the grid's order, and the block gets a producer
// warpgroup after its `threads` consumer threads. The producer's first thread issues the
// operand copies of every program of the block into the ring, a stage as soon as the consumers
// have released it, so it copies the next program's first tiles while the consumers finish a
// program's products and store its tile: the epilogue overlaps the main loop, and no consumer
// ever waits for a refill's turn. The producer lowers its registers and the consumers raise
// theirs (setmaxnreg), so that the two warpgroups of a 128-row tile keep 128 accumulators each
// without spilling.
//
// The consumers synchronize among themselves only (named barrier 1) while the producer runs, so
// the pass accepts a program only when nothing but its main loop and its TMA stores needs a
// barrier or shared memory:
//   * the top level of the body is one such loop (a For with a ring whose operands both go by
//     TMA), definitions and assignments before and after it, and stores by TMA
//     (into 16-bit parameters, a value of another element type converted in registers);
//   * those statements compute on registers alone: constants, scalars, locals, fills, casts,
//     elementwise operations, loads from global memory into registers, broadcasts of Slice
//     tiles (no reductions, layout conversions or products: addmm's and linear's epilogues
//     qualify once assign-layouts loads their tiles in the accumulator's layout);
//   * the loop's bounds and the coordinates and residual conditions of its copies depend on
//     program coordinates and sizes only (the producer computes them without the body);
//   * no parameter is jagged, no product takes turns (take-turns), one program per block, the
//     loop multiplies with wgmma (sm_90a) and the consumers are whole warpgroups;
//   * the stores' staging region, after everything else, fits the block's shared memory (in
//     rounds of fewer column blocks where the whole tile does not): the store of one program
//     then overlaps the next program's loop.
// With the knob cluster=2 too (use-tensor-maps paired the programs and gave the loop a shared
// operand), the blocks run in clusters of two: block 2c + r runs programs 2c + r, 2c + r +
// gridDim.x, ... (the dispatcher launches an even grid of them), so the two blocks of a cluster
// always hold the two programs that share a tile. Each producer copies its half of the shared
// tile into both blocks' stages (multicast) and acquires a stage once the consumers of both have
// released it; before exiting it acquires every stage's last releases, so that no release of the
// other block arrives on a block that has exited.
// Otherwise the function is returned unchanged (the knob changes nothing, as tma=1 on sm_80).
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include <ntc/device/layout.cuh>

#include <algorithm>
#include <set>

namespace ntc::passes {

namespace {

using namespace kir;

/// True when `v` computes on registers and global memory alone: no shared memory, no
/// communication between threads. Loads read global memory straight into each thread's
/// registers (in any register layout: assign-layouts loads an epilogue's operands in the
/// accumulator's layout); a broadcast or an inserted axis of a Slice tile stays in registers.
/// Before layouts are assigned (`laidOut` false) every tile is unlaid, and broadcasts are
/// taken on trust; specialize-warps checks the laid-out program again.
bool registersOnly(const Value &v, bool laidOut) {
  bool only = true;
  forEachValue(v, [&](const Value &x) {
    switch (x->kind) {
    case ValueKind::Constant:
    case ValueKind::ScalarParam:
    case ValueKind::Index:
    case ValueKind::Local:
    case ValueKind::Full:
    case ValueKind::Cast:
    case ValueKind::Unary:
    case ValueKind::Binary:
    case ValueKind::Where:
    case ValueKind::Load:
      break;
    case ValueKind::ExpandDims:
    case ValueKind::BroadcastTo: {
      const LayoutRef &from = x->operands[0]->type.layout;
      only = only && (!laidOut || (from && from->kind == TileLayout::Kind::Slice));
      break;
    }
    default:
      only = false;
    }
  });
  return only;
}

/// The bytes of the staging tile of TMA store `s` (Swizzled: no padding).
int64_t stagingBytes(const StmtNode &s) {
  return shapeElements(s.value->type.shape) * dtypeBytes(s.value->type.dtype);
}

/// The column blocks of the staged tile of TMA store `s` of `f` (one per swizzle span of a row).
int64_t stagedBlocks(const kir::Function &f, const StmtNode &s) {
  const int64_t rowBytes =
      s.value->type.shape.back().constValue() * dtypeBytes(s.value->type.dtype);
  return rowBytes / f.tensorMaps[static_cast<size_t>(s.tensorMap)].swizzleBytes;
}

} // namespace

/// The symbols the producer knows without running the body: the program coordinates of `grid`,
/// the loop index `index` and the sizes and strides of the parameters of `spec`.
std::set<std::string> producerSymbols(const KernelSpec &spec, const GridInfo &grid,
                                      const std::string &index) {
  std::set<std::string> known{index};
  for (size_t d = 0; d < grid.extents.size(); ++d)
    known.insert(programCoordinate(d));
  for (const ParamSpec &p : spec.params)
    for (int d = 0; d < p.ndim; ++d) {
      known.insert(p.sizeSymbol(d));
      known.insert(p.strideSymbol(d));
    }
  return known;
}

/// True when every symbol of `e` is in `known`.
bool producerComputes(const Expr &e, const std::set<std::string> &known) {
  std::vector<std::string> symbols;
  e.collectSymbols(symbols);
  return std::all_of(symbols.begin(), symbols.end(),
                     [&](const std::string &s) { return known.count(s) > 0; });
}

/// True when the producer can issue TMA copy `copy` (its coordinates and residual conditions
/// use symbols of `known` only).
bool producerComputes(const TensorMapCopy &copy, const std::set<std::string> &known) {
  for (const Expr &e : copy.origin)
    if (!producerComputes(e, known))
      return false;
  for (const MaskTerm &t : copy.residual)
    if (!producerComputes(t.value, known) || !producerComputes(t.extent, known))
      return false;
  return true;
}

kir::WarpSpecialization warpRoles(int threads) {
  // Registers per thread of the producer warpgroup (setmaxnreg's floor is 24; its one issuing
  // thread computes coordinates and addresses), and of one SM's register file.
  constexpr int kProducerRegisters = 40, kRegisterFile = 65536;
  kir::WarpSpecialization w;
  w.consumerThreads = threads;
  w.producerRegisters = kProducerRegisters;
  // ptxas gives every thread of a kernel with setmaxnreg what __launch_bounds__(block, 1) allows
  // (a multiple of 8, at most 255); the consumers take what the producer gives back.
  const int block = threads + w.producerThreads;
  const int atLaunch = std::min(255, kRegisterFile / block) / 8 * 8;
  const int perConsumer = (atLaunch * block - w.producerThreads * kProducerRegisters) / threads;
  w.consumerRegisters = std::min(256, perConsumer / 8 * 8);
  return w;
}

bool warpSpecializable(const kir::Function &f, bool laidOut) {
  int loops = 0;
  for (const ParamSpec &p : f.spec.params)
    if (p.jaggedDim)
      return false;
  for (const Stmt &s : f.body) {
    switch (s->kind) {
    case StmtKind::For:
      ++loops;
      break;
    case StmtKind::Store: {
      // TMA stores 16-bit tiles (use-tensor-maps converts a value of another element type, as
      // matmul_bf16's float16 result, in registers first).
      const ParamSpec &dst =
          f.spec.params[static_cast<size_t>(f.spec.arranged[static_cast<size_t>(s->param)].source)];
      if (dtypeBytes(dst.dtype) != 2 || !registersOnly(s->value, laidOut))
        return false;
      break;
    }
    case StmtKind::Define:
    case StmtKind::Assign:
      if (!registersOnly(s->value, laidOut))
        return false;
      break;
    default:
      return false;
    }
  }
  return loops == 1;
}

std::optional<kir::Function> specializeWarps(const kir::Function &tma, const GridInfo &grid,
                                             int threads, int64_t totalBytes,
                                             const GpuTarget &gpu) {
  if (gpu.knobs.persistent != 1 || !gpu.hasHopper() || threads % 128 != 0 ||
      tma.tmaRings.size() != 1 || !tma.turnBarriers.empty() || !warpSpecializable(tma, true) ||
      programsPerBlock(tma, threads) != 1)
    return std::nullopt;
  const TmaRing &ring = tma.tmaRings.front();
  // In a cluster (use-tensor-maps' cluster=2) every consumer warp of both blocks releases.
  if (ring.operandMaps.size() != 2 || ring.cluster > 2 || ring.asyncCopiesToo ||
      ring.releasers != std::max(1, ring.cluster) * threads / 32)
    return std::nullopt;
  int64_t staging = 0, blocks = 0;
  for (const Stmt &s : tma.body) {
    if (s->kind == StmtKind::Store) {
      if (s->tensorMap < 0 || (blocks > 0 && stagedBlocks(tma, *s) != blocks))
        return std::nullopt; // a store by the threads might stage through shared memory
      staging = std::max(staging, stagingBytes(*s));
      blocks = stagedBlocks(tma, *s);
      continue;
    }
    if (s->kind != StmtKind::For)
      continue;
    const std::optional<DotLoop> loop = planDotLoop(s, threads, gpu);
    if (s->group != ring.group || !loop ||
        !dev::layout::gemm_wgmma_shape(static_cast<int>(loop->bm), static_cast<int>(loop->bk),
                                       static_cast<int>(loop->bn), threads, loop->stages))
      return std::nullopt;
    const std::set<std::string> known = producerSymbols(tma.spec, grid, s->var);
    for (const Expr &bound : {s->begin, s->end, s->step})
      if (!producerComputes(bound, known))
        return std::nullopt;
    const auto maps = dotLoopTensorMaps(tma, grid, *loop, threads);
    if (!maps || !producerComputes(maps->first, known) || !producerComputes(maps->second, known))
      return std::nullopt;
  }
  WarpSpecialization w = warpRoles(threads);
  // The staging region after everything else; where the whole tile does not fit, the stores go
  // in rounds of fewer column blocks (each round waits until the last is read).
  w.storeStaging = (totalBytes + 1023) / 1024 * 1024;
  while (w.storeStaging + staging / w.storeRounds > gpu.sharedPerBlock() &&
         blocks % (2 * w.storeRounds) == 0)
    w.storeRounds *= 2;
  w.totalBytes = w.storeStaging + staging / w.storeRounds;
  if (w.totalBytes > gpu.sharedPerBlock())
    return std::nullopt;
  kir::Function f = tma;
  f.warpSpecialization = w;
  return f;
}

} // namespace ntc::passes

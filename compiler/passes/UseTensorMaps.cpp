//===- UseTensorMaps.cpp - copies and stores through Hopper's TMA ----------===//
//
// With sm_90a among the target's architectures and the configuration knob `tma=1`, the
// pipelined copies of a program (the AsyncCopy statements of pipeline-loads, each a tile of a
// parameter into a stage of a ring) can go by the tensor memory accelerator: one thread issues
// one cp.async.bulk.tensor per column block of the stage, and the copy completes on an mbarrier
// of the loop's tma_ring (ntc::dev, tma.cuh) instead of through cp.async groups. No thread
// computes an address or a mask per element, and the copy engine fills the zeros of a tile's
// part outside the tensor. In a fatbin with other architectures too, the program exists in all
// of them but the dispatcher launches it only on devices that run the sm_90a code
// (ntc::rt::tma_device; elsewhere its rings trap).
//
// use-tensor-maps picks the copies TMA makes exactly as the generic copy would:
//   * the stage is Swizzled<B> (swizzle-shared), the layout TMA writes with its B-byte swizzle;
//   * the element read where masked is 0 (TMA writes zeros outside the tensor), and the
//     parameter is not jagged;
//   * the access is a box: affine in the tile's lanes (affine-access), the column lane steps the
//     parameter's last dimension by one and nothing else, the row lane another dimension by one
//     and nothing else;
//   * every mask term that depends on a lane is the bound of the coordinate of its dimension
//     (0 <= coordinate or coordinate < size), which the copy engine checks itself. Lane-free
//     terms of that form are implied too; the other lane-free terms remain (the tile is all zeros
//     unless they hold: the copy then reads rows above the tensor's first).
// Each parameter and box gets one tensor map (Function::tensorMaps), which the dispatcher
// encodes, or refuses the program when TMA cannot describe the tensor (describe_tma: 16-byte
// aligned base and strides, a contiguous last dimension). Each loop with such copies gets a
// tma_ring (Function::tmaRings) of one 8-byte barrier per stage after the program's shared
// memory, expecting one arrival per TMA copy of an iteration; its waits wait on the barrier of
// the iteration's stage, then on cp.async groups only if the loop still has such copies.
//
// Two more kinds of access go the same way, under the same conditions:
//   * a GEMM main loop (plan-dot-loop) that multiplies with wgmma, whose ring holds both
//     operands in Swizzled column blocks: when TMA makes both operand copies, the loop gets a
//     ring of its own (two arrivals per stage, and a second barrier per stage on which every
//     warp releases the stage once its products have read it: thread 0 refills a stage after
//     that, without a barrier of the whole program) and dot_loop receives tma_operands. With
//     the knob cluster=2, two programs numbered one after the other run as a cluster and share
//     the operand tile that does not depend on their row of the grouped order (B in a GEMM):
//     each copies half of its column blocks into both (TMA multicast), and a stage is refilled
//     once the warps of both have released it (clusterSharedOperand says when this holds; the
//     dispatcher launches such a program only when the grid's rows divide into clusters);
//   * a store of a 2-D tile into a 16-bit parameter (no fill value needed: the copy engine writes
//     nothing outside the tensor; a value of another element type converted in registers first,
//     as the threads' store converts each element), staged in the Swizzled layout of its shape in
//     the scratch region at offset 0, when the tile fits there (after a GEMM main loop, in its
//     ring's memory); ntc::dev::tma_store.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include <ntc/device/layout.cuh>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace ntc::passes {

namespace {

using namespace kir;

/// The dimension whose coordinate `steps` (one lane's step of every coordinate) moves by one,
/// when that is the only coordinate it moves; -1 otherwise.
int unitStepDimension(const std::vector<Expr> &steps) {
  int found = -1;
  for (size_t d = 0; d < steps.size(); ++d) {
    auto c = steps[d].asConst();
    if (!c)
      return -1;
    if (*c == 0)
      continue;
    if (*c != 1 || found >= 0)
      return -1;
    found = static_cast<int>(d);
  }
  return found;
}

/// True when mask term `t` bounds coordinate `d` of `access` within the size of dimension d of
/// `src` (what the copy engine checks for every element).
bool boundsCoordinate(const MaskTerm &t, const Access &access, const ParamSpec &src, size_t d) {
  return t.value == access.coords[d] && t.extent.kind() == ExprKind::Symbol &&
         t.extent.symbolName() == src.sizeSymbol(static_cast<int>(d));
}

/// True when `e` does not depend on program coordinate `d`.
bool freeOfProgramCoordinate(const Expr &e, size_t d) {
  return monotonicityIn(e, programCoordinate(d)) == Monotonicity::Constant;
}

/// True when the tile `copy` reads is the same in every program of a band's consecutive run:
/// neither its coordinates nor its residual terms depend on the band's row coordinate `d`.
bool sameAlongBand(const TensorMapCopy &copy, size_t d) {
  for (const Expr &e : copy.origin)
    if (!freeOfProgramCoordinate(e, d))
      return false;
  for (const MaskTerm &t : copy.residual)
    if (!freeOfProgramCoordinate(t.value, d) || !freeOfProgramCoordinate(t.extent, d))
      return false;
  return true;
}

/// The operand (0: A, 1: B) of GEMM main loop `s` by TMA that clusters of `cluster` programs
/// can share, or nullopt. The programs of a cluster are numbered one after the other; in the
/// grouped order (bands of an even number of rows, the dispatcher checking that the grid's
/// rows are a multiple of the cluster) they are consecutive rows of one column of a band. They
/// share an operand whose tile does not depend on the row, a 2-D tile of whole column blocks
/// that the cluster's programs divide evenly, and every program runs the same steps (the
/// loop's bounds name no program coordinate), so that each copies its part of every step's
/// tile into all of them.
std::optional<int> clusterSharedOperand(const StmtNode &s, const DotLoop &loop,
                                        const std::pair<TensorMapCopy, TensorMapCopy> &maps,
                                        const Function &f, const GridInfo &grid, int cluster) {
  if (cluster < 2 || grid.extents.size() < 2 || grid.bandRows <= 0 || grid.bandRows % cluster ||
      !grid.bandsLastTwo())
    return std::nullopt;
  for (size_t d = 0; d < grid.extents.size(); ++d)
    for (const Expr &bound : {s.begin, s.end, s.step})
      if (!freeOfProgramCoordinate(bound, d))
        return std::nullopt;
  const size_t row = grid.extents.size() - 2;
  for (int which : {1, 0}) { // B first: in a GEMM it is the larger tile (bk × bn)
    const TensorMapCopy &copy = which ? maps.second : maps.first;
    const int64_t cols = which ? loop.bn : loop.bk;
    const int64_t blocks = cols / copy.map.box.back();
    if (f.spec.params[static_cast<size_t>(copy.map.param)].ndim == 2 && blocks % cluster == 0 &&
        sameAlongBand(copy, row))
      return which;
  }
  return std::nullopt;
}

} // namespace

kir::Stmt withStoredElementType(const kir::Function &f, const kir::Stmt &store) {
  if (store->kind != StmtKind::Store || !store->value)
    return store;
  const Value &v = store->value;
  const DType stored = f.spec.params[f.spec.arranged[store->param].source].dtype;
  if (v->type.dtype == stored)
    return store;
  return withValue(store, withLayout(makeCast(v, stored), v->type.layout, {v}));
}

/// The TMA form of an access to arranged parameter `param` at `subscripts` by a 2-D tile of
/// `type` held in the Swizzled<blockBytes> layout, or nullopt.
std::optional<TensorMapCopy> tensorMapAccess(const Function &f, const GridInfo &grid, int param,
                                             const std::vector<Expr> &subscripts,
                                             const TileType &type, int blockBytes) {
  if (type.shape.size() != 2 || dtypeBytes(type.dtype) != 2 ||
      (blockBytes != 32 && blockBytes != 64 && blockBytes != 128))
    return std::nullopt;
  const ParamSpec &src = f.spec.params[f.spec.arranged[param].source];
  if (src.jaggedDim || src.ndim < 2 || src.ndim > 5 || type.dtype != src.dtype)
    return std::nullopt;
  Access access = resolveAccess(f, param, subscripts);
  simplifyMask(access, grid, f, param);
  const std::optional<AffineAccess> affine = affineAccess(access);
  if (!affine || affine->laneSteps.size() != 2)
    return std::nullopt;
  const int last = src.ndim - 1;
  const int rowDim = unitStepDimension(affine->laneSteps[0]);
  if (unitStepDimension(affine->laneSteps[1]) != last || rowDim < 0 || rowDim == last)
    return std::nullopt;
  TensorMapCopy result;
  for (const MaskTerm &t : access.mask) {
    std::vector<std::string> symbols;
    t.value.collectSymbols(symbols);
    const bool onLane = std::any_of(symbols.begin(), symbols.end(), [](const std::string &s) {
      return s == laneIndex(0) || s == laneIndex(1);
    });
    bool implied = false;
    for (size_t d = 0; d < access.coords.size() && !implied; ++d)
      implied = boundsCoordinate(t, access, src, d);
    if (implied)
      continue;
    if (onLane)
      return std::nullopt;
    result.residual.push_back(t);
  }
  const int64_t rows = type.shape[0].constValue();
  const int64_t cols = type.shape[1].constValue();
  const int64_t blockCols = blockBytes / dtypeBytes(type.dtype);
  if (rows > 256 || cols % blockCols != 0)
    return std::nullopt;
  result.map.param = f.spec.arranged[param].source;
  result.map.box.assign(static_cast<size_t>(src.ndim), 1);
  result.map.box[static_cast<size_t>(rowDim)] = rows;
  result.map.box[static_cast<size_t>(last)] = blockCols;
  result.map.swizzleBytes = blockBytes;
  result.rowDim = rowDim;
  result.origin = affine->origin;
  return result;
}

std::optional<TensorMapCopy> tensorMapLoad(const kir::Function &f, const GridInfo &grid,
                                           const kir::Value &load, int blockBytes) {
  // TMA fills zeros where the tile leaves the tensor: only for loads that read zeros there.
  if (load->kind != ValueKind::Load ||
      f.spec.params[f.spec.arranged[load->param].source].other.value_or(0.0) != 0.0)
    return std::nullopt;
  return tensorMapAccess(f, grid, load->param, load->subscripts, load->type, blockBytes);
}

std::optional<TensorMapCopy> tensorMapStore(const kir::Function &f, const GridInfo &grid,
                                            const kir::StmtNode &store) {
  if (store.kind != StmtKind::Store || !store.value || store.value->type.shape.size() != 2)
    return std::nullopt;
  const TileType &type = store.value->type;
  const auto rows = type.shape[0].asConst(), cols = type.shape[1].asConst();
  if (!rows || !cols)
    return std::nullopt;
  return tensorMapAccess(f, grid, store.param, store.subscripts, type,
                         sharedSwizzle(type.dtype, *rows, *cols));
}

std::optional<TensorMapCopy> tensorMapCopy(const kir::Function &f, const GridInfo &grid,
                                           const kir::StmtNode &copy) {
  if (copy.kind != StmtKind::AsyncCopy || !copy.value ||
      copy.value->kind != ValueKind::ConvertLayout)
    return std::nullopt;
  const LayoutRef &layout = copy.value->type.layout;
  if (!layout || layout->kind != TileLayout::Kind::Shared || layout->swizzle == 0)
    return std::nullopt;
  return tensorMapLoad(f, grid, copy.value->operands[0], layout->swizzle);
}

std::optional<std::pair<TensorMapCopy, TensorMapCopy>>
dotLoopTensorMaps(const kir::Function &f, const GridInfo &grid, const DotLoop &loop, int threads) {
  const auto bm = static_cast<int>(loop.bm), bk = static_cast<int>(loop.bk),
             bn = static_cast<int>(loop.bn);
  if (!dev::layout::gemm_wgmma_shape(bm, bk, bn, threads, loop.stages))
    return std::nullopt;
  auto a = tensorMapLoad(f, grid, loop.a, dev::layout::block_row_bytes(bk * 2));
  auto b = tensorMapLoad(f, grid, loop.b, dev::layout::block_row_bytes(bn * 2));
  if (!a || !b)
    return std::nullopt;
  return std::make_pair(*a, *b);
}

namespace {

/// True when nothing in `body` accesses the stages of `buffers` but the tensor cores through
/// wgmma descriptors: every view of such a stage is the B operand of a wgmma product
/// (wgmmaProduct), or its A operand where A is swizzled in shared memory too, not transposed
/// (the shared-A product reads both through descriptors; ntc::dev::dot_into_shared). A thread that
/// loads such a stage (ldmatrix for mma.sync, an elementwise use) reads it through the generic
/// proxy, which its wait must order before the copy engine's next write (fence.proxy.async); wgmma
/// reads it through the async proxy, as the copy engine writes, and completes before the barrier
/// that precedes the refill.
bool readByTensorCoresOnly(const std::vector<Stmt> &body, const std::set<int> &buffers) {
  auto isStage = [&](const Value &v) {
    return v->kind == ValueKind::SharedStage && v->type.layout &&
           buffers.count(v->type.layout->buffer) > 0;
  };
  auto throughDescriptor = [](const Value &user, size_t operand) {
    if (user->kind != ValueKind::Dot || !wgmmaProduct(user))
      return false;
    if (operand == 1)
      return true;
    const LayoutRef &a = user->operands[0]->type.layout;
    return operand == 0 && a && a->kind == TileLayout::Kind::Shared && a->swizzle != 0 &&
           !a->transposed;
  };
  bool only = true;
  forEachStmt(body, [&](const Stmt &s) {
    if (s->value && isStage(s->value))
      only = false; // a statement of the stage itself (a definition or a store of it)
    return true;
  });
  forEachValue(body, [&](const Value &user) {
    for (size_t k = 0; k < user->operands.size(); ++k)
      if (isStage(user->operands[k]) && !throughDescriptor(user, k))
        only = false;
  });
  return only;
}

} // namespace

TensorMapPlan useTensorMaps(const kir::Function &laid, const GridInfo &grid, int threads,
                            int64_t scratchBytes, int64_t sharedBytes, const GpuTarget &gpu) {
  TensorMapPlan plan{laid, sharedBytes};
  if (gpu.knobs.tma != 1 || !gpu.hasHopper())
    return plan;
  Function &f = plan.function;
  std::map<int, std::set<int>> tmaBuffers; // group -> buffers copied by TMA
  std::map<int, int> stagesOf;             // group -> stages
  std::set<int> asyncGroups;               // groups that keep cp.async copies
  std::vector<TmaRing> dotRings;           // the rings of GEMM main loops by TMA
  int nextGroup = 0;
  forEachStmt(laid.body, [&](const Stmt &s) {
    nextGroup = std::max(nextGroup, s->group + 1);
    return true;
  });
  auto mapIndex = [&](const TensorMapUse &use) {
    for (size_t m = 0; m < f.tensorMaps.size(); ++m) {
      const TensorMapUse &u = f.tensorMaps[m];
      if (u.param == use.param && u.box == use.box && u.swizzleBytes == use.swizzleBytes)
        return static_cast<int>(m);
    }
    f.tensorMaps.push_back(use);
    return static_cast<int>(f.tensorMaps.size()) - 1;
  };
  // A store is staged in the scratch region at offset 0, which holds nothing between statements,
  // when its tile fits there: a region of its own would cost the program shared memory, hence
  // programs per multiprocessor, for the whole of its run.
  // A value of another element type than the parameter's is converted in registers first (the
  // conversion the threads' store would make element by element), so that the copy engine
  // stores the staged tile as it is.
  auto store = [&](const Stmt &s) {
    const Stmt converted = withStoredElementType(laid, s);
    std::optional<TensorMapCopy> copy = tensorMapStore(laid, grid, *converted);
    if (!copy)
      return s;
    const TileType &type = converted->value->type;
    const int64_t bytes =
        type.shape[0].constValue() * type.shape[1].constValue() * dtypeBytes(type.dtype);
    return bytes <= scratchBytes ? withTensorMap(converted, mapIndex(copy->map)) : s;
  };
  std::function<std::vector<Stmt>(const std::vector<Stmt> &)> rewrite =
      [&](const std::vector<Stmt> &body) {
        std::vector<Stmt> out;
        for (const Stmt &s : body) {
          if (s->kind == StmtKind::For) {
            // A GEMM main loop (one dot_loop) with both operands by TMA.
            if (auto loop = planDotLoop(s, threads, gpu))
              if (auto maps = dotLoopTensorMaps(laid, grid, *loop, threads)) {
                TmaRing ring;
                ring.group = nextGroup++;
                ring.stages = loop->stages;
                ring.arrivals = 2;
                ring.releasers = threads / 32;
                ring.operandMaps = {mapIndex(maps->first.map), mapIndex(maps->second.map)};
                if (auto shared =
                        clusterSharedOperand(*s, *loop, *maps, laid, grid, gpu.knobs.cluster)) {
                  ring.cluster = gpu.knobs.cluster;
                  ring.multicastOperand = *shared;
                  ring.releasers *= ring.cluster; // every warp releases on every CTA's ring
                }
                dotRings.push_back(ring);
                out.push_back(withGroup(s, ring.group));
                continue;
              }
            out.push_back(makeFor(s->var, s->begin, s->end, s->step, rewrite(s->body)));
            continue;
          }
          if (s->kind == StmtKind::If) {
            out.push_back(makeIf(s->cond, rewrite(s->body), rewrite(s->orelse)));
            continue;
          }
          if (s->kind == StmtKind::Store) {
            out.push_back(store(s));
            continue;
          }
          if (s->kind != StmtKind::AsyncCopy) {
            out.push_back(s);
            continue;
          }
          std::optional<TensorMapCopy> copy = tensorMapCopy(laid, grid, *s);
          if (!copy || s->group < 0) {
            asyncGroups.insert(s->group);
            out.push_back(s);
            continue;
          }
          const int index = mapIndex(copy->map);
          const LayoutRef &layout = s->value->type.layout;
          tmaBuffers[s->group].insert(layout->buffer);
          stagesOf[s->group] = layout->stages;
          out.push_back(withTensorMap(s, index));
        }
        return out;
      };
  f.body = rewrite(laid.body);
  // The pipelined loops' rings (before the GEMM loops', as numbered), then every ring's
  // barriers after the program's shared memory.
  std::vector<TmaRing> rings;
  for (const auto &[group, buffers] : tmaBuffers) {
    TmaRing ring;
    ring.group = group;
    ring.stages = stagesOf[group];
    ring.arrivals = static_cast<int>(buffers.size());
    ring.asyncCopiesToo = asyncGroups.count(group) > 0;
    ring.tensorCoreReadsOnly = readByTensorCoresOnly(f.body, buffers);
    rings.push_back(ring);
  }
  rings.insert(rings.end(), dotRings.begin(), dotRings.end());
  f.tmaRings = std::move(rings);
  const int64_t end = placeRingBarriers(f, sharedBytes);
  if (!f.tensorMaps.empty())
    plan.totalBytes = end;
  return plan;
}

int64_t placeRingBarriers(kir::Function &f, int64_t sharedBytes) {
  int64_t offset = (sharedBytes + 7) / 8 * 8;
  for (TmaRing &ring : f.tmaRings) {
    ring.byteOffset = offset;
    offset += 8 * ring.stages * (ring.releasers > 0 ? 2 : 1);
  }
  return offset;
}

int clusterSize(const kir::Function &f) {
  int cluster = 1;
  for (const TmaRing &ring : f.tmaRings)
    cluster = std::max(cluster, ring.cluster);
  return cluster;
}

} // namespace ntc::passes

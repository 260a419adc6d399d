//===- ChooseMinBlocks.cpp - programs per SM that ptxas keeps registers for -===//
//
// Without a second `__launch_bounds__` argument ptxas sizes a program's registers for the
// program alone: a change as small as where a copy's fallback computes its indices moved
// attention's d = 64 program from 114 to 131 registers per thread, three programs per SM
// instead of four, although it fits 113 when asked. The occupancy the program was planned for
// is the compiler's to state. This pass asks for as many resident programs as shared memory
// allows, so long as each thread keeps at least 128 registers and room for its tiles, by the
// smaller of two estimates: twice what its tiles hold across the iterations of a loop
// (loop-carried accumulators and statistics, and the loop-invariant operands the loop reads) or
// in the largest single tile, which leaves the other half for one iteration's temporaries; or
// that plus the largest local an iteration defines (a product's result, the probabilities of a
// softmax) with registers to spare for addresses, masks and indices: 40 where the threads issue
// the loop's copies, 24 where TMA does. A program of tiles too large for both gets no request
// (0), as before.
//
// The second estimate came with the twenty-eighth session: the first alone left attention's
// 128×64 TMA program at head dimension 128 (66 registers carried, 32 for a step's scores)
// without a request. ptxas gave it 127 registers on its own, two programs per SM, but 131 after
// a device-library change that removed a branch: one per SM. Asked for two, it takes 127 and
// spills nothing; its twins that copy by threads would spill (16-52 bytes), and the estimate
// leaves them without a request.
//
// Two kinds of programs get none either, because their registers go where the tile estimate
// does not look: a program without tensor-core products (a softmax row read element by element
// spends them on per-element addresses and masks), and, by the printer, the instantiation of
// 64-bit indices (tensors of 2^31 elements and more; its index arithmetic made attention's
// d = 64 program spill under the cap).
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include <algorithm>
#include <map>
#include <set>

namespace ntc::passes {

namespace {

using namespace kir;

/// Registers per SM on every architecture ntc compiles for (sm_80 to sm_120).
constexpr int64_t kRegistersPerMultiprocessor = 64 * 1024;
/// Resident threads per SM on every such architecture (sm_86, sm_89 and sm_120 have the fewest).
constexpr int64_t kThreadsPerMultiprocessor = 1536;
/// Shared memory the system reserves per resident block (CUDA C++ Programming Guide).
constexpr int64_t kReservedSharedPerBlock = 1024;
/// The fewest registers per thread this pass asks ptxas to make do with.
constexpr int64_t kRegisterFloor = 128;
/// Registers ptxas may allocate a thread.
constexpr int64_t kRegisterCeiling = 255;
/// Registers per thread left for addresses, masks, indices and loop counters beside the tiles,
/// where the threads issue a loop's copies themselves (each computing its chunks' addresses and
/// masks) and where TMA does (one thread, a few coordinates).
constexpr int64_t kScalarRegistersCopying = 40;
constexpr int64_t kScalarRegistersTma = 24;

/// 32-bit registers per thread that a tile of type `t` takes when spread over `threads` (none
/// for a tile resident in shared memory).
int64_t registersPerThread(const TileType &t, int threads) {
  if (t.layout && t.layout->kind == TileLayout::Kind::Shared)
    return 0;
  const int64_t bytes = shapeElements(t.shape) * dtypeBytes(t.dtype);
  return std::max<int64_t>(1, (bytes + 4 * threads - 1) / (4 * threads));
}

/// Registers per thread of a program's tiles: those that live across a loop's iterations, the
/// largest local one iteration defines, and the largest single tile.
class StateEstimate {
public:
  StateEstimate(const Function &f, int threads) : threads_(threads) { walk(f.body, {}, false); }
  /// Registers a thread needs for its tiles plus `scalars`: the smaller of two estimates, twice
  /// what lives across iterations (or the largest tile), and that plus the largest local of an
  /// iteration (or the largest tile) plus the scalars.
  int64_t registers(int64_t scalars) const {
    int64_t carried = 0;
    for (const auto &[name, regs] : live_)
      carried += regs;
    return std::min(2 * std::max(carried, largest_),
                    std::max(carried + largestIterationLocal_, largest_) + scalars);
  }

private:
  /// `outer`: the locals defined before the loops that enclose `body`; `inLoop`: whether any does.
  void walk(const std::vector<Stmt> &body, std::set<std::string> outer, bool inLoop) {
    for (const Stmt &s : body) {
      if (s->value)
        forEachValue(s->value, [&](const Value &v) {
          largest_ = std::max(largest_, registersPerThread(v->type, threads_));
          if (v->kind == ValueKind::Local && outer.count(v->local))
            live_[v->local] = types_.at(v->local);
        });
      switch (s->kind) {
      case StmtKind::Define:
        types_[s->var] = registersPerThread(s->value->type, threads_);
        if (inLoop)
          largestIterationLocal_ = std::max(largestIterationLocal_, types_[s->var]);
        break;
      case StmtKind::Assign:
      case StmtKind::DotIssue:
        if (outer.count(s->var))
          live_[s->var] = types_.at(s->var);
        break;
      case StmtKind::For: {
        std::set<std::string> enclosing = outer;
        for (const auto &[name, regs] : types_)
          enclosing.insert(name);
        walk(s->body, enclosing, true);
        break;
      }
      case StmtKind::If:
        walk(s->body, outer, inLoop);
        walk(s->orelse, outer, inLoop);
        break;
      default:
        break;
      }
    }
  }

  int threads_;
  std::map<std::string, int64_t> types_; ///< registers per thread of each local
  std::map<std::string, int64_t> live_;  ///< locals that live across a loop's iterations
  int64_t largestIterationLocal_ = 0;    ///< the largest local defined inside a loop
  int64_t largest_ = 0;
};

} // namespace

int minBlocksPerMultiprocessor(const kir::Function &laidOut, int blockThreads, int64_t sharedBytes,
                               const GpuTarget &gpu) {
  bool tensorCores = false;
  forEachValue(laidOut.body, [&](const Value &v) {
    tensorCores = tensorCores ||
                  (v->kind == ValueKind::Dot && v->type.layout && v->type.layout->tensorCore());
  });
  if (!tensorCores)
    return 0;
  const int64_t needed =
      StateEstimate(laidOut, blockThreads)
          .registers(laidOut.tensorMaps.empty() ? kScalarRegistersCopying : kScalarRegistersTma);
  const int64_t bySharedMemory =
      gpu.tuning().sharedPerMultiprocessor / (sharedBytes + kReservedSharedPerBlock);
  const int64_t byThreads = kThreadsPerMultiprocessor / blockThreads;
  for (int64_t n = std::min(bySharedMemory, byThreads); n > 1; --n) {
    const int64_t budget =
        std::min(kRegisterCeiling, kRegistersPerMultiprocessor / (n * blockThreads) / 8 * 8);
    if (budget >= kRegisterFloor && budget >= needed)
      return static_cast<int>(n);
  }
  return 0;
}

} // namespace ntc::passes

//===- SpecializeProducer.cpp - a producer warpgroup for a released loop ---===//
//
// release-stages (knob release=1) has the warp that releases a stage last refill it: that warp,
// one of the program's consumers, computes the copies' coordinates and issues them between its
// products and its softmax. With the knob `producer=1` this pass gives the copies of the
// program's released ring to a producer warpgroup after the program's threads, as
// FlashAttention-3's and CUTLASS's warp-specialized kernels do:
//
//   the producer (its first thread)              the consumers (the program's threads)
//   copies of iterations b … b+S-1               (no copies)
//   for i in range(b, e):                        for i in range(b, e):
//     stage_acquire iteration=i:                   async_wait iteration=i
//       copies of the refill of iteration i          …
//                                                  stage_release iteration=i (no refill)
//                                                  …
//
// Each consumer warp arrives on the stage's release barrier; the producer waits until all of
// them have (acquire) and then issues the same copies that the last releaser issued, each
// release acquired once and in order, so the ring's phases stay as before. The producer lowers
// its registers and the consumers raise theirs (setmaxnreg), so the block is alone on its SM.
// The consumers meet at their barriers (to_shared, layout conversions, reductions) through named
// barrier 1 over their threads (Smem::sync), which the producer never reaches.
//
// With the knob persistent=1 too the program becomes persistent, as FlashAttention-3's is: a
// grid of one block per SM whose producer and consumers each loop over the block's programs
// (blockIdx.x, blockIdx.x + gridDim.x, ...), so that the producer fills the next program's
// first stages while the consumers finish a program's last products and its epilogue. The
// stages of each program count from the ring's first again (every stage keeps its phases); the
// producer acquires a stage before every fill whose last fill it has not acquired yet (the
// prologue's, after the first program: stage_acquire), and the consumers release the stages
// they still hold after their last read of the ring in a program (stage_release_held) and meet
// at the end of each program, before the next one writes shared memory again (barrier).
//
// Accepted: sm_90a, the `_tma` program, exactly one TMA ring, refilled by its last releaser, in
// no cluster, with no cp.async copies, its stages read by wgmma alone (a consumer's release then
// orders nothing of its own before the producer's next copy); no Barrier statement, no cp.async
// copy, no TMA store and no jagged parameter; the ring's copies are top-level statements before the
// loop (its prologue) and the refills of StageRelease statements at the top level of one top-level
// loop; the loop's bounds and the copies' coordinates and conditions depend on the loop index, the
// program coordinates and the sizes alone (the producer computes them without the body). Otherwise
// the function is returned unchanged (the knob changes nothing, as tma=1 on sm_80).
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include <algorithm>

namespace ntc::passes {

namespace {

using namespace kir;

/// True when a statement of `body` (nested bodies included) keeps the consumers from running
/// without the producer: a barrier of the whole block, a cp.async copy (its waits are barriers of
/// the whole block), a TMA store, or a copy of ring `group` outside a stage release.
bool needsWholeBlock(const std::vector<Stmt> &body, int group) {
  bool found = false;
  forEachStmt(body, [&](const Stmt &s) {
    found = found || s->kind == StmtKind::Barrier ||
            (s->kind == StmtKind::AsyncCopy && (s->tensorMap < 0 || s->group != group)) ||
            (s->kind == StmtKind::Store && s->tensorMap >= 0) || s->kind == StmtKind::StageAcquire;
    return s->kind != StmtKind::StageRelease; // a release's refill is the producer's
  });
  return found;
}

/// True when statement `s` (nested bodies included) reads a stage of a ring or waits for one.
bool readsStages(const Stmt &s) {
  bool reads = false;
  forEachStmt({s}, [&](const Stmt &t) {
    reads = reads || t->kind == StmtKind::AsyncWait;
    return true;
  });
  forEachValue({s}, [&](const Value &v) { reads = reads || v->kind == ValueKind::SharedStage; });
  return reads;
}

/// The prologue's copies `prologue` (in iteration order), each iteration's behind an acquire of
/// its stage (a persistent producer's: the stage's last fill, of the block's previous program,
/// may still be read).
std::vector<Stmt> acquiredPrologue(const std::vector<Stmt> &prologue, int group) {
  std::vector<Stmt> acquired, copies;
  const auto flush = [&] {
    if (copies.empty())
      return;
    const Value &staged = copies.front()->value;
    acquired.push_back(makeStageAcquire(staged->integer, staged->integer2, group, copies));
    copies.clear();
  };
  for (const Stmt &s : prologue) {
    if (!copies.empty() && copies.front()->begin.str() != s->begin.str())
      flush();
    copies.push_back(s);
  }
  flush();
  return acquired;
}

/// True when a thread that knows `known` alone can issue ring copy `s`.
bool producerIssues(const Function &f, const GridInfo &grid, const StmtNode &s,
                    const std::set<std::string> &known) {
  const std::optional<TensorMapCopy> copy = tensorMapCopy(f, grid, s);
  return copy && producerComputes(*copy, known) && producerComputes(s.begin, known) &&
         producerComputes(s.end, known);
}

} // namespace

std::optional<kir::Function> specializeProducer(const kir::Function &tma, const GridInfo &grid,
                                                int threads, int64_t totalBytes,
                                                const GpuTarget &gpu) {
  if (gpu.knobs.producer != 1 || !gpu.hasHopper() || threads % 128 != 0 || tma.warpSpecialization ||
      tma.tmaRings.size() != 1 || programsPerBlock(tma, threads) != 1)
    return std::nullopt;
  const TmaRing &ring = tma.tmaRings.front();
  if (!ring.lastReleaserRefills || ring.cluster != 1 || ring.asyncCopiesToo ||
      !ring.tensorCoreReadsOnly || ring.releasers != threads / 32)
    return std::nullopt;
  for (const ParamSpec &p : tma.spec.params)
    if (p.jaggedDim)
      return std::nullopt;

  // The body: the prologue's copies, the released loop, everything else for the consumers.
  std::vector<Stmt> prologue, consumers;
  Stmt loop;
  for (const Stmt &s : tma.body) {
    if (s->kind == StmtKind::AsyncCopy && s->group == ring.group && s->tensorMap >= 0 && !loop) {
      prologue.push_back(s);
      continue;
    }
    const bool released =
        s->kind == StmtKind::For && std::any_of(s->body.begin(), s->body.end(), [&](const Stmt &t) {
          return t->kind == StmtKind::StageRelease && t->group == ring.group;
        });
    if (released && loop)
      return std::nullopt; // one released loop per program
    if (released)
      loop = s;
    else if (needsWholeBlock({s}, ring.group))
      return std::nullopt;
    consumers.push_back(s);
  }
  if (!loop || prologue.empty())
    return std::nullopt;

  // The producer's copies: the prologue's, then each iteration's refill once its stage is free.
  const std::set<std::string> known = producerSymbols(tma.spec, grid, loop->var);
  for (const Expr &bound : {loop->begin, loop->end, loop->step})
    if (!producerComputes(bound, known))
      return std::nullopt;
  for (const Stmt &s : prologue)
    if (!producerIssues(tma, grid, *s, known))
      return std::nullopt;
  std::vector<Stmt> acquires, loopBody;
  for (const Stmt &s : loop->body) {
    if (s->kind != StmtKind::StageRelease) {
      if (needsWholeBlock({s}, ring.group))
        return std::nullopt;
      loopBody.push_back(s);
      continue;
    }
    if (s->group != ring.group || !producerComputes(s->end, known) ||
        !producerComputes(s->step, known))
      return std::nullopt;
    for (const Stmt &c : s->body)
      if (!producerIssues(tma, grid, *c, known))
        return std::nullopt;
    acquires.push_back(makeStageAcquire(s->end, s->step, s->group, s->body));
    loopBody.push_back(makeStageRelease(s->end, s->step, s->group, {}));
  }
  const bool persistent = gpu.knobs.persistent == 1;
  std::vector<Stmt> producer = persistent ? acquiredPrologue(prologue, ring.group) : prologue;
  producer.push_back(makeFor(loop->var, loop->begin, loop->end, loop->step, acquires));
  StmtNode consumerLoop = *loop;
  consumerLoop.body = std::move(loopBody);
  for (Stmt &s : consumers)
    if (s == loop)
      s = std::make_shared<const StmtNode>(std::move(consumerLoop));
  if (persistent) {
    // The stages still held, released after the program's last read of the ring; the next
    // program's statements, after every consumer is done with this one's shared memory.
    size_t lastRead = 0;
    for (size_t i = 0; i < consumers.size(); ++i)
      if (readsStages(consumers[i]))
        lastRead = i;
    consumers.insert(consumers.begin() + static_cast<std::ptrdiff_t>(lastRead) + 1,
                     makeStageReleaseHeld(ring.group));
    consumers.push_back(makeBarrier());
  }

  WarpSpecialization w = warpRoles(threads);
  w.persistent = persistent;
  w.producerBody = std::move(producer);
  w.totalBytes = totalBytes;
  kir::Function f = tma;
  f.body = std::move(consumers);
  TmaRing &r = f.tmaRings.front();
  r.lastReleaserRefills = false; // the consumers release, the producer acquires
  f.warpSpecialization = std::move(w);
  return f;
}

} // namespace ntc::passes

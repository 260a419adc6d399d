//===- ReleaseStages.cpp - stages refilled by the warp that releases them last -------===//
//
// pipeline-loads refills a stage the way cp.async needs: at the top of each iteration the
// program waits for the stage's copies, then a barrier of every thread, then thread 0 copies
// the tiles of iteration i + S - 1 into the stage that iteration i - 1 read. Once use-tensor-maps
// has made every copy of a loop a TMA copy, that barrier serves only to keep a stage from being
// refilled while a warp still reads it, and it costs the loop its warps' independence: every
// warp waits for the slowest one each iteration, so the two warpgroups of an attention program
// run their softmax at the same time and leave the tensor cores idle together.
//
// This pass gives such a loop releases instead (ntc::dev::tma_ring's last-releaser refills):
//
//   copies of iterations b … b+S-2                copies of iterations b … b+S-1
//   for i in range(b, e):                          for i in range(b, e):
//     async_wait … iteration=i   (and a barrier)     async_wait … iteration=i   (no barrier)
//     async_copy X(i+S-1) …                          body up to its last read of the stage
//     async_commit                                   stage_release iteration=i:
//     body                                             async_copy X(i+S) …
//                                                    the rest of the body
//
// Each warp releases the stage once the statement that reads it last has completed (a product
// waits for its wgmma group within its statement); the warp whose release is the last of the
// program's issues the stage's next copies at once. No warp waits for another except for data:
// the pipeline is as deep as before (S - 1 iterations in flight while one is read).
//
// A candidate loop starts with its ring's wait, then the ring's copies (all by TMA) and a
// commit; its ring is not a GEMM main loop's (those release to their issuer already) and has
// no cp.async copies; the rest of its body holds no copy, wait, barrier or product in flight
// and reads the ring's stages; it is in no other loop (its first copies would need every warp
// past its last iteration of the previous round). A loop that overlap-products rotated at level
// 2 is a candidate of its own shape (releaseRotated): each warp releases the stage of iteration
// i once that iteration's last product is complete. Loops rotated at level 1 keep their
// barriers. GPU, sm_90a, the `_tma` program only, after use-tensor-maps, with the configuration
// knob `release=1` (LaunchKnobs::release).
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include <set>

namespace ntc::passes {

namespace {

using namespace kir;

/// True when statement `s` (nested bodies included) reads a stage of one of `buffers`.
bool readsStage(const Stmt &s, const std::set<int> &buffers) {
  bool found = false;
  forEachStmt({s}, [&](const Stmt &t) {
    if (t->value)
      forEachValue(t->value, [&](const Value &v) {
        found = found || (v->kind == ValueKind::SharedStage && v->type.layout &&
                          buffers.count(v->type.layout->buffer) > 0);
      });
    return true;
  });
  return found;
}

/// True when statement `s` (nested bodies included) orders copies or products itself.
bool synchronizes(const Stmt &s) {
  bool found = false;
  forEachStmt({s}, [&](const Stmt &t) {
    found = found || t->kind == StmtKind::AsyncCopy || t->kind == StmtKind::AsyncWait ||
            t->kind == StmtKind::AsyncCommit || t->kind == StmtKind::DotIssue ||
            t->kind == StmtKind::DotWait || t->kind == StmtKind::Barrier ||
            t->kind == StmtKind::StageRelease || (t->kind == StmtKind::For && t->group >= 0);
    return true;
  });
  return found;
}

/// True when `s` is a TMA copy of pipelined loop `group`.
bool isRingCopy(const Stmt &s, int group) {
  return s->kind == StmtKind::AsyncCopy && s->group == group && s->tensorMap >= 0;
}

/// The TMA copies of pipelined loop `group` from stmts[k] on; `k` moves past them.
std::vector<Stmt> takeRingCopies(const std::vector<Stmt> &stmts, size_t &k, int group) {
  std::vector<Stmt> copies;
  while (k < stmts.size() && isRingCopy(stmts[k], group))
    copies.push_back(stmts[k++]);
  return copies;
}

class Releaser {
public:
  explicit Releaser(Function &f) : f_(f) {}

  /// `body` with every candidate loop released (loops in another loop are left alone).
  std::vector<Stmt> stmts(const std::vector<Stmt> &body) {
    return rewriteLoops(body, [&](const Stmt &loop, int depth, std::vector<Stmt> &out) {
      return depth == 0 && loop->group < 0 && (release(loop, out) || releaseRotated(loop, out));
    });
  }

  /// The groups whose rings now refill by releases.
  const std::set<int> &released() const { return released_; }

private:
  /// The ring of pipelined loop `group` when its copies are all by TMA and nothing releases it.
  TmaRing *plainRing(int group) {
    for (TmaRing &r : f_.tmaRings)
      if (r.group == group && r.releasers == 0 && !r.asyncCopiesToo && r.operandMaps.empty() &&
          r.cluster == 1 && r.stages >= 2)
        return &r;
    return nullptr;
  }

  /// Appends the released form of `loop` (its prologue's last copies first) to `out` and
  /// returns true when it is a candidate.
  bool release(const Stmt &loop, std::vector<Stmt> &out) {
    const std::vector<Stmt> &body = loop->body;
    if (body.empty() || body[0]->kind != StmtKind::AsyncWait)
      return false;
    const StmtNode &wait = *body[0];
    if (!plainRing(wait.group))
      return false;
    size_t k = 1;
    const std::vector<Stmt> copies = takeRingCopies(body, k, wait.group);
    if (copies.empty() || k >= body.size() || body[k]->kind != StmtKind::AsyncCommit)
      return false;
    std::set<int> buffers;
    for (const Stmt &c : copies) {
      if (!c->value->type.layout)
        return false;
      buffers.insert(c->value->type.layout->buffer);
    }
    const std::vector<Stmt> rest(body.begin() + static_cast<std::ptrdiff_t>(k) + 1, body.end());
    size_t last = rest.size();
    for (size_t j = 0; j < rest.size(); ++j) {
      if (synchronizes(rest[j]))
        return false;
      if (readsStage(rest[j], buffers))
        last = j;
    }
    if (last == rest.size())
      return false;

    const std::string &i = loop->var;
    // The copies of the loop's S-th iteration join the prologue (they went out at the top of
    // iteration b + 1 before).
    const std::vector<Stmt> first = substituteSymbol(i, loop->begin, copies);
    out.insert(out.end(), first.begin(), first.end());
    std::vector<Stmt> released{body[0]};
    released.insert(released.end(), rest.begin(),
                    rest.begin() + static_cast<std::ptrdiff_t>(last) + 1);
    released.push_back(
        makeStageRelease(Expr::symbol(i), wait.step, wait.group,
                         substituteSymbol(i, Expr::symbol(i) + Expr(int64_t{1}), copies)));
    released.insert(released.end(), rest.begin() + static_cast<std::ptrdiff_t>(last) + 1,
                    rest.end());
    out.push_back(makeFor(i, loop->begin, loop->end, loop->step, released));
    released_.insert(wait.group);
    return true;
  }

  /// Appends the released form of `loop` to `out` and returns true when it is a loop that
  /// overlap-products rotated at level 2 and `out` ends with its prologue (the first
  /// iteration's wait, the copies of iteration b + S - 1 in two commits, head and middle):
  ///
  ///   if b < e:                               copies of iteration b + S - 1
  ///     async_wait iteration=b                if b < e:
  ///     K(b+S-1) ; commit ; V(b+S-1) ; commit   async_wait iteration=b   (no barrier)
  ///     head(b) ; middle(b)                     head(b) ; middle(b)
  ///   for i in range(b, e - 1):               for i in range(b, e - 1):
  ///     async_wait iteration=i+1                async_wait iteration=i+1 (no barrier)
  ///     K(i+S) ; commit                         ... ; dot_wait %acc
  ///     ... ; dot_wait %acc ; barrier           stage_release iteration=i:
  ///     V(i+S) ; commit                           K(i+S) ; V(i+S)
  ///
  /// Once the last product of iteration i is complete, no warp reads stage i again: the first
  /// product of iteration i completed in iteration i - 1 (or in the prologue), before the
  /// middle. The barrier that guarded V's copy goes, and so does the one of each wait.
  bool releaseRotated(const Stmt &loop, std::vector<Stmt> &out) {
    const std::vector<Stmt> &body = loop->body;
    if (out.empty() || out.back()->kind != StmtKind::If || body.size() < 6 ||
        body[0]->kind != StmtKind::AsyncWait || !plainRing(body[0]->group))
      return false;
    const int group = body[0]->group;
    // The top: the wait, the first product's copies, a commit.
    size_t k = 1;
    std::vector<Stmt> refill = takeRingCopies(body, k, group);
    if (refill.empty() || k >= body.size() || body[k]->kind != StmtKind::AsyncCommit)
      return false;
    const size_t top = k + 1;
    // The bottom: dot_wait of the last product, a barrier, the last product's copies, a commit.
    size_t end = body.size() - 1;
    if (body[end]->kind != StmtKind::AsyncCommit)
      return false;
    size_t j = end;
    while (j > top && isRingCopy(body[j - 1], group))
      --j;
    if (j == end || j < top + 2 || body[j - 1]->kind != StmtKind::Barrier ||
        body[j - 2]->kind != StmtKind::DotWait || !body[j - 2]->registerOperand)
      return false;
    refill.insert(refill.end(), body.begin() + static_cast<std::ptrdiff_t>(j),
                  body.begin() + static_cast<std::ptrdiff_t>(end));
    const std::vector<Stmt> middle(body.begin() + static_cast<std::ptrdiff_t>(top),
                                   body.begin() + static_cast<std::ptrdiff_t>(j) - 1);
    for (const Stmt &s : middle)
      if (s->kind != StmtKind::DotIssue && s->kind != StmtKind::DotWait && synchronizes(s))
        return false;
    // The prologue: its wait, then its copies in two commits, then statements that do not
    // synchronize but by completing products.
    const Stmt prologue = out.back(); // a copy: out.pop_back() below releases its slot
    const std::vector<Stmt> &p = prologue->body;
    if (!prologue->orelse.empty() || p.empty() || p[0]->kind != StmtKind::AsyncWait ||
        p[0]->group != group)
      return false;
    std::vector<Stmt> first, kept{p[0]};
    size_t q = 1;
    for (int commits = 0; commits < 2; ++commits) {
      const std::vector<Stmt> copies = takeRingCopies(p, q, group);
      first.insert(first.end(), copies.begin(), copies.end());
      if (q >= p.size() || p[q]->kind != StmtKind::AsyncCommit)
        return false;
      ++q;
    }
    for (; q < p.size(); ++q) {
      if (synchronizes(p[q]))
        return false;
      kept.push_back(p[q]);
    }
    if (first.size() != refill.size())
      return false;

    const std::string &i = loop->var;
    out.pop_back();
    out.insert(out.end(), first.begin(), first.end());
    out.push_back(makeIf(prologue->cond, kept, {}));
    std::vector<Stmt> released{body[0]};
    released.insert(released.end(), middle.begin(), middle.end());
    released.push_back(makeStageRelease(Expr::symbol(i), body[0]->step, group, refill));
    out.push_back(makeFor(i, loop->begin, loop->end, loop->step, released));
    released_.insert(group);
    return true;
  }

  Function &f_;
  std::set<int> released_;
};

} // namespace

TensorMapPlan releaseStages(const TensorMapPlan &plan, int threads, const GpuTarget &gpu) {
  if (gpu.knobs.release != 1 || plan.function.tmaRings.empty() || threads % 32 != 0)
    return plan;
  TensorMapPlan out = plan;
  Function &f = out.function;
  Releaser releaser(f);
  f.body = releaser.stmts(f.body);
  if (releaser.released().empty())
    return plan;
  // placeRingBarriers laid the rings out in order from the first one's offset.
  const int64_t barriers = f.tmaRings.front().byteOffset;
  for (TmaRing &ring : f.tmaRings)
    if (releaser.released().count(ring.group)) {
      ring.releasers = threads / 32;
      ring.lastReleaserRefills = true;
    }
  out.totalBytes = placeRingBarriers(f, barriers);
  return out;
}

} // namespace ntc::passes

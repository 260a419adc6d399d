//===- AlternateWarpgroups.cpp - warpgroups taking turns at the tensor cores ----------===//
//
// In a loop that overlap-products rotated at level 2 and release-stages freed of barriers, each
// warpgroup of an attention program issues its two products (the next iteration's first, this
// iteration's last), then runs the middle (the softmax) while the last is in flight. The
// warpgroups run the same statements at about the same time, so their softmaxes coincide and
// leave the tensor cores idle together. FlashAttention-3 has them take turns ("ping-pong"): a
// warpgroup issues its products only after the one before it has issued its own, so that one
// warpgroup's softmax runs while the next one's products occupy the tensor cores.
//
//   turn_pass warpgroup=W-1              (the last warpgroup lets the first one go first)
//   for i in range(b, e):                 for i in range(b, e):
//     async_wait … iteration=i+1            async_wait … iteration=i+1
//     dot_issue %s <- …                     turn_wait
//     dot_issue %acc <- …          ->       dot_issue %s <- …
//     the middle, the waits                 dot_issue %acc <- …
//     stage_release …                       turn_pass
//                                           the middle, the waits, stage_release …
//                                         turn_wait warpgroup=0  (takes the last turn passed)
//
// Warpgroup w waits on named barrier 2 + w, which the warpgroup before it arrives at once it has
// issued: the turns go round the warpgroups in order, each at most one ahead of the next. The
// final wait of warpgroup 0 matches the last warpgroup's last pass, so every barrier is left as
// it started.
//
// A candidate loop is at the top level of the function, issues products at its own top level
// (dot_issue), releases its stages (stage_release; its waits are then no barriers) and holds no
// barrier, no nested loop and no operation that exchanges elements through shared memory (each
// of those is a barrier of every thread, at which the turns would stop). GPU, sm_90a, the `_tma`
// program only, after release-stages, with the configuration knob `pingpong=1` and two
// warpgroups or more; otherwise the function is returned unchanged.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

namespace ntc::passes {

namespace {

using namespace kir;

/// True when `loop`'s warpgroups may take turns at its products (see the file comment).
bool takesTurns(const Function &f, const Stmt &loop, int threads) {
  if (loop->kind != StmtKind::For)
    return false;
  bool issues = false, releases = false, blocks = false;
  for (const Stmt &s : loop->body) {
    issues = issues || s->kind == StmtKind::DotIssue;
    releases = releases || s->kind == StmtKind::StageRelease;
  }
  forEachStmt(loop->body, [&](const Stmt &s) {
    const TmaRing *ring = nullptr;
    for (const TmaRing &r : f.tmaRings)
      ring = r.group == s->group ? &r : ring;
    const bool releasedWait = s->kind == StmtKind::AsyncWait && ring && ring->lastReleaserRefills &&
                              !ring->asyncCopiesToo;
    blocks = blocks || s->kind == StmtKind::Barrier || s->kind == StmtKind::For ||
             s->kind == StmtKind::TurnWait || s->kind == StmtKind::TurnPass ||
             (s->kind == StmtKind::AsyncWait && !releasedWait);
    return true;
  });
  forEachValue(loop->body,
               [&](const Value &v) { blocks = blocks || exchangesThroughShared(v, threads); });
  return issues && releases && !blocks;
}

/// The loop's body with a turn around its products: a wait before the first dot_issue, a pass
/// after the last.
std::vector<Stmt> withTurns(const std::vector<Stmt> &body, int warpgroups) {
  size_t first = body.size(), last = 0;
  for (size_t i = 0; i < body.size(); ++i)
    if (body[i]->kind == StmtKind::DotIssue) {
      first = std::min(first, i);
      last = i;
    }
  std::vector<Stmt> out(body.begin(), body.begin() + static_cast<std::ptrdiff_t>(first));
  out.push_back(makeTurnWait(warpgroups));
  out.insert(out.end(), body.begin() + static_cast<std::ptrdiff_t>(first),
             body.begin() + static_cast<std::ptrdiff_t>(last) + 1);
  out.push_back(makeTurnPass(warpgroups));
  out.insert(out.end(), body.begin() + static_cast<std::ptrdiff_t>(last) + 1, body.end());
  return out;
}

} // namespace

kir::Function alternateWarpgroups(const kir::Function &f, int threads, const GpuTarget &gpu) {
  const int warpgroups = threads / 128;
  if (gpu.knobs.pingpong != 1 || !gpu.hasHopper() || threads % 128 != 0 || warpgroups < 2)
    return f;
  Function out = f;
  out.body.clear();
  for (const Stmt &s : f.body) {
    if (!takesTurns(f, s, threads)) {
      out.body.push_back(s);
      continue;
    }
    out.body.push_back(makeTurnPass(warpgroups, warpgroups - 1));
    out.body.push_back(makeFor(s->var, s->begin, s->end, s->step, withTurns(s->body, warpgroups)));
    out.body.push_back(makeTurnWait(warpgroups, 0));
  }
  return out;
}

} // namespace ntc::passes

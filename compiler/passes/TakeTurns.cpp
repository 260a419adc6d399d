//===- TakeTurns.cpp - warpgroups issuing a loop's products one after the other ------===//
//
// In attention's pipelined loop both warpgroups of a 128-row program start an iteration
// together (the barrier of the ring's wait) and issue their first product (QK) at once: the
// tensor cores interleave the two wgmma chains, both complete about together, and both
// warpgroups then run their softmax while the tensor cores idle, unless another program on the
// SM fills them. FlashAttention-3 orders the warpgroups' products ("ping-pong"): the second
// warpgroup issues only once the first has issued, so the first chain completes after half the
// time and the first warpgroup's softmax runs under the second one's product.
//
// With the configuration knob `turns=1` this pass marks the products of such loops
// (ValueNode::turn): warpgroup w > 0 waits on named barrier `turn + w - 1` before issuing its
// wgmma chain, and warpgroup w < W - 1 arrives on barrier `turn + w` once it has issued its
// own (ntc::dev::turn). Each product of a loop has barriers of its own, so that a warpgroup's
// arrival for one product is never counted for another.
//
//   for i in range(b, e):                  for i in range(b, e):
//     async_wait … (a barrier)               async_wait …
//     …                                      …
//     %s = dot(%q, K(i))            ->       %s = dot(%q, K(i), turn=2)
//     …                                      …
//     %acc <- dot(p, V(i), acc')             %acc <- dot(p, V(i), acc', turn=3)
//
// A warpgroup arrives at most once on a barrier between two barriers of the whole program, so
// arrivals of different iterations are never counted together: a candidate loop starts each
// iteration with a wait that is a barrier of the program (not a ring refilled by releases), has
// no product already issued apart (overlap-products' dot_issue), and its marked products stand
// at the top level of its body (every warpgroup runs each of them exactly once per iteration).
// A product is marked when it runs as a chain of wgmma over every warp of the program
// (wgmmaProduct, one program per block, two warpgroups or more). GPU, sm_90a, knob turns=1;
// otherwise the function is returned unchanged.
//
// Correct on the GPU but measured 10-12% slower than without it (the barrier that starts every
// iteration brings the warpgroups back together, so no ping-pong offset builds up;
// docs/decisions.md): the knob is accepted by --config and is not in the tuner's space.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

namespace ntc::passes {

namespace {

using namespace kir;

/// The first named barrier take-turns uses (0 is __syncthreads, 1 the consumers of a
/// warp-specialized program).
constexpr int kFirstTurnBarrier = 2;
/// Named barriers per block.
constexpr int kNamedBarriers = 16;

/// True when the product `v` (the root of a statement's value) runs as a chain of wgmma over the
/// `threads` threads of the program.
bool turnable(const Value &v, int threads) {
  return v->kind == ValueKind::Dot && wgmmaProduct(v) && v->type.layout->warpsM * 32 == threads;
}

/// True when `loop`'s iterations each start with a barrier of the whole program and none of its
/// products is issued apart from its wait.
bool startsWithBarrier(const Function &f, const Stmt &loop) {
  if (loop->kind != StmtKind::For || loop->body.empty() ||
      loop->body.front()->kind != StmtKind::AsyncWait)
    return false;
  for (const TmaRing &ring : f.tmaRings)
    if (ring.group == loop->body.front()->group && ring.lastReleaserRefills)
      return false; // its wait is no barrier
  bool apart = false;
  forEachStmt(loop->body, [&](const Stmt &s) {
    apart = apart || s->kind == StmtKind::DotIssue || s->kind == StmtKind::DotWait;
    return !apart;
  });
  return !apart;
}

/// `s` with its value's root product marked to take turns through barriers from `barrier` on.
Stmt withTurn(const Stmt &s, int barrier) {
  auto marked = std::make_shared<ValueNode>(*s->value);
  marked->turn = barrier;
  auto out = std::make_shared<StmtNode>(*s);
  out->value = marked;
  return out;
}

} // namespace

kir::Function takeTurns(const kir::Function &f, int threads, const GpuTarget &gpu) {
  const int warpgroups = threads / 128;
  if (gpu.knobs.turns != 1 || !gpu.tuning().wgmma() || threads % 128 != 0 || warpgroups < 2 ||
      programsPerBlock(f, threads) != 1)
    return f;
  Function out = f;
  int next = kFirstTurnBarrier;
  for (Stmt &loop : out.body) {
    if (!startsWithBarrier(f, loop))
      continue;
    std::vector<Stmt> body = loop->body;
    bool marked = false;
    for (Stmt &s : body)
      if ((s->kind == StmtKind::Define || s->kind == StmtKind::Assign) &&
          turnable(s->value, threads) && next + warpgroups - 1 <= kNamedBarriers) {
        s = withTurn(s, next);
        next += warpgroups - 1;
        marked = true;
      }
    if (marked) {
      auto turned = std::make_shared<StmtNode>(*loop);
      turned->body = std::move(body);
      loop = turned;
    }
  }
  return out;
}

} // namespace ntc::passes

//===- TakeTurns.cpp - warpgroups issuing a loop's products one after the other ------===//
//
// In attention's pipelined loop both warpgroups of a 128-row program issue their first product
// (QK) about together: the tensor cores interleave the two wgmma chains, both complete about
// together, and both warpgroups then run their softmax while the tensor cores idle, unless
// another program on the SM fills them. FlashAttention-3 orders the warpgroups' products
// ("ping-pong"): the second warpgroup issues only once the first has issued, so the first chain
// completes after half the time and the first warpgroup's softmax runs under the second one's
// product.
//
// With the configuration knob `turns=1` this pass marks the products of such loops
// (ValueNode::turn) and lists their barriers (Function::turnBarriers): warpgroup w waits on
// named barrier `turn + w` before issuing its wgmma chain and arrives on barrier
// `turn + (w + 1) % W` once it has issued it (ntc::dev::turn). The turns go round: warpgroup 0
// gets its first one at the start of the program (the last warpgroup arrives once,
// ntc::dev::turns_begin) and takes back the last one at its end (turns_end), so every barrier
// ends with as many arrivals as waits. Each turn of a loop has barriers of its own; a run of
// products issued one after the other at the top level of the body (products left in flight,
// dot_issue, then at most one completing where it stands) takes one turn, the first opening it
// and the last closing it, as in the loop that overlap-products rotated at level 2, whose
// iteration issues the next QK and the current PV back to back (FlashAttention-3's turn).
//
//   for i in range(b, e):                  # turns through barriers from 2, from 4
//     …                                    for i in range(b, e):
//     %s = dot(%q, K(i))            ->       …
//     …                                      %s = dot(%q, K(i), turn=2)
//     %acc <- dot(p, V(i), acc')             …
//                                            %acc <- dot(p, V(i), acc', turn=4)
//
//   dot_issue %s <- dot(%q, K(i+1))        dot_issue %s <- dot(%q, K(i+1), turn=2 open)
//   dot_issue %acc <- dot(p, V(i), …)  ->  dot_issue %acc <- dot(p, V(i), …, turn=2 continued)
//
// No warpgroup gets a turn ahead of the others (warpgroup w's turn k waits for warpgroup
// w - 1's turn k, warpgroup 0's for the last one's turn k - 1), so a barrier never counts the
// arrivals of two turns together, and the loop needs no barrier of the whole program to keep the
// warpgroups in step: a ring whose stages are released (release-stages) qualifies. Every wait
// is for a turn that the other warpgroup reaches earlier in the same program order, so the turns
// add no deadlock to the loop's own synchronization. The marked products stand at the top
// level of a top-level loop's body (every warpgroup runs each of them exactly once per
// iteration, in the same order). A product is marked when it runs as a chain of wgmma over
// every warp of the program (wgmmaProduct, an A operand resident in shared memory swizzled;
// one program per block, two warpgroups or more). GPU, sm_90a, knob turns=1; otherwise the
// function is returned unchanged.
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
  if (v->kind != ValueKind::Dot || !wgmmaProduct(v) || v->type.layout->warpsM * 32 != threads)
    return false;
  const LayoutRef &a = v->operands[0]->type.layout; // resident in shared memory: swizzled
  return !a || a->kind != TileLayout::Kind::Shared || a->swizzle != 0;
}

/// True when `s` issues a product that can take turns: a definition or assignment whose value is
/// one, or a dot_issue.
bool turnableStatement(const Stmt &s, int threads) {
  return (s->kind == StmtKind::Define || s->kind == StmtKind::Assign ||
          s->kind == StmtKind::DotIssue) &&
         turnable(s->value, threads);
}

/// `s` with its value's root product marked to take turns through barriers from `barrier` on,
/// opening and closing the turn as told.
Stmt withTurn(const Stmt &s, int barrier, bool opens, bool closes) {
  auto marked = std::make_shared<ValueNode>(*s->value);
  marked->turn = barrier;
  marked->turnOpens = opens;
  marked->turnCloses = closes;
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
    if (loop->kind != StmtKind::For)
      continue;
    std::vector<Stmt> body = loop->body;
    bool marked = false;
    // Each run of products issued one after the other takes one turn: products left in flight
    // (dot_issue), then at most one that completes where it stands (its wait ends the run).
    for (size_t first = 0; first < body.size();) {
      size_t end = first;
      while (end < body.size() && turnableStatement(body[end], threads))
        if (body[end++]->kind != StmtKind::DotIssue)
          break;
      if (end == first) {
        ++first;
        continue;
      }
      if (next + warpgroups > kNamedBarriers)
        break;
      for (size_t i = first; i < end; ++i)
        body[i] = withTurn(body[i], next, i == first, i + 1 == end);
      out.turnBarriers.push_back(next);
      next += warpgroups;
      marked = true;
      first = end;
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

//===- SkipUnitFactors.cpp - a carried tile's rescale skipped where it is by one ---===//
//
// Online normalizations rescale a loop-carried accumulator every iteration by a factor per row
// (or column): attention's `acc = acc * expand_dims(alpha, 1) + dot(p, v)` with
// alpha = exp2(m_i - m_ij), which is exactly one in every row whose running maximum the
// iteration did not raise. The product costs one instruction per element a thread holds (64 per
// thread and iteration at head dimension 128) where the factors a thread holds are two, and
// x * 1 is x. So such a product may test the factors instead: where every factor a warp holds
// is exactly one, the warp keeps the tile as it is (a warp vote and a uniform branch), otherwise
// it multiplies. The result is the same bit for bit, except that a NaN element keeps its payload
// instead of becoming the canonical NaN that the multiplication makes of it (as on the CPU).
//
// Measured on an H100 (docs/performance.md, thirtieth session), the form gains 2-3% at head
// dimension 128 even on data whose maximum rises at every block, where no warp ever skips: what
// it changes there is the code ptxas schedules around the product (the multiplications become a
// block of their own after the softmax's), not the work. At head dimension 64 (32 elements per
// thread) it cost 2.5% on both kinds of data. Hence the threshold below, set by those two
// measurements.
//
// The pass marks (ValueNode::unlessOne) a float `mul` found in the value of an assignment
// `L <- ...` inside a loop, where L is carried by that loop (assigned in it, defined before it),
// when
//  * one operand is L itself (the accumulator as the iteration found it) and the other a tile
//    whose layout is a Slice of the product's layout, broadcast by the product (the factors sit
//    in the registers of the threads whose elements they scale);
//  * the product's layout is an Mma layout (each element held by one thread) in which each
//    thread holds at least kMinSkippedElements elements, and each factor scales at least
//    kMinRepeats of them, so that the test (a comparison per factor, a vote, a branch) is small
//    against the multiplications.
// The factor becomes the second operand (the multiplication commutes). The printer calls
// ntc::dev::mul_unless_one. GPU only; after defer-lane-sums, before pipeline-loads and
// overlap-products (which move the assignment's value, marks included, into their own
// statements).
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include <set>

namespace ntc::passes {

namespace {

using namespace kir;

/// Fewest elements of the product per thread: 64 (head dimension 128 in attention's 128-row
/// programs) gained, 32 lost (see above).
constexpr int64_t kMinSkippedElements = 64;
/// Fewest elements each factor scales (the factors a thread tests against those it multiplies).
constexpr int64_t kMinRepeats = 16;

/// True when `factor`, an operand of product `mul`, holds factors in a Slice of `mul`'s layout (an
/// expand_dims, which the product broadcasts, or an explicit broadcast of one), each of them
/// scaling at least kMinRepeats elements.
bool isRegisterBroadcast(const Value &factor, const ValueNode &mul) {
  const Value &factors = factor->kind == ValueKind::BroadcastTo ? factor->operands[0] : factor;
  const LayoutRef &from = factors->type.layout;
  if (!from || from->kind != TileLayout::Kind::Slice || !sameLayout(from->parent, mul.type.layout))
    return false;
  return shapeElements(mul.type.shape) >= kMinRepeats * shapeElements(factors->type.shape);
}

/// True when `v` is local `name` itself.
bool isLocal(const Value &v, const std::string &name) {
  return v->kind == ValueKind::Local && v->local == name;
}

/// True when `v` is a product that the pass marks in the update of carried local `name`.
bool skippable(const Value &v, const std::string &name) {
  if (v->kind != ValueKind::Binary || v->op != "mul" || !isFloat(v->type.dtype))
    return false;
  const LayoutRef &l = v->type.layout;
  if (!l || l->kind != TileLayout::Kind::Mma)
    return false;
  const int64_t threads = 32LL * l->warpsM * l->warpsN;
  if (shapeElements(v->type.shape) < kMinSkippedElements * threads)
    return false;
  for (int i = 0; i < 2; ++i) {
    const Value &x = v->operands[static_cast<size_t>(i)];
    if (isLocal(x, name) && sameLayout(x->type.layout, l) &&
        isRegisterBroadcast(v->operands[static_cast<size_t>(1 - i)], *v))
      return true;
  }
  return false;
}

/// The locals that `loop` carries: assigned in its body (nested statements included) and not
/// defined there.
std::set<std::string> carriedBy(const Stmt &loop) {
  std::set<std::string> defined, assigned;
  forEachStmt(loop->body, [&](const Stmt &s) {
    if (s->kind == StmtKind::Define)
      defined.insert(s->var);
    else if (s->kind == StmtKind::Assign)
      assigned.insert(s->var);
    return true;
  });
  std::set<std::string> carried;
  for (const std::string &name : assigned)
    if (!defined.count(name))
      carried.insert(name);
  return carried;
}

/// `body` of a loop whose carried locals are `carried`, with the skippable products of their
/// updates (at the top level of the body or in its Ifs) marked, the factor second.
std::vector<Stmt> markUpdates(const std::vector<Stmt> &body, const std::set<std::string> &carried) {
  std::vector<Stmt> out;
  out.reserve(body.size());
  for (const Stmt &s : body) {
    if (s->kind == StmtKind::Assign && carried.count(s->var)) {
      const std::string &name = s->var;
      out.push_back(markValues(
                        {s}, [&](const Value &v) { return skippable(v, name); },
                        [&](ValueNode &mul) {
                          if (!isLocal(mul.operands[0], name))
                            std::swap(mul.operands[0], mul.operands[1]);
                          mul.unlessOne = true;
                        })
                        .front());
    } else if (s->kind == StmtKind::If) {
      StmtNode n = *s;
      n.body = markUpdates(s->body, carried);
      n.orelse = markUpdates(s->orelse, carried);
      out.push_back(std::make_shared<const StmtNode>(std::move(n)));
    } else {
      out.push_back(s);
    }
  }
  return out;
}

} // namespace

kir::Function skipUnitFactors(const kir::Function &laidOut) {
  Function out = laidOut;
  // Inner loops first: an update in an inner loop is that loop's (it carries the local too).
  out.body = rewriteLoops(laidOut.body, [](const Stmt &loop, int, std::vector<Stmt> &rewritten) {
    StmtNode marked = *loop;
    marked.body = markUpdates(loop->body, carriedBy(loop));
    rewritten.push_back(std::make_shared<const StmtNode>(std::move(marked)));
    return true;
  });
  return out;
}

} // namespace ntc::passes

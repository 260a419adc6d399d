//===- MaskBounds.cpp - where a loop's mask holds or fails for a whole tile ---===//
//
// The analysis that skip-masked-iterations and guard-masks share: for a boolean tile that
// compares integer tiles (offsets, sizes, the loop index), the range of loop indices over which
// it is false for every element (a suffix), or true for every element (a prefix or a suffix). Each
// side of a comparison is bounded over the tile (offsets are affine in the lanes, by
// affine-access), and the gap between the two bounds must be affine in the loop index with a
// constant slope.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include <cmath>

namespace ntc::passes {

namespace {

using namespace kir;

/// Symbolic least and greatest element of an integer tile.
struct Bounds {
  Expr lo, hi;
};

std::optional<Bounds> bounds(const Function &f, const Value &v);

std::optional<Bounds> offsetBounds(const Function &f, const Value &v) {
  const Access access = resolveAccess(f, v->param, v->subscripts);
  std::optional<AffineAccess> affine = affineAccess(access);
  if (!affine)
    return std::nullopt;
  const size_t dim = static_cast<size_t>(v->integer.constValue());
  Bounds b{affine->origin[dim], affine->origin[dim]};
  for (size_t lane = 0; lane < affine->laneSteps.size(); ++lane) {
    const Expr &step = affine->laneSteps[lane][dim];
    if (step == Expr(0))
      continue;
    auto s = step.asConst();
    auto n = access.laneExtents[lane].asConst();
    if (!s || !n)
      return std::nullopt;
    Expr &end = *s > 0 ? b.hi : b.lo;
    end = end + Expr(*s * (*n - 1));
  }
  return b;
}

/// Least and greatest element of an integer tile, when they are affine expressions.
std::optional<Bounds> bounds(const Function &f, const Value &v) {
  switch (v->kind) {
  case ValueKind::Index:
    return Bounds{v->integer, v->integer};
  case ValueKind::Constant:
  case ValueKind::Full: {
    if (v->number != std::floor(v->number) || std::abs(v->number) > 1e15)
      return std::nullopt;
    const Expr c(static_cast<int64_t>(v->number));
    return Bounds{c, c};
  }
  case ValueKind::ExpandDims:
  case ValueKind::BroadcastTo:
    return bounds(f, v->operands[0]);
  case ValueKind::Offsets:
    return offsetBounds(f, v);
  case ValueKind::Binary: {
    auto a = bounds(f, v->operands[0]), b = bounds(f, v->operands[1]);
    if (!a || !b)
      return std::nullopt;
    if (v->op == "add")
      return Bounds{a->lo + b->lo, a->hi + b->hi};
    if (v->op == "sub")
      return Bounds{a->lo - b->hi, a->hi - b->lo};
    return std::nullopt;
  }
  default:
    return std::nullopt;
  }
}

/// The bounds of the two sides of a comparison `x >= y` (strict: `x > y`; `<=` and `<` swapped).
struct BoundedComparison {
  Bounds x, y;
  bool strict = false;
};

std::optional<BoundedComparison> boundedComparison(const Function &f, const Value &cond) {
  if (cond->kind != ValueKind::Binary)
    return std::nullopt;
  const std::string &op = cond->op;
  const bool swap = op == "le" || op == "lt";
  if (!swap && op != "ge" && op != "gt")
    return std::nullopt;
  auto x = bounds(f, cond->operands[swap ? 1 : 0]), y = bounds(f, cond->operands[swap ? 0 : 1]);
  if (!x || !y)
    return std::nullopt;
  return BoundedComparison{*x, *y, op == "gt" || op == "lt"};
}

/// The loop index from which (rising: at and after which; else: before which) gap >= threshold,
/// when gap = gap0 + slope · index with a constant slope of that sign.
std::optional<Expr> crossing(const Expr &gap, int64_t threshold, const std::string &index,
                             bool rising) {
  const Expr i = Expr::symbol(index);
  const Expr gap0 = gap.substitute({{index, Expr(0)}});
  const Expr slope = gap.substitute({{index, i + Expr(1)}}) - gap;
  auto s = slope.asConst();
  if (!s || *s == 0 || (*s > 0) != rising || gap0 + i * slope != gap)
    return std::nullopt;
  // rising: gap0 + s·i >= t  <=>  i >= ⌈(t - gap0)/s⌉.
  // falling: gap0 - |s|·i >= t  <=>  i <= ⌊(gap0 - t)/|s|⌋, so i < that + 1.
  if (rising)
    return ceilDiv(Expr(threshold) - gap0, slope);
  return floorDiv(gap0 - Expr(threshold), Expr(-*s)) + Expr(1);
}

/// Which bound maskBound derives.
enum class Range { FalseFrom, TrueBefore, TrueFrom };

std::optional<Expr> maskBound(const Function &f, const Value &cond, const std::string &index,
                              Range range) {
  if (cond->kind == ValueKind::BroadcastTo || cond->kind == ValueKind::ExpandDims)
    return maskBound(f, cond->operands[0], index, range);
  if (cond->kind == ValueKind::Binary && cond->op == "and") {
    // a & b fails wherever either fails, and holds where both hold.
    auto a = maskBound(f, cond->operands[0], index, range);
    auto b = maskBound(f, cond->operands[1], index, range);
    if (a && b)
      return range == Range::TrueFrom ? max(*a, *b) : min(*a, *b);
    return range == Range::FalseFrom ? (a ? a : b) : std::nullopt;
  }
  auto c = boundedComparison(f, cond);
  if (!c)
    return std::nullopt;
  // x >= y fails everywhere when y.lo - x.hi >= 1 (x > y: >= 0), and holds everywhere when
  // x.lo - y.hi >= 0 (x > y: >= 1).
  if (range == Range::FalseFrom)
    return crossing(c->y.lo - c->x.hi, c->strict ? 0 : 1, index, true);
  return crossing(c->x.lo - c->y.hi, c->strict ? 1 : 0, index, range == Range::TrueFrom);
}

} // namespace

std::optional<Expr> maskFalseFrom(const kir::Function &f, const kir::Value &cond,
                                  const std::string &index) {
  return maskBound(f, cond, index, Range::FalseFrom);
}

std::optional<Expr> maskTrueBefore(const kir::Function &f, const kir::Value &cond,
                                   const std::string &index) {
  return maskBound(f, cond, index, Range::TrueBefore);
}

std::optional<Expr> maskTrueFrom(const kir::Function &f, const kir::Value &cond,
                                 const std::string &index) {
  return maskBound(f, cond, index, Range::TrueFrom);
}

} // namespace ntc::passes

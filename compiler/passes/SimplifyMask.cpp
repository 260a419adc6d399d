//===- SimplifyMask.cpp - drop mask terms that always hold ----------------===//
#include "passes/Passes.h"

#include <algorithm>
#include <map>

namespace ntc::passes {

namespace {

/// True when `e` is never negative given a positive divisor: floor(x / d) of a non-negative x,
/// and x mod d.
bool nonNegativeQuotient(const Expr &e) {
  if (e.kind() == ExprKind::Mod)
    return true;
  if (e.kind() == ExprKind::FloorDiv) {
    Interval x = e.operands()[0].range();
    return x.lo && *x.lo >= 0;
  }
  return false;
}

/// True when `value < extent` follows from another term of the mask: x mod n < n, and
/// floor(x / d) < e when x < e · d is checked as well (the unravelled coordinates of a
/// flattened index, which its bound on the flat index already covers).
bool impliedUpper(const MaskTerm &t, const std::vector<MaskTerm> &all) {
  const Expr &v = t.value;
  if (v.kind() == ExprKind::Mod && v.operands()[1] == t.extent)
    return true;
  if (v.kind() != ExprKind::FloorDiv)
    return false;
  const Expr bound = t.extent * v.operands()[1];
  return std::any_of(all.begin(), all.end(), [&](const MaskTerm &o) {
    return o.checkUpper && o.value == v.operands()[0] && o.extent == bound;
  });
}

/// For each size symbol that the wrapper's ties equate with another (GridInfo::ties, checked
/// before every launch), the one representative of its class that replaces it.
std::map<std::string, Expr> tiedSizes(const GridInfo &grid) {
  std::map<std::string, Expr> representative;
  for (bool changed = true; changed;) {
    changed = false;
    for (const ShapeTie &t : grid.ties) {
      if (t.a.kind() != ExprKind::Symbol || t.b.kind() != ExprKind::Symbol)
        continue;
      const Expr a = t.a.substitute(representative), b = t.b.substitute(representative);
      if (a != b) {
        representative[b.symbolName()] = a;
        changed = true;
      }
    }
  }
  return representative;
}

/// True when extent `e` equals grid extent `g` in every launch: the same expression, the two
/// sides of one tie, or equal once the tied sizes are replaced by their representatives
/// (`tied`, from tiedSizes).
bool equalAtLaunch(const Expr &e, const Expr &g, const GridInfo &grid,
                   const std::map<std::string, Expr> &tied) {
  if (e == g)
    return true;
  for (const ShapeTie &t : grid.ties)
    if ((t.a == e && t.b == g) || (t.a == g && t.b == e))
      return true;
  return e.substitute(tied) == g.substitute(tied);
}

} // namespace

void simplifyMask(Access &access, const GridInfo &grid, const kir::Function &f, int param) {
  const std::map<std::string, Expr> tied = tiedSizes(grid);
  std::vector<MaskTerm> kept;
  for (MaskTerm t : access.mask) {
    Interval r = t.value.range();
    if (r.lo && *r.lo >= 0)
      t.checkLower = false;
    // Divisors in masks are extents: an extent of 0 empties the tensor (no program reads it).
    if (nonNegativeQuotient(t.value))
      t.checkLower = false;
    if (provablyLess(t.value, t.extent) || impliedUpper(t, access.mask))
      t.checkUpper = false;
    // A program coordinate is inside its own grid dimension by construction, hence inside
    // every extent that the wrapper checks equal to the grid's (level 0 of another tensor).
    if (t.value.kind() == ExprKind::Symbol)
      for (size_t d = 0; d < grid.extents.size(); ++d)
        if (t.value.symbolName() == programCoordinate(d) &&
            equalAtLaunch(t.extent, grid.extents[d], grid, tied))
          t.checkUpper = false;
    // A term that always holds is dropped; one that fails masks everything (kept). A term
    // identical to an earlier one (a tile's bound and its source's bound) is dropped too.
    bool duplicate = std::any_of(kept.begin(), kept.end(), [&](const MaskTerm &k) {
      return k.value == t.value && k.extent == t.extent && k.checkLower == t.checkLower &&
             k.checkUpper == t.checkUpper;
    });
    if ((t.checkLower || t.checkUpper) && !duplicate)
      kept.push_back(t);
  }
  access.mask = std::move(kept);
}

} // namespace ntc::passes

//===- AffineAccess.cpp - accesses whose coordinates are affine in the lanes ---===//
//
// affine-access: an access whose source coordinates are origin + Σ_j lane_j · step_j (steps
// free of lanes), and the condition under which every element of its tile is in bounds: each
// mask term affine in the lanes with constant coefficients is checked at the tile's two
// extreme corners for it. ntc::dev::dot_loop copies such a tile with one offset per step and
// offsets per thread computed once, instead of evaluating the mask and offset of every chunk.
// The form is proved, not assumed: the coordinates and mask values are rebuilt from origin and
// steps and must come out equal to the original expressions (a floor division or modulo of a
// lane, say, does not, and the access keeps the masked path).
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include <algorithm>

namespace ntc::passes {

namespace {

/// True when `e` mentions one of the lanes 0..lanes-1.
bool mentionsLane(const Expr &e, size_t lanes) {
  std::vector<std::string> symbols;
  e.collectSymbols(symbols);
  for (size_t j = 0; j < lanes; ++j)
    if (std::find(symbols.begin(), symbols.end(), laneIndex(j)) != symbols.end())
      return true;
  return false;
}

/// The decomposition e = origin + Σ_j lane_j · steps[j], or nullopt when e is not of that form
/// with steps free of lanes.
std::optional<std::pair<Expr, std::vector<Expr>>> decompose(const Expr &e, size_t lanes) {
  std::map<std::string, Expr> zero;
  for (size_t j = 0; j < lanes; ++j)
    zero[laneIndex(j)] = Expr(0);
  const Expr origin = e.substitute(zero);
  std::vector<Expr> steps;
  Expr rebuilt = origin;
  for (size_t j = 0; j < lanes; ++j) {
    const Expr lane = Expr::symbol(laneIndex(j));
    const Expr step = e.substitute({{laneIndex(j), lane + Expr(1)}}) - e;
    if (mentionsLane(step, lanes))
      return std::nullopt;
    steps.push_back(step);
    rebuilt = rebuilt + lane * step;
  }
  if (rebuilt != e) // (a symbol's key is its name: the lanes' ranges do not matter)
    return std::nullopt;
  return std::make_pair(origin, steps);
}

} // namespace

std::optional<AffineAccess> affineAccess(const Access &access) {
  const size_t lanes = access.laneExtents.size();
  std::vector<int64_t> extents;
  for (const Expr &e : access.laneExtents) {
    auto c = e.asConst();
    if (!c || *c < 1)
      return std::nullopt;
    extents.push_back(*c);
  }
  AffineAccess form;
  form.laneSteps.assign(lanes, {});
  for (const Expr &coord : access.coords) {
    auto parts = decompose(coord, lanes);
    if (!parts)
      return std::nullopt;
    form.origin.push_back(parts->first);
    for (size_t j = 0; j < lanes; ++j)
      form.laneSteps[j].push_back(parts->second[j]);
  }
  for (const MaskTerm &term : access.mask) {
    auto parts = decompose(term.value, lanes);
    if (!parts)
      return std::nullopt;
    // The term's least and greatest values over the tile, at opposite corners.
    Expr least = parts->first, greatest = parts->first;
    for (size_t j = 0; j < lanes; ++j) {
      auto c = parts->second[j].asConst();
      if (!c)
        return std::nullopt;
      const Expr span = Expr(checkedMul(*c, extents[j] - 1));
      (*c < 0 ? least : greatest) = (*c < 0 ? least : greatest) + span;
    }
    if (term.checkLower)
      form.full.push_back({least, term.extent, true, false});
    if (term.checkUpper)
      form.full.push_back({greatest, term.extent, false, true});
  }
  return form;
}

} // namespace ntc::passes

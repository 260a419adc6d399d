//===- ResolveAccess.cpp - coordinates and mask of one tile access --------===//
#include "passes/Passes.h"

#include <stdexcept>

namespace ntc::passes {

std::string programCoordinate(size_t d) { return "pid" + std::to_string(d); }
std::string laneIndex(size_t d) { return "lane" + std::to_string(d); }

bool isGeneratedIndex(const std::string &symbol) {
  for (const std::string prefix : {"pid", "lane"})
    if (symbol.size() > prefix.size() && symbol.compare(0, prefix.size(), prefix) == 0 &&
        symbol.find_first_not_of("0123456789", prefix.size()) == std::string::npos)
      return true;
  return false;
}

std::map<std::string, Expr> programSubstitution(const KernelSpec &spec, int param) {
  std::map<std::string, Expr> subst;
  // The grid is level 0 of the first tensor, and this tensor's dimensions other than 1 take
  // its dimensions other than 1 in order.
  int anchor = gridAnchor(spec);
  std::vector<size_t> anchorDims = anchor < 0
                                       ? std::vector<size_t>{}
                                       : gridDims(spec.arranged[anchor].layout.levels()[0].shape());
  size_t next = 0;
  for (const Dim &dim : spec.arranged[param].layout.levels()[0].dims) {
    Expr coordinate(0);
    if (dim.extent != Expr(1) && next < anchorDims.size())
      coordinate = Expr::symbol(programCoordinate(anchorDims[next++]), {0, std::nullopt});
    subst[dim.index.symbolName()] = coordinate;
  }
  return subst;
}

Access resolveAccess(const kir::Function &f, int param, const std::vector<Expr> &subscripts) {
  const Layout &l = f.spec.arranged[param].layout;
  const auto &levels = l.levels();
  Access access;
  // Level 0: the program's coordinates.
  std::map<std::string, Expr> subst = programSubstitution(f.spec, param);
  // Middle levels: the subscripts.
  size_t j = 0;
  for (size_t level = 1; level + 1 < levels.size(); ++level)
    for (const Dim &dim : levels[level].dims) {
      if (j >= subscripts.size())
        throw std::logic_error("resolveAccess: too few subscripts");
      subst[dim.index.symbolName()] = subscripts[j++];
    }
  // The tile: lane indices over the (padded, compile-time) tile extents.
  if (levels.size() >= 2) {
    const auto &tile = levels.back().dims;
    std::map<std::string, Expr> padded;
    for (const kir::PaddedExtent &p : f.padded)
      for (const Expr &a : p.actuals)
        padded[a.key()] = p.value > 0 ? Expr(p.value) : Expr::symbol(p.symbol);
    for (size_t d = 0; d < tile.size(); ++d) {
      Expr extent = tile[d].extent;
      auto it = padded.find(extent.key());
      if (!extent.isConst() && it != padded.end())
        extent = it->second;
      access.laneExtents.push_back(extent);
      Interval range{0, std::nullopt};
      if (auto c = extent.asConst())
        range.hi = *c - 1;
      // A lane of a size-1 tile dimension is always 0.
      subst[tile[d].index.symbolName()] =
          extent == Expr(1) ? Expr(0) : Expr::symbol(laneIndex(d), range);
    }
  }
  for (const Expr &c : l.coords())
    access.coords.push_back(c.substitute(subst));
  for (const IndexBound &b : l.bounds())
    access.mask.push_back({b.value.substitute(subst), b.extent, true, true});
  return access;
}

} // namespace ntc::passes

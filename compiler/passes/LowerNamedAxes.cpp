//===- LowerNamedAxes.cpp - lower named-axis arrangements -----------------===//
#include "passes/NamedAxes.h"

#include <algorithm>
#include <map>
#include <optional>

namespace ntc::passes {

namespace {

/// "(m, n)".
std::string axisList(const std::vector<std::string> &names) {
  std::string s = "(";
  for (size_t i = 0; i < names.size(); ++i)
    s += (i ? ", " : "") + names[i];
  if (names.size() == 1)
    s += ",";
  return s + ")";
}

bool contains(const std::vector<std::string> &names, const std::string &n) {
  return std::find(names.begin(), names.end(), n) != names.end();
}

/// True when `e` depends on the size of a kernel parameter (known only at run time).
bool mentionsSize(const KernelSpec &spec, const Expr &e) {
  std::vector<std::string> symbols;
  e.collectSymbols(symbols);
  for (const std::string &s : symbols)
    for (const ParamSpec &p : spec.params)
      for (int d = 0; d < p.ndim; ++d)
        if (p.sizeSymbol(d) == s)
          return true;
  return false;
}

/// True when a and b differ for every value of their symbols.
bool provablyDifferent(const Expr &a, const Expr &b) {
  if (a == b)
    return false;
  if (a.isConst() && b.isConst())
    return true;
  return provablyLess(a, b) || provablyLess(b, a);
}

/// Two tile sizes of one axis differ when provably so, or when both are made of
/// meta-parameters and constants only and are not the same expression (BLOCK_SIZE_K vs 32).
/// Sizes that depend on run-time extents (a whole-extent tile, -1) are left to the run-time
/// extent checks.
bool tileSizesDiffer(const KernelSpec &spec, const Expr &a, const Expr &b) {
  if (provablyDifferent(a, b))
    return true;
  return a != b && !mentionsSize(spec, a) && !mentionsSize(spec, b);
}

/// What one named tensor says about one axis.
struct AxisUse {
  int param;                ///< arranged parameter
  Expr extent;              ///< level-0 extent
  std::optional<Expr> tile; ///< extent of the axis in the innermost level, when it has one
};

/// The extent of the dimension named `axis` in the innermost level, when exactly one has it.
std::optional<Expr> tileSize(const Layout &l, const std::string &axis) {
  if (l.levels().size() < 2)
    return std::nullopt;
  std::optional<Expr> found;
  for (const Dim &d : l.levels().back().dims)
    if (d.axis == axis) {
      if (found)
        return std::nullopt;
      found = d.extent;
    }
  return found;
}

/// The classic arrangement of a named tensor with level-0 axes `own` for program axes `G`
/// whose broadcast extents are `extents` (by axis name).
Layout lower(const Layout &x, const std::vector<std::string> &own,
             const std::vector<std::string> &G, const std::map<std::string, Expr> &extents) {
  std::vector<int64_t> programDims, iteratedDims;
  for (size_t d = 0; d < own.size(); ++d)
    (contains(G, own[d]) ? programDims : iteratedDims).push_back(static_cast<int64_t>(d));

  Layout l = x;
  std::vector<std::string> names; // the axes of level 0, in order
  if (!iteratedDims.empty()) {
    // Split level 0 into (program axes, 1...) -> (1..., iterated axes): tile by 1 along a
    // program axis and by the whole extent along an iterated one, then drop the size-1 dims.
    std::vector<Expr> tileShape;
    for (const std::string &a : own)
      tileShape.push_back(contains(G, a) ? Expr(1) : Expr(-1));
    l = l.tile(tileShape);
    l = l.withInner(l.dtype().squeeze(programDims));
    l = l.squeeze(iteratedDims);
  }
  for (int64_t d : programDims)
    names.push_back(own[d]);
  // Broadcast the program axes the tensor lacks: a size-1 dim expanded to the writer's extent.
  for (const std::string &a : G) {
    if (contains(own, a))
      continue;
    l = l.unsqueeze(static_cast<int64_t>(l.ndim()));
    std::vector<Expr> shape(l.ndim(), Expr(-1));
    shape.back() = extents.at(a);
    l = l.expand(shape);
    names.push_back(a);
  }
  l = l.axes(names);
  // Level 0 in the order of the program axes.
  std::vector<int64_t> order;
  bool identity = true;
  for (const std::string &a : G) {
    auto at = std::find(names.begin(), names.end(), a) - names.begin();
    identity = identity && at == static_cast<int64_t>(order.size());
    order.push_back(at);
  }
  if (!identity)
    l = l.permute(order);
  return l;
}

/// Apply `f` to level `level` of `l` (at or below its focus).
template <class F> Layout mapLevel(const Layout &l, size_t level, F f) {
  if (level == l.focus())
    return f(l);
  return l.withInner(mapLevel(l.dtype(), level, f));
}

/// Drop from the tile (the innermost level) the dims of program axes tiled by the constant
/// 1: the program indexes them, as the classic bmm's `tile({1, BM, BK})` followed by
/// `dtype().squeeze(0)`. A tile is never emptied this way.
Layout squeezeUnitProgramDims(const Layout &l, const std::vector<std::string> &G) {
  if (l.levels().size() < 2)
    return l;
  const auto &tile = l.levels().back().dims;
  std::vector<int64_t> drop;
  for (size_t d = 0; d < tile.size(); ++d)
    if (contains(G, tile[d].axis) && tile[d].extent == Expr(1))
      drop.push_back(static_cast<int64_t>(d));
  if (drop.empty() || drop.size() == tile.size())
    return l;
  return mapLevel(l, l.levels().size() - 1, [&](const Layout &t) { return t.squeeze(drop); });
}

/// Insert size-1 tile dims so that a tile whose axes are all among the writer's tile axes
/// lines up with it *by name* under NumPy's right-aligned broadcasting: a per-row `scale`
/// tile (m,) beside an (m, n) output becomes (m, 1); a bias (n,) stays (n,).
Layout alignTileByName(const Layout &l, const std::vector<std::string> &writerTile) {
  if (l.levels().size() < 2)
    return l;
  std::vector<std::string> mine;
  std::vector<size_t> positions;
  for (const Dim &d : l.levels().back().dims) {
    auto it = std::find(writerTile.begin(), writerTile.end(), d.axis);
    if (d.axis.empty() || it == writerTile.end())
      return l; // an iterated or unnamed axis: the tile is an operand of its own shape
    mine.push_back(d.axis);
    positions.push_back(static_cast<size_t>(it - writerTile.begin()));
  }
  if (positions.empty() || !std::is_sorted(positions.begin(), positions.end()))
    return l;
  Layout r = l;
  size_t level = l.levels().size() - 1;
  for (size_t w = positions.front(); w < writerTile.size(); ++w)
    if (!contains(mine, writerTile[w])) {
      int64_t at = static_cast<int64_t>(w - positions.front());
      r = mapLevel(r, level, [&](const Layout &t) { return t.unsqueeze(at); });
    }
  return r;
}

} // namespace

std::vector<std::string> namedAxes(const Layout &layout) {
  std::vector<std::string> names;
  for (const Dim &d : layout.levels()[0].dims) {
    if (d.axis.empty())
      return {};
    names.push_back(d.axis);
  }
  return names;
}

std::vector<NamedAxesError> lowerNamedAxes(KernelSpec &spec, const std::vector<bool> &written) {
  std::vector<NamedAxesError> errors;
  auto isWritten = [&](size_t i) { return i < written.size() && written[i]; };
  auto name = [&](int i) { return "'" + spec.arranged[i].layout.sourceName() + "'"; };

  // Classify: named tensors, and tensors that name only some of their outer dims.
  std::vector<std::vector<std::string>> axes(spec.arranged.size());
  std::vector<int> named;
  for (size_t i = 0; i < spec.arranged.size(); ++i) {
    const ArrangedParam &a = spec.arranged[i];
    if (a.source < 0 || spec.params[a.source].kind != ParamSpec::Kind::Tensor)
      continue;
    const auto &dims = a.layout.levels()[0].dims;
    size_t withName =
        std::count_if(dims.begin(), dims.end(), [](const Dim &d) { return !d.axis.empty(); });
    if (withName == 0)
      continue;
    if (withName < dims.size()) {
      size_t d =
          std::find_if(dims.begin(), dims.end(), [](const Dim &x) { return x.axis.empty(); }) -
          dims.begin();
      int p = static_cast<int>(i);
      errors.push_back({"the outer level of " + name(p) + " names some dimensions but not " +
                            "dimension " + std::to_string(d) +
                            "; name every dimension with axes(...) (unsqueeze and flatten "
                            "create unnamed dimensions)",
                        p,
                        {{p, name(p) + " is arranged here"}}});
      continue;
    }
    axes[i] = namedAxes(a.layout);
    named.push_back(static_cast<int>(i));
  }
  if (named.empty() || !errors.empty())
    return errors;

  // Program axes: the axes of the named tensors the application writes; they must agree.
  int anchor = -1;
  for (int i : named) {
    if (!isWritten(i))
      continue;
    if (anchor < 0) {
      anchor = i;
      continue;
    }
    if (axes[i] != axes[anchor])
      errors.push_back({"the tensors the application writes disagree on the program axes: " +
                            name(i) + " has axes " + axisList(axes[i]) + " but " + name(anchor) +
                            " has " + axisList(axes[anchor]),
                        i,
                        {{i, name(i) + " has axes " + axisList(axes[i])},
                         {anchor, name(anchor) + " has axes " + axisList(axes[anchor])}}});
  }
  if (anchor < 0) {
    NamedAxesError e{name(named[0]) + " names its axes, but no tensor the application writes " +
                         "does; the program axes are the axes of the written tensors, so name "
                         "the axes of the output",
                     named[0],
                     {{named[0], name(named[0]) + " names its axes here"}}};
    for (size_t i = 0; i < spec.arranged.size(); ++i)
      if (isWritten(i))
        e.notes.push_back(
            {static_cast<int>(i), name(static_cast<int>(i)) + " is written without axis names"});
    errors.push_back(e);
  }
  if (!errors.empty())
    return errors;
  const std::vector<std::string> &G = axes[anchor];

  // Each axis: one tile size and one extent in every tensor that has it (compile-time part;
  // the extents of program axes are tied at run time by infer-grid on the lowered level 0).
  std::map<std::string, std::vector<AxisUse>> uses;
  std::vector<std::string> order;
  std::vector<int> byPriority = {anchor};
  for (int i : named)
    if (i != anchor)
      byPriority.push_back(i);
  for (int i : byPriority) {
    const Layout &l = spec.arranged[i].layout;
    for (size_t d = 0; d < axes[i].size(); ++d) {
      const std::string &a = axes[i][d];
      if (!uses.count(a))
        order.push_back(a);
      uses[a].push_back({i, l.levels()[0].dims[d].extent, tileSize(l, a)});
    }
  }
  for (const std::string &a : order) {
    const std::vector<AxisUse> &u = uses[a];
    const AxisUse *firstTiled = nullptr;
    bool tileError = false;
    for (const AxisUse &x : u) {
      if (!x.tile)
        continue;
      if (!firstTiled) {
        firstTiled = &x;
        continue;
      }
      if (tileSizesDiffer(spec, *x.tile, *firstTiled->tile)) {
        errors.push_back({"axis '" + a + "' is tiled with " + x.tile->str() + " in " +
                              name(x.param) + " but with " + firstTiled->tile->str() + " in " +
                              name(firstTiled->param) + "; one axis needs one tile size",
                          x.param,
                          {{x.param, name(x.param) + " tiles '" + a + "' with " + x.tile->str()},
                           {firstTiled->param, name(firstTiled->param) + " tiles '" + a +
                                                   "' with " + firstTiled->tile->str()}}});
        tileError = true;
        break;
      }
    }
    if (tileError)
      continue;
    for (size_t j = 1; j < u.size(); ++j)
      if (provablyDifferent(u[j].extent, u[0].extent)) {
        errors.push_back(
            {"axis '" + a + "' has " + u[j].extent.str() + " tiles in " + name(u[j].param) +
                 " but " + u[0].extent.str() + " in " + name(u[0].param) +
                 "; tensors sharing an axis must agree on its extent",
             u[j].param,
             {{u[j].param,
               name(u[j].param) + " has " + u[j].extent.str() + " tiles along '" + a + "'"},
              {u[0].param,
               name(u[0].param) + " has " + u[0].extent.str() + " tiles along '" + a + "'"}}});
        break;
      }
  }
  if (!errors.empty())
    return errors;

  // Rewrite every named tensor whose axes are not exactly the program axes.
  std::map<std::string, Expr> extents;
  for (size_t d = 0; d < G.size(); ++d)
    extents[G[d]] = spec.arranged[anchor].layout.levels()[0].dims[d].extent;
  std::vector<Layout> lowered;
  for (int i : named) {
    Layout l = spec.arranged[i].layout;
    if (axes[i] != G)
      l = lower(l, axes[i], G, extents);
    lowered.push_back(squeezeUnitProgramDims(l, G));
  }
  // Tiles line up with the writer's tile by axis name.
  std::vector<std::string> writerTile;
  for (size_t j = 0; j < named.size(); ++j)
    if (named[j] == anchor && lowered[j].levels().size() >= 2)
      for (const Dim &d : lowered[j].levels().back().dims)
        writerTile.push_back(d.axis);
  // (Not tensors whose axes were inferred: the inference already read the application's
  // broadcasting of their tiles as written.)
  for (size_t j = 0; j < named.size(); ++j)
    spec.arranged[named[j]].layout = spec.arranged[named[j]].inferredAxes.empty()
                                         ? alignTileByName(lowered[j], writerTile)
                                         : lowered[j];
  return errors;
}

} // namespace ntc::passes

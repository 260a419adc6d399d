//===- InferGrid.cpp - the launch grid and the run-time size ties ---------===//
#include "passes/Passes.h"

#include <functional>
#include <set>

namespace ntc::passes {

namespace {

/// "lhs.shape[1]" for the size symbol "lhs_size_1" of a kernel parameter.
std::string describe(const KernelSpec &spec, const Expr &e) {
  if (e.kind() == ExprKind::Symbol)
    for (const ParamSpec &p : spec.params)
      for (int d = 0; d < p.ndim; ++d)
        if (p.sizeSymbol(d) == e.symbolName())
          return p.name + ".shape[" + std::to_string(d) + "]";
  return e.str();
}

bool isSizeSymbol(const KernelSpec &spec, const Expr &e) { return describe(spec, e) != e.str(); }

/// An expression of sizes in the user's terms: every size symbol spelled `x.shape[d]`.
std::string describeSizes(const KernelSpec &spec, const Expr &e) {
  std::map<std::string, Expr> spelled;
  for (const ParamSpec &p : spec.params)
    for (int d = 0; d < p.ndim; ++d)
      spelled.emplace(p.sizeSymbol(d), Expr::symbol(p.name + ".shape[" + std::to_string(d) + "]"));
  return e.substitute(spelled).str();
}

/// Match two extents that have the same structure up to the size symbols; the pairs of
/// differing symbols are what must agree. Returns false when the structures differ.
bool matchStructure(const KernelSpec &spec, const Expr &a, const Expr &b,
                    std::vector<std::pair<Expr, Expr>> &pairs) {
  if (a == b)
    return true;
  if (isSizeSymbol(spec, a) && isSizeSymbol(spec, b)) {
    pairs.emplace_back(a, b);
    return true;
  }
  // ⌈A/c⌉ = ⌈B/c⌉ with numerators of different forms (a flattened x against a y of one
  // dimension, an im2col row count against the output's): the tiles agree element for element
  // only when A = B, as for two size symbols above.
  if ((a.kind() == ExprKind::CeilDiv || a.kind() == ExprKind::FloorDiv) && a.kind() == b.kind() &&
      a.operands()[1] == b.operands()[1]) {
    std::vector<std::pair<Expr, Expr>> inner;
    if (matchStructure(spec, a.operands()[0], b.operands()[0], inner))
      pairs.insert(pairs.end(), inner.begin(), inner.end());
    else
      pairs.emplace_back(a.operands()[0], b.operands()[0]);
    return true;
  }
  if (a.kind() != b.kind() || a.operands().size() != b.operands().size() || a.isConst() ||
      a.kind() == ExprKind::Symbol)
    return false;
  if (a.kind() == ExprKind::Mul && a.coefficient() != b.coefficient())
    return false;
  for (size_t i = 0; i < a.operands().size(); ++i)
    if (!matchStructure(spec, a.operands()[i], b.operands()[i], pairs))
      return false;
  return true;
}

class TieCollector {
public:
  explicit TieCollector(const KernelSpec &spec) : spec_(spec) {}

  void tie(const Expr &a, const Expr &b, const std::string &whatA, const std::string &whatB) {
    if (a == b)
      return;
    std::vector<std::pair<Expr, Expr>> pairs;
    if (matchStructure(spec_, a, b, pairs)) {
      for (const auto &[x, y] : pairs)
        add({x, y, describeSizes(spec_, x), describeSizes(spec_, y)});
      return;
    }
    add({a, b, whatA, whatB});
  }

  std::vector<ShapeTie> ties;

private:
  void add(ShapeTie t) {
    std::string key = t.a.key() + "=" + t.b.key(), reverse = t.b.key() + "=" + t.a.key();
    if (seen_.count(key) || seen_.count(reverse))
      return;
    seen_.insert(key);
    ties.push_back(std::move(t));
  }
  const KernelSpec &spec_;
  std::set<std::string> seen_;
};

/// Extent of the j-th middle dimension (levels between the grid and the tile) of a param.
std::optional<Expr> middleExtent(const Layout &l, size_t j) {
  for (size_t level = 1; level + 1 < l.levels().size(); ++level) {
    const auto &dims = l.levels()[level].dims;
    if (j < dims.size())
      return dims[j].extent;
    j -= dims.size();
  }
  return std::nullopt;
}

void collectLoopTies(const kir::Function &f, const std::vector<kir::Stmt> &body,
                     std::vector<const kir::StmtNode *> &loops, TieCollector &ties) {
  // A subscript that is a loop's index ties the loop bound to the extent of that level.
  auto tieSubscripts = [&](int param, const std::vector<Expr> &subscripts) {
    const Layout &l = f.spec.arranged[param].layout;
    for (size_t j = 0; j < subscripts.size(); ++j)
      for (const kir::StmtNode *loop : loops)
        if (subscripts[j].kind() == ExprKind::Symbol && subscripts[j].symbolName() == loop->var &&
            loop->begin == Expr(0) && loop->step == Expr(1))
          if (auto extent = middleExtent(l, j))
            ties.tie(loop->end, *extent, "the loop bound " + loop->end.str(),
                     "inner level " + std::to_string(j) + " of '" + f.spec.arranged[param].name +
                         "' (" + extent->str() + ")");
  };
  std::function<void(const kir::Value &)> visit = [&](const kir::Value &v) {
    if (v->kind == kir::ValueKind::Load || v->kind == kir::ValueKind::Offsets)
      tieSubscripts(v->param, v->subscripts);
    for (const kir::Value &o : v->operands)
      visit(o);
  };
  for (const kir::Stmt &s : body) {
    // Stores too: a stored level longer than the loop would keep blocks the loop never writes,
    // a shorter one would take writes that its mask drops.
    if (s->kind == kir::StmtKind::Store)
      tieSubscripts(s->param, s->subscripts);
    if (s->value)
      visit(s->value);
    if (s->kind == kir::StmtKind::For) {
      loops.push_back(s.get());
      collectLoopTies(f, s->body, loops, ties);
      loops.pop_back();
    } else {
      collectLoopTies(f, s->body, loops, ties);
      collectLoopTies(f, s->orelse, loops, ties);
    }
  }
}

} // namespace

GridInfo inferGrid(const kir::Function &f) {
  const KernelSpec &spec = f.spec;
  GridInfo grid;
  TieCollector ties(spec);
  grid.anchor = gridAnchor(spec);
  if (grid.anchor >= 0)
    grid.extents = spec.arranged[grid.anchor].layout.levels()[0].shape();
  for (size_t i = grid.anchor + 1; grid.anchor >= 0 && i < spec.arranged.size(); ++i) {
    const ArrangedParam &a = spec.arranged[i];
    if (spec.params[a.source].kind != ParamSpec::Kind::Tensor)
      continue;
    std::vector<Expr> shape = a.layout.levels()[0].shape();
    // (verify-launch-grid has rejected the grids that cannot be matched.)
    auto pairs = matchedGridDims(grid.extents, shape);
    for (const auto &[anchorDim, myDim] : pairs ? *pairs : std::vector<std::pair<size_t, size_t>>{})
      ties.tie(grid.extents[anchorDim], shape[myDim],
               "level 0 of '" + spec.arranged[grid.anchor].name + "' (dimension " +
                   std::to_string(anchorDim) + ")",
               "level 0 of '" + a.name + "' (dimension " + std::to_string(myDim) + ")");
  }
  std::vector<const kir::StmtNode *> loops;
  collectLoopTies(f, f.body, loops, ties);
  // Run-time extents that share a padded tile extent meet in one tile shape (softmax's input
  // and output rows, attention's head dimensions): they must be equal.
  for (const kir::PaddedExtent &p : f.padded)
    for (size_t i = 1; i < p.actuals.size(); ++i)
      ties.tie(p.actuals[0], p.actuals[i], p.actuals[0].str(), p.actuals[i].str());
  grid.ties = std::move(ties.ties);
  return grid;
}

} // namespace ntc::passes

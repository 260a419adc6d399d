//===- AliasChecks.cpp - which parameters the wrapper checks for overlap --===//
//
// A kernel's outputs must not share memory with its other tensors: a program could read an
// element that another program has already overwritten. The one exception is exact aliasing
// of an input whose arrangement walks the source exactly as the output's does (an in-place
// elementwise kernel such as `x = x + y` called with output == x): then every program reads
// only the elements it writes itself.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include <algorithm>

namespace ntc::passes {

namespace {

/// The layout's levels, coordinates and bounds as text, with its index symbols renamed in
/// the order they appear in the levels and the source's size symbols by dimension, so that
/// two layouts built the same way from two tensors compare equal.
std::string canonicalPattern(const Layout &layout, const ParamSpec &source) {
  std::map<std::string, Expr> rename;
  int next = 0;
  for (const Level &level : layout.levels())
    for (const Dim &d : level.dims)
      if (d.index.kind() == ExprKind::Symbol)
        rename[d.index.symbolName()] = Expr::symbol("$i" + std::to_string(next++));
  for (int d = 0; d < source.ndim; ++d)
    rename[source.sizeSymbol(d)] = Expr::symbol("$size" + std::to_string(d));
  std::string text;
  for (const Level &level : layout.levels()) {
    text += "level";
    for (const Dim &d : level.dims)
      text += " " + d.extent.substitute(rename).key();
    text += ";";
  }
  for (const Expr &c : layout.coords())
    text += "coord " + c.substitute(rename).key() + ";";
  std::vector<std::string> bounds;
  for (const IndexBound &b : layout.bounds())
    bounds.push_back(b.value.substitute(rename).key() + "<" + b.extent.substitute(rename).key());
  std::sort(bounds.begin(), bounds.end());
  for (const std::string &b : bounds)
    text += "bound " + b + ";";
  return text;
}

} // namespace

std::vector<AliasCheck> aliasChecks(const kir::Function &f) {
  const KernelSpec &spec = f.spec;
  std::vector<bool> written(spec.arranged.size(), false);
  kir::forEachStmt(f.body, [&](const kir::Stmt &s) {
    if (s->kind == kir::StmtKind::Store)
      written[static_cast<size_t>(s->param)] = true;
    return true;
  });
  std::vector<AliasCheck> checks;
  for (size_t w = 0; w < spec.arranged.size(); ++w) {
    if (!written[w])
      continue;
    const ArrangedParam &out = spec.arranged[w];
    for (size_t o = 0; o < spec.arranged.size(); ++o) {
      const ArrangedParam &other = spec.arranged[o];
      if (o == w || spec.params[other.source].kind != ParamSpec::Kind::Tensor ||
          (written[o] && o < w))
        continue; // two outputs are checked once
      bool identicalAllowed =
          !written[o] && canonicalPattern(out.layout, spec.params[out.source]) ==
                             canonicalPattern(other.layout, spec.params[other.source]);
      checks.push_back({out.source, other.source, identicalAllowed});
    }
  }
  return checks;
}

} // namespace ntc::passes

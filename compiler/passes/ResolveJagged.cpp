//===- ResolveJagged.cpp - the batch entry each program of a jagged tensor reads ===//
//
// A jagged tensor's source layout (Layout::jagged) adds the batch entry's first row to the
// coordinate of its jagged dimension and bounds that dimension by the entry's own length: two
// symbols that the program binds from the offsets once, before its body. That is possible
// when the batch coordinate (the coordinate of source dimension 0) is the same for every
// element the program touches: a function of the program coordinates alone.
//
//===----------------------------------------------------------------------===//
#include "passes/Passes.h"

#include <algorithm>

namespace ntc::passes {

namespace {

/// True for the index variables of layouts (Layout::newIndex names them `%<n>`).
bool isLayoutIndex(const std::string &symbol) { return !symbol.empty() && symbol[0] == '%'; }

} // namespace

std::vector<JaggedBatch> resolveJagged(const KernelSpec &spec, std::vector<VerifyError> *errors) {
  std::vector<JaggedBatch> batches;
  for (size_t a = 0; a < spec.arranged.size(); ++a) {
    const ArrangedParam &arranged = spec.arranged[a];
    const ParamSpec &source = spec.params[arranged.source];
    if (!source.jaggedDim)
      continue;
    // Level 0 is the program; a dimension of extent 1 below it has the index 0.
    std::map<std::string, Expr> subst = programSubstitution(spec, static_cast<int>(a));
    const auto &levels = arranged.layout.levels();
    for (size_t level = 1; level < levels.size(); ++level)
      for (const Dim &dim : levels[level].dims)
        if (dim.extent == Expr(1))
          subst[dim.index.symbolName()] = Expr(0);
    const Expr batch = arranged.layout.coords()[0].substitute(subst);
    std::vector<std::string> symbols;
    batch.collectSymbols(symbols);
    if (std::any_of(symbols.begin(), symbols.end(), isLayoutIndex)) {
      if (errors)
        errors->push_back({"jagged tensor '" + source.name +
                           "': each program must read one batch entry, but its batch "
                           "coordinate (dimension 0) varies within a program; tile dimension "
                           "0 by 1 (e.g. " +
                           source.name + ".tile({1, ...}))"});
      continue;
    }
    batches.push_back({arranged.source, static_cast<int>(a), batch});
  }
  return batches;
}

} // namespace ntc::passes

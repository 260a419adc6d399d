//===- VerifyLaunchGrid.cpp - level 0 of all tensors must agree -----------===//
#include "passes/Passes.h"

namespace ntc::passes {

std::vector<VerifyError> verifyLaunchGrid(const KernelSpec &spec) {
  std::vector<VerifyError> errors;
  const ArrangedParam *first = nullptr;
  for (const ArrangedParam &a : spec.arranged) {
    if (spec.params[a.source].kind != ParamSpec::Kind::Tensor)
      continue;
    if (!first) {
      first = &a;
      continue;
    }
    std::vector<Expr> x = first->layout.levels()[0].shape(), y = a.layout.levels()[0].shape();
    bool differ = x.size() != y.size();
    for (size_t d = 0; !differ && d < x.size(); ++d)
      differ = x[d].isConst() && y[d].isConst() && x[d] != y[d];
    if (differ)
      errors.push_back({"arranged tensors disagree on the outermost level (the launch grid): '" +
                        first->name + "' has shape " + shapeString(x) + " but '" + a.name +
                        "' has shape " + shapeString(y)});
  }
  return errors;
}

} // namespace ntc::passes

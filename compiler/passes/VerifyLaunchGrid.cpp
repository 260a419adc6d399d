//===- VerifyLaunchGrid.cpp - level 0 of all tensors must agree -----------===//
#include "passes/Passes.h"

namespace ntc::passes {

std::vector<size_t> gridDims(const std::vector<Expr> &level0) {
  std::vector<size_t> dims;
  for (size_t d = 0; d < level0.size(); ++d)
    if (level0[d] != Expr(1))
      dims.push_back(d);
  return dims;
}

std::optional<std::vector<std::pair<size_t, size_t>>> matchedGridDims(const std::vector<Expr> &x,
                                                                      const std::vector<Expr> &y) {
  std::vector<size_t> gx = gridDims(x), gy = gridDims(y);
  std::vector<std::pair<size_t, size_t>> pairs;
  if (gx.size() == gy.size()) {
    for (size_t d = 0; d < gx.size(); ++d)
      pairs.emplace_back(gx[d], gy[d]);
  } else if (x.size() == y.size()) {
    for (size_t d = 0; d < x.size(); ++d)
      pairs.emplace_back(d, d);
  } else {
    return std::nullopt;
  }
  return pairs;
}

int gridAnchor(const KernelSpec &spec) {
  for (size_t i = 0; i < spec.arranged.size(); ++i)
    if (spec.params[spec.arranged[i].source].kind == ParamSpec::Kind::Tensor)
      return static_cast<int>(i);
  return -1;
}

std::vector<VerifyError> verifyLaunchGrid(const KernelSpec &spec) {
  std::vector<VerifyError> errors;
  int anchor = gridAnchor(spec);
  for (size_t i = anchor + 1; anchor >= 0 && i < spec.arranged.size(); ++i) {
    const ArrangedParam &a = spec.arranged[i], *first = &spec.arranged[anchor];
    if (spec.params[a.source].kind != ParamSpec::Kind::Tensor)
      continue;
    std::vector<Expr> x = first->layout.levels()[0].shape(), y = a.layout.levels()[0].shape();
    // Only constants that differ are wrong now; infer-grid ties the rest for the wrapper.
    auto pairs = matchedGridDims(x, y);
    bool differ = !pairs;
    for (size_t i = 0; !differ && i < pairs->size(); ++i) {
      const Expr &ex = x[(*pairs)[i].first], &ey = y[(*pairs)[i].second];
      differ = ex.isConst() && ey.isConst() && ex != ey;
    }
    if (differ)
      errors.push_back({"arranged tensors disagree on the outermost level (the launch grid): '" +
                        first->name + "' has shape " + shapeString(x) + " but '" + a.name +
                        "' has shape " + shapeString(y)});
  }
  return errors;
}

} // namespace ntc::passes

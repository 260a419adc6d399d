//===- LayoutTestHelpers.h - shared helpers of the layout unit tests ------===//
#pragma once

#include "ir/Layout.h"

#include <map>
#include <string>
#include <vector>

namespace ntc::test {

/// A source tensor with symbolic sizes named <name>_size_<d>.
inline Layout symbolicSource(const std::string &name, size_t rank) {
  std::vector<Expr> shape;
  for (size_t d = 0; d < rank; ++d)
    shape.push_back(Expr::symbol(name + "_size_" + std::to_string(d), {0, std::nullopt}));
  return Layout::source(name, shape);
}

/// eval's index array as JSON.
inline std::string evalJson(const Layout &l, const std::map<std::string, int64_t> &values = {}) {
  std::vector<int64_t> shape;
  auto v = l.eval(values, shape);
  return jsonNestedList(v, shape);
}

/// The sub-array of eval's result at the given leading indices.
inline std::string evalAt(const Layout &l, const std::map<std::string, int64_t> &values,
                          const std::vector<int64_t> &lead) {
  std::vector<int64_t> shape;
  auto v = l.eval(values, shape);
  int64_t offset = 0, inner = 1;
  for (size_t i = lead.size(); i < shape.size(); ++i)
    inner *= shape[i];
  for (size_t i = 0; i < lead.size(); ++i)
    offset = offset * shape[i] + lead[i];
  std::vector<int64_t> sub(v.begin() + offset * inner, v.begin() + (offset + 1) * inner);
  std::vector<int64_t> subShape(shape.begin() + lead.size(), shape.end());
  return jsonNestedList(sub, subShape);
}

} // namespace ntc::test

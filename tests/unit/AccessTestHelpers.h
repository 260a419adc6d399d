//===- AccessTestHelpers.h - shared helpers of the access unit tests ------===//
#pragma once

#include "support/SymExpr.h"

#include <string>

namespace ntc::test {

/// A symbol ranging over [0, hi] (unbounded above when hi < 0), as resolve-access makes program
/// coordinates and lanes.
inline Expr sym(const std::string &name, int64_t hi = -1) {
  Interval range{0, std::nullopt};
  if (hi >= 0)
    range.hi = hi;
  return Expr::symbol(name, range);
}

} // namespace ntc::test

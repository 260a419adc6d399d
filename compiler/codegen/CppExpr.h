//===- CppExpr.h - symbolic integers as C++ expressions -------------------===//
#pragma once

#include "support/SymExpr.h"

#include <functional>
#include <string>

namespace ntc::codegen {

/// Maps a symbol name to the C++ expression that holds its value.
using SymbolNamer = std::function<std::string(const std::string &)>;

/// Render `e` as a C++ expression evaluated in the integer type `index` (floor/ceil
/// division and modulo through ntc::rt helpers).
std::string cppExpr(const Expr &e, const SymbolNamer &name, const std::string &index);

/// A C++ integer literal of `v` (with LL outside int32's range; INT64_MIN spelled safely).
std::string cppIntLiteral(int64_t v);

/// A C++ double literal that reads back as exactly `v` (INFINITY/NAN for the special
/// values; those macros work in host and device code alike).
std::string cppDoubleLiteral(double v);

} // namespace ntc::codegen

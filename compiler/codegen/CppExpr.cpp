//===- CppExpr.cpp - symbolic integers as C++ expressions -----------------===//
#include "codegen/CppExpr.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace ntc::codegen {

std::string cppIntLiteral(int64_t v) {
  if (v == std::numeric_limits<int64_t>::min())
    return "(-9223372036854775807LL - 1)";
  std::string s = std::to_string(v);
  if (v > std::numeric_limits<int32_t>::max() || v < std::numeric_limits<int32_t>::min())
    s += "LL";
  return v < 0 ? "(" + s + ")" : s;
}

std::string cppDoubleLiteral(double v) {
  if (std::isinf(v))
    return v > 0 ? "static_cast<double>(INFINITY)" : "static_cast<double>(-INFINITY)";
  if (std::isnan(v))
    return "static_cast<double>(NAN)";
  // The shortest form that reads back as the same double.
  char buffer[40];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, v);
    if (std::strtod(buffer, nullptr) == v)
      break;
  }
  std::string s = buffer;
  if (s.find_first_of(".eEn") == std::string::npos)
    s += ".0";
  return s;
}

std::string cppExpr(const Expr &e, const SymbolNamer &name, const std::string &index) {
  auto sub = [&](const Expr &x) { return cppExpr(x, name, index); };
  switch (e.kind()) {
  case ExprKind::Const:
    return cppIntLiteral(e.constValue());
  case ExprKind::Symbol:
    return name(e.symbolName());
  case ExprKind::Add: {
    std::string s = "(";
    for (size_t i = 0; i < e.operands().size(); ++i)
      s += (i ? " + " : "") + sub(e.operands()[i]);
    return s + ")";
  }
  case ExprKind::Mul: {
    std::string s = "(" + std::to_string(e.coefficient());
    for (const Expr &f : e.operands())
      s += " * " + sub(f);
    return s + ")";
  }
  case ExprKind::FloorDiv:
    return "ntc::rt::floor_div<" + index + ">(" + sub(e.operands()[0]) + ", " +
           sub(e.operands()[1]) + ")";
  case ExprKind::CeilDiv:
    return "ntc::rt::ceil_div<" + index + ">(" + sub(e.operands()[0]) + ", " +
           sub(e.operands()[1]) + ")";
  case ExprKind::Mod:
    return "ntc::rt::floor_mod<" + index + ">(" + sub(e.operands()[0]) + ", " +
           sub(e.operands()[1]) + ")";
  case ExprKind::Min:
    return "ntc::rt::min<" + index + ">(" + sub(e.operands()[0]) + ", " + sub(e.operands()[1]) +
           ")";
  case ExprKind::Max:
    return "ntc::rt::max<" + index + ">(" + sub(e.operands()[0]) + ", " + sub(e.operands()[1]) +
           ")";
  }
  return "0";
}

} // namespace ntc::codegen

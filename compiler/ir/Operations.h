//===- Operations.h - the elementwise operations of the kernel IR ----------===//
//
// The compiler's view of the operation table (ntc/common/operations.inc): which ntl::
// functions and C++ operators are elementwise operations, how many operands they take, how
// their result is typed and how generated code spells them. The front end, the IR's type
// rules and the emitters read these rows, never lists of their own.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string_view>
#include <vector>

namespace ntc::kir {

/// How an operation's result element type follows from its operands' (the table's rule).
enum class TypeRule {
  Promote,  ///< the operands' common type
  Float,    ///< the common type when floating, float32 otherwise
  Integral, ///< the common type, which must be bool or integer
  Compare,  ///< bool
};

/// One row of the operation table.
struct Operation {
  const char *name;  ///< the IR operation; for a function also its ntl:: and library name
  int arity;         ///< number of operands (1 or 2)
  TypeRule rule;     ///< the result type
  const char *token; ///< the C++ operator of an operator row; "" for a function
  /// True for an ntl:: function (called ns::name(...) in generated code).
  bool isFunction() const { return token[0] == '\0'; }
};

/// Every row of the table, in its order.
const std::vector<Operation> &operations();

/// The row of the IR operation `name`, or nullptr.
const Operation *findOperation(std::string_view name);

/// The row of the ntl:: function `name`, or nullptr (operators are not ntl:: functions).
const Operation *findFunction(std::string_view name);

} // namespace ntc::kir

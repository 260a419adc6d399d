//===- Operations.cpp - the operation table, read from operations.inc -----===//
#include "ir/Operations.h"

namespace ntc::kir {

const std::vector<Operation> &operations() {
  static const std::vector<Operation> table = {
#define NTC_OPERATOR(name, arity, rule, token) {name, arity, TypeRule::rule, token},
#define NTC_FUNCTION(name, arity, rule) {#name, arity, TypeRule::rule, ""},
#include <ntc/common/operations.inc>
  };
  return table;
}

const Operation *findOperation(std::string_view name) {
  for (const Operation &op : operations())
    if (name == op.name)
      return &op;
  return nullptr;
}

const Operation *findFunction(std::string_view name) {
  const Operation *op = findOperation(name);
  return op && op->isFunction() ? op : nullptr;
}

} // namespace ntc::kir

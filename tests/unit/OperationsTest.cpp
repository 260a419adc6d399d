// The operation table (ntc/common/operations.inc) as the compiler reads it (kir::operations()):
// well-formed rows, the IR's result types by each row's rule, and the CPU tile library
// defining every function row (checked at compile time).
#include "ir/Operations.h"
#include "ir/KernelIR.h"

#include <ntc/cpu/tile.hpp>

#include <catch2/catch.hpp>

#include <cctype>
#include <set>
#include <string>

using namespace ntc;
using kir::TypeRule;

// Every function row has its function in ntc::cpu, for tiles and (one operand) for elements.
#define NTC_CPU_DEFINES_1(name)                                                                    \
  static_assert(requires(const cpu::Tile<float> &x, cpu::float16 e) {                              \
    cpu::name(x);                                                                                  \
    cpu::name(e);                                                                                  \
  });
#define NTC_CPU_DEFINES_2(name)                                                                    \
  static_assert(requires(const cpu::Tile<float> &x) { cpu::name(x, x); });
#define NTC_FUNCTION(name, arity, rule) NTC_CPU_DEFINES_##arity(name)
#include <ntc/common/operations.inc>

namespace {

/// A strongly typed 0-d operand of element type `t`.
kir::Value operand(DType t) { return kir::makeLocal("v", {t, {}}); }

/// The element type of `op` on operands of type `t` (as many as its arity).
DType resultOf(const kir::Operation &op, DType t) {
  return op.arity == 1 ? kir::makeUnary(op.name, operand(t))->type.dtype
                       : kir::makeBinary(op.name, operand(t), operand(t))->type.dtype;
}

} // namespace

TEST_CASE("operation table: rows are well formed", "[operations]") {
  std::set<std::string> names;
  for (const kir::Operation &op : kir::operations()) {
    INFO(op.name);
    CHECK(names.insert(op.name).second); // one row per name
    CHECK((op.arity == 1 || op.arity == 2));
    const std::string name = op.name;
    REQUIRE(!name.empty());
    for (char c : name)
      CHECK((std::islower(static_cast<unsigned char>(c)) || std::isdigit(c) || c == '_'));
    CHECK(kir::findOperation(name) == &op);
    CHECK(kir::findFunction(name) == (op.isFunction() ? &op : nullptr));
  }
  CHECK(kir::findOperation("sum") == nullptr); // reductions are not elementwise operations
  CHECK(kir::findFunction("add") == nullptr);  // operators are not ntl:: functions
  CHECK(kir::findFunction("exp") != nullptr);
}

TEST_CASE("operation table: the IR types every operation by its row's rule", "[operations]") {
  for (const kir::Operation &op : kir::operations()) {
    INFO(op.name);
    switch (op.rule) {
    case TypeRule::Promote:
      CHECK(resultOf(op, DType::Int32) == DType::Int32);
      CHECK(resultOf(op, DType::Float16) == DType::Float16);
      break;
    case TypeRule::Float:
      CHECK(resultOf(op, DType::Int32) == DType::Float32);
      CHECK(resultOf(op, DType::Bool) == DType::Float32);
      CHECK(resultOf(op, DType::Float16) == DType::Float16);
      CHECK(resultOf(op, DType::Float64) == DType::Float64);
      break;
    case TypeRule::Integral:
      CHECK(resultOf(op, DType::Int32) == DType::Int32);
      CHECK(resultOf(op, DType::Bool) == DType::Bool);
      CHECK_THROWS_AS(resultOf(op, DType::Float32), kir::TypeError);
      break;
    case TypeRule::Compare:
      CHECK(resultOf(op, DType::Int32) == DType::Bool);
      CHECK(resultOf(op, DType::Float16) == DType::Bool);
      break;
    }
  }
}

TEST_CASE("operation table: an operation of another arity is unknown", "[operations]") {
  CHECK_THROWS_AS(kir::makeBinary("exp", operand(DType::Float32), operand(DType::Float32)),
                  kir::TypeError);
  CHECK_THROWS_AS(kir::makeUnary("add", operand(DType::Float32)), kir::TypeError);
  CHECK_THROWS_WITH(kir::makeUnary("!", operand(DType::Float32)), "unknown unary operation '!'");
  CHECK_THROWS_WITH(kir::makeUnary("not", operand(DType::Float32)),
                    "'!' needs a bool or integer tile, not float32");
  CHECK_THROWS_WITH(kir::makeBinary("xor", operand(DType::Float32), operand(DType::Int32)),
                    "'^' needs bool or integer tiles, not float32");
}

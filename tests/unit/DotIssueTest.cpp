// Unit tests of the statements that start and complete tensor-core products apart
// (compiler/ir/KernelIR.cpp: makeDotIssue, makeDotWait; passes/OverlapProducts.cpp makes them):
// which products may be issued, whether the tensor cores keep registers of theirs until the
// wait, and how many later products a wait may leave in flight.
#include "ir/KernelIR.h"

#include <catch2/catch.hpp>

using namespace ntc;

namespace {

/// A 64×64 local of `dtype` in `layout`.
kir::Value tile(const std::string &name, DType dtype, kir::LayoutRef layout) {
  return kir::makeLocal(
      name, kir::TileType{dtype, {Expr(int64_t{64}), Expr(int64_t{64})}, std::move(layout)});
}

/// `a · b (+ acc)` laid out as a wgmma accumulator of four warps.
kir::Value product(const kir::Value &a, const kir::Value &b, const kir::Value &acc = nullptr) {
  const kir::Value dot = acc ? kir::makeDotAccumulate(a, b, acc) : kir::makeDot(a, b);
  return kir::withLayout(dot, kir::mmaLayout(4, 1), dot->operands);
}

} // namespace

TEST_CASE("dot_issue: products with A in registers or in shared memory", "[ir]") {
  const kir::LayoutRef mma = kir::mmaLayout(4, 1);
  const kir::Value shared_a = tile("q", DType::Float16, kir::sharedLayout(0, false));
  const kir::Value register_a = tile("p", DType::Float16, kir::dotOperandLayout(mma, 0, 2));
  const kir::Value b = tile("k", DType::Float16, kir::sharedLayout(8192, true));
  const kir::Value acc = tile("acc", DType::Float32, mma);

  // A in registers, accumulating: the tensor cores hold A's registers until the wait.
  const kir::Stmt accumulating = kir::makeDotIssue("acc", product(register_a, b, acc));
  CHECK(accumulating->registerOperand);
  // A in shared memory, afresh: nothing in registers but the result.
  const kir::Stmt fresh = kir::makeDotIssue("s", product(shared_a, b));
  CHECK_FALSE(fresh->registerOperand);

  CHECK_THROWS_WITH(kir::makeDotIssue("s", product(register_a, b)),
                    "dot_issue: the product must accumulate with A in registers, or start afresh "
                    "with A in shared memory");
  CHECK_THROWS_WITH(kir::makeDotIssue("acc", product(shared_a, b, acc)),
                    "dot_issue: the product must accumulate with A in registers, or start afresh "
                    "with A in shared memory");
  CHECK_THROWS_WITH(kir::makeDotIssue("acc", acc), "dot_issue: the value must be a product");
}

TEST_CASE("dot_wait: the products it may leave in flight", "[ir]") {
  CHECK(kir::makeDotWait("acc")->begin.constValue() == 0);
  CHECK(kir::makeDotWait("acc")->registerOperand);
  const kir::Stmt ahead = kir::makeDotWait("s", 1, false);
  CHECK(ahead->begin.constValue() == 1);
  CHECK_FALSE(ahead->registerOperand);
  // wgmma.wait_group counts 0 to 7 groups; a product with A in registers completes alone.
  CHECK_THROWS(kir::makeDotWait("s", 8, false));
  CHECK_THROWS(kir::makeDotWait("s", -1, false));
  CHECK_THROWS_WITH(kir::makeDotWait("acc", 1, true),
                    "dot_wait: 0 to 7 products may stay in flight, none after a product with A "
                    "in registers");
}

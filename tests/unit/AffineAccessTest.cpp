// Unit tests of affine-access (compiler/passes/AffineAccess.cpp): which accesses have
// coordinates affine in their lanes, and the condition under which a whole tile is in bounds.
#include "AccessTestHelpers.h"
#include "passes/Passes.h"

#include <catch2/catch.hpp>

using namespace ntc;
using passes::Access;
using passes::MaskTerm;
using test::sym;

namespace {

/// The A operand of a GEMM step k: tile (128, 32) at rows 128·pid0, columns 32·k.
Access gemmOperand() {
  Access a;
  Expr row = sym("lane0", 127) + Expr(128) * sym("pid0"),
       col = Expr(32) * sym("k") + sym("lane1", 31);
  a.coords = {row, col};
  a.mask = {MaskTerm{row, sym("lhs_size_0"), false, true},
            MaskTerm{col, sym("lhs_size_1"), false, true}};
  a.laneExtents = {Expr(128), Expr(32)};
  return a;
}

} // namespace

TEST_CASE("a GEMM operand is its origin plus one step per lane", "[affine-access]") {
  auto form = passes::affineAccess(gemmOperand());
  REQUIRE(form);
  REQUIRE(form->origin.size() == 2);
  CHECK(form->origin[0] == Expr(128) * sym("pid0"));
  CHECK(form->origin[1] == Expr(32) * sym("k"));
  REQUIRE(form->laneSteps.size() == 2);
  CHECK(form->laneSteps[0][0] == Expr(1));
  CHECK(form->laneSteps[0][1] == Expr(0));
  CHECK(form->laneSteps[1][0] == Expr(0));
  CHECK(form->laneSteps[1][1] == Expr(1));
  // The whole tile is in bounds when its last row and last column are.
  REQUIRE(form->full.size() == 2);
  CHECK(form->full[0].value == Expr(127) + Expr(128) * sym("pid0"));
  CHECK_FALSE(form->full[0].checkLower);
  CHECK(form->full[0].checkUpper);
  CHECK(form->full[1].value == Expr(32) * sym("k") + Expr(31));
}

TEST_CASE("lower bounds are checked at the least corner", "[affine-access]") {
  // A window that starts 2 before 4·pid1 and walks backwards in rows: x[9 - lane0, 4·pid1 - 2
  // + lane1] over a (4, 8) tile, both bounds checked.
  Access a;
  Expr row = Expr(9) - sym("lane0", 3), col = Expr(4) * sym("pid1") - Expr(2) + sym("lane1", 7);
  a.coords = {row, col};
  a.mask = {MaskTerm{row, sym("x_size_0"), true, true}, MaskTerm{col, sym("x_size_1"), true, true}};
  a.laneExtents = {Expr(4), Expr(8)};
  auto form = passes::affineAccess(a);
  REQUIRE(form);
  CHECK(form->laneSteps[0][0] == Expr(-1));
  REQUIRE(form->full.size() == 4);
  CHECK(form->full[0].value == Expr(6)); // the least row, checked >= 0
  CHECK(form->full[0].checkLower);
  CHECK(form->full[1].value == Expr(9)); // the greatest row, checked < x_size_0
  CHECK(form->full[1].checkUpper);
  CHECK(form->full[2].value == Expr(4) * sym("pid1") - Expr(2));
  CHECK(form->full[3].value == Expr(4) * sym("pid1") + Expr(5));
}

TEST_CASE("symbolic steps are allowed in coordinates, not in masks", "[affine-access]") {
  // A dilated window: column d·lane1 with a run-time dilation d.
  Access a = gemmOperand();
  a.coords[1] = sym("d") * sym("lane1", 31);
  auto form = passes::affineAccess(Access{a.coords, {}, a.laneExtents});
  REQUIRE(form);
  CHECK(form->laneSteps[1][1] == sym("d"));
  a.mask[1].value = a.coords[1];
  CHECK_FALSE(passes::affineAccess(a)); // the sign of d decides the corner
}

TEST_CASE("lanes under a division or a product are not affine", "[affine-access]") {
  Access halves = gemmOperand();
  halves.coords[1] = floorDiv(sym("lane1", 31), Expr(2));
  CHECK_FALSE(passes::affineAccess(halves));
  Access square = gemmOperand();
  square.coords[0] = sym("lane0", 127) * sym("lane1", 31);
  CHECK_FALSE(passes::affineAccess(square));
  Access masked = gemmOperand();
  masked.mask[0].value = mod(sym("lane0", 127) + sym("pid0"), Expr(7));
  CHECK_FALSE(passes::affineAccess(masked));
}

TEST_CASE("a tile extent known only at run time has no affine form", "[affine-access]") {
  Access a = gemmOperand();
  a.laneExtents[1] = sym("BLOCK_SIZE_K");
  CHECK_FALSE(passes::affineAccess(a));
}

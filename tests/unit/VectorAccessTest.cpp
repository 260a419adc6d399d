// Unit tests of plan-vector-access (compiler/passes/PlanVectorAccess.cpp): which accesses may
// move whole chunks of the blocked layout with vector instructions.
#include "AccessTestHelpers.h"
#include "passes/Passes.h"

#include <catch2/catch.hpp>

using namespace ntc;
using passes::Access;
using passes::MaskTerm;
using test::sym;

namespace {

/// A row access `x[pid0, start + lane1]` of a (1, width) tile, masked by the row length.
Access rowAccess(const Expr &start, int64_t width) {
  Expr lane = sym("lane1", width - 1);
  Access a;
  a.coords = {sym("pid0"), start + lane};
  a.mask = {MaskTerm{start + lane, sym("x_size_1"), false, true}};
  a.laneExtents = {Expr(1), Expr(width)};
  return a;
}

} // namespace

TEST_CASE("a contiguous row walks one dimension with unit step", "[vector-access]") {
  auto plan = passes::planVectorAccess(rowAccess(Expr(0), 1024), 4, 4);
  REQUIRE(plan);
  CHECK(plan->dim == 1);
  CHECK(plan->width == 4);
  // float16 chunks of 8: one 16-byte access; double chunks of 8: 16 bytes = 2 elements.
  CHECK(passes::planVectorAccess(rowAccess(Expr(0), 1024), 2, 8)->width == 8);
  CHECK(passes::planVectorAccess(rowAccess(Expr(0), 1024), 8, 8)->width == 2);
}

TEST_CASE("the chunk start must be a multiple of the access width", "[vector-access]") {
  CHECK(passes::planVectorAccess(rowAccess(sym("pid1") * Expr(64), 64), 4, 4));
  CHECK_FALSE(passes::planVectorAccess(rowAccess(Expr(3), 1024), 4, 4));
  CHECK_FALSE(passes::planVectorAccess(rowAccess(sym("pid1") * Expr(6), 64), 4, 4));
  CHECK_FALSE(passes::planVectorAccess(rowAccess(sym("x_size_1"), 64), 4, 4));
}

TEST_CASE("strided or repeated lanes and lane-dependent extents stay scalar", "[vector-access]") {
  Expr lane = sym("lane1", 1023);
  Access strided = rowAccess(Expr(0), 1024);
  strided.coords[1] = lane * Expr(2);
  CHECK_FALSE(passes::planVectorAccess(strided, 4, 4));

  Access twice = rowAccess(Expr(0), 1024);
  twice.coords[0] = lane;
  CHECK_FALSE(passes::planVectorAccess(twice, 4, 4));

  Access diagonal = rowAccess(Expr(0), 1024);
  diagonal.mask.push_back(MaskTerm{lane, lane + Expr(1), false, true});
  CHECK_FALSE(passes::planVectorAccess(diagonal, 4, 4));

  Access floor = rowAccess(Expr(0), 1024);
  floor.coords[1] = floorDiv(lane, Expr(2));
  CHECK_FALSE(passes::planVectorAccess(floor, 4, 4));
}

TEST_CASE("chunks must fit the tile's rows", "[vector-access]") {
  CHECK_FALSE(passes::planVectorAccess(rowAccess(Expr(0), 1024), 4, 1));
  CHECK_FALSE(passes::planVectorAccess(rowAccess(Expr(0), 12), 4, 8));
  CHECK(passes::registerChunk(rowAccess(Expr(0), 4096), 256) == 4); // at most 4 (16 B of float)
  CHECK(passes::registerChunk(rowAccess(Expr(0), 1024), 256) == 4);
  CHECK(passes::registerChunk(rowAccess(Expr(0), 512), 256) == 2);
  CHECK(passes::registerChunk(rowAccess(Expr(0), 100), 32) == 1);
}

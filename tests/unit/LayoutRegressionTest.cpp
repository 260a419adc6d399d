// Regression tests of the layout IR for the findings of tests/fuzz/fuzz_layout
// (docs/fuzzing.md): each reproduces one reduced input.
#include "LayoutTestHelpers.h"
#include "ir/Layout.h"

#include <catch2/catch.hpp>

using namespace ntc;
using test::evalJson;
using test::symbolicSource;

TEST_CASE("slicing a dimension whose constant extent is negative gives no elements",
          "[layout][fuzz]") {
  // A floor-mode tile count can be negative: ⌊(1 - 5)/3⌋ + 1 = -1. slice() clamped its bounds
  // with std::clamp(b, 0, -1), whose arguments must be ordered (undefined behaviour, an
  // assertion with _GLIBCXX_ASSERTIONS).
  Layout t = Layout::source("x", {Expr(1)}).tile({Expr(5)}, {Expr(3)}, {}, true);
  REQUIRE(t.str() == "(-1,) -> (5,)");
  Layout backwards = t.slice(-1, std::nullopt, std::nullopt, Expr(-3));
  CHECK(backwards.str() == "(0,) -> (5,)");
  CHECK(evalJson(backwards) == "[]");
  Layout forwards = t.slice(0, Expr(1), std::nullopt, std::nullopt);
  CHECK(forwards.str() == "(0,) -> (5,)");
  CHECK(evalJson(forwards) == "[]");
  // A negative extent from a cropping pad.
  Layout cropped = Layout::source("x", {Expr(2)}).pad({{Expr(-2), Expr(-1)}});
  CHECK(cropped.slice(0, Expr(-1), std::nullopt, Expr(-1)).str() == "(0,)");
}

TEST_CASE("eval masks a position whose unravelled coordinates divide by an empty size",
          "[layout][fuzz]") {
  // x (3, 0) flattened has extent 0; unravelling its index divides by x_size_1 = 0. A slice
  // (bounds of a run-time extent are not clamped) or a pad makes positions again, all outside
  // the flattened dimension: eval must mask them instead of reporting that it cannot evaluate
  // the mask.
  Layout x = symbolicSource("x", 2).flatten();
  std::map<std::string, int64_t> empty{{"x_size_0", 3}, {"x_size_1", 0}};
  Layout sliced = x.slice(0, Expr(0), Expr(-11), Expr(-3));
  CHECK(evalJson(sliced, empty) == "[-1, -1, -1, -1]");
  Layout padded = x.pad({{Expr(1), Expr(1)}});
  CHECK(evalJson(padded, empty) == "[-1, -1]");
  CHECK(evalJson(padded, {{"x_size_0", 1}, {"x_size_1", 2}}) == "[-1, 0, 1, -1]");
}

TEST_CASE("eval of an array with an empty dimension is empty, however large the others",
          "[layout][fuzz]") {
  // The size limit (2^26 elements) was checked on the running product, so 2^14 x 2^13 x 0 was
  // "more than 67108864 elements".
  Layout x = Layout::source("x", {Expr(int64_t(1) << 14), Expr(int64_t(1) << 13), Expr(0)});
  std::vector<int64_t> shape;
  CHECK(x.eval({}, shape).empty());
  CHECK(shape == std::vector<int64_t>{int64_t(1) << 14, int64_t(1) << 13, 0});
  CHECK_THROWS_AS(
      Layout::source("x", {Expr(int64_t(1) << 14), Expr(int64_t(1) << 13)}).eval({}, shape),
      LayoutError);
}

TEST_CASE("flattening an empty level does not multiply the extents it never unravels",
          "[layout][fuzz]") {
  // The product of the extents is 0 (the outer tile count of the empty dimension), but the
  // strides that unravel the merged index are products of the inner extents, taken from the
  // innermost: 2^32 · 2^32 overflowed although no index exists (fuzz_layout: a source {0, 0, 2}
  // tiled four times by 4 in 8 dimensions, raveled and flattened).
  const int64_t big = int64_t(1) << 32;
  Layout x = Layout::source("x", {Expr(0), Expr(1)}).tile({Expr(big), Expr(big)}).ravel();
  REQUIRE(x.str() == "(0, 1, 4294967296, 4294967296)");
  Layout flat = x.flatten();
  CHECK(flat.str() == "(0,)");
  CHECK(evalJson(flat) == "[]");
}

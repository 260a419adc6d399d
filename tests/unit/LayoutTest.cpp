// Unit tests of the nested-layout IR: every operation against hand-computed index arrays
// (NineToothed's eval layout: all levels' dims concatenated, source linear index, -1 where
// masked).
#include "LayoutTestHelpers.h"
#include "ir/Layout.h"

#include <catch2/catch.hpp>

using namespace ntc;
using test::evalAt;
using test::evalJson;
using test::symbolicSource;

namespace {

/// A source tensor with concrete sizes.
Layout concreteSource(const std::vector<int64_t> &shape) {
  std::vector<Expr> s(shape.begin(), shape.end());
  return Layout::source("x", s);
}

} // namespace

TEST_CASE("tile with strides, dilation and floor mode (NineToothed eval arrays)", "[layout]") {
  Layout x = concreteSource({7});
  CHECK(evalJson(x.tile({3}, {2})) == "[[0, 1, 2], [2, 3, 4], [4, 5, 6]]");
  CHECK(evalJson(x.tile({3}, {}, {2})) == "[[0, 2, 4], [3, 5, -1]]");
  CHECK(evalJson(x.tile({3}, {}, {}, true)) == "[[0, 1, 2], [3, 4, 5]]");
  CHECK(evalJson(x.tile({3}, {2}, {2}, true)) == "[[0, 2, 4], [2, 4, 6]]");
}

TEST_CASE("a vector of 10 tiled by 4", "[layout]") {
  Layout x = concreteSource({10}).tile({4});
  CHECK(x.str() == "(3,) -> (4,)");
  CHECK(evalJson(x) == "[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, -1, -1]]");
}

TEST_CASE("pad grows with masked borders", "[layout]") {
  Layout x = concreteSource({7});
  CHECK(evalJson(x.pad({{1, 2}})) == "[-1, 0, 1, 2, 3, 4, 5, 6, -1, -1]");
  CHECK(evalJson(x.pad({{1, 2}}).tile({4})) == "[[-1, 0, 1, 2], [3, 4, 5, 6], [-1, -1, -1, -1]]");
  // Negative padding crops.
  CHECK(evalJson(x.pad({{-1, -2}})) == "[1, 2, 3, 4]");
}

TEST_CASE("unsqueeze and expand broadcast with stride 0", "[layout]") {
  Layout x = concreteSource({2, 3});
  CHECK(evalJson(x.unsqueeze(1).expand({-1, 2, -1})) ==
        "[[[0, 1, 2], [0, 1, 2]], [[3, 4, 5], [3, 4, 5]]]");
  // test_unsqueeze: x = (5,), bm = 2, bn = 3.
  Layout v = concreteSource({5});
  CHECK(evalJson(v.unsqueeze(0)) == "[[0, 1, 2, 3, 4]]");
  CHECK(evalJson(v.unsqueeze(0).expand({3, -1})) ==
        "[[0, 1, 2, 3, 4], [0, 1, 2, 3, 4], [0, 1, 2, 3, 4]]");
  Layout t = v.unsqueeze(0).expand({3, -1}).tile({2, 3});
  CHECK(t.str() == "(2, 2) -> (2, 3)");
  CHECK(evalJson(t) == "[[[[0, 1, 2], [0, 1, 2]], [[3, 4, -1], [3, 4, -1]]], "
                       "[[[0, 1, 2], [-1, -1, -1]], [[3, 4, -1], [-1, -1, -1]]]]");
  Layout u = v.tile({2}).unsqueeze(0).expand({3, -1});
  CHECK(u.str() == "(3, 3) -> (2,)");
  CHECK(evalAt(u, {}, {2}) == "[[0, 1], [2, 3], [4, -1]]");
  // Negative dims count from the end.
  CHECK(v.unsqueeze(-1).str() == "(5, 1)");
}

TEST_CASE("slicing follows NumPy basic indexing", "[layout]") {
  Layout a = concreteSource({3, 4});
  CHECK(evalJson(a.slice(0, 1, {}, {}).slice(1, {}, {}, 2)) == "[[4, 6], [8, 10]]");
  Layout b = concreteSource({4, 5});
  CHECK(evalJson(b.slice(0, {}, {}, -1).slice(1, 1, -1, {})) ==
        "[[16, 17, 18], [11, 12, 13], [6, 7, 8], [1, 2, 3]]");
  CHECK(evalJson(b.slice(0, 0, -1, 2)) == "[[0, 1, 2, 3, 4], [10, 11, 12, 13, 14]]");
  CHECK(evalJson(b.slice(0, 1, {}, 2)) == "[[5, 6, 7, 8, 9], [15, 16, 17, 18, 19]]");
  Layout c = concreteSource({2, 3, 4});
  CHECK(evalJson(c.slice(1, {}, {}, -2)) ==
        "[[[8, 9, 10, 11], [0, 1, 2, 3]], [[20, 21, 22, 23], [12, 13, 14, 15]]]");
}

TEST_CASE("permute, flatten and ravel", "[layout]") {
  Layout x = concreteSource({2, 3});
  CHECK(evalJson(x.permute({1, 0})) == "[[0, 3], [1, 4], [2, 5]]");
  CHECK(evalJson(x.flatten()) == "[0, 1, 2, 3, 4, 5]");
  CHECK(evalJson(x.permute({1, 0}).flatten()) == "[0, 3, 1, 4, 2, 5]");
  Layout y = concreteSource({2, 3, 4});
  CHECK(y.flatten(0, 2).str() == "(6, 4)");
  CHECK(y.flatten(1).str() == "(2, 12)");
  CHECK(y.flatten(-2).str() == "(2, 12)");
  Layout r = concreteSource({4}).tile({2}).ravel();
  CHECK(r.str() == "(2, 2)");
  CHECK(evalJson(r) == "[[0, 1], [2, 3]]");
}

TEST_CASE("test_eval: tile, tile twice and flatten inner levels", "[layout]") {
  Layout x = symbolicSource("x", 2);
  std::map<std::string, int64_t> subs{{"x_size_0", 5}, {"x_size_1", 6}};
  Layout t = x.tile({2, 3});
  CHECK(t.substitute({{"x_size_0", 5}, {"x_size_1", 6}}).str() == "(3, 2) -> (2, 3)");
  CHECK(evalAt(t, subs, {0}) == "[[[0, 1, 2], [6, 7, 8]], [[3, 4, 5], [9, 10, 11]]]");
  CHECK(evalAt(t, subs, {2}) == "[[[24, 25, 26], [-1, -1, -1]], [[27, 28, 29], [-1, -1, -1]]]");
  // .dtype = .dtype.flatten()
  Layout f = t.withInner(t.dtype().flatten());
  CHECK(f.substitute({{"x_size_0", 5}, {"x_size_1", 6}}).str() == "(3, 2) -> (6,)");
  CHECK(evalAt(f, subs, {2, 1}) == "[27, 28, 29, -1, -1, -1]");
  // Tile twice, then flatten the innermost level through dtype().dtype().
  Layout tt = x.tile({2, 3}).tile({1, 1});
  Layout inner = tt.dtype().withInner(tt.dtype().dtype().flatten());
  Layout g = tt.withInner(inner);
  CHECK(g.substitute({{"x_size_0", 5}, {"x_size_1", 6}}).str() == "(3, 2) -> (1, 1) -> (6,)");
  CHECK(evalAt(g, subs, {1, 1, 0, 0}) == "[15, 16, 17, 21, 22, 23]");
}

TEST_CASE("GEMM tutorial tables", "[layout]") {
  Expr bm = 64, bn = 64, bk = 64;
  Layout a = symbolicSource("lhs", 2), b = symbolicSource("rhs", 2),
         c = symbolicSource("output", 2);
  std::map<std::string, Expr> shapes{{"lhs_size_0", 128},    {"lhs_size_1", 192},
                                     {"rhs_size_0", 192},    {"rhs_size_1", 256},
                                     {"output_size_0", 128}, {"output_size_1", 256}};
  Layout out = c.tile({bm, bn});
  Layout step1 = a.tile({bm, bk});
  Layout step2 = step1.tile({1, -1});
  Layout step3 = step2.expand({-1, out.shape(1)});
  Layout step4 = step3.withInner(step3.dtype().squeeze({0}));
  CHECK(step1.substitute(shapes).str() == "(2, 3) -> (64, 64)");
  CHECK(step2.substitute(shapes).str() == "(2, 1) -> (1, 3) -> (64, 64)");
  CHECK(step3.substitute(shapes).str() == "(2, 4) -> (1, 3) -> (64, 64)");
  CHECK(step4.substitute(shapes).str() == "(2, 4) -> (3,) -> (64, 64)");
  CHECK(step4.str() == "(⌈lhs_size_0/64⌉, ⌈output_size_1/64⌉) -> (⌈lhs_size_1/64⌉,) -> (64, 64)");
  Layout rhs = b.tile({bk, bn}).tile({-1, 1}).expand({out.shape(0), -1});
  rhs = rhs.withInner(rhs.dtype().squeeze({1}));
  CHECK(rhs.substitute(shapes).str() == "(2, 4) -> (3,) -> (64, 64)");
  CHECK(out.substitute(shapes).str() == "(2, 4) -> (64, 64)");
}

TEST_CASE("GEMM arrangement index arrays, M=3 K=5 N=4, blocks of 2", "[layout]") {
  Layout out = symbolicSource("output", 2).tile({2, 2});
  Layout lhs = symbolicSource("lhs", 2).tile({2, 2}).tile({1, -1}).expand({-1, out.shape(1)});
  lhs = lhs.withInner(lhs.dtype().squeeze({0}));
  Layout rhs = symbolicSource("rhs", 2).tile({2, 2}).tile({-1, 1}).expand({out.shape(0), -1});
  rhs = rhs.withInner(rhs.dtype().squeeze({1}));
  std::map<std::string, int64_t> s{{"lhs_size_0", 3}, {"lhs_size_1", 5},    {"rhs_size_0", 5},
                                   {"rhs_size_1", 4}, {"output_size_0", 3}, {"output_size_1", 4}};
  CHECK(evalAt(lhs, s, {0, 0}) == "[[[0, 1], [5, 6]], [[2, 3], [7, 8]], [[4, -1], [9, -1]]]");
  CHECK(evalAt(rhs, s, {0, 1}) == "[[[2, 3], [6, 7]], [[10, 11], [14, 15]], [[18, 19], [-1, -1]]]");
  CHECK(evalAt(out, s, {1, 0}) == "[[8, 9], [-1, -1]]");
}

TEST_CASE("an intermediate can be derived twice", "[layout]") {
  Layout t = concreteSource({2, 3}).tile({1, 3});
  Layout a = t.permute({1, 0});
  Layout b = t.permute({1, 0});
  CHECK(evalJson(a) == evalJson(b));
  CHECK(evalJson(t.ravel()) == evalJson(t.ravel()));
  CHECK(evalJson(t.ravel()) == "[[[[0, 1, 2]]], [[[3, 4, 5]]]]");
}

TEST_CASE("tail case of the GEMM: M=65 N=97 K=130", "[layout]") {
  Layout out = symbolicSource("output", 2).tile({64, 64});
  Layout lhs = symbolicSource("lhs", 2).tile({64, 64}).tile({1, -1}).expand({-1, out.shape(1)});
  lhs = lhs.withInner(lhs.dtype().squeeze({0}));
  std::map<std::string, Expr> s{{"lhs_size_0", 65}, {"lhs_size_1", 130}, {"output_size_1", 97}};
  CHECK(lhs.substitute(s).str() == "(2, 2) -> (3,) -> (64, 64)");
}

TEST_CASE("invalid arguments are rejected", "[layout]") {
  Layout x = concreteSource({4, 6});
  CHECK_THROWS_WITH(x.tile({2}), "tile: tile shape has 1 entries but the tensor has rank 2");
  CHECK_THROWS_WITH(x.squeeze({0}), "squeeze: cannot squeeze dimension 0: its size is 4, not 1");
  CHECK_THROWS_WITH(x.expand({8, -1}), Catch::Contains("cannot expand dimension 0 from 4 to 8"));
  CHECK_THROWS_WITH(x.permute({0, 0}), Catch::Contains("is not a permutation"));
  CHECK_THROWS_WITH(x.permute({0, 2}), Catch::Contains("out of range"));
  CHECK_THROWS_WITH(x.squeeze({2}), Catch::Contains("out of range"));
  CHECK_THROWS_WITH(x.flatten(1, 1), Catch::Contains("selects no dimensions"));
  CHECK_THROWS_WITH(x.tile({0, 2}), Catch::Contains("must be positive"));
  CHECK_THROWS_WITH(x.dtype(), Catch::Contains("innermost level"));
  CHECK_THROWS_WITH(x.axes({"m", "m"}), Catch::Contains("used twice"));
  Layout t = x.tile({2, 2});
  CHECK_THROWS_WITH(t.withInner(x.tile({2, 2}).dtype()), Catch::Contains("must be derived"));
}

TEST_CASE("run-time extent conditions: recorded when unprovable, enforced by eval",
          "[layout][checks]") {
  Layout x = symbolicSource("x", 2);
  // ⌈x_size_0/4⌉ may or may not be 1: the condition is recorded for the wrapper.
  Layout squeezed = x.tile({Expr(4), Expr(4)}).squeeze({0});
  REQUIRE(squeezed.checks().size() == 1);
  CHECK(squeezed.checks()[0].what == "squeeze(0): the squeezed dimension's extent");
  CHECK(squeezed.checks()[0].requirement() == "must be 1");
  CHECK(evalJson(squeezed, {{"x_size_0", 4}, {"x_size_1", 4}}).size() > 2);
  CHECK_THROWS_AS(evalJson(squeezed, {{"x_size_0", 8}, {"x_size_1", 4}}), LayoutError);

  // A provably valid or provably invalid extent records nothing or throws.
  CHECK(x.tile({Expr(1), Expr(4)}).squeeze({0}).checks().empty() == false);
  CHECK(x.tile({Expr(4), Expr(4)}).tile({Expr(1), Expr(1)}).dtype().squeeze({0}).checks().empty());
  Expr b = Expr::symbol("B", {16, 64});
  CHECK_THROWS_AS(x.tile({Expr(8) - b, Expr(1)}), LayoutError);

  // A tile size from a size: at least 1 at run time.
  Layout minus = x.tile({Expr::symbol("x_size_0", {0, std::nullopt}) - Expr(100), Expr(1)});
  REQUIRE(minus.checks().size() == 1);
  CHECK(minus.checks()[0].lo == 1);
  CHECK_THROWS_AS(evalJson(minus, {{"x_size_0", 100}, {"x_size_1", 1}}), LayoutError);
}

// Unit tests of lower-named-axes (passes/NamedAxes.h): every named arrangement against the
// classic arrangement spelled out with tile/expand/squeeze/permute, level by level (the printed
// extents) and element by element (eval's index arrays, for several shapes with tails).
#include "passes/NamedAxes.h"
#include "LayoutTestHelpers.h"

#include <catch2/catch.hpp>

using namespace ntc;
using passes::lowerNamedAxes;
using test::evalAt;
using test::evalJson;

namespace {

const Expr BM = Expr::symbol("BLOCK_SIZE_M", {1, 64});
const Expr BN = Expr::symbol("BLOCK_SIZE_N", {1, 64});
const Expr BK = Expr::symbol("BLOCK_SIZE_K", {1, 64});

/// A source tensor with symbolic sizes named <name>_size_<d>.
Layout source(const std::string &name, size_t rank) { return test::symbolicSource(name, rank); }

/// A kernel whose parameters are the sources of `arranged`, in order.
KernelSpec kernel(const std::vector<Layout> &arranged) {
  KernelSpec spec;
  spec.name = "k";
  for (const Layout &l : arranged) {
    ParamSpec p;
    p.name = l.sourceName();
    p.kind = l.sourceShape().empty() ? ParamSpec::Kind::Scalar : ParamSpec::Kind::Tensor;
    p.ndim = static_cast<int>(l.sourceShape().size());
    spec.params.push_back(p);
    spec.arranged.push_back({p.name, static_cast<int>(spec.params.size()) - 1, l, {}});
  }
  return spec;
}

/// The layouts after lower-named-axes; fails the test on errors.
std::vector<Layout> lowered(const std::vector<Layout> &arranged, const std::vector<bool> &written) {
  KernelSpec spec = kernel(arranged);
  auto errors = lowerNamedAxes(spec, written);
  for (const auto &e : errors)
    FAIL_CHECK(e.message);
  REQUIRE(errors.empty());
  std::vector<Layout> out;
  for (const ArrangedParam &a : spec.arranged)
    out.push_back(a.layout);
  return out;
}

/// The errors of lower-named-axes; checks that the spec is left unchanged.
std::vector<passes::NamedAxesError> errorsOf(const std::vector<Layout> &arranged,
                                             const std::vector<bool> &written) {
  KernelSpec spec = kernel(arranged);
  auto errors = lowerNamedAxes(spec, written);
  for (size_t i = 0; i < arranged.size(); ++i)
    CHECK(spec.arranged[i].layout.str() == arranged[i].str());
  return errors;
}

/// Same number of levels, same extents in every level, same printed form.
void checkSameLevels(const Layout &named, const Layout &classic) {
  INFO("named:   " << named.str());
  INFO("classic: " << classic.str());
  REQUIRE(named.levels().size() == classic.levels().size());
  for (size_t i = 0; i < named.levels().size(); ++i)
    CHECK(named.levels()[i].shape() == classic.levels()[i].shape());
  CHECK(named.str() == classic.str());
}

/// Same index arrays for every set of values.
void checkSameEval(const Layout &named, const Layout &classic,
                   const std::vector<std::map<std::string, int64_t>> &valueSets) {
  for (const auto &values : valueSets) {
    std::string where;
    for (const auto &[k, v] : values)
      where += k + "=" + std::to_string(v) + " ";
    INFO(named.sourceName() << " with " << where);
    CHECK(evalJson(named, values) == evalJson(classic, values));
  }
}

/// Restructure one inner level: l.dtype() = f(l.dtype()), as arrangements write it.
template <class F> Layout withDtype(const Layout &l, F f) { return l.withInner(f(l.dtype())); }

// ---- the GEMM ----------------------------------------------------------------------------

struct Gemm {
  Layout lhs, rhs, output;
};

Gemm classicGemm() {
  Layout output = source("output", 2).tile({BM, BN});
  Layout lhs = source("lhs", 2).tile({BM, BK}).tile({1, -1}).expand({-1, output.shape(1)});
  lhs = withDtype(lhs, [](const Layout &t) { return t.squeeze({0}); });
  Layout rhs = source("rhs", 2).tile({BK, BN}).tile({-1, 1}).expand({output.shape(0), -1});
  rhs = withDtype(rhs, [](const Layout &t) { return t.squeeze({1}); });
  return {lhs, rhs, output};
}

Gemm namedGemm() {
  auto l = lowered({source("lhs", 2).axes({"m", "k"}).tile({BM, BK}),
                    source("rhs", 2).axes({"k", "n"}).tile({BK, BN}),
                    source("output", 2).axes({"m", "n"}).tile({BM, BN})},
                   {false, false, true});
  return {l[0], l[1], l[2]};
}

std::map<std::string, int64_t> gemmValues(int64_t M, int64_t K, int64_t N, int64_t bm, int64_t bn,
                                          int64_t bk) {
  return {{"lhs_size_0", M},    {"lhs_size_1", K},    {"rhs_size_0", K},
          {"rhs_size_1", N},    {"output_size_0", M}, {"output_size_1", N},
          {"BLOCK_SIZE_M", bm}, {"BLOCK_SIZE_N", bn}, {"BLOCK_SIZE_K", bk}};
}

const std::vector<std::map<std::string, int64_t>> kGemmShapes = {
    gemmValues(3, 5, 4, 2, 2, 2),  gemmValues(4, 4, 4, 2, 2, 2),  gemmValues(7, 9, 5, 4, 2, 4),
    gemmValues(1, 1, 1, 2, 2, 2),  gemmValues(8, 16, 8, 4, 4, 8), gemmValues(5, 3, 6, 2, 4, 2),
    gemmValues(6, 10, 3, 3, 2, 5), gemmValues(2, 7, 9, 1, 3, 3)};

} // namespace

TEST_CASE("named GEMM equals the classic GEMM level by level", "[named]") {
  Gemm named = namedGemm(), classic = classicGemm();
  CHECK(named.lhs.str() == "(⌈lhs_size_0/BLOCK_SIZE_M⌉, ⌈output_size_1/BLOCK_SIZE_N⌉) -> "
                           "(⌈lhs_size_1/BLOCK_SIZE_K⌉,) -> (BLOCK_SIZE_M, BLOCK_SIZE_K)");
  CHECK(named.rhs.str() == "(⌈output_size_0/BLOCK_SIZE_M⌉, ⌈rhs_size_1/BLOCK_SIZE_N⌉) -> "
                           "(⌈rhs_size_0/BLOCK_SIZE_K⌉,) -> (BLOCK_SIZE_K, BLOCK_SIZE_N)");
  CHECK(named.output.str() == "(⌈output_size_0/BLOCK_SIZE_M⌉, ⌈output_size_1/BLOCK_SIZE_N⌉) -> "
                              "(BLOCK_SIZE_M, BLOCK_SIZE_N)");
  checkSameLevels(named.lhs, classic.lhs);
  checkSameLevels(named.rhs, classic.rhs);
  checkSameLevels(named.output, classic.output);
}

TEST_CASE("named GEMM equals the classic GEMM element by element, tails included", "[named]") {
  Gemm named = namedGemm(), classic = classicGemm();
  checkSameEval(named.lhs, classic.lhs, kGemmShapes);
  checkSameEval(named.rhs, classic.rhs, kGemmShapes);
  checkSameEval(named.output, classic.output, kGemmShapes);
}

TEST_CASE("named GEMM gives NineToothed's worked programs (M = 3, K = 5, N = 4)", "[named]") {
  Gemm named = namedGemm();
  auto v = gemmValues(3, 5, 4, 2, 2, 2);
  CHECK(evalAt(named.lhs, v, {0, 0}) == "[[[0, 1], [5, 6]], [[2, 3], [7, 8]], [[4, -1], [9, -1]]]");
  CHECK(evalAt(named.rhs, v, {0, 1}) ==
        "[[[2, 3], [6, 7]], [[10, 11], [14, 15]], [[18, 19], [-1, -1]]]");
  CHECK(evalAt(named.output, v, {1, 0}) == "[[8, 9], [-1, -1]]");
}

TEST_CASE("lowered dims keep their axis names", "[named]") {
  Gemm named = namedGemm();
  const auto &levels = named.lhs.levels();
  REQUIRE(levels.size() == 3);
  CHECK(levels[0].dims[0].axis == "m");
  CHECK(levels[0].dims[1].axis == "n");
  CHECK(levels[1].dims[0].axis == "k");
  CHECK(levels[2].dims[0].axis == "m");
  CHECK(levels[2].dims[1].axis == "k");
  CHECK(passes::namedAxes(named.rhs) == std::vector<std::string>{"m", "n"});
}

TEST_CASE("a kernel without named axes is unchanged", "[named]") {
  Gemm classic = classicGemm();
  KernelSpec spec = kernel({classic.lhs, classic.rhs, classic.output});
  CHECK(lowerNamedAxes(spec, {false, false, true}).empty());
  auto v = gemmValues(3, 5, 4, 2, 2, 2);
  CHECK(spec.arranged[0].layout.str() == classic.lhs.str());
  CHECK(evalJson(spec.arranged[0].layout, v) == evalJson(classic.lhs, v));
  CHECK(evalJson(spec.arranged[1].layout, v) == evalJson(classic.rhs, v));
}

TEST_CASE("lowering is idempotent", "[named]") {
  Gemm once = namedGemm();
  auto twice = lowered({once.lhs, once.rhs, once.output}, {false, false, true});
  auto v = gemmValues(7, 9, 5, 4, 2, 4);
  CHECK(twice[0].str() == once.lhs.str());
  CHECK(evalJson(twice[0], v) == evalJson(once.lhs, v));
  CHECK(evalJson(twice[1], v) == evalJson(once.rhs, v));
}

TEST_CASE("bias without m is broadcast over the row blocks; residual is indexed", "[named]") {
  auto l = lowered({source("lhs", 2).axes({"m", "k"}).tile({BM, BK}),
                    source("rhs", 2).axes({"k", "n"}).tile({BK, BN}),
                    source("bias", 1).axes({"n"}).tile({BN}),
                    source("residual", 2).axes({"m", "n"}).tile({BM, BN}),
                    source("output", 2).axes({"m", "n"}).tile({BM, BN})},
                   {false, false, false, false, true});
  Layout output = source("output", 2).tile({BM, BN});
  Layout bias = source("bias", 1).tile({BN}).unsqueeze(0).expand({output.shape(0), -1});
  Layout residual = source("residual", 2).tile({BM, BN});
  CHECK(l[2].str() ==
        "(⌈output_size_0/BLOCK_SIZE_M⌉, ⌈bias_size_0/BLOCK_SIZE_N⌉) -> (BLOCK_SIZE_N,)");
  CHECK(l[3].str() == "(⌈residual_size_0/BLOCK_SIZE_M⌉, ⌈residual_size_1/BLOCK_SIZE_N⌉) -> "
                      "(BLOCK_SIZE_M, BLOCK_SIZE_N)");
  checkSameLevels(l[2], bias);
  checkSameLevels(l[3], residual);
  std::vector<std::map<std::string, int64_t>> shapes;
  for (auto [M, N, bm, bn] : std::vector<std::array<int64_t, 4>>{
           {3, 4, 2, 2}, {3, 3, 2, 2}, {5, 7, 4, 2}, {1, 1, 2, 2}, {8, 8, 8, 4}}) {
    shapes.push_back({{"output_size_0", M},
                      {"output_size_1", N},
                      {"bias_size_0", N},
                      {"residual_size_0", M},
                      {"residual_size_1", N},
                      {"BLOCK_SIZE_M", bm},
                      {"BLOCK_SIZE_N", bn}});
  }
  checkSameEval(l[2], bias, shapes);
  checkSameEval(l[3], residual, shapes);
  // M = 3, N = 3, blocks of 2: both row blocks read the same bias elements (stride 0).
  CHECK(evalJson(l[2], shapes[1]) == "[[[0, 1], [2, -1]], [[0, 1], [2, -1]]]");
}

TEST_CASE("bmm: the batch axis is a program axis; its unit tile dim is dropped", "[named]") {
  auto l = lowered({source("lhs", 3).axes({"b", "m", "k"}).tile({1, BM, BK}),
                    source("rhs", 3).axes({"b", "k", "n"}).tile({1, BK, BN}),
                    source("output", 3).axes({"b", "m", "n"}).tile({1, BM, BN})},
                   {false, false, true});
  // NineToothed's classic bmm arrangement.
  Layout output = source("output", 3).tile({1, BM, BN});
  output = withDtype(output, [](const Layout &t) { return t.squeeze({0}); });
  Layout lhs =
      source("lhs", 3).tile({1, BM, BK}).tile({1, 1, -1}).expand({-1, -1, output.shape(2)});
  lhs = withDtype(lhs, [](const Layout &t) {
    Layout s = t.squeeze({0, 1});
    return withDtype(s, [](const Layout &u) { return u.squeeze({0}); });
  });
  Layout rhs =
      source("rhs", 3).tile({1, BK, BN}).tile({1, -1, 1}).expand({-1, output.shape(1), -1});
  rhs = withDtype(rhs, [](const Layout &t) {
    Layout s = t.squeeze({0, 2});
    return withDtype(s, [](const Layout &u) { return u.squeeze({0}); });
  });
  CHECK(l[0].str() == "(lhs_size_0, ⌈lhs_size_1/BLOCK_SIZE_M⌉, ⌈output_size_2/BLOCK_SIZE_N⌉) -> "
                      "(⌈lhs_size_2/BLOCK_SIZE_K⌉,) -> (BLOCK_SIZE_M, BLOCK_SIZE_K)");
  CHECK(l[2].str() == "(output_size_0, ⌈output_size_1/BLOCK_SIZE_M⌉, ⌈output_size_2/BLOCK_SIZE_N⌉) "
                      "-> (BLOCK_SIZE_M, BLOCK_SIZE_N)");
  checkSameLevels(l[0], lhs);
  checkSameLevels(l[1], rhs);
  checkSameLevels(l[2], output);
  std::vector<std::map<std::string, int64_t>> shapes;
  for (auto [B, M, K, N] :
       std::vector<std::array<int64_t, 4>>{{2, 3, 5, 4}, {1, 4, 4, 4}, {3, 5, 3, 2}}) {
    shapes.push_back({{"lhs_size_0", B},
                      {"lhs_size_1", M},
                      {"lhs_size_2", K},
                      {"rhs_size_0", B},
                      {"rhs_size_1", K},
                      {"rhs_size_2", N},
                      {"output_size_0", B},
                      {"output_size_1", M},
                      {"output_size_2", N},
                      {"BLOCK_SIZE_M", 2},
                      {"BLOCK_SIZE_N", 2},
                      {"BLOCK_SIZE_K", 2}});
  }
  checkSameEval(l[0], lhs, shapes);
  checkSameEval(l[1], rhs, shapes);
  checkSameEval(l[2], output, shapes);
  // Batch 1, program (1, 0, 1): lhs[1] starts at 15 = 1·(3·5).
  CHECK(evalAt(l[0], shapes[0], {1, 0, 1}) ==
        "[[[15, 16], [20, 21]], [[17, 18], [22, 23]], [[19, -1], [24, -1]]]");
}

TEST_CASE("bmm with a right-hand side shared by the whole batch", "[named]") {
  auto l = lowered({source("lhs", 3).axes({"b", "m", "k"}).tile({1, BM, BK}),
                    source("rhs", 2).axes({"k", "n"}).tile({BK, BN}),
                    source("output", 3).axes({"b", "m", "n"}).tile({1, BM, BN})},
                   {false, false, true});
  Layout output = source("output", 3).tile({1, BM, BN});
  Layout rhs = source("rhs", 2).tile({BK, BN}).tile({-1, 1}).unsqueeze(0).expand(
      {output.shape(0), output.shape(1), -1});
  rhs = withDtype(rhs, [](const Layout &t) { return t.squeeze({1}); });
  CHECK(l[1].str() == "(output_size_0, ⌈output_size_1/BLOCK_SIZE_M⌉, ⌈rhs_size_1/BLOCK_SIZE_N⌉) -> "
                      "(⌈rhs_size_0/BLOCK_SIZE_K⌉,) -> (BLOCK_SIZE_K, BLOCK_SIZE_N)");
  checkSameLevels(l[1], rhs);
  std::map<std::string, int64_t> v = {
      {"rhs_size_0", 5},    {"rhs_size_1", 4},   {"output_size_0", 2}, {"output_size_1", 3},
      {"output_size_2", 4}, {"BLOCK_SIZE_M", 2}, {"BLOCK_SIZE_N", 2},  {"BLOCK_SIZE_K", 2}};
  checkSameEval(l[1], rhs, {v});
  // Every batch reads the same rhs tiles.
  CHECK(evalAt(l[1], v, {0, 1, 1}) == evalAt(l[1], v, {1, 0, 1}));
  CHECK(evalAt(l[1], v, {1, 1, 1}) ==
        "[[[2, 3], [6, 7]], [[10, 11], [14, 15]], [[18, 19], [-1, -1]]]");
}

TEST_CASE("several iterated axes keep the tensor's own order", "[named]") {
  const Expr BI = Expr::symbol("BLOCK_SIZE_I", {1, 64});
  // x is (r, i, s): i is the program axis, r and s are walked in that order.
  auto l = lowered({source("x", 3).axes({"r", "i", "s"}).tile({2, BI, 3}),
                    source("y", 1).axes({"i"}).tile({BI})},
                   {false, true});
  Layout x = source("x", 3).tile({2, BI, 3}).tile({-1, 1, -1});
  x = withDtype(x.squeeze({0, 2}), [](const Layout &t) { return t.squeeze({1}); });
  CHECK(l[0].str() == "(⌈x_size_1/BLOCK_SIZE_I⌉,) -> (⌈x_size_0/2⌉, ⌈x_size_2/3⌉) -> "
                      "(2, BLOCK_SIZE_I, 3)");
  checkSameLevels(l[0], x);
  std::vector<std::map<std::string, int64_t>> shapes;
  for (auto [R, I, S, bi] :
       std::vector<std::array<int64_t, 4>>{{3, 4, 5, 2}, {2, 3, 3, 4}, {5, 1, 7, 1}})
    shapes.push_back(
        {{"x_size_0", R}, {"x_size_1", I}, {"x_size_2", S}, {"y_size_0", I}, {"BLOCK_SIZE_I", bi}});
  checkSameEval(l[0], x, shapes);
  CHECK(l[0].levels()[1].dims[0].axis == "r");
  CHECK(l[0].levels()[1].dims[1].axis == "s");
}

TEST_CASE("the writers' axis order is the grid order", "[named]") {
  // The output is named (n, m): the grid is (n, m) and lhs's level 0 follows it.
  auto l = lowered({source("lhs", 2).axes({"m", "k"}).tile({BM, BK}),
                    source("rhs", 2).axes({"k", "n"}).tile({BK, BN}),
                    source("out", 2).axes({"n", "m"}).tile({BN, BM})},
                   {false, false, true});
  CHECK(l[0].str() == "(⌈out_size_0/BLOCK_SIZE_N⌉, ⌈lhs_size_0/BLOCK_SIZE_M⌉) -> "
                      "(⌈lhs_size_1/BLOCK_SIZE_K⌉,) -> (BLOCK_SIZE_M, BLOCK_SIZE_K)");
  Layout out = source("out", 2).tile({BN, BM});
  Layout lhs =
      source("lhs", 2).tile({BM, BK}).tile({1, -1}).expand({-1, out.shape(0)}).permute({1, 0});
  lhs = withDtype(lhs, [](const Layout &t) { return t.squeeze({0}); });
  checkSameLevels(l[0], lhs);
  std::map<std::string, int64_t> v = {{"lhs_size_0", 3},  {"lhs_size_1", 5},   {"out_size_0", 4},
                                      {"out_size_1", 3},  {"BLOCK_SIZE_M", 2}, {"BLOCK_SIZE_N", 2},
                                      {"BLOCK_SIZE_K", 2}};
  checkSameEval(l[0], lhs, {v});
}

TEST_CASE("axes compose with permute, pad and strided tiles", "[named]") {
  auto values = [](int64_t M, int64_t K, int64_t N) {
    return std::map<std::string, int64_t>{
        {"lhs_size_0", M},   {"lhs_size_1", K},    {"rhs_size_0", N},
        {"rhs_size_1", K},   {"output_size_0", M}, {"output_size_1", N},
        {"BLOCK_SIZE_M", 2}, {"BLOCK_SIZE_N", 2},  {"BLOCK_SIZE_K", 2}};
  };
  std::vector<std::map<std::string, int64_t>> shapes = {values(3, 5, 4), values(4, 4, 4),
                                                        values(5, 3, 7)};
  Layout output = source("output", 2).tile({BM, BN});

  SECTION("axes then permute: rhs stored as (n, k)") {
    auto l = lowered({source("lhs", 2).axes({"m", "k"}).tile({BM, BK}),
                      source("rhs", 2).axes({"n", "k"}).permute({1, 0}).tile({BK, BN}),
                      source("output", 2).axes({"m", "n"}).tile({BM, BN})},
                     {false, false, true});
    Layout rhs =
        source("rhs", 2).permute({1, 0}).tile({BK, BN}).tile({-1, 1}).expand({output.shape(0), -1});
    rhs = withDtype(rhs, [](const Layout &t) { return t.squeeze({1}); });
    checkSameLevels(l[1], rhs);
    checkSameEval(l[1], rhs, shapes);
  }
  SECTION("axes in storage order without permute: the tile stays (BN, BK)") {
    auto l = lowered({source("lhs", 2).axes({"m", "k"}).tile({BM, BK}),
                      source("rhs", 2).axes({"n", "k"}).tile({BN, BK}),
                      source("output", 2).axes({"m", "n"}).tile({BM, BN})},
                     {false, false, true});
    Layout rhs =
        source("rhs", 2).tile({BN, BK}).tile({1, -1}).expand({-1, output.shape(0)}).permute({1, 0});
    rhs = withDtype(rhs, [](const Layout &t) { return t.squeeze({0}); });
    CHECK(l[1].str() == "(⌈output_size_0/BLOCK_SIZE_M⌉, ⌈rhs_size_0/BLOCK_SIZE_N⌉) -> "
                        "(⌈rhs_size_1/BLOCK_SIZE_K⌉,) -> (BLOCK_SIZE_N, BLOCK_SIZE_K)");
    checkSameLevels(l[1], rhs);
    checkSameEval(l[1], rhs, shapes);
  }
  SECTION("axes then pad: masked borders survive the lowering") {
    auto l = lowered({source("lhs", 2).axes({"m", "k"}).pad({{1, 0}, {0, 2}}).tile({BM, BK}),
                      source("rhs", 2).axes({"n", "k"}).permute({1, 0}).tile({BK, BN}),
                      source("output", 2).axes({"m", "n"}).tile({BM, BN})},
                     {false, false, true});
    Layout lhs = source("lhs", 2)
                     .pad({{1, 0}, {0, 2}})
                     .tile({BM, BK})
                     .tile({1, -1})
                     .expand({-1, output.shape(1)});
    lhs = withDtype(lhs, [](const Layout &t) { return t.squeeze({0}); });
    checkSameLevels(l[0], lhs);
    checkSameEval(l[0], lhs, shapes);
    // M = 3, K = 5 padded to (4, 7): program (0, 0), first k tile = rows -1, 0 and cols 0, 1.
    CHECK(evalAt(l[0], shapes[0], {0, 0, 0}) == "[[-1, -1], [0, 1]]");
  }
  SECTION("strided (overlapping) tiles along an iterated axis") {
    auto l = lowered({source("lhs", 2).axes({"m", "k"}).tile({BM, 3}, {BM, 1}),
                      source("output", 2).axes({"m", "n"}).tile({BM, BN})},
                     {false, true});
    Layout lhs =
        source("lhs", 2).tile({BM, 3}, {BM, 1}).tile({1, -1}).expand({-1, output.shape(1)});
    lhs = withDtype(lhs, [](const Layout &t) { return t.squeeze({0}); });
    checkSameLevels(l[0], lhs);
    checkSameEval(l[0], lhs, shapes);
    // K = 5 in windows of 3 with stride 1: 3 windows.
    CHECK(evalAt(l[0], shapes[0], {0, 0}) ==
          "[[[0, 1, 2], [5, 6, 7]], [[1, 2, 3], [6, 7, 8]], [[2, 3, 4], [7, 8, 9]]]");
  }
}

TEST_CASE("a row tiled {1, -1} keeps a 1-d tile; a tile is never emptied", "[named]") {
  auto l = lowered(
      {source("x", 2).axes({"m", "n"}).tile({1, -1}), source("y", 2).axes({"m", "n"}).tile({1, 1})},
      {false, true});
  CHECK(l[0].str() == "(x_size_0, 1) -> (x_size_1,)");
  CHECK(l[1].str() == "(y_size_0, y_size_1) -> (1, 1)");
  CHECK(evalJson(l[0], {{"x_size_0", 2}, {"x_size_1", 3}}) == "[[[0, 1, 2]], [[3, 4, 5]]]");
}

TEST_CASE("unnamed tensors and scalars in a named kernel are left alone", "[named]") {
  Layout scale = Layout::source("scale", {});
  Layout plain = source("plain", 2).tile({BM, BN});
  auto l = lowered({source("lhs", 2).axes({"m", "k"}).tile({BM, BK}), scale, plain,
                    source("output", 2).axes({"m", "n"}).tile({BM, BN})},
                   {false, false, false, true});
  CHECK(l[1].str() == "()");
  CHECK(l[2].str() == plain.str());
  CHECK(l[0].levels().size() == 3);
}

TEST_CASE("named-axis errors", "[named]") {
  SECTION("one axis tiled with two sizes") {
    auto e = errorsOf({source("lhs", 2).axes({"m", "k"}).tile({BM, BK}),
                       source("rhs", 2).axes({"k", "n"}).tile({32, BN}),
                       source("output", 2).axes({"m", "n"}).tile({BM, BN})},
                      {false, false, true});
    REQUIRE(e.size() == 1);
    CHECK(e[0].message ==
          "axis 'k' is tiled with 32 in 'rhs' but with BLOCK_SIZE_K in 'lhs'; one axis needs one "
          "tile size");
    CHECK(e[0].param == 1);
    REQUIRE(e[0].notes.size() == 2);
    CHECK(e[0].notes[0].first == 1);
    CHECK(e[0].notes[1].first == 0);
  }
  SECTION("a whole-extent tile is checked at run time, not here") {
    auto l =
        lowered({source("x", 2).axes({"m", "k"}).tile({BM, -1}),
                 source("y", 1).axes({"k"}).tile({-1}), source("output", 1).axes({"m"}).tile({BM})},
                {false, false, true});
    CHECK(l[0].str() == "(⌈x_size_0/BLOCK_SIZE_M⌉,) -> (1,) -> (BLOCK_SIZE_M, x_size_1)");
    CHECK(l[1].str() == "(⌈output_size_0/BLOCK_SIZE_M⌉,) -> (1,) -> (y_size_0,)");
  }
  SECTION("extents that provably differ") {
    auto e = errorsOf({source("x", 1).axes({"i"}).slice(0, Expr(0), Expr(8), Expr(1)).tile({4}),
                       source("y", 1).axes({"i"}).slice(0, Expr(0), Expr(12), Expr(1)).tile({4})},
                      {false, true});
    REQUIRE(e.size() == 1);
    CHECK(e[0].message == "axis 'i' has 2 tiles in 'x' but 3 in 'y'; tensors sharing an axis "
                          "must agree on its extent");
  }
  SECTION("writers that disagree on the program axes") {
    auto e = errorsOf({source("a", 2).axes({"m", "n"}).tile({BM, BN}),
                       source("b", 2).axes({"n", "m"}).tile({BN, BM})},
                      {true, true});
    REQUIRE(e.size() == 1);
    CHECK(e[0].message == "the tensors the application writes disagree on the program axes: "
                          "'b' has axes (n, m) but 'a' has (m, n)");
  }
  SECTION("no named writer") {
    auto e = errorsOf(
        {source("lhs", 2).axes({"m", "k"}).tile({BM, BK}), source("output", 2).tile({BM, BN})},
        {false, true});
    REQUIRE(e.size() == 1);
    CHECK(e[0].message.find("no tensor the application writes does") != std::string::npos);
    REQUIRE(e[0].notes.size() == 2);
    CHECK(e[0].notes[1].first == 1);
  }
  SECTION("some dims named, some not") {
    auto e = errorsOf({source("x", 2).axes({"m", "n"}).unsqueeze(0).tile({1, BM, BN}),
                       source("out", 2).axes({"m", "n"}).tile({BM, BN})},
                      {false, true});
    REQUIRE(e.size() == 1);
    CHECK(e[0].message.find("names some dimensions but not dimension 0") != std::string::npos);
  }
}

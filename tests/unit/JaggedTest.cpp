// Unit tests of jagged sources (Layout::jagged) and resolve-jagged
// (compiler/passes/ResolveJagged.cpp): the jagged coordinate starts at the batch entry's first
// row and is bounded by its length; the batch coordinate must be the program's.
#include "AccessTestHelpers.h"
#include "ir/Kernel.h"
#include "passes/Passes.h"

#include <catch2/catch.hpp>

using namespace ntc;
using test::sym;

namespace {

/// A rank-3 source `x` jagged in dimension 1.
Layout jaggedSource() {
  return Layout::source("x", {sym("x_size_0"), sym("x_size_1"), sym("x_size_2")})
      .jagged(1, sym("x_seq_start"), sym("x_seq_len"));
}

/// A kernel of one jagged tensor arranged as `arranged`.
KernelSpec jaggedKernel(const Layout &arranged) {
  KernelSpec spec;
  spec.name = "k";
  ParamSpec x;
  x.name = "x";
  x.ndim = 3;
  x.jaggedDim = 1;
  x.upperBounds.assign(3, std::nullopt);
  x.constexprDims.assign(3, false);
  spec.params.push_back(x);
  spec.arranged.push_back({"x", 0, arranged, {}});
  return spec;
}

bool mentions(const Expr &e, const std::string &symbol) {
  std::vector<std::string> names;
  e.collectSymbols(names);
  return std::find(names.begin(), names.end(), symbol) != names.end();
}

} // namespace

TEST_CASE("a jagged source adds the first row and bounds by the length", "[jagged]") {
  Layout l = jaggedSource();
  REQUIRE(l.coords().size() == 3);
  CHECK(mentions(l.coords()[1], "x_seq_start"));
  CHECK_FALSE(mentions(l.coords()[0], "x_seq_start"));
  CHECK_FALSE(mentions(l.coords()[2], "x_seq_start"));
  int byLength = 0, byExtent = 0;
  for (const IndexBound &b : l.bounds()) {
    byLength += b.extent == sym("x_seq_len");
    byExtent += b.extent == sym("x_size_1");
  }
  CHECK(byLength == 1);
  CHECK(byExtent == 0);
  // The extent stays the longest sequence: tiles count from it.
  CHECK(l.tile({Expr(1), Expr(16), Expr(32)}).shape(1).str() == "⌈x_size_1/16⌉");
  // Only a fresh source.
  CHECK_THROWS_AS(l.tile({Expr(1), Expr(16), Expr(32)}).jagged(1, sym("s"), sym("n")), LayoutError);
}

TEST_CASE("resolve-jagged: the batch entry in program coordinates", "[jagged]") {
  KernelSpec one = jaggedKernel(jaggedSource().tile({Expr(1), Expr(16), Expr(32)}));
  std::vector<passes::VerifyError> errors;
  auto batches = passes::resolveJagged(one, &errors);
  CHECK(errors.empty());
  REQUIRE(batches.size() == 1);
  CHECK(batches[0].param == 0);
  CHECK(batches[0].batch == sym("pid0"));

  // The batch tiled by 2: the coordinate varies inside a program.
  KernelSpec two = jaggedKernel(jaggedSource().tile({Expr(2), Expr(16), Expr(32)}));
  errors.clear();
  CHECK(passes::resolveJagged(two, &errors).empty());
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].message.find("each program must read one batch entry") != std::string::npos);
}

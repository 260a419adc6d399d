// ntc-tune's shape lines: syntax, and the checks against a kernel's parameters.
#include "Shapes.h"
#include "Util.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <string>

using namespace ntc::tune;

namespace {

const ntc_param_info_t kMatmulParams[] = {
    {"lhs", NTC_PARAM_TENSOR, 2, {kDLFloat, 16, 1}, 0},
    {"rhs", NTC_PARAM_TENSOR, 2, {kDLFloat, 16, 1}, 0},
    {"alpha", NTC_PARAM_SCALAR, 0, {kDLFloat, 32, 1}, 0},
    {"steps", NTC_PARAM_SCALAR, 0, {kDLInt, 32, 1}, 0},
    {"output", NTC_PARAM_TENSOR, 2, {kDLFloat, 16, 1}, NTC_PARAM_WRITTEN},
};
const ntc_kernel_info_t kMatmul = {"matmul", 5, kMatmulParams, "cpu", nullptr, nullptr, 0, nullptr};

const ntc_param_info_t kJaggedParams[] = {
    {"input", NTC_PARAM_JAGGED, 2, {kDLFloat, 32, 1}, 0},
    {"input_offsets", NTC_PARAM_OFFSETS, 1, {kDLInt, 64, 1}, 0},
    {"output", NTC_PARAM_TENSOR, 2, {kDLFloat, 32, 1}, NTC_PARAM_WRITTEN},
};
const ntc_kernel_info_t kJagged = {"pad", 3, kJaggedParams, "cpu", nullptr, nullptr, 0, nullptr};

/// The message of the Error that `f` throws ("" if none).
template <class F> std::string errorOf(F f) {
  try {
    f();
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

std::string resolveError(const std::string &text, const ntc_kernel_info_t &info = kMatmul) {
  return errorOf([&] { resolveShape(parseShapeLine(text, "s.txt:4"), info); });
}

} // namespace

TEST_CASE("shapes: a file's lines, comments and blank lines", "[tune]") {
  std::vector<ShapeLine> lines =
      parseShapeFile("# header\n\n"
                     "matmul lhs=4x8 rhs=8x2 output=4x2 # first\n"
                     "  matmul  lhs=1x1\trhs=1x1 output=1x1 dtype=float16\n",
                     "shapes.txt");
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].origin == "shapes.txt:3");
  CHECK(lines[0].kernel == "matmul");
  CHECK(lines[0].text == "matmul lhs=4x8 rhs=8x2 output=4x2");
  REQUIRE(lines[0].values.size() == 3);
  CHECK(lines[0].values[1] == std::make_pair(std::string("rhs"), std::string("8x2")));
  CHECK(lines[0].dtype.empty());
  CHECK(lines[1].origin == "shapes.txt:4");
  CHECK(lines[1].dtype == "float16");
}

TEST_CASE("shapes: syntax errors name the file and line", "[tune]") {
  auto fileError = [](const std::string &text) {
    return errorOf([&] { parseShapeFile(text, "shapes.txt"); });
  };
  CHECK(fileError("matmul lhs=4x4\n\nmatmul rhs\n") ==
        "shapes.txt:3: error: expected name=value, not 'rhs'");
  CHECK(fileError("matmul lhs=4x4 lhs=2x2") == "shapes.txt:1: error: 'lhs' is given twice");
  CHECK(fileError("4x4 lhs=4x4") == "shapes.txt:1: error: expected a kernel name first, not '4x4'");
  CHECK(fileError("matmul lhs=") == "shapes.txt:1: error: expected name=value, not 'lhs='");
  CHECK(fileError("matmul dtype=float17").find("shapes.txt:1: error: unknown dtype 'float17'") ==
        0);
}

TEST_CASE("shapes: resolved against the kernel's parameters", "[tune]") {
  ShapeCall call = resolveShape(
      parseShapeLine("matmul lhs=64x32 rhs=32x16 output=64x16 alpha=0.5 steps=-3 dtype=float16",
                     "--shape 1"),
      kMatmul);
  CHECK(call.sizes[0] == std::vector<int64_t>{64, 32});
  CHECK(call.sizes[4] == std::vector<int64_t>{64, 16});
  float alpha = 0;
  std::memcpy(&alpha, call.scalars[2].bytes, sizeof alpha);
  CHECK(alpha == 0.5f);
  int32_t steps = 0;
  std::memcpy(&steps, call.scalars[3].bytes, sizeof steps);
  CHECK(steps == -3);
  CHECK(formatSizes(call.sizes[1]) == "32x16");
  CHECK(formatSizes({}) == "()");
}

TEST_CASE("shapes: unknown and missing parameters, ranks, dtypes, jagged", "[tune]") {
  const std::string ok = " alpha=1 steps=2";
  CHECK(resolveError("matmul lhs=4x4 rhs=4x4 output=4x4 bias=4" + ok) ==
        "s.txt:4: error: kernel matmul has no parameter 'bias' (parameters: lhs, rhs, alpha, "
        "steps, output)");
  CHECK(resolveError("matmul lhs=4x4 rhs=4x4" + ok) ==
        "s.txt:4: error: tensor 'output' of kernel matmul is missing (name=AxB...)");
  CHECK(resolveError("matmul lhs=4x4 rhs=4x4 output=4x4 alpha=1") ==
        "s.txt:4: error: scalar 'steps' of kernel matmul is missing (name=value)");
  CHECK(resolveError("matmul lhs=4x4x4 rhs=4x4 output=4x4" + ok) ==
        "s.txt:4: error: lhs has rank 2 in kernel matmul, '4x4x4' has 3 sizes");
  CHECK(resolveError("matmul lhs=4x0 rhs=4x4 output=4x4" + ok) ==
        "s.txt:4: error: lhs: sizes must be positive, not 0");
  CHECK(resolveError("matmul lhs=4xa rhs=4x4 output=4x4" + ok) ==
        "s.txt:4: error: lhs: '4xa' is not a list of sizes like 64x128");
  CHECK(resolveError("matmul lhs=4x4 rhs=4x4 output=4x4 alpha=x steps=1") ==
        "s.txt:4: error: alpha: 'x' is not a number");
  CHECK(resolveError("matmul lhs=4x4 rhs=4x4 output=4x4 alpha=1 steps=1.5") ==
        "s.txt:4: error: steps: '1.5' is not an integer");
  CHECK(resolveError("matmul lhs=4x4 rhs=4x4 output=4x4 dtype=float32" + ok) ==
        "s.txt:4: error: dtype=float32 but lhs of kernel matmul is float16");
  CHECK(resolveError("pad input=4x4 output=4x4", kJagged)
            .find("has jagged parameter 'input': ntc-tune does not tune kernels with jagged") !=
        std::string::npos);
  CHECK(resolveError("pad output=4x4", kJagged).find("jagged") != std::string::npos);
}

// softmax (kernels/softmax.cpp: one program per row, the row padded to a power-of-two tile whose
// masked lanes read -inf) against a double reference, on the CPU backend.
#include "Common.hpp"

#include <softmax.h>

#include <algorithm>
#include <cmath>

using namespace ntc_test;

namespace {

/// Row-wise softmax of `input` in double, row-major.
std::vector<double> softmax_reference(const Tensor<float> &input) {
  const int64_t rows = input.shape[0], cols = input.shape[1];
  std::vector<double> out(size_t(rows * cols));
  for (int64_t r = 0; r < rows; ++r) {
    double max = -INFINITY;
    for (int64_t c = 0; c < cols; ++c)
      max = std::max(max, input.get({r, c}));
    double sum = 0;
    for (int64_t c = 0; c < cols; ++c)
      sum += std::exp(input.get({r, c}) - max);
    for (int64_t c = 0; c < cols; ++c)
      out[size_t(r * cols + c)] = std::exp(input.get({r, c}) - max) / sum;
  }
  return out;
}

constexpr double kTolerance = 1e-5; // relative and absolute

void check_softmax(Tensor<float> &input, Tensor<float> &output) {
  REQUIRE_NTC_OK(softmax(&input, &output, nullptr));
  CHECK_CLOSE(compare(output, softmax_reference(input), kTolerance, kTolerance));
  CHECK(output.touched_outside_view() == 0);
  // Every row sums to 1.
  for (int64_t r = 0; r < output.shape[0]; ++r) {
    double sum = 0;
    for (int64_t c = 0; c < output.shape[1]; ++c)
      sum += output.get({r, c});
    INFO("row " << r);
    CHECK(std::fabs(sum - 1) < 1e-4);
  }
}

} // namespace

TEST_CASE("softmax: 1823 x 781 (row tile padded to 1024)", "[cpu][softmax]") {
  std::mt19937_64 rng(11);
  Tensor<float> input({1823, 781}), output({1823, 781});
  input.randomize(rng, -5, 5);
  check_softmax(input, output);
}

TEST_CASE("softmax: 1 x 16384 (the upper bound of the row tile)", "[cpu][softmax]") {
  std::mt19937_64 rng(12);
  Tensor<float> input({1, 16384}), output({1, 16384});
  input.randomize(rng, -5, 5);
  check_softmax(input, output);
}

TEST_CASE("softmax: large values (max subtraction keeps exp finite)", "[cpu][softmax]") {
  std::mt19937_64 rng(13);
  Tensor<float> input({7, 300}), output({7, 300});
  input.randomize(rng, 80, 100); // exp(100) overflows float
  check_softmax(input, output);
}

TEST_CASE("softmax: widths around powers of two, including 1", "[cpu][softmax]") {
  for (int64_t cols : {1, 2, 15, 16, 17, 100, 128, 129, 4097}) {
    INFO("cols = " << cols);
    std::mt19937_64 rng(14 + uint64_t(cols));
    Tensor<float> input({3, cols}), output({3, cols});
    input.randomize(rng, -3, 3);
    check_softmax(input, output);
  }
}

TEST_CASE("softmax: strided views (transposed input, padded output rows)",
          "[cpu][softmax][strided]") {
  std::mt19937_64 rng(15);
  const int64_t rows = 37, cols = 300;
  // input(r, c) = buffer[c * rows + r]: the transpose of a contiguous cols x rows buffer.
  Tensor<float> input({rows, cols}, {1, rows});
  // output rows 700 elements apart, every other column, starting at element 9.
  Tensor<float> output({rows, cols}, {700, 2}, 9);
  input.randomize(rng, -5, 5);
  check_softmax(input, output);
}

TEST_CASE("softmax: a row wider than the upper bound is rejected", "[cpu][softmax][validation]") {
  Tensor<float> input({1, 16385}), output({1, 16385});
  input.fill(1);
  CHECK(softmax(&input, &output, nullptr) == NTC_ERROR_UNSUPPORTED);
  const std::string message = ntc_last_error();
  INFO(message);
  CHECK(message.find("softmax") != std::string::npos);
  CHECK(message.find("16385") != std::string::npos);
  CHECK(message.find("16384") != std::string::npos);
  CHECK(output.touched_outside_view() == 0);
  CHECK(output.get({0, 0}) == Tensor<float>::sentinel());
}

TEST_CASE("softmax: 0 rows is an empty grid", "[cpu][softmax][validation]") {
  Tensor<float> input({0, 781}, {}, 0, 8), output({0, 781}, {}, 0, 8);
  CHECK(softmax(&input, &output, nullptr) == NTC_SUCCESS);
  for (float v : output.buffer)
    CHECK(v == float(Tensor<float>::sentinel()));
}

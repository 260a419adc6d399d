// layer_norm and rms_norm over the last dimension (kernels/ops/layer_norm.cpp, rms_norm.cpp:
// one program per row, blocks of 1024) on the CPU backend, against double references: rows
// shorter than, equal to and several times the block with tails, a transposed input and
// strided outputs, float16, a large mean (the variance must be that of the centred values),
// size validation.
#include "Common.hpp"

#include <layer_norm.h>
#include <rms_norm.h>

#include <cmath>

using namespace ntc_test;

namespace {

/// layer_norm of the rows of `input` in double: (x - mean) / sqrt(var + eps) * weight + bias.
template <class T>
std::vector<double> layer_norm_reference(const Tensor<T> &input, const Tensor<T> &weight,
                                         const Tensor<T> &bias, double eps) {
  const int64_t rows = input.shape[0], cols = input.shape[1];
  std::vector<double> out;
  for (int64_t r = 0; r < rows; ++r) {
    double mean = 0, var = 0;
    for (int64_t c = 0; c < cols; ++c)
      mean += input.get({r, c});
    mean /= double(cols);
    for (int64_t c = 0; c < cols; ++c)
      var += (input.get({r, c}) - mean) * (input.get({r, c}) - mean);
    var /= double(cols);
    for (int64_t c = 0; c < cols; ++c)
      out.push_back((input.get({r, c}) - mean) / std::sqrt(var + eps) * weight.get({c}) +
                    bias.get({c}));
  }
  return out;
}

/// rms_norm of the rows of `input` in double: x / sqrt(mean(x^2) + eps) * weight.
template <class T>
std::vector<double> rms_norm_reference(const Tensor<T> &input, const Tensor<T> &weight,
                                       double eps) {
  const int64_t rows = input.shape[0], cols = input.shape[1];
  std::vector<double> out;
  for (int64_t r = 0; r < rows; ++r) {
    double squares = 0;
    for (int64_t c = 0; c < cols; ++c)
      squares += input.get({r, c}) * input.get({r, c});
    const double rms = std::sqrt(squares / double(cols) + eps);
    for (int64_t c = 0; c < cols; ++c)
      out.push_back(input.get({r, c}) / rms * weight.get({c}));
  }
  return out;
}

/// Runs layer_norm and rms_norm on `input` with random weight and bias; outputs contiguous or
/// with `out_strides`.
template <class T, class LayerNorm, class RmsNorm>
void check_norms(Tensor<T> &input, LayerNorm layer_norm, RmsNorm rms_norm, double atol, double rtol,
                 uint64_t seed, std::vector<int64_t> out_strides = {}) {
  std::mt19937_64 rng(seed);
  const int64_t cols = input.shape[1];
  Tensor<T> weight({cols}), bias({cols});
  weight.randomize(rng, 0.5, 1.5);
  bias.randomize(rng, -1, 1);
  const float eps = 1e-5f;
  {
    Tensor<T> output(input.shape, out_strides);
    REQUIRE_NTC_OK(layer_norm(&input, &weight, &bias, eps, &output, nullptr));
    CHECK_CLOSE(
        compare(output, layer_norm_reference(input, weight, bias, double(eps)), atol, rtol));
    CHECK(output.touched_outside_view() == 0);
  }
  {
    Tensor<T> output(input.shape, out_strides);
    REQUIRE_NTC_OK(rms_norm(&input, &weight, eps, &output, nullptr));
    CHECK_CLOSE(compare(output, rms_norm_reference(input, weight, double(eps)), atol, rtol));
    CHECK(output.touched_outside_view() == 0);
  }
}

} // namespace

TEST_CASE("layer_norm/rms_norm_f32: 37 x 2500 (three blocks, a tail)", "[ops][norm]") {
  std::mt19937_64 rng(1501);
  Tensor<float> input({37, 2500});
  input.randomize(rng, -3, 2);
  check_norms(input, layer_norm_f32, rms_norm_f32, 1e-5, 1e-5, 1502);
}

TEST_CASE("layer_norm/rms_norm_f32: row lengths around the block", "[ops][norm]") {
  for (int64_t cols : {1, 3, 1000, 1023, 1024, 1025, 2048, 4097}) {
    INFO("cols = " << cols);
    std::mt19937_64 rng(1503 + uint64_t(cols));
    Tensor<float> input({5, cols});
    input.randomize(rng, -2, 2);
    check_norms(input, layer_norm_f32, rms_norm_f32, 1e-5, 1e-5, 1600 + uint64_t(cols));
  }
}

TEST_CASE("layer_norm/rms_norm_f32: transposed input, strided outputs", "[ops][norm][strided]") {
  std::mt19937_64 rng(1504);
  const int64_t rows = 23, cols = 1500;
  Tensor<float> input({rows, cols}, {1, rows}); // the transpose of a contiguous cols x rows buffer
  input.randomize(rng, -1, 1);
  check_norms(input, layer_norm_f32, rms_norm_f32, 1e-5, 1e-5, 1505, {3100, 2});
}

TEST_CASE("layer_norm/rms_norm_f16: 19 x 1500, float32 statistics", "[ops][norm][f16]") {
  std::mt19937_64 rng(1506);
  Tensor<float16> input({19, 1500});
  input.randomize(rng, -4, 4);
  // Outputs up to ~3.5 rounded once to float16: spacing 2^-9 there.
  check_norms(input, layer_norm_f16, rms_norm_f16, 2e-3, 1e-3, 1507);
}

TEST_CASE("layer_norm_f32: a large mean (variance of the centred values)", "[ops][norm]") {
  // Values 300 ± 0.05: mean(x^2) - mean^2 would cancel to noise in float32.
  std::mt19937_64 rng(1508);
  Tensor<float> input({6, 2500}), weight({2500}), bias({2500}), output({6, 2500});
  input.randomize(rng, 299.95, 300.05);
  weight.fill(1);
  bias.fill(0);
  REQUIRE_NTC_OK(layer_norm_f32(&input, &weight, &bias, 1e-6f, &output, nullptr));
  // The float32 mean is off by ~1e-5, a few 1e-4 of the standard deviation (0.029).
  CHECK_CLOSE(compare(output, layer_norm_reference(input, weight, bias, 1e-6), 3e-3, 1e-3));
}

TEST_CASE("layer_norm/rms_norm: eps matters for a constant row", "[ops][norm]") {
  Tensor<float> input({2, 1100}), weight({1100}), bias({1100}), output({2, 1100});
  input.fill(0.5);
  weight.fill(2);
  bias.fill(0.25);
  REQUIRE_NTC_OK(layer_norm_f32(&input, &weight, &bias, 0.01f, &output, nullptr));
  CHECK_CLOSE(compare(output, layer_norm_reference(input, weight, bias, double(0.01f)), 1e-6, 0));
  REQUIRE_NTC_OK(rms_norm_f32(&input, &weight, 0.75f, &output, nullptr));
  // 0.5 / sqrt(0.25 + 0.75) * 2 = 1
  CHECK_CLOSE(compare(output, rms_norm_reference(input, weight, double(0.75f)), 1e-6, 0));
  CHECK(output.get({1, 1099}) == Approx(1.0));
}

TEST_CASE("layer_norm/rms_norm: a weight of the wrong length is rejected",
          "[ops][norm][validation]") {
  Tensor<float> input({4, 1100}), weight({1099}), bias({1100}), output({4, 1100});
  input.fill(1);
  weight.fill(1);
  bias.fill(0);
  CHECK(layer_norm_f32(&input, &weight, &bias, 1e-5f, &output, nullptr) ==
        NTC_ERROR_INVALID_ARGUMENT);
  CHECK(std::string(ntc_last_error()).find("weight") != std::string::npos);
  CHECK(rms_norm_f32(&input, &weight, 1e-5f, &output, nullptr) == NTC_ERROR_INVALID_ARGUMENT);
  CHECK(output.get({0, 0}) == Tensor<float>::sentinel());
}

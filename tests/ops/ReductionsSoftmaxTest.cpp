// logsumexp, log_softmax and cross_entropy over the last dimension (kernels/ops/logsumexp.cpp,
// log_softmax.cpp, cross_entropy.cpp: one program per row, blocks of 1024, the online
// log-sum-exp of reduction.hpp) on the CPU backend, against double references: rows of several
// blocks with tails, values whose exp overflows float, -inf and +inf entries and rows (also in
// whole blocks), a transposed input, float16, ignored targets, targets at block boundaries.
#include "Common.hpp"

#include <cross_entropy.h>
#include <log_softmax.h>
#include <logsumexp.h>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace ntc_test;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// log(sum(exp(row r))) in double, with torch's values for infinite rows.
template <class T> double row_logsumexp(const Tensor<T> &input, int64_t r) {
  double max = -kInf;
  for (int64_t c = 0; c < input.shape[1]; ++c)
    max = std::max(max, input.get({r, c}));
  if (std::isinf(max))
    return max; // all -inf, or a +inf entry
  double sum = 0;
  for (int64_t c = 0; c < input.shape[1]; ++c)
    sum += std::exp(input.get({r, c}) - max);
  return max + std::log(sum);
}

template <class T> std::vector<double> logsumexp_reference(const Tensor<T> &input) {
  std::vector<double> out;
  for (int64_t r = 0; r < input.shape[0]; ++r)
    out.push_back(row_logsumexp(input, r));
  return out;
}

template <class T> std::vector<double> log_softmax_reference(const Tensor<T> &input) {
  std::vector<double> out;
  for (int64_t r = 0; r < input.shape[0]; ++r) {
    const double lse = row_logsumexp(input, r);
    for (int64_t c = 0; c < input.shape[1]; ++c)
      out.push_back(input.get({r, c}) - lse);
  }
  return out;
}

/// Per-row cross-entropy losses (0 for ignored rows).
template <class T>
std::vector<double> cross_entropy_reference(const Tensor<T> &logits, const Tensor<int64_t> &targets,
                                            int64_t ignore_index) {
  std::vector<double> out;
  for (int64_t r = 0; r < logits.shape[0]; ++r) {
    const int64_t t = targets.at({r});
    out.push_back(t == ignore_index ? 0 : row_logsumexp(logits, r) - logits.get({r, t}));
  }
  return out;
}

/// Compares `out` with `ref` where infinities must match exactly and NaN must be NaN.
template <class T>
Mismatch compare_with_infinities(const Tensor<T> &out, const std::vector<double> &ref, double atol,
                                 double rtol) {
  Mismatch m;
  REQUIRE(int64_t(ref.size()) == out.numel());
  for (int64_t i = 0; i < out.numel(); ++i) {
    const double o = out.flat(i), e = ref[size_t(i)];
    if (std::isinf(e) || std::isnan(e))
      m.add(index_string(out.unravel(i)), o == e || (std::isnan(o) && std::isnan(e)) ? 0 : 1, 0, 0,
            0);
    else
      m.add(index_string(out.unravel(i)), o, e, atol, rtol);
  }
  return m;
}

template <class T, class LogSumExp, class LogSoftmax>
void check_logsumexp_family(Tensor<T> &input, LogSumExp logsumexp, LogSoftmax log_softmax,
                            double atol, double rtol, std::vector<int64_t> out_strides = {}) {
  {
    Tensor<T> output({input.shape[0]},
                     out_strides.empty() ? out_strides : std::vector<int64_t>{out_strides[0]});
    REQUIRE_NTC_OK(logsumexp(&input, &output, nullptr));
    CHECK_CLOSE(compare_with_infinities(output, logsumexp_reference(input), atol, rtol));
    CHECK(output.touched_outside_view() == 0);
  }
  {
    Tensor<T> output(input.shape, out_strides);
    REQUIRE_NTC_OK(log_softmax(&input, &output, nullptr));
    CHECK_CLOSE(compare_with_infinities(output, log_softmax_reference(input), atol, rtol));
    CHECK(output.touched_outside_view() == 0);
  }
}

} // namespace

TEST_CASE("logsumexp/log_softmax_f32: 13 x 3000 (three blocks, a tail)", "[ops][logsumexp]") {
  std::mt19937_64 rng(1701);
  Tensor<float> input({13, 3000});
  input.randomize(rng, -5, 5);
  check_logsumexp_family(input, logsumexp_f32, log_softmax_f32, 1e-5, 1e-5);
}

TEST_CASE("logsumexp/log_softmax_f32: row lengths around the block", "[ops][logsumexp]") {
  for (int64_t cols : {1, 2, 1023, 1024, 1025, 2049}) {
    INFO("cols = " << cols);
    std::mt19937_64 rng(1702 + uint64_t(cols));
    Tensor<float> input({4, cols});
    input.randomize(rng, -3, 3);
    check_logsumexp_family(input, logsumexp_f32, log_softmax_f32, 1e-5, 1e-5);
  }
}

TEST_CASE("logsumexp/log_softmax_f32: large values, a maximum that grows block by block",
          "[ops][logsumexp]") {
  std::mt19937_64 rng(1703);
  Tensor<float> input({3, 2500});
  input.randomize(rng, 80, 100); // exp(100) overflows float
  for (int64_t c = 0; c < 2500; ++c) {
    input.at({1, c}) = float(-50 + 0.06 * double(c)); // increasing: every block rescales the sum
    input.at({2, c}) = float(100 - 0.06 * double(c)); // decreasing
  }
  check_logsumexp_family(input, logsumexp_f32, log_softmax_f32, 1e-5, 1e-5);
}

TEST_CASE("logsumexp/log_softmax_f32: -inf and +inf entries and rows", "[ops][logsumexp]") {
  std::mt19937_64 rng(1704);
  const int64_t cols = 2100;
  Tensor<float> input({6, cols});
  input.randomize(rng, -2, 2);
  const float inf = std::numeric_limits<float>::infinity();
  for (int64_t c = 0; c < cols; ++c) {
    input.at({0, c}) = -inf; // a row of -inf: -inf
    if (c < 2048)
      input.at({1, c}) = -inf; // two whole blocks of -inf first
    if (c % 3 == 0)
      input.at({2, c}) = -inf; // scattered -inf entries
    if (c >= 1024)
      input.at({4, c}) = -200.0f; // a first block larger than the rest
  }
  input.at({3, 1500}) = inf; // +inf: logsumexp is +inf
  input.at({5, 7}) = -inf;
  check_logsumexp_family(input, logsumexp_f32, log_softmax_f32, 1e-5, 1e-5);

  Tensor<float> lse({6});
  REQUIRE_NTC_OK(logsumexp_f32(&input, &lse, nullptr));
  CHECK(lse.get({0}) == -kInf);
  CHECK(lse.get({3}) == kInf);
  CHECK(std::isfinite(lse.get({1})));
}

TEST_CASE("logsumexp/log_softmax_f32: transposed input, strided outputs",
          "[ops][logsumexp][strided]") {
  std::mt19937_64 rng(1705);
  const int64_t rows = 29, cols = 1300;
  Tensor<float> input({rows, cols}, {1, rows});
  input.randomize(rng, -4, 4);
  check_logsumexp_family(input, logsumexp_f32, log_softmax_f32, 1e-5, 1e-5, {2700, 2});
}

TEST_CASE("logsumexp/log_softmax_f16: 11 x 1700, float32 arithmetic", "[ops][logsumexp][f16]") {
  std::mt19937_64 rng(1706);
  Tensor<float16> input({11, 1700});
  input.randomize(rng, -8, 8);
  input.at({2, 5}) = float16(-std::numeric_limits<float>::infinity());
  // Results up to ~16 in magnitude, rounded once to float16 (spacing 2^-6 at 16).
  check_logsumexp_family(input, logsumexp_f16, log_softmax_f16, 1e-3, 1e-3);
}

//===- cross_entropy --------------------------------------------------------------------------===//

namespace {

template <class T, class PerRow, class Mean>
void check_cross_entropy(Tensor<T> &logits, Tensor<int64_t> &targets, PerRow per_row, Mean mean,
                         double atol, double rtol) {
  const int64_t ignore_index = -100;
  Tensor<T> losses({logits.shape[0]});
  REQUIRE_NTC_OK(per_row(&logits, &targets, ignore_index, &losses, nullptr));
  const std::vector<double> ref = cross_entropy_reference(logits, targets, ignore_index);
  CHECK_CLOSE(compare(losses, ref, atol, rtol));
  CHECK(losses.touched_outside_view() == 0);

  // The mean over the rows that count, from the kernel's own losses.
  double total = 0, counted = 0, ref_total = 0;
  for (int64_t r = 0; r < logits.shape[0]; ++r)
    if (targets.at({r}) != ignore_index) {
      total += losses.get({r});
      ref_total += ref[size_t(r)];
      ++counted;
    }
  Tensor<T> output({1});
  REQUIRE_NTC_OK(mean(&losses, &targets, ignore_index, &output, nullptr));
  CHECK(output.get({0}) == Approx(total / counted).epsilon(rtol).margin(atol));
  CHECK(output.get({0}) == Approx(ref_total / counted).epsilon(rtol).margin(atol));
}

} // namespace

TEST_CASE("cross_entropy_f32: 37 x 3001, ignored rows, targets at block edges",
          "[ops][cross_entropy]") {
  std::mt19937_64 rng(1801);
  const int64_t N = 37, C = 3001;
  Tensor<float> logits({N, C});
  logits.randomize(rng, -6, 6);
  Tensor<int64_t> targets({N});
  std::uniform_int_distribution<int64_t> klass(0, C - 1);
  const int64_t edges[] = {0, 1023, 1024, 2047, 2048, C - 1};
  for (int64_t r = 0; r < N; ++r)
    targets.at({r}) = r < 6 ? edges[r] : r % 5 == 0 ? -100 : klass(rng);
  check_cross_entropy(logits, targets, cross_entropy_f32, cross_entropy_mean_f32, 1e-5, 1e-5);
}

TEST_CASE("cross_entropy_f32: a transposed logits view, 2500 rows (mean of three blocks)",
          "[ops][cross_entropy][strided]") {
  std::mt19937_64 rng(1802);
  const int64_t N = 2500, C = 40;
  Tensor<float> logits({N, C}, {1, N});
  logits.randomize(rng, -3, 3);
  Tensor<int64_t> targets({N}, {2}); // every other element
  std::uniform_int_distribution<int64_t> klass(0, C - 1);
  for (int64_t r = 0; r < N; ++r)
    targets.at({r}) = r % 7 == 3 ? -100 : klass(rng);
  check_cross_entropy(logits, targets, cross_entropy_f32, cross_entropy_mean_f32, 1e-5, 1e-5);
}

TEST_CASE("cross_entropy_f32: large logits and a -inf target logit", "[ops][cross_entropy]") {
  std::mt19937_64 rng(1803);
  const int64_t N = 3, C = 1500;
  Tensor<float> logits({N, C});
  logits.randomize(rng, 90, 100);
  logits.at({2, 4}) = -std::numeric_limits<float>::infinity();
  Tensor<int64_t> targets({N});
  targets.at({0}) = 1400;
  targets.at({1}) = 3;
  targets.at({2}) = 4;
  Tensor<float> losses({N});
  REQUIRE_NTC_OK(cross_entropy_f32(&logits, &targets, -100, &losses, nullptr));
  const std::vector<double> ref = cross_entropy_reference(logits, targets, -100);
  CHECK(losses.get({0}) == Approx(ref[0]).epsilon(1e-5));
  CHECK(losses.get({1}) == Approx(ref[1]).epsilon(1e-5));
  CHECK(losses.get({2}) == kInf);
}

TEST_CASE("cross_entropy_f16: 21 x 1100", "[ops][cross_entropy][f16]") {
  std::mt19937_64 rng(1804);
  const int64_t N = 21, C = 1100;
  Tensor<float16> logits({N, C});
  logits.randomize(rng, -5, 5);
  Tensor<int64_t> targets({N});
  std::uniform_int_distribution<int64_t> klass(0, C - 1);
  for (int64_t r = 0; r < N; ++r)
    targets.at({r}) = r == 4 ? -100 : klass(rng);
  // Losses around 5..17 rounded once to float16 (spacing 2^-6 at 16).
  check_cross_entropy(logits, targets, cross_entropy_f16, cross_entropy_mean_f16, 2e-3, 1e-3);
}

TEST_CASE("cross_entropy_mean: every row ignored gives NaN", "[ops][cross_entropy]") {
  Tensor<float> losses({5}), output({1});
  Tensor<int64_t> targets({5});
  losses.fill(0);
  targets.fill(-100);
  REQUIRE_NTC_OK(cross_entropy_mean_f32(&losses, &targets, -100, &output, nullptr));
  CHECK(std::isnan(output.get({0})));
}

TEST_CASE("cross_entropy: mismatched batch sizes are rejected",
          "[ops][cross_entropy][validation]") {
  Tensor<float> logits({6, 10}), losses({6});
  Tensor<int64_t> targets({5});
  logits.fill(0);
  targets.fill(0);
  CHECK(cross_entropy_f32(&logits, &targets, -100, &losses, nullptr) == NTC_ERROR_INVALID_ARGUMENT);
  Tensor<float> output({2});
  Tensor<int64_t> six_targets({6});
  six_targets.fill(0);
  CHECK(cross_entropy_mean_f32(&losses, &six_targets, -100, &output, nullptr) ==
        NTC_ERROR_INVALID_ARGUMENT);
}

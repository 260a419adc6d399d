// The elementwise and activation operators of kernels/ops (gelu, gelu_tanh, silu, sigmoid, relu,
// exp, abs, neg, rsqrt, pow, clamp, threshold, where, dropout) on the CPU backend, against
// double-precision references. Every operator runs in float32 and float16, through its rank-1
// kernel (`<op>_<dtype>`: lengths with a tail in the last block of 1024, a strided view) and
// its rank-4 kernel (`<op>_<dtype>_4d`: logical ranks 1 to 4 given with leading size-1
// dimensions, a transposed view, a spaced-out view with an offset, a strided output whose gaps
// must stay untouched). Dropout: the exact Philox decision per element, determinism, the kept
// fraction and the scaling.
#include "Common.hpp"

#include <abs.h>
#include <clamp.h>
#include <dropout.h>
#include <exp.h>
#include <gelu.h>
#include <neg.h>
#include <pow.h>
#include <relu.h>
#include <rsqrt.h>
#include <sigmoid.h>
#include <silu.h>
#include <threshold.h>
#include <where.h>

#include <ntc/cpu/random.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <string>

namespace {
/// A bool element for `where`'s condition tensors (std::vector<bool> has no data()).
struct Flag {
  uint8_t value = 0;
  Flag() = default;
  explicit Flag(double v) : value(v != 0 ? 1 : 0) {}
  explicit operator float() const { return float(value); }
};
} // namespace

namespace ntc_test {
template <> inline DLDataType dtype_of<Flag>() { return {NTC_DL_BOOL, 8, 1}; }
} // namespace ntc_test

using namespace ntc_test;

namespace {

constexpr double pi = 3.14159265358979323846;

/// A view to run a kernel on: sizes, strides (elements; empty = contiguous) and an offset.
struct View {
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
  int64_t offset = 0;
  std::string name;
};

/// Rank-1 views: tails in the last block of 1024, one element, a strided view with an offset.
std::vector<View> rank1_views() {
  return {{{10007}, {}, 0, "n=10007"},
          {{1}, {}, 0, "n=1"},
          {{1024}, {}, 0, "n=1024"},
          {{2999}, {3}, 2, "n=2999 stride 3"}};
}

/// Rank-4 views: logical ranks 1 to 4 (leading size-1 dimensions), a transposed view (the last
/// two dimensions of a contiguous (2, 3, 29, 17) buffer swapped) and a spaced-out view.
std::vector<View> rank4_views() {
  return {{{1, 1, 1, 3001}, {}, 0, "rank 1 (3001)"},
          {{1, 1, 37, 45}, {}, 0, "rank 2 (37x45)"},
          {{1, 3, 29, 17}, {}, 0, "rank 3 (3x29x17)"},
          {{2, 3, 5, 37}, {}, 0, "rank 4 (2x3x5x37)"},
          {{2, 3, 17, 29}, {1479, 493, 1, 17}, 0, "transposed (2x3x17x29)"},
          {{3, 2, 7, 40}, {700, 333, 47, 1}, 5, "spaced (3x2x7x40, offset 5)"}};
}

/// run(kernel, view) for every rank-1 view with the rank-1 kernel, then for every rank-4 view
/// with the rank-4 kernel.
template <class Kernel, class Run> void for_each_view(Kernel rank1, Kernel rank4, Run &&run) {
  for (const View &view : rank1_views())
    run(rank1, view);
  for (const View &view : rank4_views())
    run(rank4, view);
}

/// Strides of an output that leaves gaps: every dimension spaced by one extra element.
std::vector<int64_t> spaced_strides(const std::vector<int64_t> &shape) {
  std::vector<int64_t> strides(shape.size(), 2);
  for (size_t i = shape.size(); i-- > 1;)
    strides[i - 1] = strides[i] * (shape[i] + 1);
  return strides;
}

template <class T> std::unique_ptr<Tensor<T>> make(const View &view) {
  return std::make_unique<Tensor<T>>(view.shape, view.strides, view.offset);
}

/// Tolerances for one element type: float16 outputs are rounded once (2^-11 relative).
template <class T> double atol_of() { return std::is_same_v<T, float> ? 1e-6 : 1e-5; }
template <class T> double rtol_of() { return std::is_same_v<T, float> ? 1e-5 : 1.5e-3; }
template <class T> const char *dtype_name() { return std::is_same_v<T, float> ? "f32" : "f16"; }

using UnaryKernel = ntc_status_t (*)(const DLTensor *, const DLTensor *, ntc_stream_t);

/// One unary operator: its four kernels and its double-precision reference.
struct UnaryOp {
  const char *name;
  UnaryKernel f32, f16, f32_4d, f16_4d;
  std::function<double(double)> reference;
  double lo, hi; ///< the range the inputs are drawn from
};

/// Runs `kernel` on `input` viewed as `view` into a fresh output (contiguous, or spaced out
/// when `spaced_output`), and compares it with `reference` applied to each input element.
template <class T>
void check_unary_view(const UnaryOp &op, UnaryKernel kernel, const View &view, bool spaced_output,
                      std::mt19937_64 &rng) {
  INFO(op.name << "_" << dtype_name<T>() << " on " << view.name
               << (spaced_output ? ", spaced output" : ""));
  auto input = make<T>(view);
  input->randomize(rng, op.lo, op.hi);
  Tensor<T> output(view.shape, spaced_output ? spaced_strides(view.shape) : std::vector<int64_t>{});
  REQUIRE_NTC_OK(kernel(input->get(), output.get(), nullptr));
  std::vector<double> expected = values(*input);
  for (double &v : expected)
    v = op.reference(v);
  CHECK_CLOSE(compare(output, expected, atol_of<T>(), rtol_of<T>()));
  CHECK(output.touched_outside_view() == 0);
}

template <class T> void check_unary(const UnaryOp &op, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const bool half = std::is_same_v<T, float16>;
  for_each_view(
      half ? op.f16 : op.f32, half ? op.f16_4d : op.f32_4d,
      [&](auto kernel, const View &view) { check_unary_view<T>(op, kernel, view, false, rng); });
  check_unary_view<T>(op, half ? op.f16 : op.f32, {{777}, {}, 0, "n=777"}, true, rng);
  check_unary_view<T>(op, half ? op.f16_4d : op.f32_4d, {{2, 3, 9, 13}, {}, 0, "2x3x9x13"}, true,
                      rng);
}

double gelu_reference(double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); }
double gelu_tanh_reference(double x) {
  return 0.5 * x * (1 + std::tanh(std::sqrt(2 / pi) * (x + 0.044715 * x * x * x)));
}
double sigmoid_reference(double x) { return 1 / (1 + std::exp(-x)); }

std::vector<UnaryOp> unary_ops() {
  return {
      {"gelu", gelu_f32, gelu_f16, gelu_f32_4d, gelu_f16_4d, gelu_reference, -6, 6},
      {"gelu_tanh", gelu_tanh_f32, gelu_tanh_f16, gelu_tanh_f32_4d, gelu_tanh_f16_4d,
       gelu_tanh_reference, -6, 6},
      {"silu", silu_f32, silu_f16, silu_f32_4d, silu_f16_4d,
       [](double x) { return x * sigmoid_reference(x); }, -8, 8},
      {"sigmoid", sigmoid_f32, sigmoid_f16, sigmoid_f32_4d, sigmoid_f16_4d, sigmoid_reference, -8,
       8},
      {"relu", relu_f32, relu_f16, relu_f32_4d, relu_f16_4d,
       [](double x) { return std::max(x, 0.0); }, -2, 2},
      {"exp", exp_f32, exp_f16, exp_f32_4d, exp_f16_4d, [](double x) { return std::exp(x); }, -5,
       5},
      {"abs", abs_f32, abs_f16, abs_f32_4d, abs_f16_4d, [](double x) { return std::fabs(x); }, -3,
       3},
      {"neg", neg_f32, neg_f16, neg_f32_4d, neg_f16_4d, [](double x) { return -x; }, -3, 3},
      {"rsqrt", rsqrt_f32, rsqrt_f16, rsqrt_f32_4d, rsqrt_f16_4d,
       [](double x) { return 1 / std::sqrt(x); }, 0.01, 5},
  };
}

} // namespace

TEST_CASE("unary activations match double references (float32)", "[ops][activations]") {
  uint64_t seed = 100;
  for (const UnaryOp &op : unary_ops()) {
    SECTION(op.name) { check_unary<float>(op, ++seed); }
    ++seed;
  }
}

TEST_CASE("unary activations match double references (float16)", "[ops][activations]") {
  uint64_t seed = 200;
  for (const UnaryOp &op : unary_ops()) {
    SECTION(op.name) { check_unary<float16>(op, ++seed); }
    ++seed;
  }
}

TEST_CASE("relu, clamp, threshold and the others on special values", "[ops][activations]") {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> x = {-inf, -2.0, -0.5, -0.0, 0.0, 0.25, 0.5, 2.0, inf, nan};
  const int64_t n = int64_t(x.size());
  Tensor<float> input({n}), output({n});
  for (int64_t i = 0; i < n; ++i)
    input(i) = float(x[size_t(i)]);
  auto run = [&](auto &&call, auto &&reference) {
    REQUIRE_NTC_OK(call());
    for (int64_t i = 0; i < n; ++i) {
      const double expected = reference(x[size_t(i)]);
      INFO("x = " << x[size_t(i)] << ": got " << output.get({i}) << ", expected " << expected);
      if (std::isnan(expected))
        CHECK(std::isnan(output.get({i})));
      else if (std::isinf(expected))
        CHECK(output.get({i}) == expected);
      else
        CHECK(output.get({i}) == Approx(expected).margin(1e-7));
    }
  };
  SECTION("relu keeps NaN and inf") {
    run([&] { return relu_f32(&input, &output, nullptr); },
        [](double v) { return std::isnan(v) ? v : std::max(v, 0.0); });
  }
  SECTION("clamp keeps NaN, limits inf") {
    run([&] { return clamp_f32(&input, -0.5f, 0.25f, &output, nullptr); },
        [](double v) { return std::isnan(v) ? v : std::min(std::max(v, -0.5), 0.25); });
  }
  SECTION("threshold is strict and keeps NaN, as PyTorch") {
    run([&] { return threshold_f32(&input, 0.25f, -7.0f, &output, nullptr); },
        [](double v) { return v <= 0.25 ? -7.0 : v; });
  }
  SECTION("sigmoid saturates at ±inf") {
    run([&] { return sigmoid_f32(&input, &output, nullptr); },
        [](double v) { return 1 / (1 + std::exp(-v)); });
  }
  SECTION("rsqrt of ±0, of negatives and of inf") {
    run([&] { return rsqrt_f32(&input, &output, nullptr); },
        [](double v) { return 1 / std::sqrt(v); });
  }
  SECTION("abs and neg of ±0, inf and NaN") {
    run([&] { return abs_f32(&input, &output, nullptr); }, [](double v) { return std::fabs(v); });
    for (int64_t i = 0; i < n; ++i)
      CHECK(!std::signbit(output.get({i})));
    run([&] { return neg_f32(&input, &output, nullptr); }, [](double v) { return -v; });
    CHECK(std::signbit(output.get({4}))); // -(+0) is -0
  }
}

namespace {

using ScalarPairKernel = ntc_status_t (*)(const DLTensor *, float, float, const DLTensor *,
                                          ntc_stream_t);

/// clamp or threshold (an input and two float32 scalars) on every view of both ranks.
template <class T>
void check_scalar_pair(const char *name, ScalarPairKernel rank1, ScalarPairKernel rank4, float a,
                       float b, const std::function<double(double)> &reference, uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto run = [&](ScalarPairKernel kernel, const View &view, bool grid_values) {
    INFO(name << "_" << dtype_name<T>() << "(" << a << ", " << b << ") on " << view.name);
    auto input = make<T>(view);
    input->randomize(rng, -2, 2);
    if (grid_values) // values on a grid of 1/8 hit the bounds exactly
      for (int64_t i = 0; i < input->numel(); ++i)
        input->at(input->unravel(i)) = T(double((i * 7) % 33 - 16) / 8);
    Tensor<T> output(view.shape);
    REQUIRE_NTC_OK(kernel(input->get(), a, b, output.get(), nullptr));
    std::vector<double> expected = values(*input);
    for (double &v : expected)
      v = reference(v);
    CHECK_CLOSE(compare(output, expected, 0, 0)); // clamp and threshold select: exact
  };
  for_each_view(rank1, rank4, [&](auto kernel, const View &view) {
    run(kernel, view, false);
    run(kernel, view, true);
  });
}

} // namespace

TEST_CASE("clamp: bounds as scalars, min > max gives max", "[ops][activations]") {
  auto clamp_ref = [](double lo, double hi) {
    return [lo, hi](double v) { return std::min(std::max(v, lo), hi); };
  };
  check_scalar_pair<float>("clamp", clamp_f32, clamp_f32_4d, -0.5f, 0.75f, clamp_ref(-0.5, 0.75),
                           301);
  check_scalar_pair<float16>("clamp", clamp_f16, clamp_f16_4d, -0.5f, 0.75f, clamp_ref(-0.5, 0.75),
                             302);
  check_scalar_pair<float>("clamp", clamp_f32, clamp_f32_4d, 0.5f, -0.25f, clamp_ref(0.5, -0.25),
                           303);
  check_scalar_pair<float16>("clamp", clamp_f16, clamp_f16_4d, 0.5f, -0.25f, clamp_ref(0.5, -0.25),
                             304);
  // A bound that float16 cannot represent is rounded with the result (as torch.clamp of a
  // float16 tensor rounds its scalar bounds).
  check_scalar_pair<float16>(
      "clamp", clamp_f16, clamp_f16_4d, -0.1f, 0.3f,
      [](double v) {
        return to_double(float16(std::min(std::max(v, double(-0.1f)), double(0.3f))));
      },
      305);
}

TEST_CASE("threshold: x > threshold ? x : value", "[ops][activations]") {
  auto threshold_ref = [](double t, double value) {
    return [t, value](double v) { return v > t ? v : value; };
  };
  check_scalar_pair<float>("threshold", threshold_f32, threshold_f32_4d, 0.25f, -1.5f,
                           threshold_ref(0.25, -1.5), 401);
  check_scalar_pair<float16>("threshold", threshold_f16, threshold_f16_4d, 0.25f, -1.5f,
                             threshold_ref(0.25, -1.5), 402);
  check_scalar_pair<float>("threshold", threshold_f32, threshold_f32_4d, -1.0f, 3.0f,
                           threshold_ref(-1.0, 3.0), 403);
  check_scalar_pair<float16>("threshold", threshold_f16, threshold_f16_4d, -1.0f, 3.0f,
                             threshold_ref(-1.0, 3.0), 404);
}

namespace {

using WhereKernel = ntc_status_t (*)(const DLTensor *, const DLTensor *, const DLTensor *,
                                     const DLTensor *, ntc_stream_t);

template <class T> void check_where(WhereKernel rank1, WhereKernel rank4, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::bernoulli_distribution coin(0.4);
  auto run = [&](WhereKernel kernel, const View &view) {
    INFO("where_" << dtype_name<T>() << " on " << view.name);
    // The condition contiguous, the inputs on the view, `other` spaced out.
    Tensor<Flag> condition(view.shape);
    for (int64_t i = 0; i < condition.numel(); ++i)
      condition.at(condition.unravel(i)) = Flag(coin(rng) ? 1.0 : 0.0);
    auto input = make<T>(view);
    Tensor<T> other(view.shape, spaced_strides(view.shape)), output(view.shape);
    input->randomize(rng);
    other.randomize(rng, 5, 6);
    REQUIRE_NTC_OK(kernel(condition.get(), input->get(), other.get(), output.get(), nullptr));
    std::vector<double> expected(size_t(output.numel()));
    int64_t chosen = 0;
    for (int64_t i = 0; i < output.numel(); ++i) {
      const bool c = condition.at(condition.unravel(i)).value != 0;
      chosen += c;
      expected[size_t(i)] = c ? input->flat(i) : other.flat(i);
    }
    CHECK_CLOSE(compare(output, expected, 0, 0));
    if (output.numel() > 100) // both branches taken
      CHECK((chosen > 0 && chosen < output.numel()));
  };
  for_each_view(rank1, rank4, run);
}

} // namespace

TEST_CASE("where: a bool condition selects input or other", "[ops][activations]") {
  check_where<float>(where_f32, where_f32_4d, 501);
  check_where<float16>(where_f16, where_f16_4d, 502);
}

namespace {

using BinaryKernel = ntc_status_t (*)(const DLTensor *, const DLTensor *, const DLTensor *,
                                      ntc_stream_t);

template <class T> void check_pow(BinaryKernel rank1, BinaryKernel rank4, uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto run = [&](BinaryKernel kernel, const View &view, bool negative_bases) {
    INFO("pow_" << dtype_name<T>() << " on " << view.name
                << (negative_bases ? ", negative bases, integral exponents" : ""));
    auto input = make<T>(view);
    Tensor<T> exponent(view.shape), output(view.shape);
    if (negative_bases) { // (-2)^3 = -8, (-1.5)^-2 = 0.444...: the sign of an odd power
      input->randomize(rng, -2, -0.5);
      for (int64_t i = 0; i < exponent.numel(); ++i)
        exponent.at(exponent.unravel(i)) = T(double(i % 7 - 3));
    } else {
      input->randomize(rng, 0.1, 3);
      exponent.randomize(rng, -2.5, 2.5);
    }
    REQUIRE_NTC_OK(kernel(input->get(), exponent.get(), output.get(), nullptr));
    std::vector<double> expected(size_t(output.numel()));
    for (int64_t i = 0; i < output.numel(); ++i)
      expected[size_t(i)] = std::pow(input->flat(i), exponent.flat(i));
    CHECK_CLOSE(compare(output, expected, atol_of<T>(), rtol_of<T>()));
  };
  for_each_view(rank1, rank4, [&](auto kernel, const View &view) {
    run(kernel, view, false);
    run(kernel, view, true);
  });
}

} // namespace

TEST_CASE("pow: input^exponent, two tensors", "[ops][activations]") {
  check_pow<float>(pow_f32, pow_f32_4d, 601);
  check_pow<float16>(pow_f16, pow_f16_4d, 602);
}

namespace {

using DropoutKernel = ntc_status_t (*)(const DLTensor *, float, int64_t, const DLTensor *,
                                       ntc_stream_t);

/// Dropout of `input` viewed as `view`: every element is kept exactly when Philox's number for
/// (seed, the element's offset in the input) exceeds p, and then scaled by 1 / (1 - p) in
/// float32; the same seed gives the same output; the kept fraction is about 1 - p.
template <class T>
void check_dropout_view(DropoutKernel kernel, const View &view, float p, int64_t seed,
                        std::mt19937_64 &rng) {
  INFO("dropout_" << dtype_name<T>() << " p=" << p << " seed=" << seed << " on " << view.name);
  auto input = make<T>(view);
  input->randomize(rng, 1, 2); // never zero: a zero output means "dropped"
  Tensor<T> first(view.shape), second(view.shape);
  REQUIRE_NTC_OK(kernel(input->get(), p, seed, first.get(), nullptr));
  REQUIRE_NTC_OK(kernel(input->get(), p, seed, second.get(), nullptr));

  const int64_t n = input->numel();
  ntc::cpu::Tile<int64_t> offsets{{n}, std::vector<int64_t>(size_t(n))};
  for (int64_t i = 0; i < n; ++i) { // the offset from the view's data pointer
    const std::vector<int64_t> index = input->unravel(i);
    int64_t offset = 0;
    for (size_t d = 0; d < index.size(); ++d)
      offset += index[d] * input->strides[d];
    offsets.data[size_t(i)] = offset;
  }
  const ntc::cpu::Tile<float> u = ntc::cpu::rand(seed, offsets);
  int64_t kept = 0, wrong = 0, unstable = 0;
  for (int64_t i = 0; i < n; ++i) {
    const bool keep = u.data[size_t(i)] > p;
    kept += keep;
    const float scaled = float(input->flat(i)) / (1.0f - p);
    const double expected = keep ? to_double(T(scaled)) : 0.0;
    wrong += first.flat(i) != expected;
    unstable += first.flat(i) != second.flat(i);
  }
  CHECK(wrong == 0);
  CHECK(unstable == 0);
  if (n >= 2000)
    CHECK(std::abs(double(kept) / double(n) - (1 - p)) < 0.03);
}

template <class T> void check_dropout(DropoutKernel rank1, DropoutKernel rank4, uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (float p : {0.3f, 0.75f}) {
    for (const View &view : rank1_views())
      check_dropout_view<T>(rank1, view, p, 20261202, rng);
    for (const View &view : rank4_views())
      check_dropout_view<T>(rank4, view, p, 987654321987654321, rng);
  }
}

} // namespace

TEST_CASE("dropout: Philox decision per element, determinism, kept fraction",
          "[ops][activations][rand]") {
  check_dropout<float>(dropout_f32, dropout_f32_4d, 701);
  check_dropout<float16>(dropout_f16, dropout_f16_4d, 702);
}

TEST_CASE("dropout: different seeds give different masks, p = 0 keeps everything",
          "[ops][activations][rand]") {
  const int64_t n = 4099;
  std::mt19937_64 rng(703);
  Tensor<float> input({n}), a({n}), b({n});
  input.randomize(rng, 1, 2);
  REQUIRE_NTC_OK(dropout_f32(&input, 0.5f, 1, &a, nullptr));
  REQUIRE_NTC_OK(dropout_f32(&input, 0.5f, 2, &b, nullptr));
  int64_t differ = 0;
  for (int64_t i = 0; i < n; ++i)
    differ += (a.get({i}) == 0) != (b.get({i}) == 0);
  CHECK(differ > n / 4); // independent masks differ in about half of the elements

  Tensor<float16> half_input({1, 2, 3, 700}), half_output({1, 2, 3, 700});
  half_input.randomize(rng, -3, 3);
  REQUIRE_NTC_OK(dropout_f16_4d(&half_input, 0.0f, 5, &half_output, nullptr));
  CHECK_CLOSE(compare(half_output, values(half_input), 0, 0));
}

TEST_CASE("elementwise kernels reject mismatched shapes and wrong ranks", "[ops][activations]") {
  Tensor<float> input({2, 3, 4, 5}), output({2, 3, 4, 6}), flat({120});
  CHECK(gelu_f32_4d(&input, &output, nullptr) == NTC_ERROR_INVALID_ARGUMENT);
  CHECK(gelu_f32(&input, &flat, nullptr) == NTC_ERROR_INVALID_ARGUMENT);
  Tensor<float> empty({0}), empty_out({0});
  CHECK(silu_f32(&empty, &empty_out, nullptr) == NTC_SUCCESS);
}

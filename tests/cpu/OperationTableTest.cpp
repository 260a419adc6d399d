// The operation table (ntc/common/operations.inc) end to end on the CPU backend. For every
// function row, read from the table here, the kernels op_<name>_f32 and op_<name>_f16
// (tests/cpu/kernels/operations.cpp: ntl::<name> recognised, typed and emitted by ntc) give
// exactly the elements that ntc::cpu::<name> gives on the same inputs; a row without kernels
// fails to link. Then numerics of single functions against <cmath>.
#include "Common.hpp"

#include <operations.h>

#include <ntc/cpu/tile.hpp>

#include <cmath>
#include <cstring>
#include <iterator>
#include <string>

using namespace ntc_test;

namespace {

using Unary = ntc_status_t (*)(const DLTensor *, const DLTensor *, ntc_stream_t);
using Binary = ntc_status_t (*)(const DLTensor *, const DLTensor *, const DLTensor *, ntc_stream_t);

/// 200 elements (a 8-element tail after three blocks of 64): uniform in [-4, 4] with zeros,
/// ±1, a tiny value and ±inf in front.
template <class T> void fill(Tensor<T> &t, uint64_t seed) {
  std::mt19937_64 rng(seed);
  t.randomize(rng, -4, 4);
  const double inf = std::numeric_limits<double>::infinity();
  const double special[] = {0.0, -0.0, 1.0, -1.0, 1e-3, inf, -inf};
  for (size_t i = 0; i < std::size(special); ++i)
    t(int64_t(i)) = T(special[i]);
}

/// The elements of a 1-D tensor as a tile of the CPU library.
template <class T> ntc::cpu::Tile<T> tile_of(Tensor<T> &t) {
  ntc::cpu::Tile<T> r{{t.shape[0]}, {}};
  for (int64_t i = 0; i < t.shape[0]; ++i)
    r.data.push_back(t(i));
  return r;
}

/// True when a and b are the same value (any NaN equals any NaN).
template <class T> bool same(T a, T b) {
  const double x = to_double(a), y = to_double(b);
  return (std::isnan(x) && std::isnan(y)) || std::memcmp(&a, &b, sizeof(T)) == 0;
}

/// Checks that out holds the elements of `expected`, converted to T.
template <class T, class R> void check_same(Tensor<T> &out, const ntc::cpu::Tile<R> &expected) {
  const auto want = ntc::cpu::cast<T>(expected);
  REQUIRE(int64_t(want.data.size()) == out.shape[0]);
  int64_t wrong = 0;
  for (int64_t i = 0; i < out.shape[0]; ++i)
    if (!same(out(i), want.data[size_t(i)])) {
      if (wrong++ == 0)
        FAIL_CHECK("[" << i << "]: got " << to_double(out(i)) << ", ntc::cpu gives "
                       << to_double(want.data[size_t(i)]));
    }
  CHECK(wrong == 0);
}

/// `kernel(x) == f(x)` element for element.
template <class T, class F> void check_unary(Unary kernel, F f) {
  const int64_t n = 200;
  Tensor<T> x({n}), out({n});
  fill(x, 1);
  REQUIRE_NTC_OK(kernel(&x, &out, nullptr));
  check_same(out, f(tile_of(x)));
}

/// `kernel(x, y) == f(x, y)` element for element.
template <class T, class F> void check_binary(Binary kernel, F f) {
  const int64_t n = 200;
  Tensor<T> x({n}), y({n}), out({n});
  fill(x, 2);
  fill(y, 3);
  y(0) = T(2.0); // 0^2 and x^0.5 besides the specials
  y(1) = T(0.5);
  REQUIRE_NTC_OK(kernel(&x, &y, &out, nullptr));
  check_same(out, f(tile_of(x), tile_of(y)));
}

} // namespace

/// The checks of a one-operand row, for float32 and float16.
#define CHECK_OPERATION_1(name)                                                                    \
  check_unary<float>(op_##name##_f32, [](const auto &x) { return ntc::cpu::name(x); });            \
  check_unary<float16>(op_##name##_f16, [](const auto &x) { return ntc::cpu::name(x); });
/// The checks of a two-operand row, for float32 and float16.
#define CHECK_OPERATION_2(name)                                                                    \
  check_binary<float>(op_##name##_f32,                                                             \
                      [](const auto &x, const auto &y) { return ntc::cpu::name(x, y); });          \
  check_binary<float16>(op_##name##_f16,                                                           \
                        [](const auto &x, const auto &y) { return ntc::cpu::name(x, y); });

TEST_CASE("operation table: every ntl:: function computes what ntc::cpu computes",
          "[cpu][operations]") {
#define NTC_FUNCTION(name, arity, rule)                                                            \
  SECTION(#name) { CHECK_OPERATION_##arity(name) }
#include <ntc/common/operations.inc>
}

TEST_CASE("log1p: ln(1 + x), accurate near 0", "[cpu][operations]") {
  // Where 1 + x rounds in float, log(1 + x) loses the digits of x; log1p keeps them.
  const std::vector<double> xs = {0.0,  1e-30, 1e-10, -1e-7, 1e-7,  3e-5,
                                  -0.5, 0.25,  1.0,   7.5,   1000.0};
  const int64_t n = int64_t(xs.size());
  Tensor<float> x({n}), out({n});
  Tensor<float16> h({n}), out_h({n});
  for (int64_t i = 0; i < n; ++i) {
    x(i) = float(xs[size_t(i)]);
    h(i) = float16(xs[size_t(i)]);
  }
  REQUIRE_NTC_OK(op_log1p_f32(&x, &out, nullptr));
  REQUIRE_NTC_OK(op_log1p_f16(&h, &out_h, nullptr));
  Mismatch m, m_h;
  for (int64_t i = 0; i < n; ++i) {
    const std::string at = "x = " + std::to_string(xs[size_t(i)]);
    m.add(at, out(i), std::log1p(double(x(i))), 0, 2e-7);
    // float16: computed in float from the float16 input, rounded once.
    m_h.add(at, to_double(out_h(i)), std::log1p(to_double(h(i))), 0, 1e-3);
  }
  CHECK_CLOSE(m);
  CHECK_CLOSE(m_h);
  CHECK(out(1) == 1e-30f); // log(1 + x) would give 0
  CHECK(out(4) == Approx(1e-7).epsilon(1e-6));
}

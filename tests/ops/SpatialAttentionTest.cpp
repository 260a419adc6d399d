// rotary_embedding (kernels/ops/rotary_embedding.cpp: interleaved and half-split RoPE) and
// scaled_dot_product_attention (kernels/ops/scaled_dot_product_attention.cpp: float16
// FlashAttention with a scale and an additive mask) against double references, on the CPU
// backend: tails in the sequence and head dimensions, (B, S, H, D)-strided and offset views,
// column-sliced tables, a mask broadcast over heads (stride 0), −∞ mask entries and a fully
// masked row, and the launch-time shape checks.
//
// Tolerances. RoPE computes in float32 from the stored values and rounds once: 1e-6 for float32,
// and 1e-3 (two float16 ulp near 1) for float16. Attention: the float16 kernel rounds
// q·scale·log2(e) and the probabilities to float16 before the two products and the output once;
// with scale 1/√D and a mask in [−2, 2] the scores are O(1), and the observed error stays below
// 2e-3, so 5e-3 absolute and relative (NineToothed's test_attention uses 1e-2 at scale 1).
#include "Common.hpp"

#include <rotary_embedding.h>
#include <scaled_dot_product_attention.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <string>

using namespace ntc_test;

namespace {

//===- rotary_embedding ---------------------------------------------------------------------===//

using RotaryFn = ntc_status_t (*)(const DLTensor *, const DLTensor *, const DLTensor *,
                                  const DLTensor *, ntc_stream_t);

template <class T> RotaryFn rotary_kernel(bool interleaved);
template <> RotaryFn rotary_kernel<float>(bool interleaved) {
  return interleaved ? rotary_interleaved_f32 : rotary_half_split_f32;
}
template <> RotaryFn rotary_kernel<float16>(bool interleaved) {
  return interleaved ? rotary_interleaved_f16 : rotary_half_split_f16;
}

/// RoPE in double, row-major (B, S, H, D): pairs (2i, 2i + 1) when interleaved, (i, i + D/2)
/// otherwise, rotated by the angle whose cos and sin are the tables' [s, i].
template <class T>
std::vector<double> rotary_reference(const Tensor<T> &x, const Tensor<T> &cos, const Tensor<T> &sin,
                                     bool interleaved) {
  const int64_t B = x.shape[0], S = x.shape[1], H = x.shape[2], D = x.shape[3], half = D / 2;
  std::vector<double> out(size_t(x.numel()));
  for (int64_t b = 0; b < B; ++b)
    for (int64_t s = 0; s < S; ++s)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t i = 0; i < half; ++i) {
          const int64_t first = interleaved ? 2 * i : i;
          const int64_t second = interleaved ? 2 * i + 1 : i + half;
          const double x0 = x.get({b, s, h, first}), x1 = x.get({b, s, h, second});
          const double c = cos.get({s, i}), sn = sin.get({s, i});
          const int64_t row = ((b * S + s) * H + h) * D;
          out[size_t(row + first)] = x0 * c - x1 * sn;
          out[size_t(row + second)] = x0 * sn + x1 * c;
        }
  return out;
}

/// Runs both RoPE conventions on random x (B, S, H, D) with tables for angles s·10000^(−2i/D).
/// With `strided`: x and the output are (B, H, S, D) buffers seen as (B, S, H, D), the output at
/// an offset, and the tables are the first D/2 columns of (S, D + 3) buffers.
template <class T>
void check_rotary(int64_t B, int64_t S, int64_t H, int64_t D, bool strided, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const int64_t half = D / 2;
  const std::vector<int64_t> bhsd =
      strided ? std::vector<int64_t>{H * S * D, D, S * D, 1} : std::vector<int64_t>{};
  const std::vector<int64_t> table_strides =
      strided ? std::vector<int64_t>{D + 3, 1} : std::vector<int64_t>{};
  Tensor<T> x({B, S, H, D}, bhsd);
  Tensor<T> cos({S, half}, table_strides), sin({S, half}, table_strides);
  x.randomize(rng, -2, 2);
  for (int64_t s = 0; s < S; ++s)
    for (int64_t i = 0; i < half; ++i) {
      const double angle = double(s) * std::pow(10000.0, -2.0 * double(i) / double(D));
      cos.at({s, i}) = T(std::cos(angle));
      sin.at({s, i}) = T(std::sin(angle));
    }
  const double tolerance = sizeof(T) == 2 ? 1e-3 : 1e-6;
  for (bool interleaved : {true, false}) {
    INFO((interleaved ? "rotary_interleaved" : "rotary_half_split")
         << (sizeof(T) == 2 ? "_f16" : "_f32") << ": " << B << "x" << S << "x" << H << "x" << D
         << (strided ? " (strided views)" : ""));
    const int64_t offset = strided ? 4 : 0;
    Tensor<T> out({B, S, H, D}, bhsd, offset, offset + B * S * H * D + 2);
    REQUIRE_NTC_OK(rotary_kernel<T>(interleaved)(&x, &cos, &sin, &out, nullptr));
    CHECK_CLOSE(compare(out, rotary_reference(x, cos, sin, interleaved), tolerance, tolerance));
    CHECK(out.touched_outside_view() == 0);
  }
}

//===- scaled_dot_product_attention ---------------------------------------------------------===//

constexpr double kMinusInfinity = -std::numeric_limits<double>::infinity();

/// softmax(scale · q kᵀ + mask) v in double, row-major (B, H, Sq, D); a row whose mask is −∞
/// everywhere gives 0 (PyTorch's math backend).
template <class T>
std::vector<double> sdpa_reference(const Tensor<T> &q, const Tensor<T> &k, const Tensor<T> &v,
                                   const Tensor<T> &mask, double scale) {
  const int64_t B = q.shape[0], H = q.shape[1], Sq = q.shape[2], D = q.shape[3];
  const int64_t Skv = k.shape[2];
  std::vector<double> out(size_t(B * H * Sq * D), 0.0), s(static_cast<size_t>(Skv));
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t i = 0; i < Sq; ++i) {
        double max = kMinusInfinity;
        for (int64_t j = 0; j < Skv; ++j) {
          double dot = 0;
          for (int64_t d = 0; d < D; ++d)
            dot += q.get({b, h, i, d}) * k.get({b, h, j, d});
          s[size_t(j)] = scale * dot + mask.get({b, h, i, j});
          max = std::max(max, s[size_t(j)]);
        }
        if (max == kMinusInfinity)
          continue;
        double sum = 0;
        for (int64_t j = 0; j < Skv; ++j)
          sum += (s[size_t(j)] = std::exp(s[size_t(j)] - max));
        double *o = &out[size_t(((b * H + h) * Sq + i) * D)];
        for (int64_t j = 0; j < Skv; ++j)
          for (int64_t d = 0; d < D; ++d)
            o[d] += s[size_t(j)] / sum * v.get({b, h, j, d});
      }
  return out;
}

template <class T> void randn(Tensor<T> &t, std::mt19937_64 &rng) {
  std::normal_distribution<double> normal(0.0, 1.0);
  for (int64_t i = 0; i < t.numel(); ++i)
    t.at(t.unravel(i)) = T(normal(rng));
}

struct SdpaCase {
  int64_t B, H, Sq, Skv, D;
  double scale;
  bool bshd;           // q, k, v, o: (B, S, H, D) buffers seen as (B, H, S, D)
  bool shared_mask;    // the mask is one (B, 1, Sq, Skv) buffer broadcast over heads (stride 0)
  bool fully_masked;   // query row 0 of every head sees no key
  double masked_share; // share of −∞ mask entries
};

void check_sdpa(const SdpaCase &c, uint64_t seed) {
  const int64_t B = c.B, H = c.H, Sq = c.Sq, Skv = c.Skv, D = c.D;
  INFO("sdpa_masked_f16: q " << B << "x" << H << "x" << Sq << "x" << D << ", " << Skv
                             << " keys, scale " << c.scale << (c.bshd ? ", (B, S, H, D) views" : "")
                             << (c.shared_mask ? ", mask broadcast over heads" : "")
                             << (c.fully_masked ? ", a fully masked row" : ""));
  std::mt19937_64 rng(seed);
  auto strides = [&](int64_t S) {
    return c.bshd ? std::vector<int64_t>{S * H * D, D, H * D, 1} : std::vector<int64_t>{};
  };
  Tensor<float16> q({B, H, Sq, D}, strides(Sq)), k({B, H, Skv, D}, strides(Skv)),
      v({B, H, Skv, D}, strides(Skv));
  randn(q, rng);
  randn(k, rng);
  randn(v, rng);
  Tensor<float16> mask({B, H, Sq, Skv}, c.shared_mask ? std::vector<int64_t>{Sq * Skv, 0, Skv, 1}
                                                      : std::vector<int64_t>{});
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < (c.shared_mask ? 1 : H); ++h)
      for (int64_t i = 0; i < Sq; ++i)
        for (int64_t j = 0; j < Skv; ++j) {
          const bool excluded = (c.fully_masked && i == 0) || uniform(rng) < c.masked_share;
          mask.at({b, h, i, j}) = float16(excluded ? kMinusInfinity : 4 * uniform(rng) - 2);
        }
  Tensor<float16> o({B, H, Sq, D}, strides(Sq));
  ntc_status_t status = NTC_SUCCESS;
  const double time =
      seconds([&] { status = sdpa_masked_f16(&q, &k, &v, &mask, float(c.scale), &o, nullptr); });
  REQUIRE_NTC_OK(status);
  const Mismatch m = compare(o, sdpa_reference(q, k, v, mask, c.scale), 5e-3, 5e-3);
  CHECK_CLOSE(m);
  CHECK(o.touched_outside_view() == 0);
  std::cout << "sdpa_masked_f16 " << B << "x" << H << "x" << Sq << "x" << Skv << "x" << D
            << ": max abs err " << m.max_abs << ", " << time * 1e3 << " ms" << std::endl;
}

} // namespace

TEST_CASE("rotary_embedding: interleaved and half-split, tails in D", "[ops][rotary]") {
  check_rotary<float>(2, 5, 3, 64, false, 300);
  check_rotary<float>(1, 7, 2, 6, false, 301);   // D/2 = 3 in a padded tile
  check_rotary<float>(2, 3, 4, 100, false, 302); // D/2 = 50
  check_rotary<float>(1, 2, 2, 256, false, 303); // the largest D
  check_rotary<float16>(2, 5, 3, 64, false, 304);
  check_rotary<float16>(3, 9, 2, 40, false, 305);
}

TEST_CASE("rotary_embedding: (B, H, S, D) buffers, offset output, column-sliced tables",
          "[ops][rotary][strided]") {
  check_rotary<float>(2, 6, 3, 32, true, 310);
  check_rotary<float16>(2, 6, 3, 48, true, 311);
}

TEST_CASE("rotary_embedding: tables of the wrong size and D > 256 are rejected", "[ops][rotary]") {
  Tensor<float> x({1, 4, 2, 8}), out({1, 4, 2, 8});
  x.fill(1);
  Tensor<float> wide({4, 5}), cos({4, 4}), sin({4, 4}), long_table({6, 4});
  wide.fill(0);
  cos.fill(1);
  sin.fill(0);
  long_table.fill(0);
  CHECK(rotary_interleaved_f32(&x, &cos, &wide, &out, nullptr) == NTC_ERROR_INVALID_ARGUMENT);
  CHECK(rotary_half_split_f32(&x, &cos, &long_table, &out, nullptr) == NTC_ERROR_INVALID_ARGUMENT);
  for (int64_t i = 0; i < out.numel(); ++i)
    CHECK(out.flat(i) == Tensor<float>::sentinel());
  REQUIRE_NTC_OK(rotary_interleaved_f32(&x, &cos, &sin, &out, nullptr)); // the identity
  CHECK_CLOSE(compare(out, values(x), 0, 0));
  // D = 260: half rows of 130 exceed the largest compiled tile (D ≤ 256).
  Tensor<float> wide_x({1, 2, 1, 260}), wide_out({1, 2, 1, 260}), cos130({2, 130});
  wide_x.fill(1);
  cos130.fill(1);
  CHECK(rotary_half_split_f32(&wide_x, &cos130, &cos130, &wide_out, nullptr) ==
        NTC_ERROR_UNSUPPORTED);
}

TEST_CASE("sdpa_masked_f16: tails in Sq, Skv and D, scales, -inf entries", "[ops][sdpa]") {
  check_sdpa({2, 3, 100, 77, 64, 1 / std::sqrt(64.0), false, false, false, 0.1}, 400);
  check_sdpa({1, 2, 65, 130, 48, 0.3, false, false, false, 0.0}, 401);
  check_sdpa({1, 1, 1, 1, 16, 1.0, false, false, false, 0.0}, 402);
  check_sdpa({2, 2, 256, 256, 128, 1 / std::sqrt(128.0), false, false, false, 0.3}, 403);
}

TEST_CASE("sdpa_masked_f16: strided views, a mask broadcast over heads, a fully masked row",
          "[ops][sdpa][strided]") {
  check_sdpa({2, 3, 70, 90, 32, 1 / std::sqrt(32.0), true, true, false, 0.2}, 410);
  check_sdpa({1, 2, 40, 33, 64, 0.125, false, false, true, 0.0}, 411);
}

TEST_CASE("sdpa_masked_f16: a mask of the wrong size is rejected", "[ops][sdpa]") {
  Tensor<float16> q({1, 2, 8, 16}), k({1, 2, 8, 16}), v({1, 2, 8, 16}), o({1, 2, 8, 16});
  Tensor<float16> mask({1, 2, 8, 40}); // 8 keys
  q.fill(0);
  k.fill(0);
  v.fill(0);
  mask.fill(0);
  CHECK(sdpa_masked_f16(&q, &k, &v, &mask, 1.0f, &o, nullptr) == NTC_ERROR_INVALID_ARGUMENT);
  for (int64_t i = 0; i < o.numel(); ++i)
    CHECK(o.flat(i) == to_double(float16(Tensor<float16>::sentinel())));
}

// Kernels composed from kernels (tests/cpu/kernels/composed.cpp) against the same work done by
// calling the kernels one after the other: the stock matmul and softmax and the test's
// elementwise kernels. The composition computes exactly what the separate calls compute (the
// same operations on the same values), so results must be identical where no reduction order
// changes, and close where one does (softmax's row sums). Tails in every dimension.
#include "Common.hpp"

#include <composed.h>
#include <matmul.h>
#include <softmax.h>

#include <cmath>
#include <tuple>

using namespace ntc_test;

namespace {

/// True when both tensors hold the same values at every index of their (equal) shapes.
template <class T> bool identical(const Tensor<T> &a, const Tensor<T> &b) {
  for (int64_t i = 0; i < a.numel(); ++i)
    if (!(a.flat(i) == b.flat(i)))
      return false;
  return true;
}

using Shapes = std::tuple<int64_t, int64_t, int64_t>;

} // namespace

TEST_CASE("composed linear equals matmul followed by the epilogue, and the fusion by hand",
          "[cpu][composed]") {
  for (auto [M, N, K] : {Shapes{65, 97, 130}, {1, 1, 1}, {128, 64, 64}, {3, 5, 0}}) {
    INFO("M=" << M << " N=" << N << " K=" << K);
    std::mt19937_64 rng(uint64_t(M * 131 + N * 7 + K));
    Tensor<float16> x({M, K}), w({K, N}), b({N}), r({M, N});
    x.randomize(rng);
    w.randomize(rng);
    b.randomize(rng);
    r.randomize(rng);
    Tensor<float16> product({M, N}), separate({M, N}), composed({M, N}), byHand({M, N});
    REQUIRE_NTC_OK(matmul(&x, &w, &product, nullptr));
    REQUIRE_NTC_OK(bias_residual_relu(&product, &b, &r, &separate, nullptr));
    REQUIRE_NTC_OK(composed_linear(&x, &w, &b, &r, &composed, nullptr));
    REQUIRE_NTC_OK(fused_linear(&x, &w, &b, &r, &byHand, nullptr));
    CHECK(identical(separate, composed));
    CHECK(identical(byHand, composed));
    std::vector<double> ref(size_t(M * N));
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n) {
        double acc = 0;
        for (int64_t k = 0; k < K; ++k)
          acc += x.get({m, k}) * w.get({k, n});
        ref[size_t(m * N + n)] = std::max(0.0, acc + b.get({n}) + r.get({m, n}));
      }
    CHECK_CLOSE(compare(composed, ref, 0.03, 0.03));
  }
}

TEST_CASE("composed matmul of gelu(x * s) equals the elementwise kernel followed by matmul",
          "[cpu][composed]") {
  for (auto [M, N, K] : {Shapes{65, 97, 130}, {1, 1, 1}, {70, 33, 64}}) {
    INFO("M=" << M << " N=" << N << " K=" << K);
    std::mt19937_64 rng(uint64_t(M * 17 + N * 3 + K));
    Tensor<float16> x({M, K}), s({M, K}), w({K, N});
    x.randomize(rng, -2, 2);
    s.randomize(rng);
    w.randomize(rng);
    Tensor<float16> activated({M, K}), separate({M, N}), composed({M, N});
    REQUIRE_NTC_OK(scaled_gelu(&x, &s, &activated, nullptr));
    REQUIRE_NTC_OK(matmul(&activated, &w, &separate, nullptr));
    REQUIRE_NTC_OK(gelu_matmul(&x, &s, &w, &composed, nullptr));
    CHECK(identical(separate, composed));
  }
}

TEST_CASE("composed row softmax of a matmul equals matmul followed by softmax", "[cpu][composed]") {
  for (auto [M, N, K] : {Shapes{37, 100, 70}, {1, 1, 1}, {64, 128, 32}, {17, 5, 3}}) {
    INFO("M=" << M << " N=" << N << " K=" << K);
    std::mt19937_64 rng(uint64_t(M * 5 + N * 11 + K));
    Tensor<float16> x({M, K}), w({K, N}), product({M, N});
    x.randomize(rng);
    w.randomize(rng);
    REQUIRE_NTC_OK(matmul(&x, &w, &product, nullptr));
    Tensor<float> logits({M, N}), separate({M, N}), composed({M, N});
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n)
        logits(m, n) = float(product.get({m, n}));
    REQUIRE_NTC_OK(softmax(&logits, &separate, nullptr));
    REQUIRE_NTC_OK(matmul_softmax(&x, &w, &composed, nullptr));
    CHECK_CLOSE(compare(composed, values(separate), 1e-6, 1e-5));
  }
}

TEST_CASE("a composed row softmax rejects rows wider than its tile bound", "[cpu][composed]") {
  Tensor<float16> x({4, 8}), w({8, 129});
  Tensor<float> out({4, 129});
  x.fill(0);
  w.fill(0);
  CHECK(matmul_softmax(&x, &w, &out, nullptr) != NTC_SUCCESS);
}

TEST_CASE("two kernel-function calls in one application, one with named axes", "[cpu][composed]") {
  const int64_t M = 70, N = 45, K1 = 33, K2 = 64;
  std::mt19937_64 rng(7);
  Tensor<float16> a({M, K1}), b({K1, N}), c({M, K2}), d({K2, N});
  a.randomize(rng);
  b.randomize(rng);
  c.randomize(rng);
  d.randomize(rng);
  Tensor<float16> ab({M, N}), cd({M, N});
  REQUIRE_NTC_OK(matmul(&a, &b, &ab, nullptr));
  REQUIRE_NTC_OK(matmul(&c, &d, &cd, nullptr));
  Tensor<float> composed({M, N});
  REQUIRE_NTC_OK(two_products(&a, &b, &c, &d, 1.5f, &composed, nullptr));
  std::vector<double> ref(size_t(M * N));
  for (int64_t i = 0; i < M * N; ++i)
    ref[size_t(i)] = double(1.5f * float(ab.flat(i)) - float(cd.flat(i)));
  CHECK_CLOSE(compare(composed, ref, 0, 0));
}

// Kernels with inferred axes (tests/cpu/kernels/inferred_axes.cpp) against the kernels they must
// equal: the stock matmul, linear and bmm (classic and named arrangements of the same
// application, so results must be identical, not just close), a named softmax and layer norm,
// the stock attention, and plain references in double. Tails in every dimension.
#include "Common.hpp"

#include <attention.h>
#include <bmm.h>
#include <inferred_axes.h>
#include <linear.h>
#include <matmul.h>

#include <cmath>

using namespace ntc_test;

namespace {

/// True when both tensors hold the same values at every index of their (equal) shapes.
template <class T> bool identical(const Tensor<T> &a, const Tensor<T> &b) {
  int64_t n = 1;
  for (int64_t e : a.shape)
    n *= e;
  for (int64_t i = 0; i < n; ++i)
    if (!(a.flat(i) == b.flat(i)))
      return false;
  return true;
}

} // namespace

TEST_CASE("inferred matmul and linear equal the classic and named kernels", "[cpu][inferred]") {
  for (auto [M, N, K] :
       {std::tuple<int64_t, int64_t, int64_t>{65, 97, 130}, {1, 1, 1}, {128, 64, 64}, {3, 5, 0}}) {
    INFO("M=" << M << " N=" << N << " K=" << K);
    std::mt19937_64 rng(uint64_t(M * 131 + N * 7 + K));
    Tensor<float16> lhs({M, K}), rhs({K, N}), bias({N}), residual({M, N});
    lhs.randomize(rng);
    rhs.randomize(rng);
    bias.randomize(rng);
    residual.randomize(rng);
    Tensor<float16> classic({M, N}), inferred({M, N});
    REQUIRE_NTC_OK(matmul(&lhs, &rhs, &classic, nullptr));
    REQUIRE_NTC_OK(inferred_matmul(&lhs, &rhs, &inferred, nullptr));
    CHECK(identical(classic, inferred));
    Tensor<float16> named({M, N}), inferredLinear({M, N});
    REQUIRE_NTC_OK(linear(&lhs, &rhs, &bias, &residual, &named, nullptr));
    REQUIRE_NTC_OK(inferred_linear(&lhs, &rhs, &bias, &residual, &inferredLinear, nullptr));
    CHECK(identical(named, inferredLinear));
    std::vector<double> ref(size_t(M * N));
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n) {
        double acc = 0;
        for (int64_t k = 0; k < K; ++k)
          acc += lhs.get({m, k}) * rhs.get({k, n});
        ref[size_t(m * N + n)] = std::max(0.0, acc + bias.get({n}) + residual.get({m, n}));
      }
    CHECK_CLOSE(compare(inferredLinear, ref, 0.025, 0.025));
  }
}

TEST_CASE("inferred bmm equals the named bmm, with a batch and with a broadcast one",
          "[cpu][inferred]") {
  for (bool shared : {false, true}) {
    const int64_t B = 3, M = 65, N = 97, K = 40;
    INFO("shared=" << shared);
    std::mt19937_64 rng(shared ? 11 : 12);
    Tensor<float16> lhs({B, M, K}), named({B, M, N}), inferred({B, M, N});
    Tensor<float16> rhs(shared ? std::vector<int64_t>{K, N} : std::vector<int64_t>{B, K, N});
    lhs.randomize(rng);
    rhs.randomize(rng);
    if (shared) {
      REQUIRE_NTC_OK(bmm_shared_rhs(&lhs, &rhs, &named, nullptr));
      REQUIRE_NTC_OK(inferred_bmm_shared_rhs(&lhs, &rhs, &inferred, nullptr));
    } else {
      REQUIRE_NTC_OK(bmm(&lhs, &rhs, &named, nullptr));
      REQUIRE_NTC_OK(inferred_bmm(&lhs, &rhs, &inferred, nullptr));
    }
    CHECK(identical(named, inferred));
    std::vector<double> ref(size_t(B * M * N));
    for (int64_t b = 0; b < B; ++b)
      for (int64_t m = 0; m < M; ++m)
        for (int64_t n = 0; n < N; ++n) {
          double acc = 0;
          for (int64_t k = 0; k < K; ++k)
            acc += lhs.get({b, m, k}) * (shared ? rhs.get({k, n}) : rhs.get({b, k, n}));
          ref[size_t((b * M + m) * N + n)] = acc;
        }
    CHECK_CLOSE(compare(inferred, ref, 0.025, 0.025));
  }
}

TEST_CASE("inferred softmax and layer norm equal their named versions", "[cpu][inferred]") {
  for (auto [M, N] : {std::pair<int64_t, int64_t>{37, 781}, {1, 1}, {5, 64}}) {
    INFO("M=" << M << " N=" << N);
    std::mt19937_64 rng(uint64_t(M * 1000 + N));
    Tensor<float> input({M, N}), weight({N}), bias({N});
    input.randomize(rng, -4, 4);
    weight.randomize(rng);
    bias.randomize(rng);
    Tensor<float> named({M, N}), inferred({M, N});
    REQUIRE_NTC_OK(named_softmax(&input, &named, nullptr));
    REQUIRE_NTC_OK(inferred_softmax(&input, &inferred, nullptr));
    CHECK(identical(named, inferred));
    std::vector<double> ref(size_t(M * N));
    for (int64_t m = 0; m < M; ++m) {
      double top = -INFINITY, total = 0;
      for (int64_t n = 0; n < N; ++n)
        top = std::max(top, input.get({m, n}));
      for (int64_t n = 0; n < N; ++n)
        total += std::exp(input.get({m, n}) - top);
      for (int64_t n = 0; n < N; ++n)
        ref[size_t(m * N + n)] = std::exp(input.get({m, n}) - top) / total;
    }
    CHECK_CLOSE(compare(inferred, ref, 1e-6, 1e-5));

    const float eps = 1e-5f;
    Tensor<float> namedNorm({M, N}), inferredNorm({M, N});
    REQUIRE_NTC_OK(named_layer_norm(&input, &weight, &bias, eps, &namedNorm, nullptr));
    REQUIRE_NTC_OK(inferred_layer_norm(&input, &weight, &bias, eps, &inferredNorm, nullptr));
    CHECK(identical(namedNorm, inferredNorm));
    for (int64_t m = 0; m < M; ++m) {
      double mean = 0, var = 0;
      for (int64_t n = 0; n < N; ++n)
        mean += input.get({m, n}) / double(N);
      for (int64_t n = 0; n < N; ++n)
        var += (input.get({m, n}) - mean) * (input.get({m, n}) - mean) / double(N);
      for (int64_t n = 0; n < N; ++n)
        ref[size_t(m * N + n)] =
            (input.get({m, n}) - mean) / std::sqrt(var + eps) * weight.get({n}) + bias.get({n});
    }
    CHECK_CLOSE(compare(inferredNorm, ref, 1e-4, 1e-4));
  }
}

TEST_CASE("inferred attention equals the stock attention, causal and not", "[cpu][inferred]") {
  for (auto [Sq, Skv, D] :
       {std::tuple<int64_t, int64_t, int64_t>{100, 300, 64}, {129, 77, 40}, {1, 1, 16}}) {
    for (int64_t causal : {0, 1}) {
      INFO("Sq=" << Sq << " Skv=" << Skv << " D=" << D << " causal=" << causal);
      const int64_t B = 2, H = 3;
      std::mt19937_64 rng(uint64_t(Sq * 1000 + Skv + causal));
      Tensor<float> q({B, H, Sq, D}), k({B, H, Skv, D}), v({B, H, Skv, D});
      q.randomize(rng);
      k.randomize(rng);
      v.randomize(rng);
      Tensor<float> stock({B, H, Sq, D}), inferred({B, H, Sq, D});
      REQUIRE_NTC_OK(attention_f32(&q, &k, &v, causal, &stock, nullptr));
      REQUIRE_NTC_OK(inferred_attention(&q, &k, &v, causal, &inferred, nullptr));
      CHECK(identical(stock, inferred));
    }
  }
}

// matmul (kernels/matmul.cpp: float16 GEMM with float32 accumulation, 64x64x32 tiles) and addmm
// (kernels/addmm.cpp: beta * input + alpha * (mat1 @ mat2)) against double references, on the CPU
// backend: tails in M, N and K, a transposed (non-contiguous) right-hand side, K = 0.
#include "Common.hpp"

#include <addmm.h>
#include <dot_precision.h>
#include <matmul.h>
#include <matmul_bf16.h>

#include <algorithm>
#include <iostream>

using namespace ntc_test;

namespace {

/// Tolerance of a float16 result: |out - ref| <= 0.025 + 0.025·|ref| (NineToothed's test_matmul).
constexpr double kAtol = 0.025, kRtol = 0.025;

/// lhs @ rhs in double, row-major M x N.
template <class T>
std::vector<double> matmul_reference(const Tensor<T> &lhs, const Tensor<T> &rhs) {
  const int64_t M = lhs.shape[0], K = lhs.shape[1], N = rhs.shape[1];
  std::vector<double> a(size_t(M * K)), b(size_t(K * N)), out(size_t(M * N), 0.0);
  for (int64_t m = 0; m < M; ++m)
    for (int64_t k = 0; k < K; ++k)
      a[size_t(m * K + k)] = lhs.get({m, k});
  for (int64_t k = 0; k < K; ++k)
    for (int64_t n = 0; n < N; ++n)
      b[size_t(k * N + n)] = rhs.get({k, n});
  for (int64_t m = 0; m < M; ++m)
    for (int64_t k = 0; k < K; ++k) {
      const double x = a[size_t(m * K + k)];
      for (int64_t n = 0; n < N; ++n)
        out[size_t(m * N + n)] += x * b[size_t(k * N + n)];
    }
  return out;
}

/// Runs matmul on random M x K and K x N inputs (normal(0, 1), as torch.randn) and compares.
/// With `transposed_rhs`, rhs is the K x N transpose of an N x K buffer (strides {1, K}).
void check_matmul(int64_t M, int64_t N, int64_t K, bool transposed_rhs, uint64_t seed) {
  INFO("M = " << M << ", N = " << N << ", K = " << K << (transposed_rhs ? ", rhs transposed" : ""));
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  Tensor<float16> lhs({M, K});
  Tensor<float16> rhs({K, N}, transposed_rhs ? std::vector<int64_t>{1, K} : std::vector<int64_t>{});
  Tensor<float16> output({M, N});
  for (int64_t i = 0; i < lhs.numel(); ++i)
    lhs.at(lhs.unravel(i)) = float16(normal(rng));
  for (int64_t i = 0; i < rhs.numel(); ++i)
    rhs.at(rhs.unravel(i)) = float16(normal(rng));

  REQUIRE_NTC_OK(matmul(&lhs, &rhs, &output, nullptr));
  CHECK_CLOSE(compare(output, matmul_reference(lhs, rhs), kAtol, kRtol));
}

} // namespace

TEST_CASE("matmul_bf16: random 65 x 97 x 130 (tails in M, N, K)", "[cpu][matmul]") {
  // bfloat16 keeps 8 bits of mantissa: the output's rounding is 2^-8 relative.
  std::mt19937_64 rng(29);
  std::normal_distribution<double> normal(0.0, 1.0);
  const int64_t M = 65, N = 97, K = 130;
  Tensor<bfloat16> lhs({M, K}), rhs({K, N}), output({M, N});
  for (int64_t i = 0; i < lhs.numel(); ++i)
    lhs.at(lhs.unravel(i)) = bfloat16(float(normal(rng)));
  for (int64_t i = 0; i < rhs.numel(); ++i)
    rhs.at(rhs.unravel(i)) = bfloat16(float(normal(rng)));
  REQUIRE_NTC_OK(matmul_bf16(&lhs, &rhs, &output, nullptr));
  CHECK_CLOSE(compare(output, matmul_reference(lhs, rhs), 0.1, 0.01));
}

TEST_CASE("matmul: all-ones 65 x 97 x 130 gives exactly 130", "[cpu][matmul]") {
  const int64_t M = 65, N = 97, K = 130; // tails in M (1), N (33) and K (2)
  Tensor<float16> lhs({M, K}), rhs({K, N}), output({M, N});
  lhs.fill(1);
  rhs.fill(1);
  REQUIRE_NTC_OK(matmul(&lhs, &rhs, &output, nullptr));
  int64_t wrong = 0;
  for (int64_t i = 0; i < output.numel(); ++i)
    if (output.flat(i) != 130.0)
      ++wrong;
  CHECK(wrong == 0);
  CHECK(output.get({0, 0}) == 130.0);
  CHECK(output.get({M - 1, N - 1}) == 130.0);
}

TEST_CASE("matmul: random 65 x 97 x 130 (tails in M, N, K)", "[cpu][matmul]") {
  check_matmul(65, 97, 130, false, 21);
}

TEST_CASE("matmul: random 512 x 512 x 512, timed", "[cpu][matmul][timing]") {
  const int64_t n = 512;
  std::mt19937_64 rng(22);
  std::normal_distribution<double> normal(0.0, 1.0);
  Tensor<float16> lhs({n, n}), rhs({n, n}), output({n, n});
  for (int64_t i = 0; i < lhs.numel(); ++i)
    lhs.at(lhs.unravel(i)) = float16(normal(rng));
  for (int64_t i = 0; i < rhs.numel(); ++i)
    rhs.at(rhs.unravel(i)) = float16(normal(rng));

  ntc_status_t status = NTC_SUCCESS;
  double best = 1e30;
  for (int run = 0; run < 3; ++run)
    best = std::min(best, seconds([&] { status = matmul(&lhs, &rhs, &output, nullptr); }));
  REQUIRE_NTC_OK(status);
  const double gflops = 2.0 * n * n * n / best / 1e9;
  std::cout << "matmul 512x512x512 float16 on the CPU backend: " << best * 1e3 << " ms (best of 3, "
            << gflops << " GFLOP/s)" << std::endl;
  WARN("matmul 512^3 CPU time: " << best * 1e3 << " ms (" << gflops << " GFLOP/s)");

  CHECK_CLOSE(compare(output, matmul_reference(lhs, rhs), kAtol, kRtol));
}

TEST_CASE("matmul: right-hand side a transposed (non-contiguous) view", "[cpu][matmul][strided]") {
  check_matmul(65, 97, 130, true, 23);
  check_matmul(128, 64, 96, true, 24);
}

TEST_CASE("matmul: small and odd shapes", "[cpu][matmul]") {
  check_matmul(1, 1, 1, false, 25);
  check_matmul(3, 200, 5, false, 26);
  check_matmul(129, 63, 33, false, 27);
  check_matmul(64, 64, 32, false, 28); // exactly one tile
}

TEST_CASE("matmul: strided lhs and output views", "[cpu][matmul][strided]") {
  const int64_t M = 70, N = 90, K = 40;
  std::mt19937_64 rng(29);
  Tensor<float16> lhs({M, K}, {2 * K + 3, 2}, 1); // every other column, padded rows
  Tensor<float16> rhs({K, N});
  Tensor<float16> output({M, N}, {1, M + 5}); // column-major with padding
  lhs.randomize(rng);
  rhs.randomize(rng);
  REQUIRE_NTC_OK(matmul(&lhs, &rhs, &output, nullptr));
  CHECK_CLOSE(compare(output, matmul_reference(lhs, rhs), kAtol, kRtol));
  CHECK(output.touched_outside_view() == 0);
}

TEST_CASE("matmul: K = 0 gives zeros", "[cpu][matmul]") {
  Tensor<float16> lhs({5, 0}, {}, 0, 4), rhs({0, 7}, {}, 0, 4), output({5, 7});
  REQUIRE_NTC_OK(matmul(&lhs, &rhs, &output, nullptr));
  for (int64_t i = 0; i < output.numel(); ++i)
    CHECK(output.flat(i) == 0.0);
}

namespace {

void check_addmm(int64_t M, int64_t N, int64_t K, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> scalar(-2.0, 2.0);
  const float beta = float(scalar(rng)), alpha = float(scalar(rng));
  INFO("M = " << M << ", N = " << N << ", K = " << K << ", beta = " << beta
              << ", alpha = " << alpha);
  Tensor<float16> input({M, N}), mat1({M, K}), mat2({K, N}), output({M, N});
  input.randomize(rng);
  mat1.randomize(rng);
  mat2.randomize(rng);

  REQUIRE_NTC_OK(addmm(&input, &mat1, &mat2, beta, alpha, &output, nullptr));

  std::vector<double> ref = matmul_reference(mat1, mat2);
  for (int64_t i = 0; i < output.numel(); ++i)
    ref[size_t(i)] = double(beta) * input.flat(i) + double(alpha) * ref[size_t(i)];
  CHECK_CLOSE(compare(output, ref, kAtol, kRtol));
}

} // namespace

TEST_CASE("addmm: beta * input + alpha * (mat1 @ mat2), shapes with tails", "[cpu][addmm]") {
  check_addmm(65, 97, 130, 31);
  check_addmm(1, 1, 1, 32);
  check_addmm(130, 257, 33, 33);
  check_addmm(128, 64, 64, 34);
}

TEST_CASE("addmm: beta = 0 and alpha = 0 select one term", "[cpu][addmm]") {
  const int64_t M = 40, N = 70, K = 50;
  std::mt19937_64 rng(35);
  Tensor<float16> input({M, N}), mat1({M, K}), mat2({K, N}), output({M, N});
  input.randomize(rng);
  mat1.randomize(rng);
  mat2.randomize(rng);

  REQUIRE_NTC_OK(addmm(&input, &mat1, &mat2, 0.0f, 1.0f, &output, nullptr));
  CHECK_CLOSE(compare(output, matmul_reference(mat1, mat2), kAtol, kRtol));

  REQUIRE_NTC_OK(addmm(&input, &mat1, &mat2, 1.0f, 0.0f, &output, nullptr));
  CHECK_CLOSE(compare(output, values(input), 0, 0)); // exactly the input
}

TEST_CASE("dot with an input precision: float32 GEMMs at \"ieee\", \"tf32\" and \"tf32x3\"",
          "[cpu][matmul][precision]") {
  // Tails in M, N and K; the CPU computes float32 products in IEEE precision for both.
  const int64_t M = 70, N = 90, K = 75;
  std::mt19937_64 rng(17);
  Tensor<float> lhs({M, K}), rhs({K, N}), ieee({M, N}), tf32({M, N}), tf32x3({M, N});
  lhs.randomize(rng);
  rhs.randomize(rng);
  REQUIRE(mm_ieee(&lhs, &rhs, &ieee, nullptr) == NTC_SUCCESS);
  REQUIRE(mm_tf32(&lhs, &rhs, &tf32, nullptr) == NTC_SUCCESS);
  REQUIRE(mm_tf32x3(&lhs, &rhs, &tf32x3, nullptr) == NTC_SUCCESS);
  for (int64_t m = 0; m < M; ++m)
    for (int64_t n = 0; n < N; ++n) {
      double want = 0;
      for (int64_t k = 0; k < K; ++k)
        want += lhs.get({m, k}) * rhs.get({k, n});
      REQUIRE(ieee.get({m, n}) == Approx(want).margin(1e-4).epsilon(1e-5));
      REQUIRE(tf32.get({m, n}) == ieee.get({m, n}));
      REQUIRE(tf32x3.get({m, n}) == ieee.get({m, n}));
    }
}

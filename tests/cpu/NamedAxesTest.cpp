// Kernels arranged with named axes on the CPU backend: linear (GEMM + bias + residual + ReLU),
// batched matmul with and without a batch axis on the right-hand side, and composition (a
// named kernel whose application calls the classic matmul's application). References in
// double, tails in every dimension; the named kernels also equal the classic ones exactly.
#include "Common.hpp"

#include <addmm.h>
#include <bmm.h>
#include <linear.h>
#include <matmul.h>
#include <named_compose.h>

using namespace ntc_test;

namespace {

void checkLinear(int64_t M, int64_t N, int64_t K, uint64_t seed) {
  INFO("M=" << M << " N=" << N << " K=" << K);
  std::mt19937_64 rng(seed);
  Tensor<float16> lhs({M, K}), rhs({K, N}), bias({N}), residual({M, N}), output({M, N});
  lhs.randomize(rng);
  rhs.randomize(rng);
  bias.randomize(rng);
  residual.randomize(rng);
  REQUIRE(linear(&lhs, &rhs, &bias, &residual, &output, nullptr) == NTC_SUCCESS);
  std::vector<double> ref(size_t(M * N));
  for (int64_t m = 0; m < M; ++m)
    for (int64_t n = 0; n < N; ++n) {
      double acc = 0;
      for (int64_t k = 0; k < K; ++k)
        acc += lhs.get({m, k}) * rhs.get({k, n});
      ref[size_t(m * N + n)] = std::max(0.0, acc + bias.get({n}) + residual.get({m, n}));
    }
  auto mm = compare(output, ref, 0.025, 0.025);
  INFO(mm.summary());
  CHECK(mm.count == 0);
}

void checkBmm(int64_t B, int64_t M, int64_t N, int64_t K, bool shared, uint64_t seed) {
  INFO("B=" << B << " M=" << M << " N=" << N << " K=" << K << " shared=" << shared);
  std::mt19937_64 rng(seed);
  Tensor<float16> lhs({B, M, K}), output({B, M, N});
  Tensor<float16> rhs(shared ? std::vector<int64_t>{K, N} : std::vector<int64_t>{B, K, N});
  lhs.randomize(rng);
  rhs.randomize(rng);
  if (shared)
    REQUIRE(bmm_shared_rhs(&lhs, &rhs, &output, nullptr) == NTC_SUCCESS);
  else
    REQUIRE(bmm(&lhs, &rhs, &output, nullptr) == NTC_SUCCESS);
  std::vector<double> ref(size_t(B * M * N));
  for (int64_t b = 0; b < B; ++b)
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n) {
        double acc = 0;
        for (int64_t k = 0; k < K; ++k)
          acc += lhs.get({b, m, k}) * (shared ? rhs.get({k, n}) : rhs.get({b, k, n}));
        ref[size_t((b * M + m) * N + n)] = acc;
      }
  auto mm = compare(output, ref, 0.025, 0.025);
  INFO(mm.summary());
  CHECK(mm.count == 0);
}

} // namespace

TEST_CASE("linear: named GEMM + bias + residual + relu, tails everywhere", "[cpu][named]") {
  checkLinear(65, 97, 130, 1);
  checkLinear(128, 64, 64, 2);
  checkLinear(1, 1, 1, 3);
  checkLinear(3, 5, 0, 4);
}

TEST_CASE("bmm: named batched matmul, with and without b on the right", "[cpu][named]") {
  checkBmm(3, 65, 97, 40, false, 5);
  checkBmm(2, 64, 64, 32, false, 6);
  checkBmm(3, 65, 97, 40, true, 7);
  checkBmm(1, 1, 1, 1, true, 8);
}

TEST_CASE("named and classic arrangements give identical results", "[cpu][named]") {
  std::mt19937_64 rng(9);
  const int64_t M = 65, N = 97, K = 130;
  Tensor<float16> lhs({M, K}), rhs({K, N}), input({M, N}), classic({M, N}), named({M, N});
  lhs.randomize(rng);
  rhs.randomize(rng);
  input.randomize(rng);
  // The classic addmm and the named one calling mm_application compute the same program.
  REQUIRE(addmm(&input, &lhs, &rhs, 0.75f, 0.5f, &classic, nullptr) == NTC_SUCCESS);
  REQUIRE(named_addmm(&input, &lhs, &rhs, 0.75f, 0.5f, &named, nullptr) == NTC_SUCCESS);
  for (int64_t m = 0; m < M; ++m)
    for (int64_t n = 0; n < N; ++n)
      REQUIRE(float(classic.get({m, n})) == float(named.get({m, n})));
  // A batch of one through bmm equals matmul.
  Tensor<float16> lhs3({1, M, K}), out3({1, M, N}), out2({M, N});
  for (int64_t m = 0; m < M; ++m)
    for (int64_t k = 0; k < K; ++k)
      lhs3.at({0, m, k}) = lhs.at({m, k});
  REQUIRE(bmm_shared_rhs(&lhs3, &rhs, &out3, nullptr) == NTC_SUCCESS);
  REQUIRE(matmul(&lhs, &rhs, &out2, nullptr) == NTC_SUCCESS);
  for (int64_t m = 0; m < M; ++m)
    for (int64_t n = 0; n < N; ++n)
      REQUIRE(float(out3.get({0, m, n})) == float(out2.get({m, n})));
}

TEST_CASE("named kernels check the sizes their axes tie", "[cpu][named]") {
  Tensor<float16> lhs({4, 5}), rhs({6, 3}), bias({3}), residual({4, 3}), output({4, 3});
  CHECK(linear(&lhs, &rhs, &bias, &residual, &output, nullptr) == NTC_ERROR_INVALID_ARGUMENT);
  CHECK(std::string(ntc_last_error()).find("lhs.shape[1]") != std::string::npos);
  Tensor<float16> rhs2({5, 3}), bias2({4});
  CHECK(linear(&lhs, &rhs2, &bias2, &residual, &output, nullptr) == NTC_ERROR_INVALID_ARGUMENT);
  CHECK(std::string(ntc_last_error()).find("bias.shape[0]") != std::string::npos);
}

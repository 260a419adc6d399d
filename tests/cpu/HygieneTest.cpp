// Kernels whose user names are names that ntc itself generates (tests/cpu/kernels/hygiene.cpp):
// loop indices named like program coordinates, sizes and meta-parameters, parameters named like
// the wrapper's own, kernel names that other kernels' helpers would take, and nt::Constexpr
// values with more than six significant digits. Each must compute what its C++ says.
#include "Common.hpp"

#include <cxx_semantics.h>
#include <hygiene.h>

using namespace ntc_test;

namespace {

using Gemm = ntc_status_t (*)(const DLTensor *, const DLTensor *, const DLTensor *, ntc_stream_t);

/// Runs a float32 GEMM kernel on M x K and K x N inputs with tails in every dimension.
void check_gemm(Gemm kernel, int64_t M, int64_t N, int64_t K) {
  INFO("M = " << M << ", N = " << N << ", K = " << K);
  std::mt19937_64 rng(M * 1000 + N * 10 + K);
  Tensor<float> lhs({M, K}), rhs({K, N}), out({M, N});
  lhs.randomize(rng);
  rhs.randomize(rng);
  REQUIRE_NTC_OK(kernel(&lhs, &rhs, &out, nullptr));
  std::vector<double> ref(size_t(M * N), 0.0);
  for (int64_t m = 0; m < M; ++m)
    for (int64_t n = 0; n < N; ++n)
      for (int64_t k = 0; k < K; ++k)
        ref[size_t(m * N + n)] += lhs.get({m, k}) * rhs.get({k, n});
  CHECK_CLOSE(compare(out, ref, 1e-4, 1e-4));
}

/// Runs a float32 vector kernel and checks output = input + `added`.
template <class F> void check_plus(F kernel, double added) {
  std::mt19937_64 rng(7);
  Tensor<float> input({100}), output({100});
  input.randomize(rng);
  REQUIRE_NTC_OK(kernel(&input, &output, nullptr));
  std::vector<double> ref;
  for (int64_t i = 0; i < 100; ++i)
    ref.push_back(double(float(input.get({i}) + added)));
  CHECK_CLOSE(compare(output, ref, 1e-6, 0));
}

} // namespace

TEST_CASE("hygiene: loop index pid0, local lane0, parameters x_size_0 and stream",
          "[cpu][hygiene]") {
  check_gemm(gemm_named_like_generated, 37, 45, 70);
  check_gemm(gemm_named_like_generated, 16, 16, 8);
}

TEST_CASE("hygiene: loop index named like the size that bounds it", "[cpu][hygiene]") {
  check_gemm(gemm_loop_named_size, 37, 45, 70);
}

TEST_CASE("hygiene: loop index named like a meta-parameter", "[cpu][hygiene]") {
  check_gemm(gemm_loop_named_meta, 37, 45, 70);
}

TEST_CASE("hygiene: kernel names that other kernels' helpers would take", "[cpu][hygiene]") {
  check_plus(hygiene_args, 1);
  check_plus(hygiene_args_args, 2);
  check_plus(hygiene_args_program0, 3);
}

TEST_CASE("hygiene: nt::Constexpr values keep every digit", "[cpu][hygiene]") {
  Tensor<double> input({50}), output({50});
  std::mt19937_64 rng(3);
  input.randomize(rng);
  for (double c : {0.1234567, 1e-9}) {
    REQUIRE_NTC_OK(scale_by_constexpr(&input, c, &output, nullptr));
    std::vector<double> ref;
    for (int64_t i = 0; i < 50; ++i)
      ref.push_back(input.get({i}) * c);
    CHECK_CLOSE(compare(output, ref, 0, 1e-15));
  }
  // The six-digit roundings of the declared values are not declared values.
  for (double c : {0.123457, 0.0, 1e-10}) {
    INFO("c = " << c);
    CHECK(scale_by_constexpr(&input, c, &output, nullptr) == NTC_ERROR_INVALID_ARGUMENT);
    CHECK(std::string(ntc_last_error()).find("expected one of 0.1234567, 1e-09") !=
          std::string::npos);
  }
  // The rejected value is reported with all its digits too.
  CHECK(scale_by_constexpr(&input, 1e-10, &output, nullptr) == NTC_ERROR_INVALID_ARGUMENT);
  CHECK(std::string(ntc_last_error()).find("parameter 'c' is 1e-10,") != std::string::npos);
}

TEST_CASE("C++ semantics: lambda captures and references", "[cpu][hygiene]") {
  Tensor<double> x({45}), y({45});
  std::mt19937_64 rng(11);
  x.randomize(rng);
  REQUIRE_NTC_OK(lambda_captures(&x, &y, nullptr));
  std::vector<double> ref;
  for (int64_t i = 0; i < 45; ++i) {
    const double v = x.get({i});
    ref.push_back((v + 1) * 100 + (v + 1) * 10000 + (v + 1) + (v + 8) + (v + 2) * 3);
  }
  CHECK_CLOSE(compare(y, ref, 1e-9, 1e-12));
}

TEST_CASE("hygiene: locals named like generated code, a kernel named pid0", "[cpu][hygiene]") {
  std::mt19937_64 rng(9);
  Tensor<float> input({5, 37}), output({5, 37});
  input.randomize(rng);
  REQUIRE_NTC_OK(pid0(&input, &output, nullptr));
  std::vector<double> ref;
  for (int64_t i = 0; i < input.numel(); ++i)
    ref.push_back(double(float(input.flat(i) * 2)) + 1);
  CHECK_CLOSE(compare(output, ref, 1e-6, 1e-6));
}

TEST_CASE("C++ semantics: copies of a parameter's tile are taken when made", "[cpu][hygiene]") {
  Tensor<double> x({45}), y({45});
  std::mt19937_64 rng(12);
  x.randomize(rng);
  std::vector<double> x0 = values(x), refX, refY;
  for (double v : x0) {
    refX.push_back(3 * (2 * v));
    refY.push_back(v + 2 * v);
  }
  REQUIRE_NTC_OK(copy_then_write(&x, &y, nullptr));
  CHECK_CLOSE(compare(x, refX, 1e-12, 1e-12));
  CHECK_CLOSE(compare(y, refY, 1e-12, 1e-12));
}

TEST_CASE("C++ semantics: the conditional operator", "[cpu][hygiene]") {
  Tensor<float16> x({45});
  Tensor<float> y({45});
  std::mt19937_64 rng(13);
  x.randomize(rng);
  REQUIRE_NTC_OK(conditional_ops(&x, &y, nullptr));
  std::vector<double> ref;
  for (int64_t i = 0; i < 45; ++i) {
    const double v = x.get({i});
    ref.push_back((v > 0 ? v : 2 * v) + 1);
  }
  CHECK_CLOSE(compare(y, ref, 1e-6, 1e-6));
}

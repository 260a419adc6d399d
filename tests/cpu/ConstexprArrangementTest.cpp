// nt::Constexpr parameters as integers of arrangements (tests/cpu/kernels/
// constexpr_arrangement.cpp): a max pool whose window and stride, and a dilated max whose
// dilation, are chosen at launch among the listed values, against a plain reference; a value
// that was not listed is NTC_ERROR_INVALID_ARGUMENT naming the parameter.
#include "Common.hpp"

#include <constexpr_arrangement.h>

#include <algorithm>
#include <limits>
#include <string>

using namespace ntc_test;

namespace {

/// Max over the window × window elements from (i·stride, j·stride), clipped at the edges (ceil
/// mode: the last window may overhang), with `dilation` between the window's elements.
std::vector<double> pool_reference(const Tensor<float> &x, int64_t window, int64_t stride,
                                   int64_t dilation, int64_t rows, int64_t cols) {
  std::vector<double> out;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      double m = -std::numeric_limits<double>::infinity();
      for (int64_t a = 0; a < window; ++a)
        for (int64_t b = 0; b < window; ++b) {
          const int64_t r = i * stride + a * dilation, c = j * stride + b * dilation;
          if (r < x.shape[0] && c < x.shape[1])
            m = std::max(m, double(x.get({r, c})));
        }
      out.push_back(m);
    }
  return out;
}

/// Windows of ceil mode: ⌈(n − window) / stride⌉ + 1.
int64_t pooled(int64_t n, int64_t window, int64_t stride) {
  return (n - window + stride - 1) / stride + 1;
}

} // namespace

TEST_CASE("constexpr arrangement: max pool with launch-time window and stride", "[cpu][constexpr]") {
  std::mt19937_64 rng(41);
  Tensor<float> x({11, 14});
  x.randomize(rng);
  for (int64_t window : {2, 3})
    for (int64_t stride : {1, 2, 3}) {
      INFO("window " << window << ", stride " << stride);
      const int64_t rows = pooled(11, window, stride), cols = pooled(14, window, stride);
      Tensor<float> y({rows, cols});
      REQUIRE_NTC_OK(max_pool_constexpr(&x, &y, window, stride, nullptr));
      CHECK_CLOSE(compare(y, pool_reference(x, window, stride, 1, rows, cols), 0, 0));
    }
}

TEST_CASE("constexpr arrangement: dilation chosen at launch", "[cpu][constexpr]") {
  std::mt19937_64 rng(42);
  Tensor<float> x({9, 10});
  x.randomize(rng);
  for (int64_t dilation : {1, 2}) {
    INFO("dilation " << dilation);
    const int64_t rows = 9 - dilation, cols = 10 - dilation;
    Tensor<float> y({rows, cols});
    REQUIRE_NTC_OK(dilated_max_constexpr(&x, &y, dilation, nullptr));
    CHECK_CLOSE(compare(y, pool_reference(x, 2, 1, dilation, rows, cols), 0, 0));
  }
}

TEST_CASE("constexpr arrangement: a value that was not listed is rejected", "[cpu][constexpr]") {
  Tensor<float> x({8, 8}), y({2, 2});
  const ntc_status_t status = max_pool_constexpr(&x, &y, 2, 4, nullptr);
  const std::string message = ntc_last_error();
  INFO("ntc_last_error(): " << message);
  CHECK(status == NTC_ERROR_INVALID_ARGUMENT);
  CHECK(message.find("'stride'") != std::string::npos);
  for (int64_t i = 0; i < y.numel(); ++i)
    CHECK(y.flat(i) == Tensor<float>::sentinel());
}

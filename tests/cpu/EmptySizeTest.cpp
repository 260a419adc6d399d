// Kernels whose generated index code divides by a run-time size, called with a size of 0
// (tests/cpu/kernels/empty_sizes.cpp). They crashed with SIGFPE (integer division by zero in
// ntc::rt::floor_div / ceil_div) before those helpers returned 0 for a zero divisor.
#include "Common.hpp"

#include <empty_sizes.h>

using namespace ntc_test;

TEST_CASE("empty sizes: flatten of an empty tensor, then padding", "[cpu][empty]") {
  Tensor<float> x({3, 0}), y({2});
  REQUIRE_NTC_OK(flatten_pad_add_one(&x, &y, nullptr));
  CHECK(y.get({0}) == 1.0); // the padding reads 0
  CHECK(y.get({1}) == 1.0);

  std::mt19937_64 rng(7);
  Tensor<float> x6({2, 3}), y8({8});
  x6.randomize(rng);
  REQUIRE_NTC_OK(flatten_pad_add_one(&x6, &y8, nullptr));
  std::vector<double> ref = {1.0};
  for (int64_t i = 0; i < 6; ++i)
    ref.push_back(double(float(x6.flat(i) + 1.0f)));
  ref.push_back(1.0);
  CHECK_CLOSE(compare(y8, ref, 0, 0));
}

TEST_CASE("empty sizes: a whole-extent tile with dilation of an empty tensor",
          "[cpu][empty]") {
  Tensor<float> empty({0});
  REQUIRE_NTC_OK(whole_tile_dilated_add_one(&empty, nullptr));

  Tensor<float> x({5});
  for (int64_t i = 0; i < 5; ++i)
    x(i) = float(i);
  REQUIRE_NTC_OK(whole_tile_dilated_add_one(&x, nullptr));
  CHECK_CLOSE(compare(x, {1, 1, 3, 3, 5}, 0, 0));
}

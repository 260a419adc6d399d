// Arrangements valid only for some run-time sizes (tests/cpu/kernels/extent_checks.cpp): the
// wrapper runs them when the sizes fit and otherwise returns NTC_ERROR_INVALID_ARGUMENT with a
// message naming the parameter and the operation, writing nothing.
#include "Common.hpp"

#include <extent_checks.h>
#include <filter.h>

#include <string>

using namespace ntc_test;

namespace {

void check_rejected(ntc_status_t status, const std::string &part) {
  const std::string message = ntc_last_error();
  INFO("ntc_last_error(): " << message);
  CHECK(status == NTC_ERROR_INVALID_ARGUMENT);
  CHECK(message.find(part) != std::string::npos);
}

} // namespace

TEST_CASE("extent checks: squeeze of a run-time extent", "[cpu][extents]") {
  std::mt19937_64 rng(1);
  Tensor<float> x({4, 8}), y({4, 8});
  x.randomize(rng);
  REQUIRE_NTC_OK(squeeze_tile_rows(&x, &y, nullptr));
  CHECK_CLOSE(compare(y, values(x), 0, 0));

  Tensor<float> x8({8, 8}), y8({8, 8});
  x8.randomize(rng);
  check_rejected(squeeze_tile_rows(&x8, &y8, nullptr),
                 "parameter 'x': squeeze(0): the squeezed dimension's extent ⌈x_size_0/4⌉ is 2; "
                 "it must be 1");
  CHECK(y8.touched_outside_view() == 0);
  for (int64_t i = 0; i < y8.numel(); ++i)
    CHECK(y8.flat(i) == Tensor<float>::sentinel());
}

TEST_CASE("extent checks: expand of a run-time extent", "[cpu][extents]") {
  std::mt19937_64 rng(2);
  Tensor<float> x({10}), y({4}), out({10});
  x.randomize(rng);
  y.randomize(rng);
  REQUIRE_NTC_OK(expand_tile_vector(&x, &y, &out, nullptr));
  std::vector<double> ref;
  for (int64_t i = 0; i < 10; ++i)
    ref.push_back(double(float(x.get({i}) + y.get({i % 4}))));
  CHECK_CLOSE(compare(out, ref, 0, 0));

  Tensor<float> y100({100});
  check_rejected(expand_tile_vector(&x, &y100, &out, nullptr),
                 "parameter 'y': expand(0): the expanded dimension's extent ⌈y_size_0/4⌉ is 25");
}

TEST_CASE("extent checks: a tile size computed from a size", "[cpu][extents]") {
  std::mt19937_64 rng(3);
  Tensor<float> x({300}), y({300});
  x.randomize(rng);
  REQUIRE_NTC_OK(tile_by_size_minus_100(&x, &y, nullptr));
  CHECK_CLOSE(compare(y, values(x), 0, 0));

  for (int64_t n : {100, 50, 0}) {
    INFO("size " << n);
    Tensor<float> a({n}), b({n});
    check_rejected(tile_by_size_minus_100(&a, &b, nullptr),
                   "tile(0): the tile size x_size_0 - 100 is " + std::to_string(n - 100) +
                       "; it must be at least 1");
  }
}

TEST_CASE("extent checks: a run-time extent broadcast with a constant one", "[cpu][extents]") {
  std::mt19937_64 rng(4);
  Tensor<float> x({20}), w({3}), out({16});
  x.randomize(rng);
  w.randomize(rng);
  REQUIRE_NTC_OK(filter3(&x, &w, &out, nullptr));
  std::vector<double> ref;
  for (int64_t i = 0; i < 16; ++i) {
    double s = 0;
    for (int64_t j = 0; j < 3; ++j)
      s += x.get({i + 2 * j}) * w.get({j});
    ref.push_back(s);
  }
  CHECK_CLOSE(compare(out, ref, 1e-6, 1e-6));

  Tensor<float> w4({4});
  check_rejected(filter3(&x, &w4, &out, nullptr),
                 "the run-time extent w_size_0 is 4, but the application broadcasts it with a tile "
                 "extent of 3, so it must be 3");
}

TEST_CASE("extent checks: a constant subscript of a run-time inner level", "[cpu][extents]") {
  std::mt19937_64 rng(5);
  Tensor<float> x({10}), y({12});
  y.randomize(rng);
  REQUIRE_NTC_OK(third_tile_of_y(&x, &y, nullptr));
  std::vector<double> ref;
  for (int64_t i = 0; i < 10; ++i)
    ref.push_back(y.get({8 + i % 4}));
  CHECK_CLOSE(compare(x, ref, 0, 0));

  Tensor<float> y8({8});
  check_rejected(third_tile_of_y(&x, &y8, nullptr),
                 "'y[2]': the extent of the inner level ⌈y_size_0/4⌉ is 2; it must be at least 3");
}

TEST_CASE("extent checks: a tile size taken from another tensor's size", "[cpu][extents]") {
  // The launch grids (x_size_0, 1) and (y_size_0, ⌈y_size_1/x_size_1⌉) agree exactly when the
  // second extent is 1: y's rows at most as long as x's (a shorter row is masked).
  std::mt19937_64 rng(6);
  Tensor<float> x({5, 24});
  x.randomize(rng);
  for (int64_t cols : {24, 17}) {
    Tensor<float> y({5, cols});
    REQUIRE_NTC_OK(rows_tiled_by_x(&x, &y, nullptr));
    for (int64_t i = 0; i < 5; ++i)
      for (int64_t j = 0; j < cols; ++j)
        REQUIRE(y.get({i, j}) == double(float(x.get({i, j}) * 2)));
    CHECK(y.touched_outside_view() == 0);
  }
  Tensor<float> wide({5, 50});
  check_rejected(rows_tiled_by_x(&x, &wide, nullptr),
                 "rows_tiled_by_x: size mismatch: level 0 of 'x' (dimension 1) is 1 but level 0 "
                 "of 'y' (dimension 1) is 3");
  for (int64_t i = 0; i < wide.numel(); ++i)
    CHECK(wide.flat(i) == Tensor<float>::sentinel());
}

TEST_CASE("extent checks: a stored level indexed by a loop is tied to the loop bound",
          "[cpu][extents]") {
  std::mt19937_64 rng(7);
  Tensor<float> x({3, 100}), y({3, 100});
  x.randomize(rng);
  REQUIRE_NTC_OK(copy_row_blocks(&x, &y, nullptr));
  for (int64_t r = 0; r < 3; ++r)
    for (int64_t c = 0; c < 100; ++c)
      REQUIRE(y.get({r, c}) == float(x.get({r, c}) + 1));
  // y has three blocks per row where the loop over x's two would write only the first two, or
  // as many blocks but 20 more columns, which x's masked lanes would fill: rejected (the tie of
  // the block counts is checked as equal sizes), nothing written.
  for (int64_t cols : {150, 120}) {
    Tensor<float> other({3, cols});
    check_rejected(copy_row_blocks(&x, &other, nullptr),
                   "x.shape[1] is 100 but y.shape[1] is " + std::to_string(cols));
    for (int64_t i = 0; i < other.numel(); ++i)
      CHECK(other.flat(i) == Tensor<float>::sentinel());
  }
}

TEST_CASE("extent checks: tile counts of differently written extents tie the extents",
          "[cpu][extents]") {
  std::mt19937_64 rng(8);
  Tensor<float> x({6}), y({2, 3});
  x.randomize(rng);
  REQUIRE_NTC_OK(flattened_copy(&x, &y, nullptr));
  for (int64_t i = 0; i < 6; ++i)
    REQUIRE(y.get({i / 3, i % 3}) == x.get({i}));
  // Seven elements against six: as many tiles of 4, but one element would be dropped.
  Tensor<float> x7({7}), other({2, 3});
  check_rejected(flattened_copy(&x7, &other, nullptr),
                 "x.shape[0] is 7 but y.shape[0]*y.shape[1] is 6");
  for (int64_t i = 0; i < other.numel(); ++i)
    CHECK(other.flat(i) == Tensor<float>::sentinel());
}

TEST_CASE("extent checks: a slice's run-time stop is clamped to the extent", "[cpu][extents]") {
  std::mt19937_64 rng(9);
  Tensor<float> x({8}), y({3});
  x.randomize(rng);
  REQUIRE_NTC_OK(pair_sums(&x, &y, nullptr));
  for (int64_t i = 0; i < 3; ++i)
    REQUIRE(y.get({i}) == Approx(x.get({2 * i}) + x.get({2 * i + 1})).epsilon(1e-6));
  // Six outputs for four pairs: the slice selects four, which y's six do not match.
  Tensor<float> longer({6});
  check_rejected(pair_sums(&x, &longer, nullptr), "y");
  for (int64_t i = 0; i < longer.numel(); ++i)
    CHECK(longer.flat(i) == Tensor<float>::sentinel());
}

// Rank-generic arrangements (tests/cpu/kernels/rank_generic.cpp): one helper builds the tile
// shape (and a permutation) with std::vector for kernels of rank 2 and 3; each kernel computes
// x − max(x) along its dimension, checked against a plain reference with tails; and a 0-d tile
// from ntl::full({}, v) (tests/cpu/kernels/scalar_tiles.cpp).
#include "Common.hpp"

#include <rank_generic.h>
#include <scalar_tiles.h>

#include <algorithm>
#include <limits>

using namespace ntc_test;

namespace {

/// x − max(x) along dimension `dim` of a row-major contiguous tensor of shape `shape`.
std::vector<double> minus_max_reference(const Tensor<float> &x, int dim) {
  const std::vector<int64_t> &shape = x.shape;
  std::vector<double> out(size_t(x.numel()));
  for (int64_t i = 0; i < x.numel(); ++i) {
    std::vector<int64_t> at = x.unravel(i);
    double m = -std::numeric_limits<double>::infinity();
    for (int64_t j = 0; j < shape[size_t(dim)]; ++j) {
      std::vector<int64_t> other = at;
      other[size_t(dim)] = j;
      m = std::max(m, double(x.get(other)));
    }
    out[size_t(i)] = double(x.get(at)) - m;
  }
  return out;
}

} // namespace

TEST_CASE("rank-generic arrangement: one helper for rank 2 and 3", "[cpu][rank-generic]") {
  std::mt19937_64 rng(51);
  Tensor<float> x2({7, 37}), y2({7, 37});
  x2.randomize(rng, -9.0, -1.0); // all negative: masked lanes must not take part
  REQUIRE_NTC_OK(minus_max_2d(&x2, &y2, nullptr));
  CHECK_CLOSE(compare(y2, minus_max_reference(x2, 1), 1e-6, 0));

  Tensor<float> x3({3, 29, 5}), y3({3, 29, 5});
  x3.randomize(rng, -9.0, -1.0);
  REQUIRE_NTC_OK(minus_max_3d(&x3, &y3, nullptr));
  CHECK_CLOSE(compare(y3, minus_max_reference(x3, 1), 1e-6, 0));
}

TEST_CASE("rank-generic arrangement: a computed permutation moves the dimension last",
          "[cpu][rank-generic]") {
  std::mt19937_64 rng(52);
  Tensor<float> x({19, 4, 6}), y({19, 4, 6});
  x.randomize(rng);
  REQUIRE_NTC_OK(minus_max_dim0_3d(&x, &y, nullptr));
  CHECK_CLOSE(compare(y, minus_max_reference(x, 0), 1e-6, 0));
}

TEST_CASE("ntl::full({}, v): a 0-d tile carries a running maximum across blocks", "[cpu][scalar]") {
  std::mt19937_64 rng(52);
  // 150 columns: two full blocks of 64 and a tail of 22; all negative, so a masked lane that
  // read 0 would win.
  Tensor<float> x({5, 150}), y({5});
  x.randomize(rng, -9.0, -1.0);
  REQUIRE_NTC_OK(row_max(&x, &y, nullptr));
  for (int64_t r = 0; r < 5; ++r) {
    double best = -std::numeric_limits<double>::infinity();
    for (int64_t c = 0; c < 150; ++c)
      best = std::max(best, x.get({r, c}));
    REQUIRE(y.get({r}) == best);
  }
}

// ntl::rand in a kernel: dropout keeps about 1 - p of the elements, scales the kept ones by
// 1 / (1 - p), decides each element by Philox on (seed, the element's source offset) exactly
// as ntc::cpu::rand does, and gives the same result on every run.
#include "Common.hpp"

#include <dropout.h>
#include <linear_offsets.h>
#include <ntc/cpu/random.hpp>

using namespace ntc_test;

TEST_CASE("dropout: rand(seed, offsets) keeps 1 - p and matches Philox", "[cpu][rand]") {
  const int64_t n = 10007; // a tail in the last block of 256
  const float p = 0.3f;
  const int64_t seed = 20261129;
  std::mt19937_64 rng(11);
  Tensor<float> input({n}), first({n}), second({n});
  input.randomize(rng, 1.0, 2.0); // never zero, so a zero output means "dropped"
  REQUIRE(dropout(&input, p, seed, &first, nullptr) == NTC_SUCCESS);
  REQUIRE(dropout(&input, p, seed, &second, nullptr) == NTC_SUCCESS);
  ntc::cpu::Tile<int64_t> offsets{{n}, std::vector<int64_t>(size_t(n))};
  for (int64_t i = 0; i < n; ++i)
    offsets.data[size_t(i)] = i;
  ntc::cpu::Tile<float> u = ntc::cpu::rand(seed, offsets);
  int64_t kept = 0;
  for (int64_t i = 0; i < n; ++i) {
    bool keep = u.data[size_t(i)] > p;
    kept += keep;
    double expected = keep ? input.get({i}) / (1 - p) : 0.0;
    REQUIRE(first.get({i}) == Approx(expected).epsilon(1e-6));
    REQUIRE(first.get({i}) == second.get({i}));
  }
  CHECK(std::abs(double(kept) / double(n) - (1 - p)) < 0.02);
}

TEST_CASE("x.offsets(): every element's offset in its strided source", "[cpu][offsets]") {
  // A 37×45 view with strides (3, 120) (a transposed, spaced-out layout) and a tail in both
  // dimensions of the 16×32 tiles.
  const int64_t rows = 37, cols = 45;
  Tensor<float> input({rows, cols}, {3, 120});
  Tensor<int64_t> output({rows, cols});
  REQUIRE(element_offsets(&input, &output, nullptr) == NTC_SUCCESS);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      REQUIRE(output.get({i, j}) == double(i * 3 + j * 120));
}

TEST_CASE("dropout on a 2-D strided view draws from each element's source offset",
          "[cpu][rand][offsets]") {
  const int64_t rows = 33, cols = 70;
  const float p = 0.4f;
  const int64_t seed = 7;
  std::mt19937_64 rng(5);
  Tensor<float> input({rows, cols}, {cols + 6, 1}, 2), output({rows, cols});
  input.randomize(rng, 1.0, 2.0);
  REQUIRE(dropout2d(&input, p, seed, &output, nullptr) == NTC_SUCCESS);
  ntc::cpu::Tile<int64_t> offsets{{rows * cols}, std::vector<int64_t>(size_t(rows * cols))};
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      offsets.data[size_t(i * cols + j)] = i * (cols + 6) + j;
  const ntc::cpu::Tile<float> u = ntc::cpu::rand(seed, offsets);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      const bool keep = u.data[size_t(i * cols + j)] > p;
      REQUIRE(output.get({i, j}) == Approx(keep ? input.get({i, j}) / (1 - p) : 0.0).epsilon(1e-6));
    }
}

// ntl::rand in a kernel: dropout keeps about 1 - p of the elements, scales the kept ones by
// 1 / (1 - p), decides each element by Philox on (seed, the element's source offset) exactly
// as ntc::cpu::rand does, and gives the same result on every run.
#include "Common.hpp"

#include <dropout.h>
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

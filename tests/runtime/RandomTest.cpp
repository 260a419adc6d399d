// Philox known-answer vectors and Triton-compatible rand / randint / randn.
#include <ntc/cpu/random.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

using namespace ntc::cpu;

TEST_CASE("Philox-4x32-10 matches Random123's known-answer vectors", "[random]") {
  using C = std::array<uint32_t, 4>;
  using K = std::array<uint32_t, 2>;
  CHECK(philox4x32_10(C{0, 0, 0, 0}, K{0, 0}) == C{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8});
  CHECK(
      philox4x32_10(C{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, K{0xffffffff, 0xffffffff}) ==
      C{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd});
  CHECK(
      philox4x32_10(C{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, K{0xa4093822, 0x299f31d0}) ==
      C{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1});
}

TEST_CASE("Philox-4x64-10 matches Random123's known-answer vectors", "[random]") {
  using C = std::array<uint64_t, 4>;
  using K = std::array<uint64_t, 2>;
  const uint64_t ones = ~uint64_t(0);
  CHECK(philox4x64_10(C{0, 0, 0, 0}, K{0, 0}) ==
        C{0x16554d9eca36314c, 0xdb20fe9d672d0fdc, 0xd7e772cee186176b, 0x7e68b68aec7ba23b});
  CHECK(philox4x64_10(C{ones, ones, ones, ones}, K{ones, ones}) ==
        C{0x87b092c3013fe90b, 0x438c3c67be8d0224, 0x9cc7d7c69cd777b6, 0xa09caebf594f0ba0});
  CHECK(philox4x64_10(
            C{0x243f6a8885a308d3, 0x13198a2e03707344, 0xa4093822299f31d0, 0x082efa98ec4e6c89},
            K{0x452821e638d01377, 0xbe5466cf34e90c6c}) ==
        C{0xa528f45403e61d95, 0x38c72dbd566e9788, 0xa5a1610e72fd18b5, 0x57bd43b5e52b7fe6});
}

TEST_CASE("rand: Triton's construction, deterministic, uniform in 0..1", "[random]") {
  const int64_t seed = 0x123456789;
  auto offsets = arange(0, 1 << 16);
  auto u = rand(seed, offsets);
  STATIC_REQUIRE(std::is_same_v<decltype(u), Tile<float>>);
  REQUIRE(u.shape == offsets.shape);
  // Element i is uint_to_uniform_float of the first Philox word for counter (i, 0, 0, 0) and
  // key (seed low, seed high).
  for (int i : {0, 1, 2, 1000, 65535}) {
    const auto words = philox4x32_10({uint32_t(i), 0, 0, 0}, {0x23456789u, 0x1u});
    CHECK(u.data[i] == uint_to_uniform_float(words[0]));
  }
  CHECK(rand(seed, offsets).data == u.data);     // deterministic
  CHECK(rand(seed + 1, offsets).data != u.data); // seed matters
  // Rough uniformity: mean, variance, and a 16-bin histogram.
  double mean = 0, var = 0;
  std::vector<int> bins(16, 0);
  for (float x : u.data) {
    REQUIRE(x >= 0.0f);
    REQUIRE(x < 1.0f);
    mean += x;
    bins[int(x * 16)]++;
  }
  mean /= double(u.numel());
  for (float x : u.data)
    var += (x - mean) * (x - mean);
  var /= double(u.numel());
  CHECK(mean == Approx(0.5).margin(0.01));
  CHECK(var == Approx(1.0 / 12).margin(0.005));
  for (int b : bins)
    CHECK(b == Approx(4096).epsilon(0.08));
}

TEST_CASE("uint_to_uniform_float maps the extremes below 1", "[random]") {
  CHECK(uint_to_uniform_float(uint32_t(0)) == 0.0f);
  CHECK(uint_to_uniform_float(uint32_t(0xffffffff)) == 0.0f); // int32 −1 → 0
  CHECK(uint_to_uniform_float(uint32_t(0x7fffffff)) < 1.0f);
  CHECK(uint_to_uniform_float(uint32_t(0x80000000)) < 1.0f);
  CHECK(uint_to_uniform_float(uint32_t(0x80000000)) == uint_to_uniform_float(uint32_t(0x7fffffff)));
  CHECK(uint_to_uniform_float(~uint64_t(0) >> 1) < 1.0f);
  CHECK(uint_to_uniform_float(uint64_t(1) << 63) < 1.0f);
}

TEST_CASE("rand with 64-bit offsets uses Philox-4x64 keyed by (seed, 0)", "[random]") {
  auto offsets = Tile<int64_t>{{3}, {0, 1, int64_t(1) << 40}};
  auto u = rand(int64_t(42), offsets);
  for (int i = 0; i < 3; ++i) {
    const auto words = philox4x64_10({uint64_t(offsets.data[i]), 0, 0, 0}, {42, 0});
    CHECK(u.data[i] == uint_to_uniform_float(words[0]));
    CHECK(u.data[i] >= 0.0f);
    CHECK(u.data[i] < 1.0f);
  }
  auto r = randint(int64_t(42), offsets);
  STATIC_REQUIRE(std::is_same_v<decltype(r), Tile<int64_t>>);
  CHECK(uint64_t(r.data[1]) == philox4x64_10({1, 0, 0, 0}, {42, 0})[0]);
}

TEST_CASE("randint and randn", "[random]") {
  auto offsets = arange(0, 4096);
  auto r = randint(int32_t(-1), offsets); // a negative seed is sign-extended to 64 bits
  STATIC_REQUIRE(std::is_same_v<decltype(r), Tile<int32_t>>);
  CHECK(uint32_t(r.data[5]) == philox4x32_10({5, 0, 0, 0}, {0xffffffffu, 0xffffffffu})[0]);
  auto n = randn(7, offsets);
  double mean = 0, var = 0;
  for (float x : n.data) {
    REQUIRE(std::isfinite(x));
    mean += x;
  }
  mean /= double(n.numel());
  for (float x : n.data)
    var += (x - mean) * (x - mean);
  var /= double(n.numel());
  CHECK(mean == Approx(0.0).margin(0.05));
  CHECK(var == Approx(1.0).margin(0.08));
}

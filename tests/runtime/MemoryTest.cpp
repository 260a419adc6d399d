// Masked loads and stores, and a tiled 512³ float16 matmul built from them (the shape of the
// code the cpu backend generates).
#include <ntc/cpu/cpu.hpp>
#include <ntc/rt/validate.hpp>

#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

using namespace ntc::cpu;

TEST_CASE("load: strided gather with masks and other", "[memory]") {
  // A 3×5 row-major matrix; load the 2×4 tile at rows 1.., columns 3.. (tails masked).
  std::vector<float> m(15);
  for (int i = 0; i < 15; ++i)
    m[i] = float(i);
  const int64_t rows = 3, cols = 5, r0 = 1, c0 = 3;
  auto t = load(m.data(), {2, 4}, -1.0f, [&](const int64_t *idx) -> int64_t {
    const int64_t r = r0 + idx[0], c = c0 + idx[1];
    return (r < rows && c < cols) ? r * cols + c : masked;
  });
  CHECK(t.shape == Shape{2, 4});
  CHECK(t.data == std::vector<float>{8, 9, -1, -1, 13, 14, -1, -1});

  // Transposed view (stride 5 along the tile's fastest dimension), no mask.
  auto tt = load(m.data(), {5, 3}, 0.0f,
                 [](const int64_t *idx) -> int64_t { return idx[1] * 5 + idx[0]; });
  CHECK(tt.data == std::vector<float>{0, 5, 10, 1, 6, 11, 2, 7, 12, 3, 8, 13, 4, 9, 14});

  // other is converted to the element type; a rank-0 load reads one element.
  std::vector<float16> h(4, float16(2.0f));
  auto ht = load(h.data(), {3}, -INFINITY,
                 [](const int64_t *idx) -> int64_t { return idx[0] < 2 ? idx[0] : masked; });
  CHECK(ht.data[0].bits == float16(2.0f).bits);
  CHECK(ht.data[2].bits == 0xfc00);
  auto s = load(m.data(), {}, 0.0f, [](const int64_t *) -> int64_t { return 7; });
  CHECK(s.rank() == 0);
  CHECK(s.item() == 7.0f);
  // Broadcast loads (stride 0) read the same element repeatedly.
  auto b = load(m.data(), {2, 3}, 0.0f, [](const int64_t *idx) -> int64_t { return idx[1]; });
  CHECK(b.data == std::vector<float>{0, 1, 2, 0, 1, 2});
}

TEST_CASE("store: masks skip elements and conversion rounds", "[memory]") {
  std::vector<float> out(6, -7.0f);
  auto v = Tile<float>{{2, 2}, {1, 2, 3, 4}};
  // Columns 1.. of a 2×3 matrix: the tile's second column falls off the end.
  store(out.data(), v, [](const int64_t *idx) -> int64_t {
    const int64_t c = 2 + idx[1];
    return c < 3 ? idx[0] * 3 + c : masked;
  });
  CHECK(out == std::vector<float>{-7, -7, 1, -7, -7, 3});

  std::vector<float16> h(4);
  auto f = Tile<float>{{4}, {0.1f, 1.0f + std::ldexp(1.0f, -11), 70000.0f, -1e-10f}};
  store(h.data(), f, [](const int64_t *idx) -> int64_t { return idx[0]; });
  CHECK(h[0].bits == 0x2e66);
  CHECK(h[1].bits == 0x3c00); // tie rounds to even
  CHECK(h[2].bits == 0x7c00); // overflow → inf
  CHECK(h[3].bits == 0x8000); // underflow → −0

  std::vector<int32_t> ints(3);
  store(ints.data(), Tile<float>{{3}, {2.7f, -2.7f, 1e12f}},
        [](const int64_t *idx) -> int64_t { return idx[0]; });
  CHECK(ints == std::vector<int32_t>{2, -2, 2147483647});

  std::vector<uint8_t> flags(2, 9);
  store(flags.data(), Tile<bool>{{2}, {true, false}},
        [](const int64_t *idx) -> int64_t { return idx[0]; });
  CHECK(flags == std::vector<uint8_t>{1, 0});
}

TEST_CASE("a 512^3 float16 matmul from 64x64x64 tiles", "[memory][dot][perf]") {
  const int64_t M = 512, N = 512, K = 512, B = 64;
  std::mt19937 gen(7);
  std::normal_distribution<float> dist;
  std::vector<float16> lhs(M * K), rhs(K * N), out(M * N);
  for (auto &x : lhs)
    x = float16(dist(gen));
  for (auto &x : rhs)
    x = float16(dist(gen));

  const auto start = std::chrono::steady_clock::now();
  const int64_t grid_m = M / B, grid_n = N / B;
  ntc::rt::parallel_for(grid_m * grid_n, [&](int64_t program) {
    const int64_t pm = program / grid_n, pn = program % grid_n;
    auto acc = zeros<float>({B, B});
    for (int64_t k = 0; k < K / B; ++k) {
      auto a = load(lhs.data(), {B, B}, 0.0f, [&](const int64_t *i) -> int64_t {
        return (pm * B + i[0]) * K + k * B + i[1];
      });
      auto b = load(rhs.data(), {B, B}, 0.0f, [&](const int64_t *i) -> int64_t {
        return (k * B + i[0]) * N + pn * B + i[1];
      });
      acc += dot(a, b);
    }
    store(out.data(), acc,
          [&](const int64_t *i) -> int64_t { return (pm * B + i[0]) * N + pn * B + i[1]; });
  });
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  INFO("512^3 float16 matmul took " << seconds << " s");
  CHECK(seconds < 30.0); // generous: a few seconds on 2 cores at -O2 is the target

  // Spot-check rows against a double reference (float16 output: relative error ≲ 2^-11).
  int checked = 0;
  for (int64_t i = 0; i < M; i += 37)
    for (int64_t j = 0; j < N; j += 41) {
      double ref = 0;
      for (int64_t k = 0; k < K; ++k)
        ref += double(float(lhs[i * K + k])) * double(float(rhs[k * N + j]));
      CHECK(float(out[i * N + j]) == Approx(ref).epsilon(2e-3).margin(2e-2));
      ++checked;
    }
  CHECK(checked > 100);
}

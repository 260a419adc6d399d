// The CPU tile library: creation, broadcasting, elementwise operations, math, shape operations,
// reductions and dot.
#include <ntc/cpu/tile.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <stdexcept>
#include <type_traits>
#include <vector>

using namespace ntc::cpu;

namespace {

template <class T> std::vector<T> values(const Tile<T> &t) { return t.data; }

template <class T> Tile<T> tile(Shape shape, std::vector<T> data) {
  return Tile<T>{std::move(shape), std::move(data)};
}

Tile<float> random_tile(Shape shape, std::mt19937 &gen, float lo = -1.0f, float hi = 1.0f) {
  std::uniform_real_distribution<float> dist(lo, hi);
  Tile<float> t = zeros<float>(std::move(shape));
  for (auto &v : t.data)
    v = dist(gen);
  return t;
}

const float nan_f = std::numeric_limits<float>::quiet_NaN();

} // namespace

TEST_CASE("creation: full, zeros, arange, scalar", "[tile]") {
  auto f = full<float>({2, 3}, 1.5);
  CHECK(f.shape == Shape{2, 3});
  CHECK(f.data == std::vector<float>(6, 1.5f));
  CHECK(f.rank() == 2);
  CHECK(f.numel() == 6);
  CHECK(f.size(-1) == 3);
  auto z = zeros<float16>({4});
  CHECK(z.numel() == 4);
  CHECK(z.data[3].bits == 0);
  auto h = full<float16>({1}, 0.1f);
  CHECK(h.data[0].bits == 0x2e66);
  auto a = arange(3, 7);
  STATIC_REQUIRE(std::is_same_v<decltype(a), Tile<int32_t>>);
  CHECK(a.shape == Shape{4});
  CHECK(a.data == std::vector<int32_t>{3, 4, 5, 6});
  CHECK(arange<int64_t>(0, 0).numel() == 0);
  CHECK_THROWS_AS(arange(5, 2), std::logic_error);
  auto s = scalar(2.5f);
  CHECK(s.rank() == 0);
  CHECK(s.item() == 2.5f);
  CHECK_THROWS_AS(f.item(), std::logic_error);
}

TEST_CASE("broadcasting", "[tile][broadcast]") {
  auto col = tile<float>({2, 1}, {10, 20});
  auto row = tile<float>({3}, {1, 2, 3});
  auto sum = col + row;
  CHECK(sum.shape == Shape{2, 3});
  CHECK(sum.data == std::vector<float>{11, 12, 13, 21, 22, 23});

  auto cube = tile<int32_t>({2, 2, 3}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  auto mid = tile<int32_t>({2, 1}, {100, 200});
  auto r = cube + mid;
  CHECK(r.shape == Shape{2, 2, 3});
  CHECK(r.data == std::vector<int32_t>{100, 101, 102, 203, 204, 205, 106, 107, 108, 209, 210, 211});

  auto with_scalar = row * 2.0f;
  CHECK(with_scalar.data == std::vector<float>{2, 4, 6});
  auto scalar_first = 10.0f - row;
  CHECK(scalar_first.data == std::vector<float>{9, 8, 7});
  auto rank0 = scalar(1.0f) + row;
  CHECK(rank0.shape == Shape{3});
  auto ones = tile<float>({1, 1}, {5});
  CHECK((ones + row).shape == Shape{1, 3});

  CHECK(broadcast_shapes({}, {}) == Shape{});
  CHECK(broadcast_shapes({4, 1, 3}, {5, 1}) == Shape{4, 5, 3});
  CHECK_THROWS_WITH(tile<float>({2, 3}, std::vector<float>(6)) + tile<float>({2}, {1, 2}),
                    "ntc::cpu: cannot broadcast shapes [2, 3] and [2]");
  CHECK_THROWS_AS(broadcast_shapes({3}, {4}), std::logic_error);
}

TEST_CASE("result types of tile operations", "[tile][types]") {
  Tile<float16> h = full<float16>({2}, 1);
  Tile<float> f = full<float>({2}, 1);
  Tile<int32_t> i = full<int32_t>({2}, 1);
  Tile<int8_t> i8 = full<int8_t>({2}, 1);
  STATIC_REQUIRE(std::is_same_v<decltype(h + f), Tile<float>>);
  STATIC_REQUIRE(std::is_same_v<decltype(h * 2.0), Tile<float16>>);
  STATIC_REQUIRE(std::is_same_v<decltype(h + h), Tile<float16>>);
  STATIC_REQUIRE(std::is_same_v<decltype(i + 0.5f), Tile<float>>);
  STATIC_REQUIRE(std::is_same_v<decltype(i + h), Tile<float16>>);
  STATIC_REQUIRE(std::is_same_v<decltype(i8 + 1), Tile<int8_t>>);
  STATIC_REQUIRE(std::is_same_v<decltype(i8 + i), Tile<int32_t>>);
  STATIC_REQUIRE(std::is_same_v<decltype(h < f), Tile<bool>>);
  auto halve = [](int32_t x) { return x * 0.5; };
  auto greater = [](int32_t a, float b) { return a > b; };
  auto halves = map(i, halve);
  auto greaters = zip(i, f, greater);
  STATIC_REQUIRE(std::is_same_v<decltype(halves), Tile<double>>);
  STATIC_REQUIRE(std::is_same_v<decltype(greaters), Tile<bool>>);
  CHECK(halves.data == std::vector<double>{0.5, 0.5});
  CHECK(greaters.data == std::vector<bool>{false, false});
  STATIC_REQUIRE(std::is_same_v<decltype(where(i > 0, h, 0.0f)), Tile<float16>>);
  STATIC_REQUIRE(std::is_same_v<decltype(f.to<float16>()), Tile<float16>>);
  CHECK((h + h).data[0].bits == 0x4000);
}

TEST_CASE("elementwise arithmetic semantics", "[tile]") {
  auto a = tile<int32_t>({4}, {7, -7, 7, std::numeric_limits<int32_t>::max()});
  auto b = tile<int32_t>({4}, {2, 2, 0, 1});
  CHECK((a / b).data == std::vector<int32_t>{3, -3, 0, std::numeric_limits<int32_t>::max()});
  CHECK((a % b).data == std::vector<int32_t>{1, -1, 0, 0});
  CHECK((a + b).data[3] == std::numeric_limits<int32_t>::min()); // wraps
  auto m = tile<int32_t>({1}, {std::numeric_limits<int32_t>::min()});
  CHECK((m / -1).data[0] == std::numeric_limits<int32_t>::min());
  CHECK((m % -1).data[0] == 0);
  CHECK((-m).data[0] == std::numeric_limits<int32_t>::min());
  auto i8 = tile<int8_t>({2}, {100, -100});
  CHECK((i8 + i8).data == std::vector<int8_t>{-56, 56});
  CHECK((i8 * int8_t(3)).data == std::vector<int8_t>{44, -44});

  auto x = tile<float>({3}, {5.5f, -5.5f, 1.0f});
  CHECK((x % 2.0f).data == std::vector<float>{1.5f, -1.5f, 1.0f});
  CHECK((x / 0.0f).data[0] == std::numeric_limits<float>::infinity());
  CHECK((-x).data == std::vector<float>{-5.5f, 5.5f, -1.0f});

  auto h = tile<float16>({1}, {float16(1.0f)});
  auto tiny = tile<float16>({1}, {float16(std::ldexp(1.0f, -11))});
  CHECK((h + tiny).data[0].bits == 0x3c00); // float16 result rounds to nearest even
  CHECK((h + tiny.to<float>()).data[0] == 1.0f + std::ldexp(1.0f, -11));

  auto p = tile<bool>({4}, {true, true, false, false});
  auto q = tile<bool>({4}, {true, false, true, false});
  CHECK((p & q).data == std::vector<bool>{true, false, false, false});
  CHECK((p | q).data == std::vector<bool>{true, true, true, false});
  CHECK((p ^ q).data == std::vector<bool>{false, true, true, false});
  CHECK((!p).data == std::vector<bool>{false, false, true, true});
  CHECK((~tile<int32_t>({1}, {0})).data[0] == -1);
  CHECK((tile<uint8_t>({1}, {0xf0}) & uint8_t(0x3c)).data[0] == 0x30);

  auto c = tile<float>({3}, {1, 2, 3});
  CHECK((c == 2.0f).data == std::vector<bool>{false, true, false});
  CHECK((c != 2.0f).data == std::vector<bool>{true, false, true});
  CHECK((c < 2.0f).data == std::vector<bool>{true, false, false});
  CHECK((c <= 2.0f).data == std::vector<bool>{true, true, false});
  CHECK((c > 2.0f).data == std::vector<bool>{false, false, true});
  CHECK((2.0f >= c).data == std::vector<bool>{true, true, false});
  CHECK((tile<float>({1}, {nan_f}) == tile<float>({1}, {nan_f})).data[0] == false);
  // Mixed signedness compares in the promoted (unsigned) type, as Triton does.
  CHECK((tile<int32_t>({1}, {-1}) < tile<uint32_t>({1}, {1})).data[0] == false);
}

TEST_CASE("compound assignment keeps type and shape", "[tile]") {
  auto acc = zeros<float>({2, 2});
  acc += tile<float>({2}, {1, 2});
  CHECK(acc.data == std::vector<float>{1, 2, 1, 2});
  acc *= 2;
  CHECK(acc.data == std::vector<float>{2, 4, 2, 4});
  acc -= acc;
  CHECK(acc.data == std::vector<float>(4, 0.0f));
  auto h = full<float16>({2}, 1.0f);
  h += tile<float>({2}, {0.5f, std::ldexp(1.0f, -12)});
  CHECK(h.data[0].bits == float16(1.5f).bits);
  CHECK(h.data[1].bits == 0x3c00);
  auto i = full<int32_t>({2}, 7);
  i /= 2;
  i %= 2;
  CHECK(i.data == std::vector<int32_t>{1, 1});
  i |= 4;
  i &= 5;
  i ^= 1;
  CHECK(i.data == std::vector<int32_t>{4, 4});
  auto small = zeros<float>({2});
  CHECK_THROWS_AS(small += zeros<float>({3, 2}), std::logic_error);
}

TEST_CASE("where broadcasts condition and values", "[tile]") {
  auto cond = tile<bool>({2, 1}, {true, false});
  auto a = tile<float>({3}, {1, 2, 3});
  auto r = where(cond, a, -1.0f);
  CHECK(r.shape == Shape{2, 3});
  CHECK(r.data == std::vector<float>{1, 2, 3, -1, -1, -1});
  auto ints = tile<int32_t>({3}, {0, 5, 0});
  CHECK(where(ints, 1.0f, a).data == std::vector<float>{1, 1, 3}); // nonzero = true
}

TEST_CASE("shape operations", "[tile][shape]") {
  auto t = tile<int32_t>({2, 3}, {0, 1, 2, 3, 4, 5});
  auto tt = trans(t);
  CHECK(tt.shape == Shape{3, 2});
  CHECK(tt.data == std::vector<int32_t>{0, 3, 1, 4, 2, 5});
  CHECK_THROWS_AS(trans(arange(0, 3)), std::logic_error);

  auto cube = reshape(arange(0, 24), {2, 3, 4});
  auto p = permute(cube, {2, 0, 1});
  CHECK(p.shape == Shape{4, 2, 3});
  CHECK(p.data[0] == 0);
  CHECK(p.data[1] == 4);   // [0,0,1] = cube[0,1,0]
  CHECK(p.data[6] == 1);   // [1,0,0] = cube[0,0,1]
  CHECK(p.data[23] == 23); // [3,1,2] = cube[1,2,3]
  CHECK_THROWS_AS(permute(cube, {0, 0, 1}), std::logic_error);

  CHECK(expand_dims(t, 0).shape == Shape{1, 2, 3});
  CHECK(expand_dims(t, 2).shape == Shape{2, 3, 1});
  CHECK(expand_dims(t, -1).shape == Shape{2, 3, 1});
  CHECK(expand_dims(t, -3).shape == Shape{1, 2, 3});
  CHECK(expand_dims(scalar(1), 0).shape == Shape{1});
  CHECK_THROWS_AS(expand_dims(t, 3), std::logic_error);

  auto b = broadcast_to(tile<int32_t>({3}, {1, 2, 3}), {2, 3});
  CHECK(b.shape == Shape{2, 3});
  CHECK(b.data == std::vector<int32_t>{1, 2, 3, 1, 2, 3});
  CHECK(broadcast_to(scalar(7), {2}).data == std::vector<int32_t>{7, 7});
  CHECK_THROWS_AS(broadcast_to(t, {3}), std::logic_error);
  CHECK_THROWS_AS(broadcast_to(tile<int32_t>({2}, {1, 2}), {2, 3}), std::logic_error);

  CHECK(reshape(t, {3, -1}).shape == Shape{3, 2});
  CHECK_THROWS_AS(reshape(t, {4}), std::logic_error);
}

TEST_CASE("cast rounds and saturates like the GPU", "[tile][cast]") {
  auto f = tile<float>({4}, {0.1f, 65520.0f, -3.7f, nan_f});
  auto h = cast<float16>(f);
  CHECK(h.data[0].bits == 0x2e66);
  CHECK(h.data[1].bits == 0x7c00);
  auto i = cast<int32_t>(f);
  CHECK(i.data == std::vector<int32_t>{0, 65520, -3, 0});
  auto back = cast<float>(h);
  CHECK(back.data[0] == float(float16(0.1f)));
  auto bits = cast<bool>(tile<float>({3}, {0.0f, -0.0f, 2.0f}));
  CHECK(bits.data == std::vector<bool>{false, false, true});
}

TEST_CASE("math functions agree with <cmath>", "[tile][math]") {
  const std::vector<float> xs = {-3.5f, -1.0f, -0.25f, 0.0f, 0.3f, 1.0f, 2.0f, 7.75f};
  const std::vector<float> positive = {0.001f, 0.3f, 1.0f, 2.0f, 7.75f, 1000.0f};
  using F = std::function<double(double)>;
  struct Case {
    const char *name;
    Tile<float> (*tile_f)(const Tile<float> &);
    Tile<double> (*tile_d)(const Tile<double> &);
    Tile<float16> (*tile_h)(const Tile<float16> &);
    F reference;
    bool needs_positive;
  };
  const std::vector<Case> cases = {
      {"exp", exp<float>, exp<double>, exp<float16>, [](double x) { return std::exp(x); }, false},
      {"exp2", exp2<float>, exp2<double>, exp2<float16>, [](double x) { return std::exp2(x); },
       false},
      {"log", log<float>, log<double>, log<float16>, [](double x) { return std::log(x); }, true},
      {"log2", log2<float>, log2<double>, log2<float16>, [](double x) { return std::log2(x); },
       true},
      {"log1p", log1p<float>, log1p<double>, log1p<float16>, [](double x) { return std::log1p(x); },
       true},
      {"sqrt", sqrt<float>, sqrt<double>, sqrt<float16>, [](double x) { return std::sqrt(x); },
       true},
      {"rsqrt", rsqrt<float>, rsqrt<double>, rsqrt<float16>,
       [](double x) { return 1.0 / std::sqrt(x); }, true},
      {"abs", abs<float>, abs<double>, abs<float16>, [](double x) { return std::fabs(x); }, false},
      {"sin", sin<float>, sin<double>, sin<float16>, [](double x) { return std::sin(x); }, false},
      {"cos", cos<float>, cos<double>, cos<float16>, [](double x) { return std::cos(x); }, false},
      {"tanh", tanh<float>, tanh<double>, tanh<float16>, [](double x) { return std::tanh(x); },
       false},
      {"sigmoid", sigmoid<float>, sigmoid<double>, sigmoid<float16>,
       [](double x) { return 1.0 / (1.0 + std::exp(-x)); }, false},
      {"erf", erf<float>, erf<double>, erf<float16>, [](double x) { return std::erf(x); }, false},
      {"floor", floor<float>, floor<double>, floor<float16>, [](double x) { return std::floor(x); },
       false},
      {"ceil", ceil<float>, ceil<double>, ceil<float16>, [](double x) { return std::ceil(x); },
       false},
  };
  for (const auto &c : cases) {
    INFO(c.name);
    const auto &in = c.needs_positive ? positive : xs;
    Tile<float> tf = tile<float>({int64_t(in.size())}, in);
    Tile<double> td = cast<double>(tf);
    Tile<float16> th = cast<float16>(tf);
    const auto rf = c.tile_f(tf);
    const auto rd = c.tile_d(td);
    const auto rh = c.tile_h(th);
    REQUIRE(rf.shape == tf.shape);
    for (std::size_t i = 0; i < in.size(); ++i) {
      INFO("x = " << in[i]);
      const double ref_d = c.reference(double(in[i]));
      CHECK(rd.data[i] == Approx(ref_d).epsilon(1e-15).margin(1e-300));
      CHECK(rf.data[i] == Approx(ref_d).epsilon(4e-7).margin(1e-30));
      // float16: computed in float from the float16 input, rounded once.
      const double ref_h = c.reference(double(float(th.data[i])));
      CHECK(float(rh.data[i]) == Approx(ref_h).epsilon(1e-3).margin(1e-7));
    }
  }
  // Scalar overloads.
  CHECK(exp(1.0) == std::exp(1.0));
  CHECK(sqrt(float16(4.0f)).bits == float16(2.0f).bits);
  CHECK(ntc::cpu::abs(int32_t(-3)) == 3);
  CHECK(ntc::cpu::abs(std::numeric_limits<int32_t>::min()) == std::numeric_limits<int32_t>::min());
  CHECK(abs(arange(-2, 1)).data == std::vector<int32_t>{2, 1, 0});
  CHECK(floor(arange(0, 2)).data == std::vector<int32_t>{0, 1});
}

TEST_CASE("pow, maximum, minimum, clamp", "[tile][math]") {
  auto base = tile<float>({3}, {2.0f, 9.0f, 0.5f});
  CHECK(pow(base, 2.0f).data == std::vector<float>{4.0f, 81.0f, 0.25f});
  CHECK(pow(base, tile<float>({3}, {0.5f, 0.5f, -1.0f})).data ==
        std::vector<float>{std::pow(2.0f, 0.5f), 3.0f, 2.0f});
  CHECK(pow(2.0f, base).data[1] == std::pow(2.0f, 9.0f));
  CHECK(pow(tile<int32_t>({2}, {3, 2}), 3).data == std::vector<int32_t>{27, 8});

  auto a = tile<float>({4}, {1.0f, 5.0f, nan_f, -2.0f});
  auto b = tile<float>({4}, {3.0f, 4.0f, 0.0f, nan_f});
  auto mx = maximum(a, b), mn = minimum(a, b);
  CHECK(mx.data[0] == 3.0f);
  CHECK(mx.data[1] == 5.0f);
  CHECK(std::isnan(mx.data[2]));
  CHECK(std::isnan(mx.data[3]));
  CHECK(mn.data[0] == 1.0f);
  CHECK(mn.data[1] == 4.0f);
  CHECK(std::isnan(mn.data[2]));
  CHECK(std::isnan(mn.data[3]));
  CHECK(maximum(arange(0, 4), 2).data == std::vector<int32_t>{2, 2, 2, 3});
  CHECK(minimum(arange(0, 4), 2).data == std::vector<int32_t>{0, 1, 2, 2});

  auto c = clamp(tile<float>({5}, {-3.0f, -1.0f, 0.5f, 1.0f, 3.0f}), -1.0f, 1.0f);
  CHECK(c.data == std::vector<float>{-1.0f, -1.0f, 0.5f, 1.0f, 1.0f});
  CHECK(std::isnan(clamp(tile<float>({1}, {nan_f}), 0.0f, 1.0f).data[0]));
  auto ch = clamp(full<float16>({1}, 70.0f), 0.0f, 65.0f);
  STATIC_REQUIRE(std::is_same_v<decltype(ch), Tile<float16>>);
  CHECK(float(ch.data[0]) == 65.0f);
}

TEST_CASE("reductions over all elements and over an axis", "[tile][reduce]") {
  // [[1, 5, 3], [7, 2, 7]]
  auto t = tile<float>({2, 3}, {1, 5, 3, 7, 2, 7});
  CHECK(sum(t).shape == Shape{});
  CHECK(sum(t).item() == 25.0f);
  CHECK(sum(t, 0).data == std::vector<float>{8, 7, 10});
  CHECK(sum(t, 1).data == std::vector<float>{9, 16});
  CHECK(sum(t, -1).data == std::vector<float>{9, 16});
  CHECK(max(t).item() == 7.0f);
  CHECK(max(t, 0).data == std::vector<float>{7, 5, 7});
  CHECK(max(t, 1).data == std::vector<float>{5, 7});
  CHECK(min(t).item() == 1.0f);
  CHECK(min(t, 0).data == std::vector<float>{1, 2, 3});
  CHECK(min(t, -1).data == std::vector<float>{1, 2});
  CHECK_THROWS_AS(sum(t, 2), std::logic_error);
  CHECK_THROWS_AS(sum(t, -3), std::logic_error);

  // argmax: first index of the maximum.
  CHECK(argmax(t).item() == 3);                           // 7 at flat 3 (and 5)
  CHECK(argmax(t, 1).data == std::vector<int32_t>{1, 0}); // row 1: 7 at 0 and 2 → 0
  CHECK(argmax(t, 0).data == std::vector<int32_t>{1, 0, 1});
  CHECK(argmin(t, 0).data == std::vector<int32_t>{0, 1, 0});
  STATIC_REQUIRE(std::is_same_v<decltype(argmax(t)), Tile<int32_t>>);
  auto ties = tile<int32_t>({5}, {4, 9, 9, 1, 9});
  CHECK(argmax(ties).item() == 1);
  CHECK(argmin(tile<int32_t>({4}, {3, 0, 0, 5})).item() == 1);

  // 3-D, middle axis.
  auto cube = reshape(arange(0, 24), {2, 3, 4});
  auto s = sum(cube, 1);
  CHECK(s.shape == Shape{2, 4});
  CHECK(s.data == std::vector<int32_t>{12, 15, 18, 21, 48, 51, 54, 57});
  CHECK(argmax(cube, 1).data == std::vector<int32_t>(8, 2));

  // Zeros of both signs: max takes +0 and min −0 whatever their order (the GPU combines in
  // any order and must agree); argmax/argmin still take the first of equal values.
  for (const auto &zeros :
       {std::vector<float>{-0.0f, 0.0f, -1.0f}, std::vector<float>{0.0f, -0.0f, -1.0f}}) {
    auto z = tile<float>({3}, zeros);
    CHECK_FALSE(std::signbit(max(z).item()));
    CHECK(max(z).item() == 0.0f);
    auto w = tile<float>({3}, {zeros[0], zeros[1], 1.0f});
    CHECK(std::signbit(min(w).item()));
    CHECK(argmax(z).item() == 0);
  }
  // NaN: max/min propagate; argmax/argmin pick the first NaN.
  auto n = tile<float>({4}, {1.0f, nan_f, 9.0f, nan_f});
  CHECK(std::isnan(max(n).item()));
  CHECK(std::isnan(min(n).item()));
  CHECK(argmax(n).item() == 1);
  CHECK(argmin(n).item() == 1);

  // Types: narrow integers sum in 32 bits; float16 sums in double and rounds once.
  auto i8 = full<int8_t>({100}, 100);
  STATIC_REQUIRE(std::is_same_v<decltype(sum(i8)), Tile<int32_t>>);
  CHECK(sum(i8).item() == 10000);
  STATIC_REQUIRE(std::is_same_v<decltype(sum(full<uint16_t>({1}, 1))), Tile<uint32_t>>);
  auto b = tile<bool>({4}, {true, false, true, true});
  CHECK(sum(b).item() == 3);
  auto h = full<float16>({4096}, 1.0f);
  CHECK(float(sum(h).item()) == 4096.0f); // a float16 running sum would stall at 2048
  STATIC_REQUIRE(std::is_same_v<decltype(max(h)), Tile<float16>>);
  CHECK(sum(zeros<float>({0})).item() == 0.0f);
  CHECK_THROWS_AS(max(zeros<float>({0})), std::logic_error);
}

namespace {
template <class Acc, class TA, class TB>
std::vector<Acc> naive_dot(const Tile<TA> &a, const Tile<TB> &b) {
  const int64_t M = a.shape[0], K = a.shape[1], N = b.shape[1];
  std::vector<Acc> c(M * N);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      Acc acc = 0;
      for (int64_t k = 0; k < K; ++k)
        acc += Acc(widen(a.data[i * K + k])) * Acc(widen(b.data[k * N + j]));
      c[i * N + j] = acc;
    }
  return c;
}
} // namespace

TEST_CASE("dot agrees with a naive triple loop", "[tile][dot]") {
  std::mt19937 gen(1234);
  SECTION("float") {
    auto a = random_tile({37, 53}, gen), b = random_tile({53, 29}, gen);
    auto c = dot(a, b);
    STATIC_REQUIRE(std::is_same_v<decltype(c), Tile<float>>);
    REQUIRE(c.shape == Shape{37, 29});
    const auto ref = naive_dot<double>(a, b);
    for (std::size_t i = 0; i < ref.size(); ++i)
      CHECK(c.data[i] == Approx(ref[i]).margin(1e-5));
  }
  SECTION("float16 inputs accumulate in float") {
    auto a = cast<float16>(random_tile({64, 64}, gen)),
         b = cast<float16>(random_tile({64, 48}, gen));
    auto c = dot(a, b);
    STATIC_REQUIRE(std::is_same_v<decltype(c), Tile<float>>);
    const auto ref = naive_dot<float>(a, b);
    for (std::size_t i = 0; i < ref.size(); ++i)
      CHECK(c.data[i] == Approx(ref[i]).epsilon(1e-6).margin(1e-6));
    // Accumulating 4096 products of 1·1 in float is exact; in float16 it would stall at 2048.
    auto ones = full<float16>({1, 4096}, 1.0f), ones_t = full<float16>({4096, 1}, 1.0f);
    CHECK(dot(ones, ones_t).item() == 4096.0f);
  }
  SECTION("bfloat16 and fp8 inputs, explicit accumulator") {
    auto a = cast<bfloat16>(random_tile({16, 32}, gen)),
         b = cast<bfloat16>(random_tile({32, 16}, gen));
    auto c = dot<double>(a, b);
    STATIC_REQUIRE(std::is_same_v<decltype(c), Tile<double>>);
    const auto ref = naive_dot<double>(a, b);
    for (std::size_t i = 0; i < ref.size(); ++i)
      CHECK(c.data[i] == Approx(ref[i]).margin(1e-12));
    auto e = cast<float8_e5m2>(random_tile({16, 32}, gen));
    auto f = dot(e, cast<float8_e5m2>(random_tile({32, 8}, gen)));
    STATIC_REQUIRE(std::is_same_v<decltype(f), Tile<float>>);
    CHECK(f.shape == Shape{16, 8});
  }
  SECTION("int8 accumulates in int32") {
    auto a = full<int8_t>({2, 300}, 100), b = full<int8_t>({300, 2}, 100);
    auto c = dot(a, b);
    STATIC_REQUIRE(std::is_same_v<decltype(c), Tile<int32_t>>);
    CHECK(c.data == std::vector<int32_t>(4, 3000000));
  }
  SECTION("with an accumulator, batched, shape errors") {
    auto a = random_tile({8, 16}, gen), b = random_tile({16, 4}, gen);
    auto acc = full<float>({8, 4}, 1.0f);
    auto c = dot(a, b, acc);
    auto plain = dot(a, b);
    for (std::size_t i = 0; i < c.data.size(); ++i)
      CHECK(c.data[i] == Approx(plain.data[i] + 1.0f).margin(1e-6));
    acc += dot(a, b);
    for (std::size_t i = 0; i < c.data.size(); ++i)
      CHECK(acc.data[i] == Approx(c.data[i]).margin(1e-6));

    auto ba = random_tile({3, 5, 7}, gen), bb = random_tile({3, 7, 2}, gen);
    auto bc = dot(ba, bb);
    REQUIRE(bc.shape == Shape{3, 5, 2});
    for (int64_t p = 0; p < 3; ++p) {
      auto ap = tile<float>(
          {5, 7}, std::vector<float>(ba.data.begin() + p * 35, ba.data.begin() + (p + 1) * 35));
      auto bp = tile<float>(
          {7, 2}, std::vector<float>(bb.data.begin() + p * 14, bb.data.begin() + (p + 1) * 14));
      auto cp = dot(ap, bp);
      for (int64_t i = 0; i < 10; ++i)
        CHECK(bc.data[p * 10 + i] == cp.data[i]);
    }
    CHECK_THROWS_WITH(dot(random_tile({2, 3}, gen), random_tile({4, 2}, gen)),
                      "ntc::cpu::dot: incompatible shapes [2, 3] and [4, 2]");
    CHECK_THROWS_AS(dot(a, b, zeros<float>({4, 8})), std::logic_error);
  }
}

TEST_CASE("to_string renders a tile", "[tile]") {
  CHECK(to_string(tile<int8_t>({2}, {1, -2})) == "Tile[2]{1, -2}");
  CHECK(to_string(scalar(float16(0.5f))) == "Tile[]{0.5}");
}

// Bit-exact conversions of the 16- and 8-bit floating storage types.
#include <ntc/cpu/half.hpp>
#include <ntc/cpu/types.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

using namespace ntc::cpu;

namespace {

uint32_t bits_of(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

/// Reference value of a binary16 pattern, from its fields.
double half_reference(uint16_t h) {
  const int sign = h >> 15, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  double magnitude;
  if (exponent == 0x1f)
    magnitude = mantissa ? std::numeric_limits<double>::quiet_NaN()
                         : std::numeric_limits<double>::infinity();
  else if (exponent == 0)
    magnitude = std::ldexp(double(mantissa), -24);
  else
    magnitude = std::ldexp(double(1024 + mantissa), exponent - 25);
  return sign ? -magnitude : magnitude;
}

/// For every pair of adjacent finite positive codes a < b: the midpoint rounds to the even
/// code, and anything just above (below) it rounds to b (a); the same for negatives.
template <class H, class Bits> void check_neighbour_rounding(unsigned count, Bits sign_bit) {
  unsigned checked = 0;
  for (unsigned c = 0; c + 1 < count; ++c) {
    const H lo = H::from_bits(Bits(c)), hi = H::from_bits(Bits(c + 1));
    const float a = float(lo), b = float(hi);
    if (!std::isfinite(a) || !std::isfinite(b) || !(a < b))
      continue;
    const double mid = (double(a) + double(b)) / 2;
    const Bits even = (c % 2 == 0) ? Bits(c) : Bits(c + 1);
    INFO("codes " << c << ", " << c + 1);
    CHECK(H(mid).bits == even);
    CHECK(H(float(mid)).bits == even); // the midpoint is exact in float
    CHECK(H(std::nextafter(float(mid), INFINITY)).bits == Bits(c + 1));
    CHECK(H(std::nextafter(float(mid), -INFINITY)).bits == Bits(c));
    CHECK(H(-mid).bits == Bits(even | sign_bit));
    CHECK(H(a).bits == Bits(c));
    ++checked;
  }
  CHECK(checked > count / 4);
}

} // namespace

TEST_CASE("storage types are 2/1-byte trivially copyable standard-layout types", "[half]") {
  STATIC_REQUIRE(sizeof(float16) == 2);
  STATIC_REQUIRE(sizeof(bfloat16) == 2);
  STATIC_REQUIRE(sizeof(float8_e4m3) == 1);
  STATIC_REQUIRE(sizeof(float8_e5m2) == 1);
  STATIC_REQUIRE(std::is_trivially_copyable_v<float16>);
  STATIC_REQUIRE(std::is_standard_layout_v<bfloat16>);
  STATIC_REQUIRE(!std::is_convertible_v<float, float16>); // construction is explicit
  STATIC_REQUIRE(std::is_convertible_v<float16, float>);
  STATIC_REQUIRE(std::is_same_v<decltype(float16() + float16()), float16>);
  STATIC_REQUIRE(std::is_same_v<decltype(float16() + 1.0f), float>);
  STATIC_REQUIRE(std::is_same_v<decltype(float16() + bfloat16()), float>);
  STATIC_REQUIRE(std::is_same_v<decltype(-bfloat16()), bfloat16>);
  CHECK(float16().bits == 0);
}

TEST_CASE("float16: all 65536 patterns widen exactly and round-trip", "[half]") {
  int nans = 0;
  for (uint32_t b = 0; b < 65536; ++b) {
    const float16 h = float16::from_bits(uint16_t(b));
    const float f = float(h);
    const double expected = half_reference(uint16_t(b));
    INFO("bits 0x" << std::hex << b);
    if (std::isnan(expected)) {
      ++nans;
      REQUIRE(std::isnan(f));
      CHECK(std::signbit(f) == bool(b & 0x8000));
      // NaNs come back quiet with the same sign and payload.
      CHECK(float16(f).bits == (b | 0x200));
    } else {
      REQUIRE(double(f) == expected);
      CHECK(std::signbit(f) == bool(b & 0x8000));
      CHECK(float16(f).bits == b);
      CHECK(float16(double(f)).bits == b);
    }
  }
  CHECK(nans == 2 * 1023);
}

TEST_CASE("bfloat16: all 65536 patterns widen exactly and round-trip", "[half]") {
  for (uint32_t b = 0; b < 65536; ++b) {
    const bfloat16 h = bfloat16::from_bits(uint16_t(b));
    const float f = float(h);
    INFO("bits 0x" << std::hex << b);
    const bool nan = (b & 0x7f80) == 0x7f80 && (b & 0x7f);
    if (nan) {
      REQUIRE(std::isnan(f));
      CHECK(bfloat16(f).bits == (b | 0x40));
    } else {
      REQUIRE(bits_of(f) == b << 16);
      CHECK(bfloat16(f).bits == b);
    }
  }
}

TEST_CASE("float16 rounding: ties to even between every pair of neighbours", "[half]") {
  check_neighbour_rounding<float16, uint16_t>(0x7c00, 0x8000);
}

TEST_CASE("bfloat16 rounding: ties to even between every pair of neighbours", "[half]") {
  check_neighbour_rounding<bfloat16, uint16_t>(0x7f80, 0x8000);
}

TEST_CASE("float16 rounding of chosen values", "[half]") {
  CHECK(float16(1.0f).bits == 0x3c00);
  CHECK(float16(-2.0f).bits == 0xc000);
  CHECK(float16(0.1f).bits == 0x2e66);
  CHECK(float16(65504.0f).bits == 0x7bff);
  CHECK(float16(65519.99f).bits == 0x7bff);
  CHECK(float16(65520.0f).bits == 0x7c00); // tie above the max rounds to "even" = inf
  CHECK(float16(1e6f).bits == 0x7c00);
  CHECK(float16(-1e6f).bits == 0xfc00);
  CHECK(float16(std::numeric_limits<float>::infinity()).bits == 0x7c00);
  CHECK(float16(std::numeric_limits<float>::max()).bits == 0x7c00);
  CHECK(float16(std::ldexp(1.0f, -24)).bits == 0x0001); // smallest subnormal
  CHECK(float16(std::ldexp(1.0f, -25)).bits == 0x0000); // tie → even (zero)
  CHECK(float16(std::nextafter(std::ldexp(1.0f, -25), 1.0f)).bits == 0x0001);
  CHECK(float16(std::ldexp(1.5f, -24)).bits == 0x0002);    // tie → even
  CHECK(float16(std::ldexp(2.5f, -24)).bits == 0x0002);    // tie → even
  CHECK(float16(std::ldexp(1023.5f, -24)).bits == 0x0400); // subnormal → min normal
  CHECK(float16(1e-10f).bits == 0x0000);
  CHECK(float16(-1e-10f).bits == 0x8000);
  CHECK(float16(std::numeric_limits<float>::denorm_min()).bits == 0x0000);
  CHECK(float16(-0.0f).bits == 0x8000);
  CHECK(float16(std::nanf("")).bits == 0x7e00);
  CHECK(float16(1.0f + std::ldexp(1.0f, -11)).bits == 0x3c00); // tie → even
  CHECK(float16(1.0f + std::ldexp(3.0f, -11)).bits == 0x3c02); // tie → even (up)
  // From double: a single rounding. Through float this would tie and round down to 0x3c00.
  CHECK(float16(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)).bits == 0x3c01);
  CHECK(float16(65504.0).bits == 0x7bff);
  CHECK(float16(1e300).bits == 0x7c00);
  CHECK(float16(1e-300).bits == 0x0000);
  CHECK(float16(3).bits == 0x4200); // from an integer
  CHECK(float16(true).bits == 0x3c00);
}

TEST_CASE("bfloat16 rounding of chosen values", "[half]") {
  CHECK(bfloat16(1.0f).bits == 0x3f80);
  CHECK(bfloat16(1.0f + std::ldexp(1.0f, -8)).bits == 0x3f80);              // tie → even
  CHECK(bfloat16(1.0f + std::ldexp(3.0f, -8)).bits == 0x3f82);              // tie → even (up)
  CHECK(bfloat16(std::numeric_limits<float>::max()).bits == 0x7f80);        // rounds up to inf
  CHECK(bfloat16(std::numeric_limits<float>::denorm_min()).bits == 0x0000); // below half the min
  CHECK(bfloat16(std::ldexp(3.0f, -149)).bits == 0x0000);
  CHECK(bfloat16(std::ldexp(1.0f, -133)).bits == 0x0001); // smallest bf16 subnormal
  CHECK(bfloat16(-std::numeric_limits<float>::infinity()).bits == 0xff80);
  CHECK(std::isnan(float(bfloat16(std::nanf("")))));
}

TEST_CASE("float16 and bfloat16 arithmetic computes in float and rounds", "[half]") {
  CHECK(float(float16(1.5f) + float16(2.25f)) == 3.75f);
  CHECK(float(float16(1.0f) - float16(0.25f)) == 0.75f);
  CHECK(float(float16(3.0f) * float16(0.5f)) == 1.5f);
  CHECK(float(float16(1.0f) / float16(3.0f)) == float(float16(1.0f / 3.0f)));
  CHECK((float16(1.0f) + float16(std::ldexp(1.0f, -11))).bits == 0x3c00); // ties to even
  CHECK((float16(60000.0f) + float16(60000.0f)).bits == 0x7c00);          // overflow → inf
  CHECK((-float16(2.0f)).bits == 0xc000);
  float16 h(1.0f);
  h += 0.5f;
  h *= 2;
  h -= float16(1.0f);
  h /= 4.0;
  CHECK(float(h) == 0.5f);
  CHECK(float16(1.0f) < float16(2.0f));
  CHECK(float(bfloat16(1.0f) + bfloat16(1.0f)) == 2.0f);
}

TEST_CASE("float8_e4m3: all 256 patterns, saturation, NaN", "[half][fp8]") {
  CHECK(float(float8_e4m3::from_bits(0x7e)) == 448.0f);
  CHECK(float(float8_e4m3::from_bits(0xfe)) == -448.0f);
  CHECK(std::isnan(float(float8_e4m3::from_bits(0x7f))));
  CHECK(std::isnan(float(float8_e4m3::from_bits(0xff))));
  CHECK(float(float8_e4m3::from_bits(0x78)) == 256.0f); // exponent 15 is a normal binade
  CHECK(float(float8_e4m3::from_bits(0x08)) == std::ldexp(1.0f, -6));
  CHECK(float(float8_e4m3::from_bits(0x01)) == std::ldexp(1.0f, -9));
  CHECK(float(float8_e4m3::from_bits(0x38)) == 1.0f);
  int nans = 0;
  for (unsigned b = 0; b < 256; ++b) {
    const float f = float(float8_e4m3::from_bits(uint8_t(b)));
    INFO("bits " << b);
    if (std::isnan(f)) {
      ++nans;
      CHECK(float8_e4m3(f).bits == b);
    } else {
      CHECK(float8_e4m3(f).bits == b);
      CHECK(std::signbit(f) == bool(b & 0x80));
    }
  }
  CHECK(nans == 2);
  CHECK(float8_e4m3(464.0f).bits == 0x7e); // tie: 448 (even) vs. (no) 480
  CHECK(float8_e4m3(500.0f).bits == 0x7e); // saturates
  CHECK(float8_e4m3(-1e9f).bits == 0xfe);
  CHECK(float8_e4m3(std::numeric_limits<float>::infinity()).bits == 0x7e);
  CHECK(float8_e4m3(std::nanf("")).bits == 0x7f);
  CHECK(float8_e4m3(-std::nanf("")).bits == 0xff);
  CHECK(float8_e4m3(std::ldexp(1.0f, -10)).bits == 0x00); // tie → zero
  CHECK(float8_e4m3(std::ldexp(3.0f, -10)).bits == 0x02); // tie → even
  check_neighbour_rounding<float8_e4m3, uint8_t>(0x7f, 0x80);
}

TEST_CASE("float8_e5m2: all 256 patterns, inf, NaN", "[half][fp8]") {
  CHECK(float(float8_e5m2::from_bits(0x7b)) == 57344.0f);
  CHECK(std::isinf(float(float8_e5m2::from_bits(0x7c))));
  CHECK(std::isnan(float(float8_e5m2::from_bits(0x7d))));
  CHECK(float(float8_e5m2::from_bits(0x01)) == std::ldexp(1.0f, -16));
  CHECK(float(float8_e5m2::from_bits(0x3c)) == 1.0f);
  for (unsigned b = 0; b < 256; ++b) {
    const float f = float(float8_e5m2::from_bits(uint8_t(b)));
    INFO("bits " << b);
    if (std::isnan(f))
      CHECK(float8_e5m2(f).bits == (b | 0x02));
    else
      CHECK(float8_e5m2(f).bits == b);
  }
  CHECK(float8_e5m2(61440.0f).bits == 0x7c); // tie above the max → inf
  CHECK(float8_e5m2(60000.0f).bits == 0x7b);
  CHECK(float8_e5m2(-1e9f).bits == 0xfc);
  check_neighbour_rounding<float8_e5m2, uint8_t>(0x7c, 0x80);
}

TEST_CASE("convert: GPU-like conversions between element types", "[half][convert]") {
  CHECK(convert<int32_t>(3.9f) == 3);
  CHECK(convert<int32_t>(-3.9f) == -3);
  CHECK(convert<int32_t>(1e20f) == std::numeric_limits<int32_t>::max());
  CHECK(convert<int32_t>(-1e20) == std::numeric_limits<int32_t>::min());
  CHECK(convert<int8_t>(300.0f) == 127);
  CHECK(convert<uint8_t>(-5.0f) == 0);
  CHECK(convert<int32_t>(std::nanf("")) == 0);
  CHECK(convert<int64_t>(float16(-2.5f)) == -2);
  CHECK(convert<int8_t>(int32_t(300)) == int8_t(44)); // integers wrap
  CHECK(convert<bool>(0.5f));
  CHECK_FALSE(convert<bool>(float16(-0.0f)));
  CHECK(convert<float16>(true).bits == 0x3c00);
  CHECK(convert<float16>(bfloat16(1.0f)).bits == 0x3c00);
  CHECK(convert<bfloat16>(float16(65504.0f)).bits == bfloat16(65504.0f).bits);
  CHECK(convert<float>(float8_e5m2::from_bits(0x3c)) == 1.0f);
  CHECK(convert<float16>(70000).bits == 0x7c00);
  STATIC_REQUIRE(std::is_same_v<promote_t<float16, float>, float>);
  STATIC_REQUIRE(std::is_same_v<promote_t<float16, bfloat16>, float>);
  STATIC_REQUIRE(std::is_same_v<promote_t<int32_t, float16>, float16>);
  STATIC_REQUIRE(std::is_same_v<promote_t<int32_t, int64_t>, int64_t>);
  STATIC_REQUIRE(std::is_same_v<promote_t<int32_t, uint32_t>, uint32_t>);
  STATIC_REQUIRE(std::is_same_v<promote_t<bool, int8_t>, int8_t>);
  STATIC_REQUIRE(std::is_same_v<promote_t<float8_e5m2, float16>, float16>);
  STATIC_REQUIRE(std::is_same_v<scalar_promote_t<float16, double>, float16>);
  STATIC_REQUIRE(std::is_same_v<scalar_promote_t<int32_t, float>, float>);
  STATIC_REQUIRE(std::is_same_v<scalar_promote_t<int8_t, int>, int8_t>);
  STATIC_REQUIRE(std::is_same_v<scalar_promote_t<bool, int>, int>);
  STATIC_REQUIRE(std::is_same_v<compute_t<bfloat16>, float>);
}

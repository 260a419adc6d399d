// Storage types for 16- and 8-bit floating point: float16 (IEEE binary16), bfloat16, and the
// OCP FP8 formats float8_e4m3 (e4m3fn: no infinity, max ±448, NaN = 0x7f/0xff) and
// float8_e5m2 (IEEE-like: ±inf, NaNs).
//
// Conversions are bit-exact in software (no dependence on the host's FP16 instructions, the
// rounding mode or flush-to-zero): narrowing rounds to nearest, ties to even, keeps subnormals,
// and maps NaN to a quiet NaN of the same sign (float16/bfloat16/e5m2 keep the top payload bits).
// Overflow gives ±inf for float16, bfloat16 and float8_e5m2. float8_e4m3 has no infinity: it
// *saturates* finite overflow and ±inf to ±448, as CUDA's cvt.rn.satfinite does. Widening to
// float is exact.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace ntc::cpu {

namespace detail {

/// The bits of a float.
inline uint32_t float_to_bits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

/// The float with the given bits.
inline float bits_to_float(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

/// The bits of a double.
inline uint64_t double_to_bits(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

/// Rounds `value` to a binary format with `E` exponent bits and `M` mantissa bits (round to
/// nearest, ties to even), returning its 1+E+M bits. `IEEE` formats reserve the all-ones
/// exponent for inf/NaN; otherwise (e4m3fn) only the all-ones pattern is NaN and overflow
/// saturates to the largest finite value.
template <int E, int M, bool IEEE> uint32_t encode_float(double value) {
  constexpr int bias = (1 << (E - 1)) - 1;
  constexpr uint32_t exp_ones = (1u << E) - 1;
  constexpr uint32_t mant_mask = (1u << M) - 1;
  constexpr uint32_t max_finite = IEEE ? (exp_ones << M) - 1 : (exp_ones << M) | (mant_mask - 1);
  constexpr uint32_t quiet_nan =
      IEEE ? (exp_ones << M) | (1u << (M - 1)) : (exp_ones << M) | mant_mask;
  constexpr uint32_t overflow = IEEE ? exp_ones << M : max_finite;

  uint64_t x = double_to_bits(value);
  const uint32_t sign = uint32_t(x >> 63) << (E + M);
  x &= ~(uint64_t(1) << 63);
  if (x > 0x7ff0000000000000u) { // NaN: quiet it, keep the top payload bits where there are any
    if constexpr (IEEE)
      return sign | quiet_nan | uint32_t((x >> (52 - M)) & mant_mask);
    return sign | quiet_nan;
  }
  if (x == 0x7ff0000000000000u)
    return sign | overflow;
  const int biased = int(x >> 52);
  if (biased == 0) // zero or a double subnormal: far below half the smallest subnormal
    return sign;
  const uint64_t significand = (x & ((uint64_t(1) << 52) - 1)) | (uint64_t(1) << 52);
  const int e = biased - 1023 + bias; // exponent field of the result if it is normal
  if (e > int(exp_ones) + 1)
    return sign | overflow;
  int shift = 52 - M;
  if (e <= 0)
    shift += 1 - e; // subnormal: units of 2^(1 - bias - M)
  if (shift > 53)   // below half the smallest subnormal
    return sign;
  uint64_t q = significand >> shift;
  const uint64_t rest = significand & ((uint64_t(1) << shift) - 1);
  const uint64_t half = uint64_t(1) << (shift - 1);
  if (rest > half || (rest == half && (q & 1)))
    ++q; // a carry out of the mantissa correctly bumps the exponent
  const uint64_t code = e <= 0 ? q : (uint64_t(e) << M) + (q - (uint64_t(1) << M));
  if (code > max_finite)
    return sign | overflow;
  return sign | uint32_t(code);
}

/// Widens the 1+E+M bits of a small binary format (float16, e4m3fn, e5m2) to float, exactly.
/// Signalling NaNs come back quiet.
template <int E, int M, bool IEEE> float decode_float(uint32_t bits) {
  constexpr int bias = (1 << (E - 1)) - 1;
  constexpr uint32_t exp_ones = (1u << E) - 1;
  constexpr uint32_t mant_mask = (1u << M) - 1;
  const uint32_t sign = (bits >> (E + M)) & 1u;
  const uint32_t exponent = (bits >> M) & exp_ones;
  uint32_t mantissa = bits & mant_mask;
  const uint32_t sign_bit = sign << 31;
  if (IEEE && exponent == exp_ones)
    return bits_to_float(sign_bit | 0x7f800000u |
                         (mantissa ? 0x00400000u | (mantissa << (23 - M)) : 0u));
  if (!IEEE && exponent == exp_ones && mantissa == mant_mask)
    return bits_to_float(sign_bit | 0x7fc00000u);
  if (exponent == 0) {
    if (mantissa == 0)
      return bits_to_float(sign_bit);
    // Subnormal: normalise (every subnormal of these formats is a normal float).
    int e = 1;
    while (!(mantissa & (1u << M))) {
      mantissa <<= 1;
      --e;
    }
    mantissa &= mant_mask;
    return bits_to_float(sign_bit | (uint32_t(e - bias + 127) << 23) | (mantissa << (23 - M)));
  }
  return bits_to_float(sign_bit | (uint32_t(int(exponent) - bias + 127) << 23) |
                       (mantissa << (23 - M)));
}

/// True for the built-in arithmetic types (bool included) that the storage types construct from.
template <class T> inline constexpr bool is_builtin_number_v = std::is_arithmetic_v<T>;

} // namespace detail

/// IEEE 754 binary16 storage type (1 sign, 5 exponent, 10 mantissa bits).
struct float16 {
  uint16_t bits = 0; ///< the raw bits

  /// Positive zero.
  float16() = default;
  /// Rounds a float to nearest, ties to even.
  explicit float16(float value) : bits(uint16_t(detail::encode_float<5, 10, true>(value))) {}
  /// Rounds a double to nearest, ties to even (a single rounding, not through float).
  explicit float16(double value) : bits(uint16_t(detail::encode_float<5, 10, true>(value))) {}
  /// Converts an integer, bool or long double through double.
  template <class I, std::enable_if_t<detail::is_builtin_number_v<I> && !std::is_same_v<I, float> &&
                                          !std::is_same_v<I, double>,
                                      int> = 0>
  explicit float16(I value) : float16(double(value)) {}
  /// The value with the given bits.
  static float16 from_bits(uint16_t bits) {
    float16 h;
    h.bits = bits;
    return h;
  }
  /// Widens exactly.
  operator float() const { return detail::decode_float<5, 10, true>(bits); }
};

/// bfloat16 storage type (1 sign, 8 exponent, 7 mantissa bits: the top half of a float).
struct bfloat16 {
  uint16_t bits = 0; ///< the raw bits

  /// Positive zero.
  bfloat16() = default;
  /// Rounds a float to nearest, ties to even.
  explicit bfloat16(float value) : bits(uint16_t(detail::encode_float<8, 7, true>(value))) {}
  /// Rounds a double to nearest, ties to even (a single rounding, not through float).
  explicit bfloat16(double value) : bits(uint16_t(detail::encode_float<8, 7, true>(value))) {}
  /// Converts an integer, bool or long double through double.
  template <class I, std::enable_if_t<detail::is_builtin_number_v<I> && !std::is_same_v<I, float> &&
                                          !std::is_same_v<I, double>,
                                      int> = 0>
  explicit bfloat16(I value) : bfloat16(double(value)) {}
  /// The value with the given bits.
  static bfloat16 from_bits(uint16_t bits) {
    bfloat16 h;
    h.bits = bits;
    return h;
  }
  /// Widens exactly (a signalling NaN comes back quiet).
  operator float() const {
    uint32_t wide = uint32_t(bits) << 16;
    if ((wide & 0x7fffffffu) > 0x7f800000u)
      wide |= 0x00400000u;
    return detail::bits_to_float(wide);
  }
};

/// OCP FP8 E4M3 ("e4m3fn") storage type: bias 7, no infinities, max ±448, NaN = 0x7f/0xff.
/// Narrowing saturates: finite overflow and ±inf become ±448.
struct float8_e4m3 {
  uint8_t bits = 0; ///< the raw bits

  /// Positive zero.
  float8_e4m3() = default;
  /// Rounds a float to nearest, ties to even, saturating.
  explicit float8_e4m3(float value) : bits(uint8_t(detail::encode_float<4, 3, false>(value))) {}
  /// Rounds a double to nearest, ties to even, saturating.
  explicit float8_e4m3(double value) : bits(uint8_t(detail::encode_float<4, 3, false>(value))) {}
  /// Converts an integer, bool or long double through double.
  template <class I, std::enable_if_t<detail::is_builtin_number_v<I> && !std::is_same_v<I, float> &&
                                          !std::is_same_v<I, double>,
                                      int> = 0>
  explicit float8_e4m3(I value) : float8_e4m3(double(value)) {}
  /// The value with the given bits.
  static float8_e4m3 from_bits(uint8_t bits) {
    float8_e4m3 h;
    h.bits = bits;
    return h;
  }
  /// Widens exactly.
  operator float() const { return detail::decode_float<4, 3, false>(bits); }
};

/// OCP FP8 E5M2 storage type: bias 15, IEEE-like (±inf, NaNs), max ±57344.
struct float8_e5m2 {
  uint8_t bits = 0; ///< the raw bits

  /// Positive zero.
  float8_e5m2() = default;
  /// Rounds a float to nearest, ties to even (overflow gives ±inf).
  explicit float8_e5m2(float value) : bits(uint8_t(detail::encode_float<5, 2, true>(value))) {}
  /// Rounds a double to nearest, ties to even (overflow gives ±inf).
  explicit float8_e5m2(double value) : bits(uint8_t(detail::encode_float<5, 2, true>(value))) {}
  /// Converts an integer, bool or long double through double.
  template <class I, std::enable_if_t<detail::is_builtin_number_v<I> && !std::is_same_v<I, float> &&
                                          !std::is_same_v<I, double>,
                                      int> = 0>
  explicit float8_e5m2(I value) : float8_e5m2(double(value)) {}
  /// The value with the given bits.
  static float8_e5m2 from_bits(uint8_t bits) {
    float8_e5m2 h;
    h.bits = bits;
    return h;
  }
  /// Widens exactly.
  operator float() const { return detail::decode_float<5, 2, true>(bits); }
};

/// True for the storage types of this header.
template <class T>
inline constexpr bool is_small_float_v =
    std::is_same_v<T, float16> || std::is_same_v<T, bfloat16> || std::is_same_v<T, float8_e4m3> ||
    std::is_same_v<T, float8_e5m2>;

/// True for float16 and bfloat16, which get arithmetic operators (computed in float, rounded
/// once). Mixed operands (float16 + float, float16 + bfloat16) fall back to float arithmetic
/// through the implicit widening.
template <class T>
inline constexpr bool is_half_v = std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>;

/// a + b, computed in float and rounded to nearest even (exact as a binary16 operation).
template <class H, std::enable_if_t<is_half_v<H>, int> = 0> H operator+(H a, H b) {
  return H(float(a) + float(b));
}
/// a − b, computed in float and rounded.
template <class H, std::enable_if_t<is_half_v<H>, int> = 0> H operator-(H a, H b) {
  return H(float(a) - float(b));
}
/// a · b, computed in float and rounded.
template <class H, std::enable_if_t<is_half_v<H>, int> = 0> H operator*(H a, H b) {
  return H(float(a) * float(b));
}
/// a / b, computed in float and rounded.
template <class H, std::enable_if_t<is_half_v<H>, int> = 0> H operator/(H a, H b) {
  return H(float(a) / float(b));
}
/// −a (flips the sign bit, NaN included).
template <class H, std::enable_if_t<is_half_v<H>, int> = 0> H operator-(H a) {
  return H::from_bits(uint16_t(a.bits ^ 0x8000u));
}
/// +a.
template <class H, std::enable_if_t<is_half_v<H>, int> = 0> H operator+(H a) { return a; }
/// a += b for a half or built-in `b`, computed in float (double for a double `b`), rounded once.
template <class H, class U, std::enable_if_t<is_half_v<H>, int> = 0> H &operator+=(H &a, U b) {
  return a = H(float(a) + b);
}
/// a −= b, computed in float (double for a double `b`), rounded once.
template <class H, class U, std::enable_if_t<is_half_v<H>, int> = 0> H &operator-=(H &a, U b) {
  return a = H(float(a) - b);
}
/// a ·= b, computed in float (double for a double `b`), rounded once.
template <class H, class U, std::enable_if_t<is_half_v<H>, int> = 0> H &operator*=(H &a, U b) {
  return a = H(float(a) * b);
}
/// a /= b, computed in float (double for a double `b`), rounded once.
template <class H, class U, std::enable_if_t<is_half_v<H>, int> = 0> H &operator/=(H &a, U b) {
  return a = H(float(a) / b);
}

static_assert(sizeof(float16) == 2 && sizeof(bfloat16) == 2, "16-bit storage types");
static_assert(sizeof(float8_e4m3) == 1 && sizeof(float8_e5m2) == 1, "8-bit storage types");
static_assert(std::is_standard_layout_v<float16> && std::is_trivially_copyable_v<float16>);
static_assert(std::is_standard_layout_v<bfloat16> && std::is_trivially_copyable_v<bfloat16>);
static_assert(std::is_trivially_copyable_v<float8_e4m3> &&
              std::is_trivially_copyable_v<float8_e5m2>);

} // namespace ntc::cpu

// Element types of the device tile library, their traits (compute type, promotion) and value
// conversion with exactly the rules of ntc::cpu::convert (ntc/cpu/types.hpp), so that the CUDA
// and CPU backends produce the same bits:
// * floating → float16/bfloat16/fp8 rounds to nearest even, once (also from double and from
//   integers, which go through double as on the CPU); overflow gives ±inf except for
//   float8_e4m3, which saturates to ±448 (cvt.rn.satfinite); NaN becomes the quiet NaN that
//   ntc::cpu produces (same sign, top payload bits kept), not the GPU's canonical NaN;
// * floating → integer truncates toward zero and saturates, NaN → 0 (cvt.rzi.sat);
// * integer → integer wraps; anything → bool is `value != 0`;
// * widening a 16/8-bit float to float is exact (NaNs come back quiet, as on the CPU).
//
// The scalar functions here are __host__ __device__ so that host code (tests, constant folding)
// can use the same conversions.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <ntc/common/promotion.hpp>

#include <cstdint>
#include <cstring>
#include <type_traits>

#ifndef NTC_DEV_HD
/// Marks a function usable on the host and on the device.
#define NTC_DEV_HD __host__ __device__
#endif

namespace ntc::dev {

/// The calling thread's index among the `Threads` threads of its program. A block runs one
/// program of blockDim.x threads, or, for one-warp programs, several programs side by side
/// (warp w runs program blockIdx.x · warps + w: see passes::programsPerBlock).
template <int Threads> __device__ inline int program_thread() { return int(threadIdx.x) % Threads; }

/// IEEE binary16 (CUDA's __half).
using float16 = __half;
/// bfloat16 (CUDA's __nv_bfloat16).
using bfloat16 = __nv_bfloat16;
/// OCP FP8 E4M3 ("e4m3fn": no infinities, max ±448).
using float8_e4m3 = __nv_fp8_e4m3;
/// OCP FP8 E5M2 (IEEE-like: ±inf, NaNs, max ±57344).
using float8_e5m2 = __nv_fp8_e5m2;

/// True for float16 and bfloat16.
template <class T>
inline constexpr bool is_half_v = std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>;

/// True for the two FP8 formats.
template <class T>
inline constexpr bool is_fp8_v = std::is_same_v<T, float8_e4m3> || std::is_same_v<T, float8_e5m2>;

/// True for the 16- and 8-bit storage types (arithmetic on them is computed in float).
template <class T> inline constexpr bool is_small_float_v = is_half_v<T> || is_fp8_v<T>;

/// True for the element types of tiles: bool, the built-in integers, float, double and the
/// storage types above.
template <class T>
inline constexpr bool is_element_v =
    (std::is_arithmetic_v<T> && !std::is_same_v<T, long double>) || is_small_float_v<T>;

/// True for floating element types (float, double and the storage types).
template <class T>
inline constexpr bool is_floating_v = std::is_floating_point_v<T> || is_small_float_v<T>;

/// True for integer element types other than bool.
template <class T>
inline constexpr bool is_integer_v = std::is_integral_v<T> && !std::is_same_v<T, bool>;

namespace detail {

template <class T, class = void> struct compute_type { using type = T; };
template <class T> struct compute_type<T, std::enable_if_t<is_small_float_v<T>>> {
  using type = float;
};

/// This library's element types in the shared promotion table (ntc/common/promotion.hpp).
using elements = promotion::Elements<float8_e4m3, float8_e5m2, float16, bfloat16>;

template <class A, class B> struct promote {
  using type = elements::promote_t<A, B>;
};

template <class T, class S> struct scalar_promote {
  static auto pick() {
    if constexpr (is_small_float_v<S> || std::is_same_v<T, S>)
      return typename promote<T, S>::type{};
    else if constexpr (is_floating_v<T>)
      return T{};
    else if constexpr (is_floating_v<S>)
      return S{};
    else if constexpr (std::is_same_v<T, bool>)
      return S{};
    else
      return T{};
  }
  using type = decltype(pick());
};

/// Unsigned type at least as wide as C, for wrapping integer arithmetic.
template <class C>
using wrap_t = std::conditional_t<(sizeof(C) <= sizeof(uint32_t)), uint32_t, uint64_t>;

/// Largest and smallest value of an integer type (std::numeric_limits is host-only).
template <class T> struct int_limits {
  static constexpr bool is_signed = T(-1) < T(0);
  static constexpr T max =
      is_signed ? T((uint64_t(1) << (8 * sizeof(T) - 1)) - 1) : T(~uint64_t(0));
  static constexpr T lowest = is_signed ? T(-max - 1) : T(0);
};

/// Bit-casts between trivially copyable types of the same size.
template <class To, class From> NTC_DEV_HD inline To bit_cast(const From &from) {
  static_assert(sizeof(To) == sizeof(From), "bit_cast: size mismatch");
  To to;
  std::memcpy(&to, &from, sizeof(To));
  return to;
}

/// Rounds `value` to a binary format with `E` exponent and `M` mantissa bits (nearest, ties to
/// even) and returns its 1+E+M bits; a bit-exact copy of ntc::cpu::detail::encode_float. `IEEE`
/// formats reserve the all-ones exponent for inf/NaN; otherwise (e4m3fn) only the all-ones
/// pattern is NaN and overflow saturates.
template <int E, int M, bool IEEE> NTC_DEV_HD inline uint32_t encode_float(double value) {
  constexpr int bias = (1 << (E - 1)) - 1;
  constexpr uint32_t exp_ones = (1u << E) - 1;
  constexpr uint32_t mant_mask = (1u << M) - 1;
  constexpr uint32_t max_finite = IEEE ? (exp_ones << M) - 1 : (exp_ones << M) | (mant_mask - 1);
  constexpr uint32_t quiet_nan =
      IEEE ? (exp_ones << M) | (1u << (M - 1)) : (exp_ones << M) | mant_mask;
  constexpr uint32_t overflow = IEEE ? exp_ones << M : max_finite;

  uint64_t x = bit_cast<uint64_t>(value);
  const uint32_t sign = uint32_t(x >> 63) << (E + M);
  x &= ~(uint64_t(1) << 63);
  if (x > 0x7ff0000000000000u) {
    if constexpr (IEEE)
      return sign | quiet_nan | uint32_t((x >> (52 - M)) & mant_mask);
    return sign | quiet_nan;
  }
  if (x == 0x7ff0000000000000u)
    return sign | overflow;
  const int biased = int(x >> 52);
  if (biased == 0)
    return sign;
  const uint64_t significand = (x & ((uint64_t(1) << 52) - 1)) | (uint64_t(1) << 52);
  const int e = biased - 1023 + bias;
  if (e > int(exp_ones) + 1)
    return sign | overflow;
  int shift = 52 - M;
  if (e <= 0)
    shift += 1 - e;
  if (shift > 53)
    return sign;
  uint64_t q = significand >> shift;
  const uint64_t rest = significand & ((uint64_t(1) << shift) - 1);
  const uint64_t half = uint64_t(1) << (shift - 1);
  if (rest > half || (rest == half && (q & 1)))
    ++q;
  const uint64_t code = e <= 0 ? q : (uint64_t(e) << M) + (q - (uint64_t(1) << M));
  if (code > max_finite)
    return sign | overflow;
  return sign | uint32_t(code);
}

/// Widens the 1+E+M bits of a small format to float, exactly (a copy of
/// ntc::cpu::detail::decode_float; NaNs come back quiet).
template <int E, int M, bool IEEE> NTC_DEV_HD inline float decode_float(uint32_t bits) {
  constexpr int bias = (1 << (E - 1)) - 1;
  constexpr uint32_t exp_ones = (1u << E) - 1;
  constexpr uint32_t mant_mask = (1u << M) - 1;
  const uint32_t sign_bit = ((bits >> (E + M)) & 1u) << 31;
  const uint32_t exponent = (bits >> M) & exp_ones;
  uint32_t mantissa = bits & mant_mask;
  if (IEEE && exponent == exp_ones)
    return bit_cast<float>(sign_bit | 0x7f800000u |
                           (mantissa ? 0x00400000u | (mantissa << (23 - M)) : 0u));
  if (!IEEE && exponent == exp_ones && mantissa == mant_mask)
    return bit_cast<float>(sign_bit | 0x7fc00000u);
  if (exponent == 0) {
    if (mantissa == 0)
      return bit_cast<float>(sign_bit);
    int e = 1;
    while (!(mantissa & (1u << M))) {
      mantissa <<= 1;
      --e;
    }
    mantissa &= mant_mask;
    return bit_cast<float>(sign_bit | (uint32_t(e - bias + 127) << 23) | (mantissa << (23 - M)));
  }
  return bit_cast<float>(sign_bit | (uint32_t(int(exponent) - bias + 127) << 23) |
                         (mantissa << (23 - M)));
}

/// Format parameters of the storage types: exponent bits, mantissa bits, IEEE-like.
template <class T> struct small_float_format;
template <> struct small_float_format<float16> {
  static constexpr int E = 5, M = 10;
  static constexpr bool IEEE = true;
};
template <> struct small_float_format<bfloat16> {
  static constexpr int E = 8, M = 7;
  static constexpr bool IEEE = true;
};
template <> struct small_float_format<float8_e4m3> {
  static constexpr int E = 4, M = 3;
  static constexpr bool IEEE = false;
};
template <> struct small_float_format<float8_e5m2> {
  static constexpr int E = 5, M = 2;
  static constexpr bool IEEE = true;
};

} // namespace detail

/// The type arithmetic on `T` is computed in: float for the storage types, `T` otherwise.
template <class T> using compute_t = typename detail::compute_type<T>::type;

/// Result type of a binary operation between tiles of `A` and `B` (ntc::cpu::promote_t).
template <class A, class B> using promote_t = typename detail::promote<A, B>::type;

/// Result type of a binary operation between a tile of `T` and a scalar of `S`
/// (ntc::cpu::scalar_promote_t: the scalar is "weak").
template <class T, class S> using scalar_promote_t = typename detail::scalar_promote<T, S>::type;

/// The raw bits of a storage-type value.
template <class T, std::enable_if_t<is_small_float_v<T>, int> = 0>
NTC_DEV_HD inline auto bits_of(T value) {
  if constexpr (std::is_same_v<T, float16>)
    return uint16_t(__half_as_ushort(value));
  else if constexpr (std::is_same_v<T, bfloat16>)
    return uint16_t(__bfloat16_as_ushort(value));
  else
    return uint8_t(value.__x);
}

/// The storage-type value with the given raw bits.
template <class T, std::enable_if_t<is_small_float_v<T>, int> = 0>
NTC_DEV_HD inline T from_bits(uint32_t bits) {
  if constexpr (std::is_same_v<T, float16>)
    return __ushort_as_half(static_cast<unsigned short>(bits));
  else if constexpr (std::is_same_v<T, bfloat16>)
    return __ushort_as_bfloat16(static_cast<unsigned short>(bits));
  else {
    T result;
    result.__x = static_cast<__nv_fp8_storage_t>(bits);
    return result;
  }
}

/// Widens to the compute type (exactly; float for the storage types).
template <class T> NTC_DEV_HD inline compute_t<T> widen(T value) {
  if constexpr (std::is_same_v<T, float16>) {
    const uint32_t b = ::ntc::dev::bits_of(value);
    if ((b & 0x7fffu) > 0x7c00u) // NaN: quiet, payload kept, as ntc::cpu
      return detail::bit_cast<float>(((b & 0x8000u) << 16) | 0x7fc00000u | ((b & 0x3ffu) << 13));
    return __half2float(value);
  } else if constexpr (std::is_same_v<T, bfloat16>) {
    uint32_t wide = uint32_t(::ntc::dev::bits_of(value)) << 16;
    if ((wide & 0x7fffffffu) > 0x7f800000u)
      wide |= 0x00400000u;
    return detail::bit_cast<float>(wide);
  } else if constexpr (is_fp8_v<T>) {
    using F = detail::small_float_format<T>;
    return detail::decode_float<F::E, F::M, F::IEEE>(::ntc::dev::bits_of(value));
  } else {
    return value;
  }
}

/// True when `value` is a NaN (false for integers and bool).
template <class T> NTC_DEV_HD inline bool is_nan(T value) {
  if constexpr (is_floating_v<T>) {
    const auto x = ::ntc::dev::widen(value);
    return x != x;
  } else {
    return false;
  }
}

namespace detail {

/// float → storage type, rounding to nearest even (the hardware cvt for float16/bfloat16, with
/// ntc::cpu's NaN; software for fp8, which has no cvt without satfinite on all targets).
template <class To> NTC_DEV_HD inline To narrow_float(float value) {
  const uint32_t b = bit_cast<uint32_t>(value);
  const bool nan = (b & 0x7fffffffu) > 0x7f800000u;
  if constexpr (std::is_same_v<To, float16>) {
    if (nan)
      return ::ntc::dev::from_bits<To>(((b >> 16) & 0x8000u) | 0x7e00u | ((b >> 13) & 0x3ffu));
    return __float2half_rn(value);
  } else if constexpr (std::is_same_v<To, bfloat16>) {
    if (nan)
      return ::ntc::dev::from_bits<To>(((b >> 16) & 0x8000u) | 0x7fc0u | ((b >> 16) & 0x7fu));
    return __float2bfloat16_rn(value);
  } else {
    using F = small_float_format<To>;
    return ::ntc::dev::from_bits<To>(encode_float<F::E, F::M, F::IEEE>(double(value)));
  }
}

/// True when a or b is NaN: one unordered comparison (setp.nan).
__device__ inline bool either_nan(float a, float b) {
  unsigned r;
  asm("{\n .reg .pred p;\n setp.nan.f32 p, %1, %2;\n selp.u32 %0, 1, 0, p;\n}"
      : "=r"(r)
      : "f"(a), "f"(b));
  return r != 0;
}

/// Two float16/bfloat16 elements as one 32-bit word, `first` in the low half (one
/// `mov.b32 r, {first, second}`).
template <class To> __device__ inline uint32_t join_pair(To first, To second) {
  if constexpr (std::is_same_v<To, float16>)
    return bit_cast<uint32_t>(__halves2half2(first, second));
  else
    return bit_cast<uint32_t>(__halves2bfloat162(first, second));
}

/// The two float16/bfloat16 elements of a join_pair word.
template <class To> __device__ inline void split_pair(uint32_t word, To &first, To &second) {
  if constexpr (std::is_same_v<To, float16>) {
    const auto h = bit_cast<__half2>(word);
    first = __low2half(h);
    second = __high2half(h);
  } else {
    const auto h = bit_cast<__nv_bfloat162>(word);
    first = __low2bfloat16(h);
    second = __high2bfloat16(h);
  }
}

/// Two floats, neither NaN, → float16/bfloat16 as narrow_float rounds them, as a join_pair word,
/// through one packed conversion (cvt.rn.f16x2.f32 / .bf16x2).
template <class To> __device__ inline uint32_t narrow_float_pair(float a, float b) {
  if constexpr (std::is_same_v<To, float16>)
    return bit_cast<uint32_t>(__floats2half2_rn(a, b));
  else
    return bit_cast<uint32_t>(__floats2bfloat162_rn(a, b));
}

/// 2^x by the special-function unit (ex2.approx.ftz.f32): exp2f's accuracy for normal results,
/// results below 2^-126 flushed to zero (exp2f rescales around the unit to keep them).
__device__ inline float exp2_ftz(float x) {
  float r;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}

/// double → storage type with a single rounding (software, bit-exact with ntc::cpu).
template <class To> NTC_DEV_HD inline To narrow_double(double value) {
  using F = small_float_format<To>;
  return ::ntc::dev::from_bits<To>(encode_float<F::E, F::M, F::IEEE>(value));
}

/// Truncation toward zero of float or double.
template <class W> NTC_DEV_HD inline W trunc_(W x) {
  if constexpr (std::is_same_v<W, float>)
    return truncf(x);
  else
    return trunc(x);
}

} // namespace detail

/// Converts an element to `To` with the rules of ntc::cpu::convert (see the top of this file).
template <class To, class From> NTC_DEV_HD inline To convert(From value) {
  static_assert(is_element_v<To> && is_element_v<From>, "ntc::dev::convert: not an element type");
  if constexpr (std::is_same_v<To, From>) {
    return value;
  } else if constexpr (std::is_same_v<To, bool>) {
    return ::ntc::dev::widen(value) != compute_t<From>(0);
  } else if constexpr (is_small_float_v<To>) {
    if constexpr (std::is_same_v<From, float> || is_small_float_v<From>)
      return detail::narrow_float<To>(::ntc::dev::widen(value)); // widening is exact: one rounding
    else
      return detail::narrow_double<To>(double(value)); // double, integers, bool
  } else if constexpr (std::is_floating_point_v<To>) {
    return static_cast<To>(::ntc::dev::widen(value));
  } else if constexpr (is_floating_v<From>) { // floating → integer: truncate, saturate, NaN → 0
    // Comparing in float is exact here: the limits round up to powers of two, and a float below
    // such a power is below the limit.
    using W = std::conditional_t<std::is_same_v<From, double>, double, float>;
    W x = W(::ntc::dev::widen(value));
    if (x != x)
      return To(0);
    x = detail::trunc_(x);
    if (x <= W(detail::int_limits<To>::lowest))
      return detail::int_limits<To>::lowest;
    if (x >= W(detail::int_limits<To>::max))
      return detail::int_limits<To>::max;
    return static_cast<To>(x);
  } else { // integer/bool → integer: modular
    return static_cast<To>(value);
  }
}

} // namespace ntc::dev

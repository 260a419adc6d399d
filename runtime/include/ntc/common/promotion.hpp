//===- ntc/common/promotion.hpp - the one type-promotion table ------------===//
//
// The element type of a binary operation between two tiles (Triton's rules), shared by the
// compiler (kir::promote), the CPU tile library (ntc::cpu::promote_t) and the device tile
// library (ntc::dev::promote_t), so the three can never disagree. Plain constexpr C++17:
// usable in host code, in templates of device code and in the compiler.
//
//===----------------------------------------------------------------------===//
#ifndef NTC_COMMON_PROMOTION_HPP
#define NTC_COMMON_PROMOTION_HPP

#include <cstdint>
#include <type_traits>

namespace ntc::promotion {

/// Element types, independent of any library's C++ spelling.
enum class Kind {
  Bool,
  Int8,
  Int16,
  Int32,
  Int64,
  UInt8,
  UInt16,
  UInt32,
  UInt64,
  Float8E4M3,
  Float8E5M2,
  Float16,
  BFloat16,
  Float32,
  Float64,
};

/// True for the floating kinds (8-bit to 64-bit).
constexpr bool is_floating(Kind k) { return k >= Kind::Float8E4M3; }

/// True for the unsigned integer kinds.
constexpr bool is_unsigned(Kind k) { return k >= Kind::UInt8 && k <= Kind::UInt64; }

/// Width in bits (bool: 8).
constexpr int bits(Kind k) {
  switch (k) {
  case Kind::Bool:
  case Kind::Int8:
  case Kind::UInt8:
  case Kind::Float8E4M3:
  case Kind::Float8E5M2:
    return 8;
  case Kind::Int16:
  case Kind::UInt16:
  case Kind::Float16:
  case Kind::BFloat16:
    return 16;
  case Kind::Int32:
  case Kind::UInt32:
  case Kind::Float32:
    return 32;
  default:
    return 64;
  }
}

/// The kind of a signed or unsigned integer of `bytes` bytes.
constexpr Kind integer_kind(bool is_signed, int bytes) {
  switch (bytes) {
  case 1:
    return is_signed ? Kind::Int8 : Kind::UInt8;
  case 2:
    return is_signed ? Kind::Int16 : Kind::UInt16;
  case 4:
    return is_signed ? Kind::Int32 : Kind::UInt32;
  default:
    return is_signed ? Kind::Int64 : Kind::UInt64;
  }
}

/// The result kind of a binary operation between tiles of kinds `a` and `b`: the same kind
/// stays; between floating kinds the wider wins, and two different kinds of one width (float16
/// with bfloat16, e4m3 with e5m2) give float32; floating beats integer; bool yields to the other
/// kind; between integers the wider wins, and at equal width the unsigned one.
constexpr Kind promote(Kind a, Kind b) {
  if (a == b)
    return a;
  if (is_floating(a) && is_floating(b)) {
    if (bits(a) == bits(b))
      return bits(a) <= 16 ? Kind::Float32 : a;
    return bits(a) > bits(b) ? a : b;
  }
  if (is_floating(a) != is_floating(b))
    return is_floating(a) ? a : b;
  if (a == Kind::Bool)
    return b;
  if (b == Kind::Bool)
    return a;
  if (bits(a) != bits(b))
    return bits(a) > bits(b) ? a : b;
  return is_unsigned(a) ? a : b;
}

/// The kinds of one tile library's element types, and back: the library names its four small
/// floating types (its float8_e4m3, float8_e5m2, float16 and bfloat16); the built-in types are
/// common to all. `promote_t<A, B>` is the element type of an operation between A and B.
template <class E4M3, class E5M2, class F16, class BF16> struct Elements {
  /// The kind of element type T (integers by signedness and width).
  template <class T> static constexpr Kind kind_of() {
    if constexpr (std::is_same_v<T, bool>)
      return Kind::Bool;
    else if constexpr (std::is_integral_v<T>)
      return integer_kind(std::is_signed_v<T>, int(sizeof(T)));
    else if constexpr (std::is_same_v<T, E4M3>)
      return Kind::Float8E4M3;
    else if constexpr (std::is_same_v<T, E5M2>)
      return Kind::Float8E5M2;
    else if constexpr (std::is_same_v<T, F16>)
      return Kind::Float16;
    else if constexpr (std::is_same_v<T, BF16>)
      return Kind::BFloat16;
    else if constexpr (std::is_same_v<T, float>)
      return Kind::Float32;
    else
      return Kind::Float64;
  }

  /// A value of the element type of kind K (for decltype).
  template <Kind K> static auto type_of() {
    if constexpr (K == Kind::Bool)
      return bool{};
    else if constexpr (K == Kind::Int8)
      return int8_t{};
    else if constexpr (K == Kind::Int16)
      return int16_t{};
    else if constexpr (K == Kind::Int32)
      return int32_t{};
    else if constexpr (K == Kind::Int64)
      return int64_t{};
    else if constexpr (K == Kind::UInt8)
      return uint8_t{};
    else if constexpr (K == Kind::UInt16)
      return uint16_t{};
    else if constexpr (K == Kind::UInt32)
      return uint32_t{};
    else if constexpr (K == Kind::UInt64)
      return uint64_t{};
    else if constexpr (K == Kind::Float8E4M3)
      return E4M3{};
    else if constexpr (K == Kind::Float8E5M2)
      return E5M2{};
    else if constexpr (K == Kind::Float16)
      return F16{};
    else if constexpr (K == Kind::BFloat16)
      return BF16{};
    else if constexpr (K == Kind::Float32)
      return float{};
    else
      return double{};
  }

  /// The same type stays itself (`long long` with `long long`); otherwise the table decides.
  template <class A, class B> static auto promoted() {
    if constexpr (std::is_same_v<A, B>)
      return A{};
    else
      return type_of<promote(kind_of<A>(), kind_of<B>())>();
  }
  template <class A, class B> using promote_t = decltype(promoted<A, B>());
};

} // namespace ntc::promotion

#endif // NTC_COMMON_PROMOTION_HPP

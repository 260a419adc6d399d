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

} // namespace ntc::promotion

#endif // NTC_COMMON_PROMOTION_HPP

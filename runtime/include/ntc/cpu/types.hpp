// Element-type traits of the CPU tile library: which types tiles hold, the type arithmetic is
// computed in, type promotion, and value conversion with GPU-like semantics.
#pragma once

#include <ntc/common/promotion.hpp>
#include <ntc/cpu/half.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace ntc::cpu {

/// True for the element types of tiles: bool, the built-in integers and floating types, and the
/// storage types of half.hpp.
template <class T>
inline constexpr bool is_element_v = std::is_arithmetic_v<T> || is_small_float_v<T>;

/// True for floating element types (float, double and the storage types of half.hpp).
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

template <class A, class B> struct promote { using type = elements::promote_t<A, B>; };

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
} // namespace detail

/// The type arithmetic on `T` is computed in: float for the storage types of half.hpp, `T`
/// itself otherwise.
template <class T> using compute_t = typename detail::compute_type<T>::type;

/// Result type of a binary operation between tiles of `A` and `B` (Triton's rules): the same
/// type stays; between floating types the wider wins (float16 with bfloat16, or e4m3 with e5m2,
/// gives float); floating beats integer; bool yields to the other type; between integers the
/// wider wins, and at equal width unsigned wins.
template <class A, class B> using promote_t = typename detail::promote<A, B>::type;

/// Result type of a binary operation between a tile of `T` and a C++ scalar of `S` (the scalar
/// is "weak", as Python numbers are in Triton): a floating tile keeps its type; an integer tile
/// keeps its type with an integer scalar and takes the scalar's type with a float/double one; a
/// bool tile takes the scalar's type. A storage-type scalar (float16, …) promotes like a tile.
template <class T, class S> using scalar_promote_t = typename detail::scalar_promote<T, S>::type;

/// Widens to the compute type (float for the storage types of half.hpp).
template <class T> compute_t<T> widen(T value) { return compute_t<T>(value); }

/// True when `value` is a NaN (false for integers).
template <class T> bool is_nan(T value) {
  if constexpr (is_floating_v<T>)
    return std::isnan(widen(value));
  else
    return false;
}

/// Converts an element to `To` as the GPU does: floating narrowing rounds to nearest even (one
/// rounding, also from double to the storage types); floating → integer truncates toward zero
/// and saturates, NaN → 0 (PTX cvt.rzi.sat); integer → integer wraps; anything → bool is
/// `value != 0`.
template <class To, class From> To convert(From value) {
  static_assert(is_element_v<To> && is_element_v<From>, "not a tile element type");
  if constexpr (std::is_same_v<To, From>) {
    return value;
  } else if constexpr (std::is_same_v<To, bool>) {
    return widen(value) != compute_t<From>(0);
  } else if constexpr (is_small_float_v<To>) {
    if constexpr (std::is_floating_point_v<From>)
      return To(value);
    else if constexpr (is_small_float_v<From>)
      return To(float(value)); // exact widening, then one rounding
    else
      return To(double(value));
  } else if constexpr (std::is_floating_point_v<To>) {
    return static_cast<To>(widen(value));
  } else if constexpr (is_floating_v<From>) { // floating → integer
    using W = std::conditional_t<std::is_same_v<From, long double>, long double, double>;
    W x = W(widen(value));
    if (std::isnan(x))
      return To(0);
    x = std::trunc(x);
    if (x <= W(std::numeric_limits<To>::lowest()))
      return std::numeric_limits<To>::lowest();
    if (x >= W(std::numeric_limits<To>::max()))
      return std::numeric_limits<To>::max();
    return static_cast<To>(x);
  } else { // integer/bool → integer: modular
    return static_cast<To>(value);
  }
}

} // namespace ntc::cpu

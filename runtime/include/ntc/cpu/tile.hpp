// The CPU tile library: value tiles with NumPy broadcasting, the operations of ntl:: on them
// (creation, elementwise arithmetic and math, shape operations, reductions, dot), used by the
// code that ntc's cpu backend generates. Correctness first; plain loops, no SIMD intrinsics.
//
// Conventions:
// * A Tile is row-major; rank 0 is a scalar with one element.
// * Binary operations broadcast NumPy-style (shapes aligned from the right, size-1 dimensions
//   stretch) and throw std::logic_error on incompatible shapes. The compiler checks shapes
//   statically, so this is only a safety net.
// * Result types follow promote_t / scalar_promote_t (types.hpp); arithmetic on float16,
//   bfloat16 and fp8 elements is computed in float and rounded once to the result type.
// * Integer arithmetic wraps (two's complement) instead of being undefined; integer division
//   or remainder by zero gives 0; `/` on integers truncates and `%` follows C (fmod for floats).
// * NaN: maximum/minimum and the max/min reductions propagate NaN (any NaN operand makes the
//   result NaN, as torch.maximum does); argmax/argmin treat NaN as the extreme value (index of
//   the first NaN). The max/min reductions treat +0 as larger than −0 (IEEE 754-2019
//   maximum/minimum), so their result does not depend on the order of the elements.
#pragma once

#include <ntc/cpu/types.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ntc::cpu {

/// A tile shape: extents, outermost first (empty for a scalar).
using Shape = std::vector<int64_t>;

/// A value tile: a dense row-major array of `T` with a shape.
template <class T> struct Tile {
  static_assert(is_element_v<T>, "ntc::cpu::Tile: not an element type");

  /// Extents, outermost first (empty for a scalar).
  std::vector<int64_t> shape;
  /// Elements in row-major order; data.size() is the product of the extents.
  std::vector<T> data;

  /// Number of dimensions.
  int rank() const { return int(shape.size()); }
  /// Number of elements (1 for rank 0).
  int64_t numel() const { return int64_t(data.size()); }
  /// Extent of dimension `d` (negative `d` counts from the end).
  int64_t size(int d) const { return shape.at(d < 0 ? d + rank() : d); }
  /// The only element of a one-element tile.
  T item() const;
  /// Element-wise conversion (ntl's x.to(dtype)); see cast().
  template <class U> Tile<U> to() const;

  /// *this = *this + other (broadcast into this shape, converted back to T).
  template <class U> Tile &operator+=(const U &other);
  /// *this = *this − other (broadcast into this shape, converted back to T).
  template <class U> Tile &operator-=(const U &other);
  /// *this = *this · other (broadcast into this shape, converted back to T).
  template <class U> Tile &operator*=(const U &other);
  /// *this = *this / other (broadcast into this shape, converted back to T).
  template <class U> Tile &operator/=(const U &other);
  /// *this = *this % other (broadcast into this shape, converted back to T).
  template <class U> Tile &operator%=(const U &other);
  /// *this = *this & other (broadcast into this shape, converted back to T).
  template <class U> Tile &operator&=(const U &other);
  /// *this = *this | other (broadcast into this shape, converted back to T).
  template <class U> Tile &operator|=(const U &other);
  /// *this = *this ^ other (broadcast into this shape, converted back to T).
  template <class U> Tile &operator^=(const U &other);
};

/// True for Tile<T>.
template <class X> inline constexpr bool is_tile_v = false;
/// True for Tile<T>.
template <class T> inline constexpr bool is_tile_v<Tile<T>> = true;

namespace detail {

template <class X> struct element_of { using type = X; };
template <class T> struct element_of<Tile<T>> { using type = T; };

/// True for a tile or an element value (the operands accepted where "tile or scalar" is).
template <class X>
inline constexpr bool is_operand_v = is_tile_v<std::decay_t<X>> || is_element_v<std::decay_t<X>>;

} // namespace detail

/// Element type of a tile, or the type itself for a scalar.
template <class X> using element_t = typename detail::element_of<std::decay_t<X>>::type;

/// Result element type of a binary operation on two operands, each a tile or a scalar:
/// promote_t between two tiles (or two scalars), scalar_promote_t between a tile and a scalar.
template <class X, class Y>
using binary_result_t = std::conditional_t<
    is_tile_v<std::decay_t<X>> == is_tile_v<std::decay_t<Y>>, promote_t<element_t<X>, element_t<Y>>,
    std::conditional_t<is_tile_v<std::decay_t<X>>, scalar_promote_t<element_t<X>, element_t<Y>>,
                       scalar_promote_t<element_t<Y>, element_t<X>>>>;

// --- shapes -------------------------------------------------------------------------------------

/// "[2, 3]".
inline std::string shape_string(const Shape &shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

/// Number of elements of a shape (1 for rank 0).
inline int64_t shape_numel(const Shape &shape) {
  int64_t n = 1;
  for (int64_t e : shape)
    n *= e;
  return n;
}

/// The broadcast of two shapes (NumPy rules); throws std::logic_error if incompatible.
inline Shape broadcast_shapes(const Shape &a, const Shape &b) {
  Shape out(std::max(a.size(), b.size()));
  for (std::size_t i = 0; i < out.size(); ++i) {
    int64_t x = i < a.size() ? a[a.size() - 1 - i] : 1;
    int64_t y = i < b.size() ? b[b.size() - 1 - i] : 1;
    if (x != y && x != 1 && y != 1)
      throw std::logic_error("ntc::cpu: cannot broadcast shapes " + shape_string(a) + " and " +
                             shape_string(b));
    out[out.size() - 1 - i] = x == 1 ? y : x;
  }
  return out;
}

namespace detail {

/// Element strides of a tile of `shape` read as `target` (right-aligned; 0 where broadcast).
inline std::vector<int64_t> broadcast_strides(const Shape &shape, const Shape &target) {
  std::vector<int64_t> strides(target.size(), 0);
  int64_t s = 1;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    std::size_t d = shape.size() - 1 - i, t = target.size() - 1 - i;
    strides[t] = shape[d] == 1 ? 0 : s;
    s *= shape[d];
  }
  return strides;
}

template <class R, class F, class... Ts, std::size_t... I>
Tile<R> elementwise_impl(std::index_sequence<I...>, F &f, const Tile<Ts> &...in) {
  Shape out{};
  ((out = broadcast_shapes(out, in.shape)), ...);
  Tile<R> result{out, std::vector<R>(std::size_t(shape_numel(out)))};
  const int64_t total = result.numel();
  if (((in.shape == out) && ...)) {
    for (int64_t i = 0; i < total; ++i)
      result.data[i] = convert<R>(f(in.data[i]...));
    return result;
  }
  constexpr std::size_t N = sizeof...(Ts);
  const std::array<std::vector<int64_t>, N> strides{broadcast_strides(in.shape, out)...};
  const int rank = int(out.size());
  std::vector<int64_t> index(rank, 0);
  std::array<int64_t, N> offset{};
  for (int64_t i = 0; i < total; ++i) {
    result.data[i] = convert<R>(f(in.data[offset[I]]...));
    for (int d = rank - 1; d >= 0; --d) {
      ++index[d];
      for (std::size_t k = 0; k < N; ++k)
        offset[k] += strides[k][d];
      if (index[d] < out[d])
        break;
      for (std::size_t k = 0; k < N; ++k)
        offset[k] -= strides[k][d] * out[d];
      index[d] = 0;
    }
  }
  return result;
}

/// A rank-0 tile holding a scalar, or the tile itself.
template <class X> decltype(auto) as_tile(const X &x) {
  if constexpr (is_tile_v<X>)
    return (x);
  else
    return Tile<X>{{}, {x}};
}

} // namespace detail

/// Applies f element-wise to broadcast tiles, converting each result to R.
template <class R, class F, class... Ts> Tile<R> elementwise(F f, const Tile<Ts> &...in) {
  return detail::elementwise_impl<R>(std::index_sequence_for<Ts...>{}, f, in...);
}

// --- creation -----------------------------------------------------------------------------------

/// A tile of `shape` filled with `value` (converted to T).
template <class T, class V = T> Tile<T> full(Shape shape, V value) {
  std::size_t n = std::size_t(shape_numel(shape));
  return Tile<T>{std::move(shape), std::vector<T>(n, convert<T>(value))};
}

/// A tile of `shape` filled with zeros.
template <class T> Tile<T> zeros(Shape shape) { return full<T>(std::move(shape), T{}); }

/// A rank-0 tile holding `value`.
template <class T> Tile<T> scalar(T value) { return Tile<T>{{}, {value}}; }

/// The 1-D tile [start, start + 1, …] of the given one-dimensional shape.
template <class T = int32_t> Tile<T> arange(Shape shape, int64_t start);

/// The 1-D tile [start, start + 1, …, end − 1] (int32 by default, as Triton's arange).
template <class T = int32_t> Tile<T> arange(int64_t start, int64_t end) {
  if (end < start)
    throw std::logic_error("ntc::cpu::arange: end " + std::to_string(end) + " < start " +
                           std::to_string(start));
  Tile<T> t{{end - start}, std::vector<T>(std::size_t(end - start))};
  for (int64_t i = start; i < end; ++i)
    t.data[i - start] = convert<T>(i);
  return t;
}

template <class T> Tile<T> arange(Shape shape, int64_t start) {
  if (shape.size() != 1)
    throw std::logic_error("ntc::cpu::arange: the shape must be one-dimensional");
  return arange<T>(start, start + shape[0]);
}

// --- elementwise --------------------------------------------------------------------------------

/// f applied to each element; the result type is f's return type.
template <class T, class F> auto map(const Tile<T> &a, F f) {
  using R = std::decay_t<std::invoke_result_t<F &, T>>;
  return elementwise<R>(f, a);
}

/// f applied to broadcast pairs of elements; the result type is f's return type.
template <class A, class B, class F> auto zip(const Tile<A> &a, const Tile<B> &b, F f) {
  using R = std::decay_t<std::invoke_result_t<F &, A, B>>;
  return elementwise<R>(f, a, b);
}

/// Element-wise conversion to U (see convert()).
template <class U, class T> Tile<U> cast(const Tile<T> &t) {
  if constexpr (std::is_same_v<U, T>)
    return t;
  else {
    Tile<U> r{t.shape, std::vector<U>(t.data.size())};
    for (std::size_t i = 0; i < t.data.size(); ++i)
      r.data[i] = convert<U>(T(t.data[i]));
    return r;
  }
}

/// cond ? a : b element-wise (cond nonzero = true); each argument a tile or a scalar, broadcast.
/// The result type is binary_result_t of a and b.
template <
    class C, class A, class B,
    std::enable_if_t<detail::is_operand_v<C> && detail::is_operand_v<A> && detail::is_operand_v<B>,
                     int> = 0>
Tile<binary_result_t<A, B>> where(const C &cond, const A &a, const B &b) {
  using R = binary_result_t<A, B>;
  using EC = element_t<C>;
  using EA = element_t<A>;
  using EB = element_t<B>;
  return elementwise<R>(
      [](EC c, EA x, EB y) { return convert<bool>(c) ? convert<R>(x) : convert<R>(y); },
      detail::as_tile(cond), detail::as_tile(a), detail::as_tile(b));
}

namespace detail {

/// Unsigned type at least as wide as C for wrapping integer arithmetic.
template <class C>
using wrap_t = std::conditional_t<(sizeof(C) <= sizeof(uint32_t)), uint32_t, uint64_t>;

struct add_op {
  template <class C> C operator()(C a, C b) const {
    if constexpr (is_integer_v<C>)
      return C(wrap_t<C>(a) + wrap_t<C>(b));
    else
      return C(a + b);
  }
};
struct sub_op {
  template <class C> C operator()(C a, C b) const {
    if constexpr (is_integer_v<C>)
      return C(wrap_t<C>(a) - wrap_t<C>(b));
    else
      return C(a - b);
  }
};
struct mul_op {
  template <class C> C operator()(C a, C b) const {
    if constexpr (is_integer_v<C>)
      return C(wrap_t<C>(a) * wrap_t<C>(b));
    else
      return C(a * b);
  }
};
struct div_op {
  template <class C> C operator()(C a, C b) const {
    static_assert(!std::is_same_v<C, bool>, "ntc::cpu: division of bool tiles");
    if constexpr (is_integer_v<C>) {
      if (b == 0)
        return 0;
      if constexpr (std::is_signed_v<C>)
        if (a == std::numeric_limits<C>::min() && b == C(-1))
          return a;
      return C(a / b);
    } else
      return C(a / b);
  }
};
struct mod_op {
  template <class C> C operator()(C a, C b) const {
    static_assert(!std::is_same_v<C, bool>, "ntc::cpu: remainder of bool tiles");
    if constexpr (is_integer_v<C>) {
      if (b == 0)
        return 0;
      if constexpr (std::is_signed_v<C>)
        if (b == C(-1))
          return 0;
      return C(a % b);
    } else
      return std::fmod(a, b);
  }
};
struct and_op {
  template <class C> C operator()(C a, C b) const {
    static_assert(std::is_integral_v<C>, "ntc::cpu: & needs integer or bool tiles");
    return C(a & b);
  }
};
struct or_op {
  template <class C> C operator()(C a, C b) const {
    static_assert(std::is_integral_v<C>, "ntc::cpu: | needs integer or bool tiles");
    return C(a | b);
  }
};
struct xor_op {
  template <class C> C operator()(C a, C b) const {
    static_assert(std::is_integral_v<C>, "ntc::cpu: ^ needs integer or bool tiles");
    return C(a ^ b);
  }
};

/// Arithmetic: both operands converted to R, computed in compute_t<R>, converted back.
template <class Op, class X, class Y> Tile<binary_result_t<X, Y>> arith(const X &x, const Y &y) {
  using R = binary_result_t<X, Y>;
  using C = compute_t<R>;
  return elementwise<R>(
      [](element_t<X> a, element_t<Y> b) {
        return Op{}(C(widen(convert<R>(a))), C(widen(convert<R>(b))));
      },
      as_tile(x), as_tile(y));
}

/// Comparison: both operands converted to their common type, compared in its compute type.
template <class Cmp, class X, class Y> Tile<bool> compare(const X &x, const Y &y) {
  using R = binary_result_t<X, Y>;
  return elementwise<bool>(
      [](element_t<X> a, element_t<Y> b) {
        return Cmp{}(widen(convert<R>(a)), widen(convert<R>(b)));
      },
      as_tile(x), as_tile(y));
}

/// Enables an operator when at least one operand is a tile and both are operands.
template <class X, class Y>
using enable_binary_t =
    std::enable_if_t<(is_tile_v<X> || is_tile_v<Y>)&&is_operand_v<X> && is_operand_v<Y>, int>;

} // namespace detail

/// a + b element-wise (tiles or a tile and a scalar, broadcast).
template <class X, class Y, detail::enable_binary_t<X, Y> = 0>
auto operator+(const X &a, const Y &b) {
  return detail::arith<detail::add_op>(a, b);
}
/// a − b element-wise.
template <class X, class Y, detail::enable_binary_t<X, Y> = 0>
auto operator-(const X &a, const Y &b) {
  return detail::arith<detail::sub_op>(a, b);
}
/// a · b element-wise.
template <class X, class Y, detail::enable_binary_t<X, Y> = 0>
auto operator*(const X &a, const Y &b) {
  return detail::arith<detail::mul_op>(a, b);
}
/// a / b element-wise (integers truncate; integer division by zero gives 0).
template <class X, class Y, detail::enable_binary_t<X, Y> = 0>
auto operator/(const X &a, const Y &b) {
  return detail::arith<detail::div_op>(a, b);
}
/// a % b element-wise (C semantics for integers, fmod for floats; integer % 0 gives 0).
template <class X, class Y, detail::enable_binary_t<X, Y> = 0>
auto operator%(const X &a, const Y &b) {
  return detail::arith<detail::mod_op>(a, b);
}
/// a & b element-wise (integer or bool tiles; logical and for bool).
template <class X, class Y, detail::enable_binary_t<X, Y> = 0>
auto operator&(const X &a, const Y &b) {
  return detail::arith<detail::and_op>(a, b);
}
/// a | b element-wise (integer or bool tiles; logical or for bool).
template <class X, class Y, detail::enable_binary_t<X, Y> = 0>
auto operator|(const X &a, const Y &b) {
  return detail::arith<detail::or_op>(a, b);
}
/// a ^ b element-wise (integer or bool tiles).
template <class X, class Y, detail::enable_binary_t<X, Y> = 0>
auto operator^(const X &a, const Y &b) {
  return detail::arith<detail::xor_op>(a, b);
}
/// a == b element-wise, as a bool tile.
template <class X, class Y, detail::enable_binary_t<X, Y> = 0>
Tile<bool> operator==(const X &a, const Y &b) {
  return detail::compare<std::equal_to<>>(a, b);
}
/// a != b element-wise, as a bool tile.
template <class X, class Y, detail::enable_binary_t<X, Y> = 0>
Tile<bool> operator!=(const X &a, const Y &b) {
  return detail::compare<std::not_equal_to<>>(a, b);
}
/// a < b element-wise, as a bool tile.
template <class X, class Y, detail::enable_binary_t<X, Y> = 0>
Tile<bool> operator<(const X &a, const Y &b) {
  return detail::compare<std::less<>>(a, b);
}
/// a <= b element-wise, as a bool tile.
template <class X, class Y, detail::enable_binary_t<X, Y> = 0>
Tile<bool> operator<=(const X &a, const Y &b) {
  return detail::compare<std::less_equal<>>(a, b);
}
/// a > b element-wise, as a bool tile.
template <class X, class Y, detail::enable_binary_t<X, Y> = 0>
Tile<bool> operator>(const X &a, const Y &b) {
  return detail::compare<std::greater<>>(a, b);
}
/// a >= b element-wise, as a bool tile.
template <class X, class Y, detail::enable_binary_t<X, Y> = 0>
Tile<bool> operator>=(const X &a, const Y &b) {
  return detail::compare<std::greater_equal<>>(a, b);
}

/// −a element-wise (integers wrap).
template <class T> Tile<T> operator-(const Tile<T> &a) {
  return map(a, [](T x) -> T {
    if constexpr (is_integer_v<T>)
      return T(detail::wrap_t<T>(0) - detail::wrap_t<T>(x));
    else if constexpr (std::is_same_v<T, bool>)
      return x;
    else
      return convert<T>(-widen(x));
  });
}
/// +a.
template <class T> Tile<T> operator+(const Tile<T> &a) { return a; }
/// Logical not: a == 0 element-wise, as a bool tile.
template <class T> Tile<bool> operator!(const Tile<T> &a) {
  return map(a, [](T x) { return !convert<bool>(x); });
}
/// Bitwise not of an integer tile.
template <class T> Tile<T> operator~(const Tile<T> &a) {
  static_assert(is_integer_v<T>, "ntc::cpu: ~ needs an integer tile");
  return map(a, [](T x) { return T(~x); });
}

// --- shape operations ---------------------------------------------------------------------------

/// `t` broadcast to `shape` (which must be the broadcast of t.shape and `shape`).
template <class T> Tile<T> broadcast_to(const Tile<T> &t, const Shape &shape) {
  if (broadcast_shapes(t.shape, shape) != shape)
    throw std::logic_error("ntc::cpu::broadcast_to: cannot broadcast shape " +
                           shape_string(t.shape) + " to " + shape_string(shape));
  if (t.shape == shape)
    return t;
  const Tile<bool> target{shape, std::vector<bool>(std::size_t(shape_numel(shape)))};
  return elementwise<T>([](T x, bool) { return x; }, t, target);
}

/// `t` with a size-1 dimension inserted at `axis` (in [−rank − 1, rank]; negative counts from
/// the end).
template <class T> Tile<T> expand_dims(Tile<T> t, int axis) {
  const int rank = t.rank();
  if (axis < -(rank + 1) || axis > rank)
    throw std::logic_error("ntc::cpu::expand_dims: axis " + std::to_string(axis) +
                           " out of range for rank " + std::to_string(rank));
  if (axis < 0)
    axis += rank + 1;
  t.shape.insert(t.shape.begin() + axis, 1);
  return t;
}

/// `t` with a new shape of the same number of elements (one extent may be −1).
template <class T> Tile<T> reshape(Tile<T> t, Shape shape) {
  int64_t known = 1;
  int unknown = -1;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == -1 && unknown < 0)
      unknown = int(d);
    else
      known *= shape[d];
  }
  if (unknown >= 0 && known > 0 && t.numel() % known == 0)
    shape[unknown] = t.numel() / known;
  if (shape_numel(shape) != t.numel())
    throw std::logic_error("ntc::cpu::reshape: cannot reshape " + shape_string(t.shape) + " to " +
                           shape_string(shape));
  t.shape = std::move(shape);
  return t;
}

/// The dimensions of `t` reordered: result dimension i is input dimension dims[i].
template <class T> Tile<T> permute(const Tile<T> &t, const std::vector<int> &dims) {
  const int rank = t.rank();
  std::vector<bool> seen(rank, false);
  bool ok = int(dims.size()) == rank;
  for (int d : dims) {
    ok = ok && d >= 0 && d < rank && !seen[d];
    if (ok)
      seen[d] = true;
  }
  if (!ok)
    throw std::logic_error("ntc::cpu::permute: not a permutation of " + std::to_string(rank) +
                           " dimensions");
  std::vector<int64_t> in_stride(rank, 1);
  for (int d = rank - 2; d >= 0; --d)
    in_stride[d] = in_stride[d + 1] * t.shape[d + 1];
  Shape out(rank);
  std::vector<int64_t> stride(rank);
  for (int i = 0; i < rank; ++i) {
    out[i] = t.shape[dims[i]];
    stride[i] = in_stride[dims[i]];
  }
  Tile<T> r{out, std::vector<T>(t.data.size())};
  std::vector<int64_t> index(rank, 0);
  int64_t offset = 0;
  for (int64_t i = 0; i < r.numel(); ++i) {
    r.data[i] = t.data[offset];
    for (int d = rank - 1; d >= 0; --d) {
      ++index[d];
      offset += stride[d];
      if (index[d] < out[d])
        break;
      offset -= stride[d] * out[d];
      index[d] = 0;
    }
  }
  return r;
}

/// Transpose of a 2-D tile.
template <class T> Tile<T> trans(const Tile<T> &t) {
  if (t.rank() != 2)
    throw std::logic_error("ntc::cpu::trans: expected a 2-D tile, got shape " +
                           shape_string(t.shape));
  return permute(t, {1, 0});
}

// --- math ---------------------------------------------------------------------------------------

#define NTC_CPU_FLOAT_FUNCTION(name, expression)                                                   \
  template <class T, std::enable_if_t<is_element_v<T>, int> = 0> T name(T value) {                 \
    static_assert(is_floating_v<T>, "ntc::cpu::" #name " needs a floating element type");          \
    using C = compute_t<T>;                                                                        \
    const C x = widen(value);                                                                      \
    return convert<T>(C(expression));                                                              \
  }                                                                                                \
  template <class T> Tile<T> name(const Tile<T> &t) {                                              \
    return map(t, [](T value) { return name(value); });                                            \
  }

// The math functions of the operation table (ntc/common/operations.inc), each for a tile and for
// one element: floating elements only; float16/bfloat16 are computed in float and rounded once.
#define NTC_MATH(name, cpu, device_float, device_double) NTC_CPU_FLOAT_FUNCTION(name, cpu)
#include <ntc/common/operations.inc>
#undef NTC_CPU_FLOAT_FUNCTION

/// |x| (integers wrap: abs(INT_MIN) = INT_MIN; unsigned and bool unchanged). Scalar.
template <class T, std::enable_if_t<is_element_v<T>, int> = 0> T abs(T value) {
  if constexpr (is_floating_v<T>)
    return convert<T>(std::fabs(widen(value)));
  else if constexpr (std::is_signed_v<T>)
    return value < 0 ? T(detail::wrap_t<T>(0) - detail::wrap_t<T>(value)) : value;
  else
    return value;
}
/// |x| element-wise.
template <class T> Tile<T> abs(const Tile<T> &t) {
  return map(t, [](T value) { return abs(value); });
}

/// Largest integer ≤ x (integers unchanged). Scalar.
template <class T, std::enable_if_t<is_element_v<T>, int> = 0> T floor(T value) {
  if constexpr (is_floating_v<T>)
    return convert<T>(std::floor(widen(value)));
  else
    return value;
}
/// floor element-wise.
template <class T> Tile<T> floor(const Tile<T> &t) {
  return map(t, [](T value) { return floor(value); });
}

/// Smallest integer ≥ x (integers unchanged). Scalar.
template <class T, std::enable_if_t<is_element_v<T>, int> = 0> T ceil(T value) {
  if constexpr (is_floating_v<T>)
    return convert<T>(std::ceil(widen(value)));
  else
    return value;
}
/// ceil element-wise.
template <class T> Tile<T> ceil(const Tile<T> &t) {
  return map(t, [](T value) { return ceil(value); });
}

namespace detail {
struct pow_op {
  template <class C> C operator()(C a, C b) const {
    if constexpr (is_floating_v<C>)
      return C(std::pow(a, b));
    else
      return convert<C>(std::pow(double(a), double(b)));
  }
};
struct maximum_op {
  template <class C> C operator()(C a, C b) const {
    if (is_nan(a))
      return a;
    if (is_nan(b))
      return b;
    return a < b ? b : a;
  }
};
struct minimum_op {
  template <class C> C operator()(C a, C b) const {
    if (is_nan(a))
      return a;
    if (is_nan(b))
      return b;
    return b < a ? b : a;
  }
};
} // namespace detail

/// a^b element-wise (tiles or a tile and a scalar; integers computed in double and converted).
template <class X, class Y, detail::enable_binary_t<X, Y> = 0> auto pow(const X &a, const Y &b) {
  return detail::arith<detail::pow_op>(a, b);
}
/// Element-wise maximum; NaN propagates.
template <class X, class Y, detail::enable_binary_t<X, Y> = 0>
auto maximum(const X &a, const Y &b) {
  return detail::arith<detail::maximum_op>(a, b);
}
/// Element-wise minimum; NaN propagates.
template <class X, class Y, detail::enable_binary_t<X, Y> = 0>
auto minimum(const X &a, const Y &b) {
  return detail::arith<detail::minimum_op>(a, b);
}
/// minimum(maximum(x, lo), hi) element-wise, in x's element type; NaN in x propagates.
template <class T, class L, class H> Tile<T> clamp(const Tile<T> &x, const L &lo, const H &hi) {
  return cast<T>(minimum(cast<T>(maximum(x, lo)), hi));
}

// --- reductions ---------------------------------------------------------------------------------

namespace detail {
template <class T> auto sum_type() {
  if constexpr (std::is_same_v<T, bool> ||
                (is_integer_v<T> && std::is_signed_v<T> && sizeof(T) < 4))
    return int32_t{};
  else if constexpr (is_integer_v<T> && sizeof(T) < 4)
    return uint32_t{};
  else
    return T{};
}

/// Reduces `t` over one axis, or over all elements when `axis` is null: f(t, start, stride, n)
/// returns the result for the n elements t.data[start + i·stride].
template <class R, class T, class F> Tile<R> reduce(const Tile<T> &t, const int *axis, F f) {
  if (!axis)
    return Tile<R>{{}, {f(t, int64_t(0), int64_t(1), t.numel())}};
  const int rank = t.rank();
  int a = *axis;
  if (a < -rank || a >= rank)
    throw std::logic_error("ntc::cpu: reduction axis " + std::to_string(a) +
                           " out of range for shape " + shape_string(t.shape));
  if (a < 0)
    a += rank;
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < a; ++d)
    outer *= t.shape[d];
  for (int d = a + 1; d < rank; ++d)
    inner *= t.shape[d];
  const int64_t n = t.shape[a];
  Shape shape = t.shape;
  shape.erase(shape.begin() + a);
  Tile<R> r{shape, std::vector<R>(std::size_t(outer * inner))};
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i)
      r.data[o * inner + i] = f(t, o * n * inner + i, inner, n);
  return r;
}

template <class T> auto sum_of(const Tile<T> &t, int64_t start, int64_t stride, int64_t n) {
  using R = decltype(sum_type<T>());
  if constexpr (is_floating_v<T>) {
    using Acc = std::conditional_t<std::is_same_v<T, long double>, long double, double>;
    Acc acc = 0;
    for (int64_t i = 0; i < n; ++i)
      acc += Acc(widen(T(t.data[start + i * stride])));
    return convert<R>(acc);
  } else {
    using W = uint64_t; // wraps like the GPU's integer adds
    W acc = 0;
    for (int64_t i = 0; i < n; ++i)
      acc += W(R(t.data[start + i * stride]));
    return R(acc);
  }
}

/// Index (relative to start) of the extreme element; NaN counts as the extreme.
template <bool Max, class T>
int64_t extreme_index(const Tile<T> &t, int64_t start, int64_t stride, int64_t n) {
  if (n == 0)
    throw std::logic_error("ntc::cpu: max/min/argmax/argmin of an empty tile");
  int64_t best = 0;
  auto best_value = widen(T(t.data[start]));
  if (is_nan(best_value))
    return 0;
  for (int64_t i = 1; i < n; ++i) {
    auto v = widen(T(t.data[start + i * stride]));
    if (is_nan(v))
      return i;
    if (Max ? best_value < v : v < best_value) {
      best = i;
      best_value = v;
    }
  }
  return best;
}

/// The extreme element (the first NaN if any); of a +0 and a −0, max takes +0 and min −0.
template <bool Max, class T>
T extreme_value(const Tile<T> &t, int64_t start, int64_t stride, int64_t n) {
  const T first = T(t.data[start + extreme_index<Max>(t, start, stride, n) * stride]);
  const auto w = widen(first);
  if (w != 0 || is_nan(w))
    return first;
  for (int64_t i = 0; i < n; ++i) { // a zero: the sign decides among the zeros
    const T v = T(t.data[start + i * stride]);
    if (widen(v) == 0 && std::signbit(double(widen(v))) != Max)
      return v;
  }
  return first;
}
} // namespace detail

/// Sum type: int32 for bool, int8 and int16; uint32 for uint8 and uint16; T otherwise.
template <class T> using sum_t = decltype(detail::sum_type<T>());

/// Sum of all elements (rank 0). Floating elements accumulate in double (sequentially) and round
/// once; integers wrap.
template <class T> Tile<sum_t<T>> sum(const Tile<T> &t) {
  return detail::reduce<sum_t<T>>(t, nullptr, detail::sum_of<T>);
}
/// Sum over `axis` (negative counts from the end); that dimension is removed.
template <class T> Tile<sum_t<T>> sum(const Tile<T> &t, int axis) {
  return detail::reduce<sum_t<T>>(t, &axis, detail::sum_of<T>);
}

/// Largest element (rank 0); NaN propagates; +0 is larger than −0. Throws on an empty tile.
template <class T> Tile<T> max(const Tile<T> &t) {
  return detail::reduce<T>(t, nullptr, detail::extreme_value<true, T>);
}
/// Largest element over `axis`; NaN propagates; +0 is larger than −0.
template <class T> Tile<T> max(const Tile<T> &t, int axis) {
  return detail::reduce<T>(t, &axis, detail::extreme_value<true, T>);
}
/// Smallest element (rank 0); NaN propagates; −0 is smaller than +0. Throws on an empty tile.
template <class T> Tile<T> min(const Tile<T> &t) {
  return detail::reduce<T>(t, nullptr, detail::extreme_value<false, T>);
}
/// Smallest element over `axis`; NaN propagates; −0 is smaller than +0.
template <class T> Tile<T> min(const Tile<T> &t, int axis) {
  return detail::reduce<T>(t, &axis, detail::extreme_value<false, T>);
}
/// Row-major index of the first largest element (first NaN if any), as a rank-0 int32 tile.
template <class T> Tile<int32_t> argmax(const Tile<T> &t) {
  return detail::reduce<int32_t>(t, nullptr,
                                 [](const Tile<T> &x, int64_t s, int64_t st, int64_t n) {
                                   return int32_t(detail::extreme_index<true>(x, s, st, n));
                                 });
}
/// Index along `axis` of the first largest element (first NaN if any); that dimension is removed.
template <class T> Tile<int32_t> argmax(const Tile<T> &t, int axis) {
  return detail::reduce<int32_t>(t, &axis, [](const Tile<T> &x, int64_t s, int64_t st, int64_t n) {
    return int32_t(detail::extreme_index<true>(x, s, st, n));
  });
}
/// Row-major index of the first smallest element (first NaN if any), as a rank-0 int32 tile.
template <class T> Tile<int32_t> argmin(const Tile<T> &t) {
  return detail::reduce<int32_t>(t, nullptr,
                                 [](const Tile<T> &x, int64_t s, int64_t st, int64_t n) {
                                   return int32_t(detail::extreme_index<false>(x, s, st, n));
                                 });
}
/// Index along `axis` of the first smallest element (first NaN if any).
template <class T> Tile<int32_t> argmin(const Tile<T> &t, int axis) {
  return detail::reduce<int32_t>(t, &axis, [](const Tile<T> &x, int64_t s, int64_t st, int64_t n) {
    return int32_t(detail::extreme_index<false>(x, s, st, n));
  });
}

// --- dot ----------------------------------------------------------------------------------------

namespace detail {
template <class TA, class TB> auto dot_acc_type() {
  using C = promote_t<TA, TB>;
  if constexpr (is_small_float_v<C>)
    return float{};
  else if constexpr (std::is_same_v<C, bool> || (is_integer_v<C> && sizeof(C) < 4))
    return std::conditional_t < std::is_unsigned_v<C> && !std::is_same_v<C, bool>, uint32_t,
           int32_t > {};
  else
    return C{};
}

/// C[b] += A[b] · B[b] for `batch` row-major M×K and K×N operands already converted to Acc.
template <class Acc>
void gemm(int64_t batch, int64_t M, int64_t N, int64_t K, const Acc *a, const Acc *b, Acc *c) {
  for (int64_t p = 0; p < batch; ++p) {
    const Acc *ap = a + p * M * K;
    const Acc *bp = b + p * K * N;
    Acc *cp = c + p * M * N;
    for (int64_t i = 0; i < M; ++i) {
      Acc *__restrict crow = cp + i * N;
      for (int64_t k = 0; k < K; ++k) {
        const Acc aik = ap[i * K + k];
        const Acc *__restrict brow = bp + k * N;
        if constexpr (is_integer_v<Acc>) {
          for (int64_t j = 0; j < N; ++j)
            crow[j] = Acc(wrap_t<Acc>(crow[j]) + wrap_t<Acc>(aik) * wrap_t<Acc>(brow[j]));
        } else {
          for (int64_t j = 0; j < N; ++j)
            crow[j] += aik * brow[j];
        }
      }
    }
  }
}

template <class Acc, class T> std::vector<Acc> converted(const Tile<T> &t) {
  std::vector<Acc> out(t.data.size());
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = convert<Acc>(T(t.data[i]));
  return out;
}

/// Checks the operand shapes of dot and returns {batch, M, N, K}.
inline std::array<int64_t, 4> dot_sizes(const Shape &a, const Shape &b) {
  bool ok = a.size() == b.size() && (a.size() == 2 || a.size() == 3);
  if (ok && a.size() == 3)
    ok = a[0] == b[0];
  if (ok)
    ok = a[a.size() - 1] == b[b.size() - 2];
  if (!ok)
    throw std::logic_error("ntc::cpu::dot: incompatible shapes " + shape_string(a) + " and " +
                           shape_string(b));
  const std::size_t r = a.size();
  return {r == 3 ? a[0] : 1, a[r - 2], b[r - 1], a[r - 1]};
}

template <class Acc, class TA, class TB>
using dot_result_t = std::conditional_t<std::is_void_v<Acc>, decltype(dot_acc_type<TA, TB>()), Acc>;
} // namespace detail

/// Default accumulator of dot: float for 16- and 8-bit floating inputs, int32 (uint32) for
/// narrow integers, the promoted input type otherwise.
template <class TA, class TB> using dot_acc_t = decltype(detail::dot_acc_type<TA, TB>());

/// Matrix product of (M×K) and (K×N) tiles (or batched (B×M×K)·(B×K×N)), accumulated in `Acc`
/// (dot_acc_t by default) with each output summed over k in order; the result has type Acc.
template <class Acc = void, class TA, class TB>
Tile<detail::dot_result_t<Acc, TA, TB>> dot(const Tile<TA> &a, const Tile<TB> &b) {
  using R = detail::dot_result_t<Acc, TA, TB>;
  static_assert(!std::is_same_v<R, bool>, "ntc::cpu::dot: bool accumulator");
  const auto [batch, M, N, K] = detail::dot_sizes(a.shape, b.shape);
  Shape shape = a.rank() == 3 ? Shape{batch, M, N} : Shape{M, N};
  Tile<R> c{shape, std::vector<R>(std::size_t(batch * M * N), R(0))};
  const std::vector<R> av = detail::converted<R>(a), bv = detail::converted<R>(b);
  detail::gemm<R>(batch, M, N, K, av.data(), bv.data(), c.data.data());
  return c;
}

/// acc + a · b (Triton's dot(a, b, acc)), accumulated in Acc.
template <class Acc, class TA, class TB>
Tile<Acc> dot(const Tile<TA> &a, const Tile<TB> &b, Tile<Acc> acc) {
  static_assert(!std::is_same_v<Acc, bool>, "ntc::cpu::dot: bool accumulator");
  const auto [batch, M, N, K] = detail::dot_sizes(a.shape, b.shape);
  Shape shape = a.rank() == 3 ? Shape{batch, M, N} : Shape{M, N};
  if (acc.shape != shape)
    throw std::logic_error("ntc::cpu::dot: accumulator shape " + shape_string(acc.shape) +
                           ", expected " + shape_string(shape));
  const std::vector<Acc> av = detail::converted<Acc>(a), bv = detail::converted<Acc>(b);
  detail::gemm<Acc>(batch, M, N, K, av.data(), bv.data(), acc.data.data());
  return acc;
}

// --- Tile members and printing ------------------------------------------------------------------

template <class T> T Tile<T>::item() const {
  if (data.size() != 1)
    throw std::logic_error("ntc::cpu::Tile::item: tile of shape " + shape_string(shape) + " has " +
                           std::to_string(data.size()) + " elements");
  return data[0];
}

template <class T> template <class U> Tile<U> Tile<T>::to() const { return cast<U>(*this); }

namespace detail {
/// *self = broadcast(*self op other) converted back to T, keeping self's shape.
template <class Op, class T, class U> void compound(Tile<T> &self, const U &other) {
  auto r = arith<Op>(self, other);
  if (r.shape != self.shape)
    throw std::logic_error("ntc::cpu: compound assignment would change shape " +
                           shape_string(self.shape) + " to " + shape_string(r.shape));
  self = cast<T>(r);
}
} // namespace detail

template <class T> template <class U> Tile<T> &Tile<T>::operator+=(const U &other) {
  detail::compound<detail::add_op>(*this, other);
  return *this;
}
template <class T> template <class U> Tile<T> &Tile<T>::operator-=(const U &other) {
  detail::compound<detail::sub_op>(*this, other);
  return *this;
}
template <class T> template <class U> Tile<T> &Tile<T>::operator*=(const U &other) {
  detail::compound<detail::mul_op>(*this, other);
  return *this;
}
template <class T> template <class U> Tile<T> &Tile<T>::operator/=(const U &other) {
  detail::compound<detail::div_op>(*this, other);
  return *this;
}
template <class T> template <class U> Tile<T> &Tile<T>::operator%=(const U &other) {
  detail::compound<detail::mod_op>(*this, other);
  return *this;
}
template <class T> template <class U> Tile<T> &Tile<T>::operator&=(const U &other) {
  detail::compound<detail::and_op>(*this, other);
  return *this;
}
template <class T> template <class U> Tile<T> &Tile<T>::operator|=(const U &other) {
  detail::compound<detail::or_op>(*this, other);
  return *this;
}
template <class T> template <class U> Tile<T> &Tile<T>::operator^=(const U &other) {
  detail::compound<detail::xor_op>(*this, other);
  return *this;
}

/// A readable rendering for debugging and test messages: "Tile[2, 2]{1, 2, 3, 4}" (floating
/// elements printed as float/double, integers as integers).
template <class T> std::string to_string(const Tile<T> &t) {
  std::ostringstream os;
  os << "Tile" << shape_string(t.shape) << "{";
  for (std::size_t i = 0; i < t.data.size(); ++i) {
    if (i)
      os << ", ";
    if constexpr (std::is_integral_v<T> && sizeof(T) == 1)
      os << int(t.data[i]);
    else
      os << widen(T(t.data[i]));
  }
  os << "}";
  return os.str();
}

} // namespace ntc::cpu

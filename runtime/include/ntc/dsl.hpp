//===- ntc/dsl.hpp - the ntc kernel DSL -------------------------------------------*- C++ -*-===//
//
// The language in which ntc kernels are written: NineToothed's arrange-and-apply model in C++20.
//
// A kernel is an *arrangement* (NT_ARRANGEMENT), which cuts each parameter (an nt::Tensor) into
// a hierarchy of tiles, and an *application* (NT_APPLICATION), the serial code one program runs
// on its tiles (nt::Tile values); NT_KERNEL ties the two to a list of parameters.
//
// This header only *declares*. Nothing in it is ever executed: `ntc` reads kernel sources
// through Clang's AST and interprets/translates the calls by name, while any C++20 compiler can
// check them (so editors and clangd understand kernels). Kernel sources are never linked.
//
// Conventions the ntc front end relies on:
//  * `ntc` defines __NTC__; then NT_ARRANGEMENT, NT_APPLICATION and NT_KERNEL attach
//    [[clang::annotate("nt::arrangement" | "nt::application" | "nt::kernel")]] to the function.
//  * NT_KERNEL(name, arrangement, application, parameters...) defines the inline function
//    `ntc_kernel_<name>` whose body is one call `::nt::kernel("<name>", arrangement,
//    application, parameters...)`.
//  * A defaulted argument (CXXDefaultArgExpr) means "not given": default values below are
//    sentinels, never semantics.
//
//===----------------------------------------------------------------------------------------===//

#ifndef NTC_DSL_HPP
#define NTC_DSL_HPP

#include <cstdint>
#include <initializer_list>
#include <vector>

#if defined(__NTC__) && defined(__clang__)
/// Marks a function as an arrangement (parameters: nt::Tensor; returns nt::arrange(...)).
#define NT_ARRANGEMENT [[clang::annotate("nt::arrangement")]]
/// Marks a function as an application (parameters: nt::Tile; a nt::Tile & is an out parameter).
#define NT_APPLICATION [[clang::annotate("nt::application")]]
/// Internal: the annotation NT_KERNEL puts on the function it defines.
#define NTC_DETAIL_KERNEL_ANNOTATION [[clang::annotate("nt::kernel")]]
#else
/// Marks a function as an arrangement (parameters: nt::Tensor; returns nt::arrange(...)).
#define NT_ARRANGEMENT
/// Marks a function as an application (parameters: nt::Tile; a nt::Tile & is an out parameter).
#define NT_APPLICATION
/// Internal: the annotation NT_KERNEL puts on the function it defines.
#define NTC_DETAIL_KERNEL_ANNOTATION
#endif

/// Declares the kernel `name`: `arrangement` and `application` applied to the parameters
/// (nt::Tensor, nt::Scalar(...) or nt::Constexpr(...) expressions, one per function parameter).
#define NT_KERNEL(name, arrangement, application, ...)                                             \
  NTC_DETAIL_KERNEL_ANNOTATION inline void ntc_kernel_##name() {                                   \
    ::nt::kernel(#name, arrangement, application, __VA_ARGS__);                                    \
  }

namespace nt {

//===- Data types -----------------------------------------------------------------------------===//

/// Element type of a tensor or a tile.
enum class DType {
  float16,     ///< IEEE binary16.
  bfloat16,    ///< bfloat16 (8-bit exponent, 7-bit mantissa).
  float32,     ///< IEEE binary32.
  float64,     ///< IEEE binary64.
  int8,        ///< Signed 8-bit integer.
  int16,       ///< Signed 16-bit integer.
  int32,       ///< Signed 32-bit integer.
  int64,       ///< Signed 64-bit integer.
  uint8,       ///< Unsigned 8-bit integer.
  uint16,      ///< Unsigned 16-bit integer.
  uint32,      ///< Unsigned 32-bit integer.
  uint64,      ///< Unsigned 64-bit integer.
  bool_,       ///< Boolean (one byte in memory).
  float8_e4m3, ///< 8-bit float, 4-bit exponent, 3-bit mantissa (OCP e4m3fn).
  float8_e5m2, ///< 8-bit float, 5-bit exponent, 2-bit mantissa.
};

/// IEEE binary16.
inline constexpr DType float16 = DType::float16;
/// bfloat16.
inline constexpr DType bfloat16 = DType::bfloat16;
/// IEEE binary32.
inline constexpr DType float32 = DType::float32;
/// IEEE binary64.
inline constexpr DType float64 = DType::float64;
/// Signed 8-bit integer.
inline constexpr DType int8 = DType::int8;
/// Signed 16-bit integer.
inline constexpr DType int16 = DType::int16;
/// Signed 32-bit integer.
inline constexpr DType int32 = DType::int32;
/// Signed 64-bit integer.
inline constexpr DType int64 = DType::int64;
/// Unsigned 8-bit integer.
inline constexpr DType uint8 = DType::uint8;
/// Unsigned 16-bit integer.
inline constexpr DType uint16 = DType::uint16;
/// Unsigned 32-bit integer.
inline constexpr DType uint32 = DType::uint32;
/// Unsigned 64-bit integer.
inline constexpr DType uint64 = DType::uint64;
/// Boolean.
inline constexpr DType bool_ = DType::bool_;
/// 8-bit float e4m3.
inline constexpr DType float8_e4m3 = DType::float8_e4m3;
/// 8-bit float e5m2.
inline constexpr DType float8_e5m2 = DType::float8_e5m2;

//===- Symbols --------------------------------------------------------------------------------===//

/// A symbolic integer: a constant, a tensor extent, or a meta-parameter (nt::block_size).
/// Integers convert implicitly, so `{BM, -1}` mixes symbols and constants. Arithmetic is
/// symbolic and interpreted by ntc (the operators below are declared only).
class Symbol {
public:
  /// A constant.
  constexpr Symbol(std::int64_t value) : lower_(value), upper_(value) {}

  /// The meta-parameter's name; nullptr for a constant.
  constexpr const char *name() const { return name_; }
  /// Smallest allowed value (the value itself for a constant).
  constexpr std::int64_t lower_bound() const { return lower_; }
  /// Largest allowed value (the value itself for a constant).
  constexpr std::int64_t upper_bound() const { return upper_; }

private:
  constexpr Symbol(const char *name, std::int64_t lower, std::int64_t upper)
      : name_(name), lower_(lower), upper_(upper) {}

  friend constexpr Symbol block_size(const char *name, std::int64_t lower, std::int64_t upper);
  friend constexpr Symbol block_size(const char *name, std::int64_t value);

  const char *name_ = nullptr;
  std::int64_t lower_;
  std::int64_t upper_;
};

/// A tuned meta-parameter named `name`: one variant per power of two in [lower, upper].
constexpr Symbol block_size(const char *name, std::int64_t lower, std::int64_t upper) {
  return Symbol(name, lower, upper);
}

/// A fixed meta-parameter named `name` (a compile-time constant of the generated code).
constexpr Symbol block_size(const char *name, std::int64_t value) {
  return Symbol(name, value, value);
}

/// Symbolic sum.
Symbol operator+(Symbol lhs, Symbol rhs);
/// Symbolic difference.
Symbol operator-(Symbol lhs, Symbol rhs);
/// Symbolic product.
Symbol operator*(Symbol lhs, Symbol rhs);
/// Symbolic floor division.
Symbol operator/(Symbol lhs, Symbol rhs);
/// Symbolic remainder.
Symbol operator%(Symbol lhs, Symbol rhs);
/// Symbolic negation.
Symbol operator-(Symbol value);
/// Symbolic equality.
bool operator==(Symbol lhs, Symbol rhs);
/// Symbolic inequality.
bool operator!=(Symbol lhs, Symbol rhs);
/// Symbolic less-than (e.g. a `for` bound: `k < lhs.shape(0)`).
bool operator<(Symbol lhs, Symbol rhs);
/// Symbolic less-or-equal.
bool operator<=(Symbol lhs, Symbol rhs);
/// Symbolic greater-than.
bool operator>(Symbol lhs, Symbol rhs);
/// Symbolic greater-or-equal.
bool operator>=(Symbol lhs, Symbol rhs);

/// A list of extents, e.g. `{BM, BN}` or `t.shape()`.
class Shape {
public:
  /// The extents, outermost first.
  Shape(std::initializer_list<Symbol> extents);
  /// Extent `d` (negative counts from the end).
  Symbol operator[](std::int64_t d) const;
  /// Number of extents.
  std::int64_t size() const;
};

//===- Arrangement side -----------------------------------------------------------------------===//

/// The absent value of a slice bound (Python's `None`).
struct NoneType {};
/// The absent value of a slice bound.
inline constexpr NoneType none{};

/// The type of nt::inferred.
struct Inferred {};
/// `t.axes(nt::inferred)`: the compiler names the dims from the application.
inline constexpr Inferred inferred{};

/// A slice bound or step of Tensor::slice: an integer, a symbol, or nt::none.
class Index {
public:
  /// No bound (the default of the dimension).
  Index(NoneType);
  /// An integer bound (negative counts from the end).
  Index(std::int64_t value);
  /// A symbolic bound.
  Index(Symbol value);
};

/// One dimension's padding for Tensor::pad: `{left, right}` elements (masked, read `other`).
struct Padding {
  Symbol left;  ///< Elements added before the first one.
  Symbol right; ///< Elements added after the last one.
};

/// A symbolic tensor of the arrangement: one level of an arranged hierarchy, whose `dtype()`
/// is the next level in. Every op returns a new tensor and leaves its operand unchanged.
class Tensor {
public:
  /// A kernel parameter of rank `ndim` with elements of type `dtype`; sizes are run-time.
  Tensor(int ndim, DType dtype);

  /// The value a masked load reads (0 when not given).
  Tensor other(double value) const;
  /// Declares that extent `dim` never exceeds `bound` (bounds power-of-two variants).
  Tensor upper_bound(int dim, std::int64_t bound) const;
  /// NineToothed's `constexpr` size option, accepted and recorded; extent `dim` stays a run-time
  /// size of the generated code (upper_bound gives compile-time tile extents).
  Tensor constexpr_dim(int dim) const;
  /// Makes dimension `dim` (1 or more) jagged, as NineToothed's `Tensor(jagged_dim=dim)` and
  /// PyTorch's nested jagged tensors: its extent differs per entry of dimension 0 (the batch).
  /// The generated function takes the values (a tensor of rank ndim - 1, the sequences one
  /// after another along dimension `dim` - 1) and `<name>_offsets` (int64, batch + 1 entries,
  /// where each sequence starts); in the arrangement extent `dim` is the longest sequence, and
  /// accesses past the end of a batch entry's own sequence are masked. Each program must read
  /// one batch entry: the batch dimension is tiled by 1.
  Tensor jagged_dim(int dim) const;

  /// Splits each dim into (number of tiles) x (tile); `-1` = whole extent. The tile becomes
  /// `dtype()`. Outer extent: ceil((N - D*(T-1) - 1) / S) + 1 (floor with `floor_mode`).
  Tensor tile(std::initializer_list<Symbol> shape, std::initializer_list<Symbol> strides = {},
              std::initializer_list<Symbol> dilation = {}, bool floor_mode = false) const;
  /// Broadcasts size-1 dims to `shape` (`-1` keeps a dim); the stride becomes 0.
  Tensor expand(std::initializer_list<Symbol> shape) const;
  /// tile() and expand() with shapes computed in the arrangement (rank-generic arrangements:
  /// `std::vector<nt::Symbol> shape(t.ndim(), 1); shape[dim] = -1; t.tile(shape)`).
  Tensor tile(const std::vector<Symbol> &shape, const std::vector<Symbol> &strides = {},
              const std::vector<Symbol> &dilation = {}, bool floor_mode = false) const;
  /// expand() with a computed shape.
  Tensor expand(const std::vector<Symbol> &shape) const;
  /// Drops the size-1 dim `dim` (negative counts from the end).
  Tensor squeeze(std::int64_t dim) const;
  /// Drops the size-1 dims `dims`.
  Tensor squeeze(std::initializer_list<std::int64_t> dims) const;
  /// squeeze() of computed dims.
  Tensor squeeze(const std::vector<std::int64_t> &dims) const;
  /// Inserts a size-1 dim at `dim`.
  Tensor unsqueeze(std::int64_t dim) const;
  /// Reorders the dims: new dim i is old dim `dims[i]`.
  Tensor permute(std::initializer_list<std::int64_t> dims) const;
  /// permute() with computed dims.
  Tensor permute(const std::vector<std::int64_t> &dims) const;
  /// Merges dims [start, end) (exclusive `end`, as NineToothed); defaults: all dims.
  Tensor flatten(std::int64_t start = 0, std::int64_t end = -1) const;
  /// Merges all levels (this one and every `dtype()` in) into one level.
  Tensor ravel() const;
  /// Grows each dim by `{left, right}` masked elements (one pair per dim).
  Tensor pad(std::initializer_list<Padding> padding) const;
  /// NumPy basic slicing `[start:stop:step]` of dim `dim`.
  Tensor slice(std::int64_t dim, Index start = none, Index stop = none, Index step = none) const;
  /// Names the dims (`t.axes("m", "k")`); the compiler infers expand/squeeze/broadcast.
  template <class... Names> Tensor axes(Names... names) const;
  /// Lets the compiler name the dims from what the application does with the tiles
  /// (`t.axes(nt::inferred)`; docs/named-axes.md).
  Tensor axes(Inferred) const;

  /// Extent `d` of this level (negative counts from the end).
  Symbol shape(std::int64_t d) const;
  /// The extents of this level.
  Shape shape() const;
  /// Number of dims of this level.
  std::int64_t ndim() const;
  /// The next level in (assignable: `t.dtype() = t.dtype().squeeze(0)`).
  Tensor &dtype();
  /// The next level in.
  const Tensor &dtype() const;

  /// A parameter declared nt::Constexpr as an integer of the arrangement (a tile size, stride,
  /// dilation, padding or slice bound): its value, one kernel variant per listed value.
  operator Symbol() const;
};

/// A run-time scalar parameter of type `dtype` (a rank-0 tensor; a 0-d tile in the application).
Tensor Scalar(DType dtype);

/// A compile-time scalar parameter named `name` with one kernel variant per value of `values`.
Tensor Constexpr(const char *name, std::initializer_list<double> values);

/// What an arrangement returns.
class Arranged {};

/// The arrangement's result: one arranged tensor (or scalar, passed through) per application
/// parameter, in order.
template <class... Tensors> Arranged arrange(Tensors &&...tensors);

/// The kernel `name` (used by NT_KERNEL; never called directly).
template <class Arrangement, class Application, class... Parameters>
void kernel(const char *name, Arrangement &&arrangement, Application &&application,
            Parameters &&...parameters);

//===- Application side -----------------------------------------------------------------------===//

/// The tensor a tile was cut from.
class Source {
public:
  /// Extent `d` of the source tensor (negative counts from the end).
  Symbol shape(std::int64_t d) const;
  /// Stride `d` of the source tensor, in elements.
  Symbol stride(std::int64_t d) const;
};

/// A value of the application: a block of elements with NumPy broadcasting. A parameter is the
/// program's level-1 tile of that arranged tensor; assigning to a parameter stores.
class Tile {
public:
  /// A 0-d constant.
  Tile(double value);
  /// A 0-d integer (e.g. an extent).
  Tile(Symbol value);

  /// Extent `d` (negative counts from the end).
  Symbol shape(std::int64_t d) const;
  /// All extents.
  Shape shape() const;
  /// Element type.
  DType dtype() const;
  /// Source coordinates (dim `d` of the source tensor) of the tile's elements: a 1-d tile.
  Tile offsets(std::int64_t d) const;
  /// The element offset of each of the tile's elements in its source, Σ_d offsets(d) ·
  /// source().stride(d) (NineToothed's x.offsets(): per-element random numbers in dropout).
  Tile offsets() const;
  /// The source tensor.
  Source source() const;
  /// Element `k` of the next level in (loads the innermost tile under it).
  Tile operator[](Symbol k) const;
  /// Element `k` of the next level in; assigning to it stores.
  Tile &operator[](Symbol k);
  /// Conversion to `dtype`.
  Tile to(DType dtype) const;
  /// Truth of a 0-d compile-time scalar (`if (is_causal)`).
  explicit operator bool() const;

  /// Adds `rhs` in place.
  Tile &operator+=(const Tile &rhs);
  /// Subtracts `rhs` in place.
  Tile &operator-=(const Tile &rhs);
  /// Multiplies by `rhs` in place.
  Tile &operator*=(const Tile &rhs);
  /// Divides by `rhs` in place.
  Tile &operator/=(const Tile &rhs);
};

/// Elementwise sum.
Tile operator+(const Tile &lhs, const Tile &rhs);
/// Elementwise difference.
Tile operator-(const Tile &lhs, const Tile &rhs);
/// Elementwise product.
Tile operator*(const Tile &lhs, const Tile &rhs);
/// Elementwise quotient (integer division truncates).
Tile operator/(const Tile &lhs, const Tile &rhs);
/// Elementwise remainder.
Tile operator%(const Tile &lhs, const Tile &rhs);
/// Elementwise negation.
Tile operator-(const Tile &value);
/// Elementwise `==`.
Tile operator==(const Tile &lhs, const Tile &rhs);
/// Elementwise `!=`.
Tile operator!=(const Tile &lhs, const Tile &rhs);
/// Elementwise `<`.
Tile operator<(const Tile &lhs, const Tile &rhs);
/// Elementwise `<=`.
Tile operator<=(const Tile &lhs, const Tile &rhs);
/// Elementwise `>`.
Tile operator>(const Tile &lhs, const Tile &rhs);
/// Elementwise `>=`.
Tile operator>=(const Tile &lhs, const Tile &rhs);
/// Elementwise and (logical on booleans, bitwise on integers).
Tile operator&(const Tile &lhs, const Tile &rhs);
/// Elementwise or (logical on booleans, bitwise on integers).
Tile operator|(const Tile &lhs, const Tile &rhs);
/// Elementwise logical not.
Tile operator!(const Tile &value);

/// The application-side language (NineToothed's `ninetoothed.language`).
namespace lang {

using nt::DType;
using nt::Shape;
using nt::Tile;

using nt::bfloat16;
using nt::bool_;
using nt::float16;
using nt::float32;
using nt::float64;
using nt::float8_e4m3;
using nt::float8_e5m2;
using nt::int16;
using nt::int32;
using nt::int64;
using nt::int8;
using nt::uint16;
using nt::uint32;
using nt::uint64;
using nt::uint8;

/// A tile of `shape` filled with zeros of type `dtype`.
Tile zeros(Shape shape, DType dtype);
/// A tile of `shape` filled with `value` of type `dtype`.
Tile full(Shape shape, double value, DType dtype);
/// The 1-d int32 tile `start, start + 1, …, end - 1` (compile-time bounds).
Tile arange(std::int64_t start, std::int64_t end);

// The elementwise functions (exp, log, sqrt, sigmoid, maximum, pow, ...) are declared from the
// operation table, ntc/common/operations.inc, where each row documents its function:
// `Tile name(const Tile &x);` or `Tile name(const Tile &x, const Tile &y);`.
/// Internal: declares the one-operand ntl:: function `name`.
#define NTC_DETAIL_DECLARE_1(name) Tile name(const Tile &x);
/// Internal: declares the two-operand ntl:: function `name`.
#define NTC_DETAIL_DECLARE_2(name) Tile name(const Tile &x, const Tile &y);
/// Internal: declares a function row of the operation table.
#define NTC_FUNCTION(name, arity, rule) NTC_DETAIL_DECLARE_##arity(name)
#include <ntc/common/operations.inc>
#undef NTC_DETAIL_DECLARE_1
#undef NTC_DETAIL_DECLARE_2

/// Elementwise `x` limited to [lo, hi].
Tile clamp(const Tile &x, const Tile &lo, const Tile &hi);
/// Elementwise `cond ? a : b`.
Tile where(const Tile &cond, const Tile &a, const Tile &b);

/// Sum of all elements (a 0-d tile).
Tile sum(const Tile &x);
/// Sum along `axis` (the axis is removed).
Tile sum(const Tile &x, std::int64_t axis);
/// Largest element (a 0-d tile).
Tile max(const Tile &x);
/// Largest element along `axis` (the axis is removed).
Tile max(const Tile &x, std::int64_t axis);
/// Smallest element (a 0-d tile).
Tile min(const Tile &x);
/// Smallest element along `axis` (the axis is removed).
Tile min(const Tile &x, std::int64_t axis);
/// Flat index of the largest element (a 0-d int32 tile).
Tile argmax(const Tile &x);
/// Index of the largest element along `axis` (the axis is removed).
Tile argmax(const Tile &x, std::int64_t axis);

/// Matrix product of 2-d tiles (float32 accumulation for 16-bit and 8-bit inputs).
Tile dot(const Tile &a, const Tile &b);
/// dot with NineToothed's input precision for float32 operands, a string literal: "ieee",
/// "tf32" or "tf32x3" ("tf32" allows TensorFloat-32 products; ntc's backends compute float32
/// products in IEEE precision for all three, which every one of them allows).
Tile dot(const Tile &a, const Tile &b, const char *input_precision);
/// Transpose of a 2-d tile.
Tile trans(const Tile &x);
/// Conversion to `dtype` (same as `x.to(dtype)`).
Tile cast(const Tile &x, DType dtype);
/// Inserts a size-1 axis at `axis` (NumPy's `x[:, None]` is `expand_dims(x, 1)`).
Tile expand_dims(const Tile &x, std::int64_t axis);
/// Broadcasts `x` to `shape`.
Tile broadcast_to(const Tile &x, Shape shape);
/// Uniform random floats in [0, 1) (Philox), one per element of `offsets`.
Tile rand(const Tile &seed, const Tile &offsets);

} // namespace lang

//===- Kernel functions (composition) ---------------------------------------------------------===//

/// A kernel (an arrangement and its application) used as a function inside another kernel's
/// application: `y = mm(x, w)` takes one argument per parameter that the callee's application
/// does not write, and its value is what the application assigns to the one it writes. ntc
/// arranges the arguments' tensors with the callee's arrangement for the caller's program grid
/// (see docs/composition.md); the caller passes them to nt::arrange untiled.
template <class Arrangement, class Application> class KernelFunction {
public:
  /// The callee's output tile for these inputs.
  template <class... Inputs> Tile operator()(const Inputs &...inputs) const;
};

/// The kernel function of `arrangement` and `application`:
/// `inline constexpr auto mm = nt::kernel_function(mm_arrangement, mm_application);`.
template <class Arrangement, class Application>
constexpr KernelFunction<Arrangement, Application> kernel_function(Arrangement, Application) {
  return {};
}

} // namespace nt

/// The application-side language, as NineToothed's `import ninetoothed.language as ntl`.
namespace ntl = nt::lang;

#endif // NTC_DSL_HPP

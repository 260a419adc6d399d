// The device tile library (stage 1, SIMT): CTA-wide value tiles with compile-time shapes and the
// operations of ntc::cpu on them (creation, elementwise arithmetic and math, shape operations).
// Reductions, dot, memory access and random numbers are in the sibling headers.
//
// Conventions:
// * One program = one thread block of `Threads` threads (blockDim.x == Threads, a multiple of
//   32); every function is called uniformly by all threads of the block.
// * Blocked layout (ntc/device/layout.cuh): element e (row-major linear index) of a tile of N
//   elements lives in thread (e / V) % Threads, in chunks of V consecutive elements (V = 4, 2
//   or 1, from N and Threads); with V = 1 it is the cyclic layout (thread e % Threads). A
//   tile with N == 1 is replicated: every thread holds the value in slot 0. In the last slots,
//   threads without an element hold a defined filler value (never loaded, stored or reduced).
// * Result types, integer wrapping, division by zero, NaN rules and rounding of 16/8-bit
//   floats (computed in float, rounded once) are those of ntc::cpu (tile.hpp). Float +, −, ·
//   use the __f*_rn intrinsics so that nvcc never fuses two ops into an FMA: elementwise
//   arithmetic is bit-exact with the CPU (NaN payloads aside). Math uses the
//   accurate CUDA functions (expf, ..., no intrinsics), so results match the CPU within the
//   functions' ulp error.
// * Binary operations take two tiles of the same shape, or a tile and an element, or a tile and
//   a replicated (one-element) tile, or tiles whose shapes differ only by leading 1s; anything
//   else needs an explicit broadcast_to (which moves data through shared memory).
// * Functions that use shared memory take an Smem (the kernel's __shared__ buffer, 16-byte
//   aligned), start and end with __syncthreads(), and have a constexpr *_smem_bytes helper.
#pragma once

#include <ntc/device/layout.cuh>
#include <ntc/device/types.cuh>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace ntc::dev {

// --- shapes -------------------------------------------------------------------------------------

/// A compile-time tile shape: extents, outermost first (none for a scalar).
template <int... Dims> struct Shape {
  static_assert(((Dims > 0) && ...), "ntc::dev::Shape: extents must be positive");
  /// Number of dimensions.
  static constexpr int rank = int(sizeof...(Dims));
  /// Number of elements (1 for rank 0).
  static constexpr int numel = (1 * ... * Dims);
  /// Extent of dimension `i` (1 outside [0, rank)).
  NTC_DEV_HD static constexpr int dim(int i) {
    const int d[] = {Dims..., 1};
    return i >= 0 && i < rank ? d[i] : 1;
  }
  /// Row-major stride (in elements) of dimension `i`.
  NTC_DEV_HD static constexpr int stride(int i) {
    int s = 1;
    for (int d = rank - 1; d > i; --d)
      s *= dim(d);
    return s;
  }
  /// Writes the multi-index of row-major `linear` to index[0, rank).
  NTC_DEV_HD static constexpr void unravel(int linear, int *index) {
    for (int d = rank - 1; d >= 0; --d) {
      index[d] = linear % dim(d);
      linear /= dim(d);
    }
  }
  /// The row-major linear index of index[0, rank).
  NTC_DEV_HD static constexpr int ravel(const int *index) {
    int linear = 0;
    for (int d = 0; d < rank; ++d)
      linear = linear * dim(d) + index[d];
    return linear;
  }
};

/// True for Shape<...>.
template <class S> inline constexpr bool is_shape_v = false;
/// True for Shape<...>.
template <int... D> inline constexpr bool is_shape_v<Shape<D...>> = true;

namespace detail {

/// NumPy broadcast of two shapes (aligned from the right; 1 stretches).
template <class A, class B> struct broadcast_shape {
  static constexpr int rank = A::rank > B::rank ? A::rank : B::rank;
  NTC_DEV_HD static constexpr int a(int i) { return A::dim(i - (rank - A::rank)); }
  NTC_DEV_HD static constexpr int b(int i) { return B::dim(i - (rank - B::rank)); }
  NTC_DEV_HD static constexpr bool compatible() {
    for (int i = 0; i < rank; ++i)
      if (a(i) != b(i) && a(i) != 1 && b(i) != 1)
        return false;
    return true;
  }
  NTC_DEV_HD static constexpr int extent(int i) { return a(i) == 1 ? b(i) : a(i); }
  template <std::size_t... I> static auto make(std::index_sequence<I...>) -> Shape<extent(I)...>;
  using type = decltype(make(std::make_index_sequence<std::size_t(rank)>{}));
};

/// S with dimension `Axis` (already normalised) removed.
template <class S, int Axis> struct remove_axis {
  NTC_DEV_HD static constexpr int extent(int i) { return S::dim(i < Axis ? i : i + 1); }
  template <std::size_t... I> static auto make(std::index_sequence<I...>) -> Shape<extent(I)...>;
  using type = decltype(make(std::make_index_sequence<std::size_t(S::rank - 1)>{}));
};

/// S with a 1 inserted before dimension `Axis` (already normalised, in [0, rank]).
template <class S, int Axis> struct insert_axis {
  NTC_DEV_HD static constexpr int extent(int i) {
    return i < Axis ? S::dim(i) : i == Axis ? 1 : S::dim(i - 1);
  }
  template <std::size_t... I> static auto make(std::index_sequence<I...>) -> Shape<extent(I)...>;
  using type = decltype(make(std::make_index_sequence<std::size_t(S::rank + 1)>{}));
};

/// Dimension i of the result is dimension P[i] of S.
template <class S, int... P> struct permute_shape {
  static_assert(sizeof...(P) == S::rank, "ntc::dev::permute: one entry per dimension");
  using type = Shape<S::dim(P)...>;
  /// Input dimension of result dimension i.
  NTC_DEV_HD static constexpr int source(int i) {
    const int p[] = {P..., 0};
    return p[i];
  }
  /// Stride in the input of result dimension i.
  NTC_DEV_HD static constexpr int source_stride(int i) { return S::stride(source(i)); }
  /// True when the order is unchanged.
  NTC_DEV_HD static constexpr bool identity() {
    for (int i = 0; i < S::rank; ++i)
      if (source(i) != i)
        return false;
    return true;
  }
  /// True when P is a permutation of [0, rank).
  NTC_DEV_HD static constexpr bool valid() {
    for (int i = 0; i < S::rank; ++i) {
      if (source(i) < 0 || source(i) >= S::rank)
        return false;
      for (int j = 0; j < i; ++j)
        if (source(j) == source(i))
          return false;
    }
    return true;
  }
};

} // namespace detail

/// The NumPy broadcast of shapes A and B (a compile error if incompatible).
template <class A, class B> using broadcast_shape_t = typename detail::broadcast_shape<A, B>::type;

// --- shared memory ------------------------------------------------------------------------------

/// The kernel's shared-memory scratch buffer (16-byte aligned) that layout changes, reductions
/// and dot use. Size it as the maximum of the *_smem_bytes helpers of the ops of a kernel.
/// The threads that use it synchronize through sync(): every thread of the block
/// (__syncthreads) when `sync_threads` is 0, else the first `sync_threads` threads alone (the
/// consumer warps of a program with a producer warpgroup, through named barrier 1), so that the
/// ops' barriers never wait for threads that do not run them.
struct Smem {
  unsigned char *ptr;   ///< start of the buffer
  int sync_threads = 0; ///< threads that meet at sync() (a multiple of 32); 0: the whole block
  /// The buffer at `byte_offset`, as a T array.
  template <class T> __device__ T *as(std::size_t byte_offset = 0) const {
    return reinterpret_cast<T *>(ptr + byte_offset);
  }
  /// A barrier of the threads that use the buffer (see above).
  __device__ void sync() const {
    if (sync_threads == 0)
      __syncthreads();
    else
      asm volatile("bar.sync 1, %0;" ::"r"(sync_threads) : "memory");
  }
};

/// `bytes` rounded up to a multiple of 16 (the alignment of each region inside Smem).
NTC_DEV_HD constexpr std::size_t smem_align(std::size_t bytes) { return (bytes + 15) / 16 * 16; }

/// The maximum of byte counts, for sizing one buffer for all ops of a kernel.
template <class... B> NTC_DEV_HD constexpr std::size_t smem_max(B... bytes) {
  std::size_t m = 0;
  ((m = std::size_t(bytes) > m ? std::size_t(bytes) : m), ...);
  return m;
}

// --- tiles --------------------------------------------------------------------------------------

/// A CTA-wide tile of `T` with shape `S`, distributed in the blocked layout over `Threads`
/// threads (see the top of this file); N == 1 tiles are replicated.
template <class T, class S, int Threads> struct Tile {
  static_assert(is_element_v<T>, "ntc::dev::Tile: not an element type");
  static_assert(is_shape_v<S>, "ntc::dev::Tile: S must be a Shape");
  static_assert(Threads > 0 && Threads % 32 == 0, "ntc::dev::Tile: Threads must be whole warps");

  /// Element type.
  using element_type = T;
  /// Shape type.
  using shape = S;
  /// Threads of the block.
  static constexpr int threads = Threads;
  /// Number of elements.
  static constexpr int N = S::numel;
  /// True when every thread holds the (only) element.
  static constexpr bool replicated = N == 1;
  /// Consecutive elements per chunk (the blocked layout's V; slots s with equal s / V form a
  /// chunk of consecutive elements).
  static constexpr int V = layout::chunk_width(N, Threads);
  /// Register slots per thread.
  static constexpr int Slots = layout::slots(N, Threads);
  /// True when every slot of every thread holds an element.
  static constexpr bool full = replicated || N % (V * Threads) == 0;

  /// This thread's elements: slot s holds element layout::element(N, Threads, thread, s) of
  /// its thread in the program, program_thread<Threads>().
  T v[Slots];

  /// Linear index of the element in `slot` of the calling thread (0 for a replicated tile).
  __device__ static int linear(int slot) {
    return layout::element(N, Threads, program_thread<Threads>(), slot);
  }
  /// True when `slot` of the calling thread holds an element (always for replicated tiles).
  __device__ static bool owns(int slot) { return full || slot < Slots - 1 || linear(slot) < N; }
  /// True when the calling thread is the one that writes the element in `slot` to memory
  /// (thread 0 for a replicated tile).
  __device__ static bool writes(int slot) {
    if constexpr (replicated)
      return program_thread<Threads>() == 0;
    else
      return owns(slot);
  }
  /// The only element of a one-element tile.
  __device__ T item() const {
    static_assert(replicated, "ntc::dev::Tile::item: tile has more than one element");
    return v[0];
  }
  /// Element-wise conversion (see cast()).
  template <class U> __device__ Tile<U, S, Threads> to() const;

  /// *this = *this + other converted back to T (other: tile of this shape, replicated, or element).
  template <class U> __device__ Tile &operator+=(const U &other);
  /// *this = *this − other, converted back to T.
  template <class U> __device__ Tile &operator-=(const U &other);
  /// *this = *this · other, converted back to T.
  template <class U> __device__ Tile &operator*=(const U &other);
  /// *this = *this / other, converted back to T.
  template <class U> __device__ Tile &operator/=(const U &other);
  /// *this = *this % other, converted back to T.
  template <class U> __device__ Tile &operator%=(const U &other);
  /// *this = *this & other, converted back to T.
  template <class U> __device__ Tile &operator&=(const U &other);
  /// *this = *this | other, converted back to T.
  template <class U> __device__ Tile &operator|=(const U &other);
  /// *this = *this ^ other, converted back to T.
  template <class U> __device__ Tile &operator^=(const U &other);
};

/// A tile with an explicit layout type (ntc/device/layouts.cuh).
template <class T, class S, class L> struct LTile;

/// True for Tile<...> and LTile<...>.
template <class X> inline constexpr bool is_tile_v = false;
/// True for Tile<...>.
template <class T, class S, int Th> inline constexpr bool is_tile_v<Tile<T, S, Th>> = true;
/// True for LTile<...>.
template <class T, class S, class L> inline constexpr bool is_tile_v<LTile<T, S, L>> = true;

namespace detail {

template <class X> struct element_of {
  using type = X;
  using shape = Shape<>;
  static constexpr int threads = 0;
};
template <class T, class S, int Th> struct element_of<Tile<T, S, Th>> {
  using type = T;
  using shape = S;
  static constexpr int threads = Th;
};
template <class T, class S, class L> struct element_of<LTile<T, S, L>> {
  using type = T;
  using shape = S;
  static constexpr int threads = L::threads;
};

/// The layout of an operand: void for elements and blocked tiles.
template <class X> struct layout_of { using type = void; };
template <class T, class S, class L> struct layout_of<LTile<T, S, L>> { using type = L; };

/// For a layout whose elements are split into shares held by several lanes (layouts.cuh's
/// LanePartial<P>), the layout P of the whole values; void for every other layout.
template <class L> struct partial_parent { using type = void; };
/// True when some operand among X... is a tile of shares (partial_parent).
template <class... X>
inline constexpr bool has_shares_v =
    (!std::is_void_v<typename partial_parent<typename layout_of<std::decay_t<X>>::type>::type> ||
     ...);

/// The common layout of the operands: void when all are blocked tiles or elements; otherwise
/// the layout of the LTile operands (which must agree; blocked operands must be replicated). A
/// tile of shares and a tile of its whole values have the shares' layout (arith allows only the
/// operations that keep the shares' sum right).
template <class... X> struct common_layout;
template <> struct common_layout<> {
  using type = void;
  static constexpr bool blocked_full = false;
};
template <class X, class... Rest> struct common_layout<X, Rest...> {
  using own = typename layout_of<std::decay_t<X>>::type;
  using rest = typename common_layout<Rest...>::type;
  static_assert(std::is_void_v<own> || std::is_void_v<rest> || std::is_same_v<own, rest> ||
                    std::is_same_v<typename partial_parent<own>::type, rest> ||
                    std::is_same_v<typename partial_parent<rest>::type, own>,
                "ntc::dev: operands of different layouts; convert_layout first");
  using type = std::conditional_t<
      std::is_void_v<own>, rest,
      std::conditional_t<std::is_void_v<typename partial_parent<rest>::type>, own, rest>>;
  /// True when some operand is a blocked tile with more than one element.
  static constexpr bool blocked_full =
      common_layout<Rest...>::blocked_full || (std::is_void_v<own> && is_tile_v<std::decay_t<X>> &&
                                               element_of<std::decay_t<X>>::shape::numel > 1);
};

/// True for a tile or an element value.
template <class X>
inline constexpr bool is_operand_v = is_tile_v<std::decay_t<X>> || is_element_v<std::decay_t<X>>;

/// The common shape of the tile operands among X... (elements are ignored); each tile must have
/// that many elements or one.
template <class... X> struct common_shape;
template <> struct common_shape<> { using type = Shape<>; };
template <class X, class... Rest> struct common_shape<X, Rest...> {
  using rest = typename common_shape<Rest...>::type;
  using own = typename element_of<std::decay_t<X>>::shape;
  static_assert(broadcast_shape<own, rest>::compatible(),
                "ntc::dev: operand shapes cannot be broadcast together");
  using type = typename broadcast_shape<own, rest>::type;
};

/// The Threads of the tile operands (0 when there are none); all tiles must agree.
template <class... X> NTC_DEV_HD constexpr int common_threads() {
  int t = 0;
  bool ok = true;
  ((ok = ok && (element_of<std::decay_t<X>>::threads == 0 || t == 0 ||
                element_of<std::decay_t<X>>::threads == t),
    t = element_of<std::decay_t<X>>::threads ? element_of<std::decay_t<X>>::threads : t),
   ...);
  return ok ? t : -1;
}

/// True when operand X can be read slot by slot in a result of shape R: an element, a
/// replicated tile, or a tile with the same number of elements (its shape differs only by
/// leading 1s, so the linear order agrees).
template <class X, class R>
inline constexpr bool slot_compatible_v =
    !is_tile_v<std::decay_t<X>> || element_of<std::decay_t<X>>::shape::numel == 1 ||
    element_of<std::decay_t<X>>::shape::numel == R::numel;

/// The value of operand x for slot s of the result.
template <class X> __device__ inline auto at(const X &x, int s) {
  if constexpr (is_tile_v<X>) {
    if constexpr (X::replicated)
      return x.v[0];
    else
      return x.v[s];
  } else {
    return x;
  }
}

} // namespace detail

/// Element type of a tile, or the type itself for an element.
template <class X> using element_t = typename detail::element_of<std::decay_t<X>>::type;

/// Result element type of a binary operation on two operands (ntc::cpu::binary_result_t).
template <class X, class Y>
using binary_result_t = std::conditional_t<
    is_tile_v<std::decay_t<X>> == is_tile_v<std::decay_t<Y>>, promote_t<element_t<X>, element_t<Y>>,
    std::conditional_t<is_tile_v<std::decay_t<X>>, scalar_promote_t<element_t<X>, element_t<Y>>,
                       scalar_promote_t<element_t<Y>, element_t<X>>>>;

namespace detail {

/// wide[0..N) → float16/bfloat16 in narrow[0..N) (N even), each as narrow_float rounds it: two
/// at a time by the packed conversion, unless the thread holds a NaN, whose bits narrow_float
/// keeps (element by element). Both branches produce pair words, so that where they join,
/// ptxas keeps each pair in one register (joined as separate halves, every pair took two byte
/// permutes more, and another when an mma fragment packed it again). TestNaN false: the caller
/// knows that every NaN of `wide` is the canonical one, which both branches narrow alike, so the
/// packed branch serves all (cast_canonical_nan).
template <class U, int N, bool TestNaN = true>
__device__ inline void narrow_pairs(const float (&wide)[N], U (&narrow)[N]) {
  static_assert(is_half_v<U> && N % 2 == 0, "ntc::dev::narrow_pairs: pairs of 16-bit floats");
  bool nan = false;
#pragma unroll
  for (int s = 0; s < N && TestNaN; s += 2)
    nan = nan || either_nan(wide[s], wide[s + 1]);
  uint32_t words[N / 2];
  if (nan) {
#pragma unroll
    for (int s = 0; s < N; s += 2)
      words[s / 2] = join_pair(narrow_float<U>(wide[s]), narrow_float<U>(wide[s + 1]));
  } else {
#pragma unroll
    for (int s = 0; s < N; s += 2)
      words[s / 2] = narrow_float_pair<U>(wide[s], wide[s + 1]);
  }
#pragma unroll
  for (int s = 0; s < N; s += 2)
    split_pair(words[s / 2], narrow[s], narrow[s + 1]);
}

/// Nonzero when either 16-bit float of join_pair word `word` (float16 or bfloat16 T) is NaN: its
/// magnitude bits above the infinity's, tested for both halves at once (no carry crosses them).
template <class T> __device__ inline uint32_t either_half_nan(uint32_t word) {
  constexpr uint32_t below_sign = std::is_same_v<T, float16> ? 0x03ff03ffu : 0x007f007fu;
  return ((word & 0x7fff7fffu) + below_sign) & 0x80008000u;
}

/// The NaN-propagating maximum of the halves of two join_pair words of float16/bfloat16 T (one
/// max.NaN.{f16,bf16}x2): a half of the result is NaN when that half of either word is.
template <class T> __device__ inline uint32_t max_nan_pairs(uint32_t a, uint32_t b) {
  uint32_t r;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (std::is_same_v<T, float16>)
    asm("max.NaN.f16x2 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  else
    asm("max.NaN.bf16x2 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
#else
  r = either_half_nan<T>(a) | either_half_nan<T>(b) ? 0x7fff7fffu : 0u; // (NaN in both halves)
#endif
  return r;
}

/// The slots of `half` (16-bit floats) as the other 16-bit float format U: each pair widened
/// (exactly) and narrowed by one packed conversion when no slot is NaN, which one test of the
/// whole tile decides (the NaN-propagating maximum of its words, one instruction per word, then
/// a test of the result); else element by element by narrow_float, which keeps NaN payloads.
/// Both branches produce pair words, as narrow_pairs' do (where separate halves joined, ptxas
/// kept each half in a register of its own: a 128×256 tile held across a GEMM loop took 128
/// registers instead of 64). The tree replaced a test of every word (four instructions each);
/// matmul_bf16's epilogue (float32 → float16 → bfloat16) ran 2% faster at 4096×4096×512.
template <class U, class T, int N>
__device__ inline void convert_halves(const T (&half)[N], U (&other)[N]) {
  static_assert(is_half_v<T> && is_half_v<U> && N % 2 == 0,
                "ntc::dev::convert_halves: pairs of 16-bit floats");
  uint32_t tree[N / 2]; // the maximum as a tree: log2 of the words' count deep
#pragma unroll
  for (int s = 0; s < N; s += 2)
    tree[s / 2] = join_pair(half[s], half[s + 1]);
#pragma unroll
  for (int stride = 1; stride < N / 2; stride *= 2)
#pragma unroll
    for (int i = 0; i + stride < N / 2; i += 2 * stride)
      tree[i] = max_nan_pairs<T>(tree[i], tree[i + stride]);
  const uint32_t nan = either_half_nan<T>(tree[0]);
  uint32_t words[N / 2];
  if (nan == 0) {
    // No NaN: the hardware's widening (widen's NaN case is not needed).
    auto wide = [](T x) {
      if constexpr (std::is_same_v<T, float16>)
        return __half2float(x);
      else
        return __bfloat162float(x);
    };
#pragma unroll
    for (int s = 0; s < N; s += 2)
      words[s / 2] = narrow_float_pair<U>(wide(half[s]), wide(half[s + 1]));
  } else {
#pragma unroll
    for (int s = 0; s < N; s += 2)
      words[s / 2] =
          join_pair(narrow_float<U>(widen(half[s])), narrow_float<U>(widen(half[s + 1])));
  }
#pragma unroll
  for (int s = 0; s < N; s += 2)
    split_pair(words[s / 2], other[s], other[s + 1]);
}

} // namespace detail

/// Applies f slot by slot to the operands (tiles of the result's size, replicated tiles or
/// elements), converting each result to R. f is called for every slot, including the filler
/// slots, so it must not have side effects. float results of a float16/bfloat16 tile are
/// narrowed in pairs (detail::narrow_pairs).
///
/// Tiles of shares (a partial_parent layout) are refused: f would apply to each share instead
/// of the whole value; arith passes `Shares` for the operations that distribute over the shares.
template <class R, bool Shares = false, class F, class... X>
__device__ inline auto elementwise(F f, const X &...x) {
  static_assert(Shares || !detail::has_shares_v<X...>,
                "ntc::dev: an operation on a tile of lane shares; convert_layout to its parent");
  using S = typename detail::common_shape<X...>::type;
  constexpr int Th = detail::common_threads<X...>();
  static_assert(Th != 0, "ntc::dev::elementwise: needs at least one tile operand");
  static_assert(Th > 0, "ntc::dev::elementwise: tiles of different Threads");
  static_assert((detail::slot_compatible_v<X, S> && ...),
                "ntc::dev: operand shapes differ; broadcast_to the common shape first");
  using L = typename detail::common_layout<X...>::type;
  static_assert(std::is_void_v<L> || !detail::common_layout<X...>::blocked_full,
                "ntc::dev: a blocked tile and a layout-typed tile; convert_layout first");
  std::conditional_t<std::is_void_v<L>, Tile<R, S, Th>, LTile<R, S, L>> r;
  using Wide = std::decay_t<decltype(f(detail::at(x, 0)...))>;
  constexpr int slots = decltype(r)::Slots;
  if constexpr (is_half_v<R> && std::is_same_v<Wide, float> && slots % 2 == 0) {
    float wide[slots];
#pragma unroll
    for (int s = 0; s < r.Slots; ++s)
      wide[s] = f(detail::at(x, s)...);
    detail::narrow_pairs(wide, r.v);
  } else {
#pragma unroll
    for (int s = 0; s < r.Slots; ++s)
      r.v[s] = ::ntc::dev::convert<R>(f(detail::at(x, s)...));
  }
  return r;
}

// --- creation -----------------------------------------------------------------------------------

/// A tile of shape S filled with `value` (converted to T).
template <class T, class S, int Threads, class V = T>
__device__ inline Tile<T, S, Threads> full(V value) {
  const T x = ::ntc::dev::convert<T>(value);
  Tile<T, S, Threads> r;
#pragma unroll
  for (int s = 0; s < r.Slots; ++s)
    r.v[s] = x;
  return r;
}

/// A tile of shape S filled with zeros.
template <class T, class S, int Threads> __device__ inline Tile<T, S, Threads> zeros() {
  return ::ntc::dev::full<T, S, Threads>(T{});
}

/// A rank-0 (replicated) tile holding `value` (converted to T).
template <class T, int Threads, class V = T>
__device__ inline Tile<T, Shape<>, Threads> scalar(V value) {
  return ::ntc::dev::full<T, Shape<>, Threads>(value);
}

/// The 1-D tile [start, start + 1, …, start + n − 1] of S = Shape<n> (int32 by default, as
/// Triton's arange).
template <class S, int Threads, class T = int32_t>
__device__ inline Tile<T, S, Threads> arange(int start) {
  static_assert(S::rank == 1, "ntc::dev::arange: 1-D shape");
  Tile<T, S, Threads> r;
#pragma unroll
  for (int s = 0; s < r.Slots; ++s)
    r.v[s] = ::ntc::dev::convert<T>(start + r.linear(s));
  return r;
}

// --- elementwise --------------------------------------------------------------------------------

/// f applied to each element; the result type is f's return type.
template <class T, class S, int Th, class F>
__device__ inline auto map(const Tile<T, S, Th> &a, F f) {
  using R = std::decay_t<decltype(f(a.v[0]))>;
  return ::ntc::dev::elementwise<R>(f, a);
}

/// f applied to pairs of elements of two tiles (same size, or one replicated); the result type
/// is f's return type.
template <class A, class SA, class B, class SB, int Th, class F>
__device__ inline auto zip(const Tile<A, SA, Th> &a, const Tile<B, SB, Th> &b, F f) {
  using R = std::decay_t<decltype(f(a.v[0], b.v[0]))>;
  return ::ntc::dev::elementwise<R>(f, a, b);
}

/// Element-wise conversion to U (see convert()).
template <class U, class T, class S, int Th>
__device__ inline Tile<U, S, Th> cast(const Tile<T, S, Th> &t) {
  if constexpr (std::is_same_v<U, T>) {
    return t;
  } else if constexpr (std::is_same_v<T, float> && is_half_v<U>) {
    return ::ntc::dev::elementwise<U>([](float x) { return x; }, t); // narrowed in pairs
  } else if constexpr (is_half_v<T> && is_half_v<U> && Tile<T, S, Th>::Slots % 2 == 0) {
    Tile<U, S, Th> r;
    detail::convert_halves(t.v, r.v);
    return r;
  } else {
    return ::ntc::dev::elementwise<U>([](T x) { return ::ntc::dev::convert<U>(x); }, t);
  }
}

/// f applied to each element of a layout-typed tile.
template <class T, class S, class L, class F>
__device__ inline auto map(const LTile<T, S, L> &a, F f) {
  using R = std::decay_t<decltype(f(a.v[0]))>;
  return ::ntc::dev::elementwise<R>(f, a);
}

/// Element-wise conversion of a layout-typed tile to U (float to float16/bfloat16 two elements
/// at a time, detail::narrow_pairs; float16 to bfloat16 and back, detail::convert_halves).
template <class U, class T, class S, class L>
__device__ inline LTile<U, S, L> cast(const LTile<T, S, L> &t) {
  if constexpr (std::is_same_v<U, T>) {
    return t;
  } else if constexpr (std::is_same_v<T, float> && is_half_v<U> && LTile<T, S, L>::Slots % 2 == 0) {
    LTile<U, S, L> r;
    detail::narrow_pairs(t.v, r.v);
    return r;
  } else if constexpr (is_half_v<T> && is_half_v<U> && !std::is_same_v<T, U> &&
                       LTile<T, S, L>::Slots % 2 == 0) {
    LTile<U, S, L> r;
    detail::convert_halves(t.v, r.v);
    return r;
  } else {
    return ::ntc::dev::elementwise<U>([](T x) { return ::ntc::dev::convert<U>(x); }, t);
  }
}

/// cast<U>(t) of a float tile whose NaNs can only be the GPU's canonical one (0x7fffffff: the
/// special-function unit's results; the compiler's mark-canonical-nans proves it): narrowed to
/// float16/bfloat16 in packed pairs without detail::narrow_pairs' test for NaN payloads, which
/// the canonical NaN does not have (both conversions give 0x7fff). Any other conversion is
/// cast<U>'s.
template <class U, class T, class S, class L>
__device__ inline LTile<U, S, L> cast_canonical_nan(const LTile<T, S, L> &t) {
  if constexpr (std::is_same_v<T, float> && is_half_v<U> && LTile<T, S, L>::Slots % 2 == 0) {
    LTile<U, S, L> r;
    detail::narrow_pairs<U, LTile<T, S, L>::Slots, false>(t.v, r.v);
    return r;
  } else {
    return ::ntc::dev::cast<U>(t);
  }
}

/// cast_canonical_nan of a blocked tile: cast<U>'s conversion.
template <class U, class T, class S, int Th>
__device__ inline Tile<U, S, Th> cast_canonical_nan(const Tile<T, S, Th> &t) {
  return ::ntc::dev::cast<U>(t);
}

template <class T, class S, int Th>
template <class U>
__device__ Tile<U, S, Th> Tile<T, S, Th>::to() const {
  return ::ntc::dev::cast<U>(*this);
}

/// cond ? a : b element-wise (cond nonzero = true); each argument a tile (same size or
/// replicated) or an element. The result type is binary_result_t of a and b.
template <
    class C, class A, class B,
    std::enable_if_t<detail::is_operand_v<C> && detail::is_operand_v<A> &&
                         detail::is_operand_v<B> && (is_tile_v<C> || is_tile_v<A> || is_tile_v<B>),
                     int> = 0>
__device__ inline auto where(const C &cond, const A &a, const B &b) {
  using R = binary_result_t<A, B>;
  using EC = element_t<C>;
  using EA = element_t<A>;
  using EB = element_t<B>;
  return ::ntc::dev::elementwise<R>(
      [](EC c, EA x, EB y) {
        return ::ntc::dev::convert<bool>(c) ? ::ntc::dev::convert<R>(x) : ::ntc::dev::convert<R>(y);
      },
      cond, a, b);
}

namespace detail {

struct add_op {
  template <class C> __device__ C operator()(C a, C b) const {
    if constexpr (is_integer_v<C>)
      return C(wrap_t<C>(a) + wrap_t<C>(b));
    else if constexpr (std::is_same_v<C, float>)
      return __fadd_rn(a, b); // never contracted into an FMA with a neighbouring op
    else if constexpr (std::is_same_v<C, double>)
      return __dadd_rn(a, b);
    else
      return C(a + b);
  }
};
struct sub_op {
  template <class C> __device__ C operator()(C a, C b) const {
    if constexpr (is_integer_v<C>)
      return C(wrap_t<C>(a) - wrap_t<C>(b));
    else if constexpr (std::is_same_v<C, float>)
      return __fsub_rn(a, b); // never contracted into an FMA with a neighbouring op
    else if constexpr (std::is_same_v<C, double>)
      return __dsub_rn(a, b);
    else
      return C(a - b);
  }
};
struct mul_op {
  template <class C> __device__ C operator()(C a, C b) const {
    if constexpr (is_integer_v<C>)
      return C(wrap_t<C>(a) * wrap_t<C>(b));
    else if constexpr (std::is_same_v<C, float>)
      return __fmul_rn(a, b); // never contracted into an FMA with a neighbouring op
    else if constexpr (std::is_same_v<C, double>)
      return __dmul_rn(a, b);
    else
      return C(a * b);
  }
};
/// Division. Float (and the 16-bit floats, computed in float) divides as Triton's `/` does,
/// `div.full.f32`: within 2 ulp over the whole range, IEEE's special values, a few instructions
/// where the correctly rounded quotient takes a dozen and a slow path. Double stays IEEE.
struct div_op {
  template <class C> __device__ C operator()(C a, C b) const {
    static_assert(!std::is_same_v<C, bool>, "ntc::dev: division of bool tiles");
    if constexpr (is_integer_v<C>) {
      if (b == 0)
        return 0;
      if constexpr (std::is_signed_v<C>)
        if (a == int_limits<C>::lowest && b == C(-1))
          return a;
      return C(a / b);
    } else if constexpr (std::is_same_v<C, float>) {
#if defined(__CUDA_ARCH__)
      float q;
      asm("div.full.f32 %0, %1, %2;" : "=f"(q) : "f"(a), "f"(b));
      return q;
#else
      return a / b;
#endif
    } else {
      return C(a / b);
    }
  }
};
struct mod_op {
  template <class C> __device__ C operator()(C a, C b) const {
    static_assert(!std::is_same_v<C, bool>, "ntc::dev: remainder of bool tiles");
    if constexpr (is_integer_v<C>) {
      if (b == 0)
        return 0;
      if constexpr (std::is_signed_v<C>)
        if (b == C(-1))
          return 0;
      return C(a % b);
    } else if constexpr (std::is_same_v<C, float>) {
      return ::fmodf(a, b);
    } else {
      return ::fmod(a, b);
    }
  }
};
struct and_op {
  template <class C> __device__ C operator()(C a, C b) const {
    static_assert(std::is_integral_v<C>, "ntc::dev: & needs integer or bool tiles");
    return C(a & b);
  }
};
struct or_op {
  template <class C> __device__ C operator()(C a, C b) const {
    static_assert(std::is_integral_v<C>, "ntc::dev: | needs integer or bool tiles");
    return C(a | b);
  }
};
struct xor_op {
  template <class C> __device__ C operator()(C a, C b) const {
    static_assert(std::is_integral_v<C>, "ntc::dev: ^ needs integer or bool tiles");
    return C(a ^ b);
  }
};
struct pow_op {
  template <class C> __device__ C operator()(C a, C b) const {
    if constexpr (std::is_same_v<C, float>)
      return ::powf(a, b);
    else if constexpr (std::is_same_v<C, double>)
      return ::pow(a, b);
    else
      return ::ntc::dev::convert<C>(::pow(double(a), double(b)));
  }
};
struct maximum_op {
  template <class C> __device__ C operator()(C a, C b) const {
    if (::ntc::dev::is_nan(a))
      return a;
    if (::ntc::dev::is_nan(b))
      return b;
    return a < b ? b : a;
  }
};
struct minimum_op {
  template <class C> __device__ C operator()(C a, C b) const {
    if (::ntc::dev::is_nan(a))
      return a;
    if (::ntc::dev::is_nan(b))
      return b;
    return b < a ? b : a;
  }
};
/// max.NaN (Max) or min.NaN of two floats, one instruction: IEEE 754-2019 maximum/minimum (a
/// NaN operand gives the canonical NaN, and −0 is below +0).
template <bool Max> __device__ inline float extreme_nan(float a, float b) {
  float r;
  if constexpr (Max)
    asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  else
    asm("min.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  return r;
}

/// maximum (Max) or minimum of floats as one instruction (extreme_nan); other types as
/// maximum_op/minimum_op.
template <bool Max> struct extreme_instruction_op {
  template <class C> __device__ C operator()(C a, C b) const {
    if constexpr (std::is_same_v<C, float>) {
      return extreme_nan<Max>(a, b);
    } else if constexpr (Max) {
      return maximum_op{}(a, b);
    } else {
      return minimum_op{}(a, b);
    }
  }
};
struct eq_op {
  template <class C> __device__ bool operator()(C a, C b) const { return a == b; }
};
struct ne_op {
  template <class C> __device__ bool operator()(C a, C b) const { return a != b; }
};
struct lt_op {
  template <class C> __device__ bool operator()(C a, C b) const { return a < b; }
};
struct le_op {
  template <class C> __device__ bool operator()(C a, C b) const { return a <= b; }
};
struct gt_op {
  template <class C> __device__ bool operator()(C a, C b) const { return a > b; }
};
struct ge_op {
  template <class C> __device__ bool operator()(C a, C b) const { return a >= b; }
};

/// Arithmetic: both operands converted to R, computed in compute_t<R>, converted back.
/// True when Op on X and Y keeps a tile of shares right (its shares still add up to the whole
/// result): shares plus or minus shares, shares times or divided by a whole value, a whole value
/// times shares; true as well when neither operand holds shares.
template <class Op, class X, class Y>
inline constexpr bool distributes_over_shares_v =
    has_shares_v<X> &&has_shares_v<Y> ? std::is_same_v<Op, add_op> || std::is_same_v<Op, sub_op>
    : has_shares_v<X>                 ? std::is_same_v<Op, mul_op> || std::is_same_v<Op, div_op>
    : has_shares_v<Y>                 ? std::is_same_v<Op, mul_op>
                                      : true;

template <class Op, class X, class Y> __device__ inline auto arith(const X &x, const Y &y) {
  using R = binary_result_t<X, Y>;
  using C = compute_t<R>;
  constexpr bool shares = has_shares_v<X, Y>;
  static_assert(distributes_over_shares_v<Op, X, Y>,
                "ntc::dev: this operation does not distribute over lane shares; convert_layout "
                "to the parent layout first");
  return ::ntc::dev::elementwise<R, shares>(
      [](element_t<X> a, element_t<Y> b) {
        return Op{}(C(::ntc::dev::widen(::ntc::dev::convert<R>(a))),
                    C(::ntc::dev::widen(::ntc::dev::convert<R>(b))));
      },
      x, y);
}

/// Comparison: both operands converted to their common type, compared in its compute type.
template <class Cmp, class X, class Y> __device__ inline auto compare(const X &x, const Y &y) {
  using R = binary_result_t<X, Y>;
  return ::ntc::dev::elementwise<bool>(
      [](element_t<X> a, element_t<Y> b) {
        return Cmp{}(::ntc::dev::widen(::ntc::dev::convert<R>(a)),
                     ::ntc::dev::widen(::ntc::dev::convert<R>(b)));
      },
      x, y);
}

/// Enables an operator when at least one operand is a tile and both are operands.
template <class X, class Y>
using enable_binary_t =
    std::enable_if_t<(is_tile_v<X> || is_tile_v<Y>)&&is_operand_v<X> && is_operand_v<Y>, int>;

} // namespace detail

/// a + b element-wise (two tiles, or a tile and an element; see the top of this file).
template <class X, class Y, detail::enable_binary_t<X, Y> = 0>
__device__ inline auto operator+(const X &a, const Y &b) {
  return detail::arith<detail::add_op>(a, b);
}
/// a − b element-wise.
template <class X, class Y, detail::enable_binary_t<X, Y> = 0>
__device__ inline auto operator-(const X &a, const Y &b) {
  return detail::arith<detail::sub_op>(a, b);
}
/// a · b element-wise.
template <class X, class Y, detail::enable_binary_t<X, Y> = 0>
__device__ inline auto operator*(const X &a, const Y &b) {
  return detail::arith<detail::mul_op>(a, b);
}
/// a / b element-wise (integers truncate; integer division by zero gives 0).
template <class X, class Y, detail::enable_binary_t<X, Y> = 0>
__device__ inline auto operator/(const X &a, const Y &b) {
  return detail::arith<detail::div_op>(a, b);
}
/// a % b element-wise (C remainder for integers, fmod for floats; integer % 0 gives 0).
template <class X, class Y, detail::enable_binary_t<X, Y> = 0>
__device__ inline auto operator%(const X &a, const Y &b) {
  return detail::arith<detail::mod_op>(a, b);
}
/// a & b element-wise (integer or bool).
template <class X, class Y, detail::enable_binary_t<X, Y> = 0>
__device__ inline auto operator&(const X &a, const Y &b) {
  return detail::arith<detail::and_op>(a, b);
}
/// a | b element-wise (integer or bool).
template <class X, class Y, detail::enable_binary_t<X, Y> = 0>
__device__ inline auto operator|(const X &a, const Y &b) {
  return detail::arith<detail::or_op>(a, b);
}
/// a ^ b element-wise (integer or bool).
template <class X, class Y, detail::enable_binary_t<X, Y> = 0>
__device__ inline auto operator^(const X &a, const Y &b) {
  return detail::arith<detail::xor_op>(a, b);
}
/// a == b element-wise, as a bool tile.
template <class X, class Y, detail::enable_binary_t<X, Y> = 0>
__device__ inline auto operator==(const X &a, const Y &b) {
  return detail::compare<detail::eq_op>(a, b);
}
/// a != b element-wise, as a bool tile.
template <class X, class Y, detail::enable_binary_t<X, Y> = 0>
__device__ inline auto operator!=(const X &a, const Y &b) {
  return detail::compare<detail::ne_op>(a, b);
}
/// a < b element-wise, as a bool tile.
template <class X, class Y, detail::enable_binary_t<X, Y> = 0>
__device__ inline auto operator<(const X &a, const Y &b) {
  return detail::compare<detail::lt_op>(a, b);
}
/// a <= b element-wise, as a bool tile.
template <class X, class Y, detail::enable_binary_t<X, Y> = 0>
__device__ inline auto operator<=(const X &a, const Y &b) {
  return detail::compare<detail::le_op>(a, b);
}
/// a > b element-wise, as a bool tile.
template <class X, class Y, detail::enable_binary_t<X, Y> = 0>
__device__ inline auto operator>(const X &a, const Y &b) {
  return detail::compare<detail::gt_op>(a, b);
}
/// a >= b element-wise, as a bool tile.
template <class X, class Y, detail::enable_binary_t<X, Y> = 0>
__device__ inline auto operator>=(const X &a, const Y &b) {
  return detail::compare<detail::ge_op>(a, b);
}

namespace detail {
/// −x of one element (integers wrap; bool unchanged).
struct negate_fn {
  template <class T> __device__ T operator()(T x) const {
    if constexpr (is_integer_v<T>)
      return T(wrap_t<T>(0) - wrap_t<T>(x));
    else if constexpr (std::is_same_v<T, bool>)
      return x;
    else
      return ::ntc::dev::convert<T>(-::ntc::dev::widen(x));
  }
};
} // namespace detail

/// −a element-wise (integers wrap; bool unchanged).
template <class T, class S, int Th>
__device__ inline Tile<T, S, Th> operator-(const Tile<T, S, Th> &a) {
  return ::ntc::dev::map(a, detail::negate_fn{});
}
/// +a.
template <class T, class S, int Th>
__device__ inline Tile<T, S, Th> operator+(const Tile<T, S, Th> &a) {
  return a;
}
/// Logical not: a == 0 element-wise, as a bool tile.
template <class T, class S, int Th>
__device__ inline Tile<bool, S, Th> operator!(const Tile<T, S, Th> &a) {
  return ::ntc::dev::map(a, [](T x) { return !::ntc::dev::convert<bool>(x); });
}
/// Bitwise not of an integer tile.
template <class T, class S, int Th>
__device__ inline Tile<T, S, Th> operator~(const Tile<T, S, Th> &a) {
  static_assert(is_integer_v<T>, "ntc::dev: ~ needs an integer tile");
  return ::ntc::dev::map(a, [](T x) { return T(~x); });
}

namespace detail {
/// *self = (*self op other) converted back to T, keeping self's shape.
template <class Op, class T, class S, int Th, class U>
__device__ inline void compound(Tile<T, S, Th> &self, const U &other) {
  auto r = ::ntc::dev::detail::arith<Op>(self, other);
  static_assert(std::is_same_v<typename decltype(r)::shape, S>,
                "ntc::dev: compound assignment would change the shape");
  self = ::ntc::dev::cast<T>(r);
}
} // namespace detail

template <class T, class S, int Th>
template <class U>
__device__ Tile<T, S, Th> &Tile<T, S, Th>::operator+=(const U &other) {
  detail::compound<detail::add_op>(*this, other);
  return *this;
}
template <class T, class S, int Th>
template <class U>
__device__ Tile<T, S, Th> &Tile<T, S, Th>::operator-=(const U &other) {
  detail::compound<detail::sub_op>(*this, other);
  return *this;
}
template <class T, class S, int Th>
template <class U>
__device__ Tile<T, S, Th> &Tile<T, S, Th>::operator*=(const U &other) {
  detail::compound<detail::mul_op>(*this, other);
  return *this;
}
template <class T, class S, int Th>
template <class U>
__device__ Tile<T, S, Th> &Tile<T, S, Th>::operator/=(const U &other) {
  detail::compound<detail::div_op>(*this, other);
  return *this;
}
template <class T, class S, int Th>
template <class U>
__device__ Tile<T, S, Th> &Tile<T, S, Th>::operator%=(const U &other) {
  detail::compound<detail::mod_op>(*this, other);
  return *this;
}
template <class T, class S, int Th>
template <class U>
__device__ Tile<T, S, Th> &Tile<T, S, Th>::operator&=(const U &other) {
  detail::compound<detail::and_op>(*this, other);
  return *this;
}
template <class T, class S, int Th>
template <class U>
__device__ Tile<T, S, Th> &Tile<T, S, Th>::operator|=(const U &other) {
  detail::compound<detail::or_op>(*this, other);
  return *this;
}
template <class T, class S, int Th>
template <class U>
__device__ Tile<T, S, Th> &Tile<T, S, Th>::operator^=(const U &other) {
  detail::compound<detail::xor_op>(*this, other);
  return *this;
}

// --- math ---------------------------------------------------------------------------------------

#define NTC_DEV_FLOAT_FUNCTION(name, float_expression, double_expression)                          \
  template <class T, std::enable_if_t<is_element_v<T>, int> = 0>                                   \
  __device__ inline T name(T value) {                                                              \
    static_assert(is_floating_v<T>, "ntc::dev::" #name " needs a floating element type");          \
    using C = compute_t<T>;                                                                        \
    const C x = ::ntc::dev::widen(value);                                                          \
    if constexpr (std::is_same_v<C, double>)                                                       \
      return ::ntc::dev::convert<T>(C(double_expression));                                         \
    else                                                                                           \
      return ::ntc::dev::convert<T>(C(float_expression));                                          \
  }                                                                                                \
  template <class T, class S, int Th>                                                              \
  __device__ inline Tile<T, S, Th> name(const Tile<T, S, Th> &t) {                                 \
    return ::ntc::dev::map(t, [](T value) { return ::ntc::dev::name(value); });                    \
  }                                                                                                \
  template <class T, class S, class L>                                                             \
  __device__ inline LTile<T, S, L> name(const LTile<T, S, L> &t) {                                 \
    return ::ntc::dev::map(t, [](T value) { return ::ntc::dev::name(value); });                    \
  }

// The math functions of the operation table (ntc/common/operations.inc), each for a tile and for
// one element: floating elements only; 16- and 8-bit floats are computed in float and rounded
// once.
#define NTC_MATH(name, cpu, device_float, device_double)                                           \
  NTC_DEV_FLOAT_FUNCTION(name, device_float, device_double)
#include <ntc/common/operations.inc>
#undef NTC_DEV_FLOAT_FUNCTION

/// |x| (integers wrap: abs(INT_MIN) = INT_MIN; unsigned and bool unchanged). Element.
template <class T, std::enable_if_t<is_element_v<T>, int> = 0> __device__ inline T abs(T value) {
  if constexpr (std::is_same_v<T, double>)
    return ::fabs(value);
  else if constexpr (is_floating_v<T>)
    return ::ntc::dev::convert<T>(::fabsf(::ntc::dev::widen(value)));
  else if constexpr (std::is_signed_v<T>)
    return value < 0 ? T(detail::wrap_t<T>(0) - detail::wrap_t<T>(value)) : value;
  else
    return value;
}
/// |x| element-wise.
template <class T, class S, int Th> __device__ inline Tile<T, S, Th> abs(const Tile<T, S, Th> &t) {
  return ::ntc::dev::map(t, [](T value) { return ::ntc::dev::abs(value); });
}

/// Largest integer ≤ x (integers unchanged). Element.
template <class T, std::enable_if_t<is_element_v<T>, int> = 0> __device__ inline T floor(T value) {
  if constexpr (std::is_same_v<T, double>)
    return ::floor(value);
  else if constexpr (is_floating_v<T>)
    return ::ntc::dev::convert<T>(::floorf(::ntc::dev::widen(value)));
  else
    return value;
}
/// floor element-wise.
template <class T, class S, int Th>
__device__ inline Tile<T, S, Th> floor(const Tile<T, S, Th> &t) {
  return ::ntc::dev::map(t, [](T value) { return ::ntc::dev::floor(value); });
}

/// Smallest integer ≥ x (integers unchanged). Element.
template <class T, std::enable_if_t<is_element_v<T>, int> = 0> __device__ inline T ceil(T value) {
  if constexpr (std::is_same_v<T, double>)
    return ::ceil(value);
  else if constexpr (is_floating_v<T>)
    return ::ntc::dev::convert<T>(::ceilf(::ntc::dev::widen(value)));
  else
    return value;
}
/// ceil element-wise.
template <class T, class S, int Th> __device__ inline Tile<T, S, Th> ceil(const Tile<T, S, Th> &t) {
  return ::ntc::dev::map(t, [](T value) { return ::ntc::dev::ceil(value); });
}

/// a^b element-wise (tiles or a tile and an element; integers computed in double and converted).
template <class X, class Y, detail::enable_binary_t<X, Y> = 0>
__device__ inline auto pow(const X &a, const Y &b) {
  return detail::arith<detail::pow_op>(a, b);
}
/// Element-wise maximum; NaN propagates.
template <class X, class Y, detail::enable_binary_t<X, Y> = 0>
__device__ inline auto maximum(const X &a, const Y &b) {
  return detail::arith<detail::maximum_op>(a, b);
}
/// Element-wise minimum; NaN propagates.
template <class X, class Y, detail::enable_binary_t<X, Y> = 0>
__device__ inline auto minimum(const X &a, const Y &b) {
  return detail::arith<detail::minimum_op>(a, b);
}
/// Element-wise maximum as one max.NaN instruction for floats (the compiler's knob minmax=1):
/// a NaN operand gives the canonical NaN rather than itself, and +0 is above −0.
template <class X, class Y, detail::enable_binary_t<X, Y> = 0>
__device__ inline auto maximum_instruction(const X &a, const Y &b) {
  return detail::arith<detail::extreme_instruction_op<true>>(a, b);
}
/// Element-wise minimum as one min.NaN instruction for floats (see maximum_instruction).
template <class X, class Y, detail::enable_binary_t<X, Y> = 0>
__device__ inline auto minimum_instruction(const X &a, const Y &b) {
  return detail::arith<detail::extreme_instruction_op<false>>(a, b);
}
/// minimum(maximum(x, lo), hi) element-wise, in x's element type; NaN in x propagates.
template <class T, class S, int Th, class L, class H>
__device__ inline Tile<T, S, Th> clamp(const Tile<T, S, Th> &x, const L &lo, const H &hi) {
  return ::ntc::dev::cast<T>(
      ::ntc::dev::minimum(::ntc::dev::cast<T>(::ntc::dev::maximum(x, lo)), hi));
}

// --- shape operations ---------------------------------------------------------------------------

/// The same elements with shape S2 (same number of elements; free: the linear order and so the
/// ownership are unchanged).
template <class S2, class T, class S, int Th>
__device__ inline Tile<T, S2, Th> reshape(const Tile<T, S, Th> &t) {
  static_assert(is_shape_v<S2>, "ntc::dev::reshape: S2 must be a Shape");
  static_assert(S2::numel == S::numel, "ntc::dev::reshape: different number of elements");
  Tile<T, S2, Th> r;
#pragma unroll
  for (int s = 0; s < r.Slots; ++s)
    r.v[s] = t.v[s];
  return r;
}

/// `t` with a size-1 dimension inserted at `Axis` (in [−rank − 1, rank]; negative counts from
/// the end). Free.
template <int Axis, class T, class S, int Th>
__device__ inline auto expand_dims(const Tile<T, S, Th> &t) {
  static_assert(Axis >= -(S::rank + 1) && Axis <= S::rank,
                "ntc::dev::expand_dims: axis out of range");
  constexpr int a = Axis < 0 ? Axis + S::rank + 1 : Axis;
  return ::ntc::dev::reshape<typename detail::insert_axis<S, a>::type>(t);
}

/// Bytes of shared memory broadcast_to<S2> needs for a tile of T with shape S (0 when free:
/// same number of elements, or a replicated source).
template <class T, class S, class S2> NTC_DEV_HD constexpr std::size_t broadcast_smem_bytes() {
  return S::numel == 1 || S::numel == S2::numel ? 0 : smem_align(sizeof(T) * S::numel);
}
/// Bytes of shared memory broadcast_to needs for a source tile of T with shape S, whatever the
/// target.
template <class T, class S> NTC_DEV_HD constexpr std::size_t broadcast_smem_bytes() {
  return S::numel == 1 ? 0 : smem_align(sizeof(T) * S::numel);
}

/// `t` broadcast to S2 (NumPy rules: S2 must be the broadcast of S and S2). Free when the
/// source is replicated or has as many elements as S2; otherwise through shared memory
/// (broadcast_smem_bytes<T, S>() bytes).
template <class S2, class T, class S, int Th>
__device__ inline Tile<T, S2, Th> broadcast_to(const Tile<T, S, Th> &t, Smem smem) {
  static_assert(is_shape_v<S2>, "ntc::dev::broadcast_to: S2 must be a Shape");
  static_assert(detail::broadcast_shape<S, S2>::compatible() &&
                    std::is_same_v<broadcast_shape_t<S, S2>, S2>,
                "ntc::dev::broadcast_to: cannot broadcast to this shape");
  if constexpr (S::numel == S2::numel) {
    return ::ntc::dev::reshape<S2>(t);
  } else if constexpr (S::numel == 1) {
    return ::ntc::dev::full<T, S2, Th>(t.v[0]);
  } else {
    T *buffer = smem.as<T>();
    smem.sync();
#pragma unroll
    for (int s = 0; s < t.Slots; ++s)
      if (t.owns(s))
        buffer[t.linear(s)] = t.v[s];
    smem.sync();
    Tile<T, S2, Th> r;
    constexpr int offset = S2::rank - S::rank;
#pragma unroll
    for (int s = 0; s < r.Slots; ++s) {
      int index[S2::rank];
      S2::unravel(r.owns(s) ? r.linear(s) : 0, index);
      int source = 0;
#pragma unroll
      for (int d = 0; d < S::rank; ++d)
        source += (S::dim(d) == 1 ? 0 : index[d + offset]) * S::stride(d);
      r.v[s] = buffer[source];
    }
    smem.sync();
    return r;
  }
}

/// `t` broadcast to S2 when that is free (a replicated source, or the same number of
/// elements); a compile error otherwise (use the Smem overload).
template <class S2, class T, class S, int Th>
__device__ inline Tile<T, S2, Th> broadcast_to(const Tile<T, S, Th> &t) {
  static_assert(S::numel == 1 || S::numel == S2::numel,
                "ntc::dev::broadcast_to: this broadcast needs shared memory (pass an Smem)");
  return ::ntc::dev::broadcast_to<S2>(t, Smem{nullptr});
}

/// Bytes of shared memory permute needs for a tile of T with shape S.
template <class T, class S> NTC_DEV_HD constexpr std::size_t permute_smem_bytes() {
  return S::numel == 1 ? 0 : smem_align(sizeof(T) * S::numel);
}

/// The dimensions of `t` reordered: result dimension i is input dimension P[i]. Through shared
/// memory (permute_smem_bytes<T, S>() bytes) unless the order is unchanged.
template <int... P, class T, class S, int Th>
__device__ inline auto permute(const Tile<T, S, Th> &t, Smem smem) {
  static_assert(sizeof...(P) == S::rank, "ntc::dev::permute: one entry per dimension");
  static_assert(detail::permute_shape<S, P...>::valid(), "ntc::dev::permute: not a permutation");
  using Perm = detail::permute_shape<S, P...>;
  using S2 = typename Perm::type;
  if constexpr (Perm::identity() || S::numel == 1) {
    return ::ntc::dev::reshape<S2>(t);
  } else {
    T *buffer = smem.as<T>();
    smem.sync();
#pragma unroll
    for (int s = 0; s < t.Slots; ++s)
      if (t.owns(s))
        buffer[t.linear(s)] = t.v[s];
    smem.sync();
    Tile<T, S2, Th> r;
#pragma unroll
    for (int s = 0; s < r.Slots; ++s) {
      int index[S2::rank];
      S2::unravel(r.owns(s) ? r.linear(s) : 0, index);
      int source = 0;
#pragma unroll
      for (int i = 0; i < S2::rank; ++i)
        source += index[i] * Perm::source_stride(i);
      r.v[s] = buffer[source];
    }
    smem.sync();
    return r;
  }
}

namespace detail {
/// Column of element (r, c) in trans' staging buffer: XOR-swizzled within 32-column groups
/// when the rows are whole groups, so that reading a column touches 32 different banks.
template <int C> __device__ inline int trans_column(int r, int c) {
  if constexpr (C % 32 == 0)
    return c ^ (r & 31);
  else
    return c;
}
} // namespace detail

/// Bytes of shared memory trans needs for a 2-D tile of T with shape S (the tile itself: the
/// staging buffer is swizzled, not padded).
template <class T, class S> NTC_DEV_HD constexpr std::size_t trans_smem_bytes() {
  static_assert(S::rank == 2, "ntc::dev::trans_smem_bytes: 2-D shape");
  return S::numel == 1 ? 0 : smem_align(sizeof(T) * std::size_t(S::numel));
}

/// Transpose of a 2-D tile, through shared memory (trans_smem_bytes<T, S>() bytes; XOR-swizzled
/// against bank conflicts).
template <class T, class S, int Th>
__device__ inline auto trans(const Tile<T, S, Th> &t, Smem smem) {
  static_assert(S::rank == 2, "ntc::dev::trans: expected a 2-D tile");
  constexpr int R = S::dim(0), C = S::dim(1);
  using S2 = Shape<C, R>;
  if constexpr (S::numel == 1 || R == 1 || C == 1) {
    return ::ntc::dev::reshape<S2>(t);
  } else {
    T *buffer = smem.as<T>();
    smem.sync();
#pragma unroll
    for (int s = 0; s < t.Slots; ++s)
      if (t.owns(s)) {
        const int e = t.linear(s);
        buffer[(e / C) * C + detail::trans_column<C>(e / C, e % C)] = t.v[s];
      }
    smem.sync();
    Tile<T, S2, Th> r;
#pragma unroll
    for (int s = 0; s < r.Slots; ++s) {
      const int e = r.owns(s) ? r.linear(s) : 0; // (i, j) of the result = (j, i) of t
      r.v[s] = buffer[(e % R) * C + detail::trans_column<C>(e % R, e / R)];
    }
    smem.sync();
    return r;
  }
}

} // namespace ntc::dev

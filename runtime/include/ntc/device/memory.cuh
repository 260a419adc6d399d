// Masked loads and stores between global memory and device tiles, and index-generated tiles.
// The generated code supplies the index map as a callable: offset(const int *index) returns the
// element offset (long long) from `base` of the tile element at `index` (one entry per tile
// dimension, outermost first), or `masked` when that element is masked (other offsets may be
// negative: views with negative strides), as ntc::cpu. In the blocked layout a warp handles
// 32·V consecutive elements, so row-major contiguous tiles coalesce; load_vec and store_vec
// also read and write each chunk of V elements with 16-byte (or narrower) vector accesses where
// the generated code has proven (or the dispatcher checked) that this is allowed.
#pragma once

#include <ntc/device/tile.cuh>

#include <cstring>

namespace ntc::dev {

/// The offset an access callable returns for a masked element (ntc::cpu::masked).
inline constexpr long long masked = -0x7fffffffffffffffLL - 1;

/// A tile of shape S whose element at index I is f(I), converted to T (f(const int *index)
/// returns an element value; used for the source coordinates of an access). Filler slots hold
/// T{}.
template <class T, class S, int Threads, class F>
__device__ inline Tile<T, S, Threads> generate(F f) {
  Tile<T, S, Threads> r;
#pragma unroll
  for (int s = 0; s < r.Slots; ++s) {
    if (r.owns(s)) {
      int index[S::rank > 0 ? S::rank : 1] = {};
      S::unravel(r.linear(s), index);
      r.v[s] = ::ntc::dev::convert<T>(f(static_cast<const int *>(index)));
    } else {
      r.v[s] = T{};
    }
  }
  return r;
}

/// Loads a tile of shape S: the element at index I is base[offset(I)], or `other` (converted to
/// T) where offset(I) is `masked` (base is not read there). A replicated (one-element) tile is
/// loaded by every thread.
template <class T, class S, int Threads, class O, class F>
__device__ inline Tile<T, S, Threads> load(const T *base, O other, F offset) {
  const T fill = ::ntc::dev::convert<T>(other);
  Tile<T, S, Threads> r;
#pragma unroll
  for (int s = 0; s < r.Slots; ++s) {
    r.v[s] = fill;
    if (r.owns(s)) {
      int index[S::rank > 0 ? S::rank : 1] = {};
      S::unravel(r.linear(s), index);
      const long long off = static_cast<long long>(offset(static_cast<const int *>(index)));
      if (off != masked)
        r.v[s] = base[off];
    }
  }
  return r;
}

/// Stores `value`: the element at index I goes to base[offset(I)], converted to T with
/// convert() (float → float16 rounds to nearest even); elements whose offset is `masked` are
/// skipped. A replicated tile is stored by thread 0 only.
template <class T, class U, class S, int Threads, class F>
__device__ inline void store(T *base, const Tile<U, S, Threads> &value, F offset) {
#pragma unroll
  for (int s = 0; s < value.Slots; ++s) {
    if (value.writes(s)) {
      int index[S::rank > 0 ? S::rank : 1] = {};
      S::unravel(value.linear(s), index);
      const long long off = static_cast<long long>(offset(static_cast<const int *>(index)));
      if (off != masked)
        base[off] = ::ntc::dev::convert<T>(value.v[s]);
    }
  }
}

namespace detail {

/// An unsigned word of `Bytes` bytes (1, 2, 4, 8 or 16) for vector memory accesses.
template <int Bytes> struct vector_word;
template <> struct vector_word<1> { using type = unsigned char; };
template <> struct vector_word<2> { using type = unsigned short; };
template <> struct vector_word<4> { using type = unsigned int; };
template <> struct vector_word<8> { using type = uint2; };
template <> struct vector_word<16> { using type = uint4; };

/// Elements of T per vector access in a chunk of V elements: V, halved until at most 16 bytes.
template <class T, int V> NTC_DEV_HD constexpr int access_width() {
  int w = V;
  while (w > 1 && w * int(sizeof(T)) > 16)
    w /= 2;
  return w;
}

/// True when tiles of this type can use the vector paths: whole chunks of V ≥ 2 elements that
/// never cross a row.
template <class R, class S>
inline constexpr bool vector_tile_v = !R::replicated && R::V > 1 && S::rank > 0 &&
                                      S::dim(S::rank - 1) % R::V == 0;

} // namespace detail

/// The chunk callable of an access that has no vector form (always `masked`: every chunk goes
/// element by element).
struct no_chunk {
  template <class... A> __device__ long long operator()(A...) const { return masked; }
};

/// The affine form of a 2-D tile access: whenever full(args...) holds (every element of the
/// tile is in bounds), element index[0..1] of the tile is at offset
/// origin(args...) + index[0]·stride0 + index[1]·stride1 of the source (the compiler proved
/// it: see passes/AffineAccess.cpp); args are dot_loop's step, nothing for async_copy. The
/// copies then find a thread's chunks from one offset; otherwise they take the masked offsets
/// chunk by chunk.
template <class Full, class Origin> struct affine_tile {
  Full full;
  Origin origin;
  long long stride0, stride1;
};
template <class Full, class Origin>
affine_tile(Full, Origin, long long, long long) -> affine_tile<Full, Origin>;

/// An operand without an affine form (every step uses the masked offsets).
struct no_affine {};

/// load() with vector accesses. chunk(index) is the offset of the chunk of V (Tile::V)
/// consecutive elements of one row that starts at `index`, or `masked` unless all V are in
/// bounds. Contract (the compiler proves it, or the dispatcher checks it before choosing this
/// variant): where chunk() is not `masked`, the V elements are consecutive in memory from
/// base + chunk(index), which is aligned to the access width (min(16, V·sizeof(T)) bytes).
/// Other chunks are read element by element with offset(), like load().
template <class T, class S, int Threads, class O, class F, class C>
__device__ inline Tile<T, S, Threads> load_vec(const T *base, O other, F offset, C chunk) {
  using R = Tile<T, S, Threads>;
  if constexpr (!detail::vector_tile_v<R, S>) {
    return ::ntc::dev::load<T, S, Threads>(base, other, offset);
  } else {
    constexpr int V = R::V, W = detail::access_width<T, V>(), B = W * int(sizeof(T));
    using Word = typename detail::vector_word<B>::type;
    const T fill = ::ntc::dev::convert<T>(other);
    R r;
#pragma unroll
    for (int c = 0; c < R::Slots / V; ++c) {
      int index[S::rank];
      S::unravel(r.linear(c * V), index);
      const long long first = static_cast<long long>(chunk(static_cast<const int *>(index)));
      if (first != masked) {
#pragma unroll
        for (int w = 0; w < V / W; ++w) {
          const Word word = reinterpret_cast<const Word *>(base + first)[w];
          std::memcpy(&r.v[c * V + w * W], &word, B);
        }
      } else {
#pragma unroll
        for (int k = 0; k < V; ++k, ++index[S::rank - 1]) {
          const long long off = static_cast<long long>(offset(static_cast<const int *>(index)));
          r.v[c * V + k] = off == masked ? fill : base[off];
        }
      }
    }
    return r;
  }
}

/// store() with vector accesses, under the contract of load_vec.
template <class T, class U, class S, int Threads, class F, class C>
__device__ inline void store_vec(T *base, const Tile<U, S, Threads> &value, F offset, C chunk) {
  using R = Tile<U, S, Threads>;
  if constexpr (!detail::vector_tile_v<R, S>) {
    ::ntc::dev::store(base, value, offset);
  } else {
    constexpr int V = R::V, W = detail::access_width<T, V>(), B = W * int(sizeof(T));
    using Word = typename detail::vector_word<B>::type;
#pragma unroll
    for (int c = 0; c < R::Slots / V; ++c) {
      int index[S::rank];
      S::unravel(value.linear(c * V), index);
      const long long first = static_cast<long long>(chunk(static_cast<const int *>(index)));
      if (first != masked) {
#pragma unroll
        for (int w = 0; w < V / W; ++w) {
          T packed[W];
#pragma unroll
          for (int k = 0; k < W; ++k)
            packed[k] = ::ntc::dev::convert<T>(value.v[c * V + w * W + k]);
          Word word;
          std::memcpy(&word, packed, B);
          reinterpret_cast<Word *>(base + first)[w] = word;
        }
      } else {
#pragma unroll
        for (int k = 0; k < V; ++k, ++index[S::rank - 1]) {
          const long long off = static_cast<long long>(offset(static_cast<const int *>(index)));
          if (off != masked)
            base[off] = ::ntc::dev::convert<T>(value.v[c * V + k]);
        }
      }
    }
  }
}

} // namespace ntc::dev

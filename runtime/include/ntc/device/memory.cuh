// Masked loads and stores between global memory and device tiles, and index-generated tiles.
// The generated code supplies the index map as a callable: offset(const int *index) returns the
// element offset (long long) from `base` of the tile element at `index` (one entry per tile
// dimension, outermost first), or `masked` when that element is masked (other offsets may be
// negative: views with negative strides), as ntc::cpu. In the cyclic layout a warp handles 32
// consecutive elements, so row-major contiguous tiles coalesce.
#pragma once

#include <ntc/device/tile.cuh>

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

} // namespace ntc::dev

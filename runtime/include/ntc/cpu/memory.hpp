// Masked loads and stores between memory and CPU tiles. The generated code supplies the index
// map as a callable: offset(const int64_t *index) -> int64_t returns the element offset from
// `base` of the tile element at `index` (one entry per tile dimension, outermost first), or a
// `masked` when that element is masked (offsets may be negative: negative strides).
#pragma once

#include <ntc/cpu/tile.hpp>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace ntc::cpu {

namespace detail {
/// Calls f(linear, index) for every index of `shape` in row-major order.
template <class F> void for_each_index(const Shape &shape, F &&f) {
  const int rank = int(shape.size());
  const int64_t total = shape_numel(shape);
  std::vector<int64_t> index(std::size_t(rank) + 1, 0); // +1: valid pointer at rank 0
  for (int64_t i = 0; i < total; ++i) {
    f(i, static_cast<const int64_t *>(index.data()));
    for (int d = rank - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
}
} // namespace detail

/// A tile of `shape` whose element at index I is f(I) (converted to T); used for the source
/// coordinates of an access (x.offsets(d)).
template <class T, class F> Tile<T> generate(Shape shape, F &&f) {
  Tile<T> t{std::move(shape), {}};
  t.data.resize(std::size_t(shape_numel(t.shape)));
  detail::for_each_index(t.shape,
                         [&](int64_t i, const int64_t *index) { t.data[i] = T(f(index)); });
  return t;
}

/// The offset an access lambda returns for a masked element (offsets themselves may be
/// negative: views with negative strides).
inline constexpr int64_t masked = INT64_MIN;

/// Loads a tile of `shape`: the element at index I is base[offset(I)], or `other` (converted
/// to T) where offset(I) is `masked`.
template <class T, class O, class F> Tile<T> load(const T *base, Shape shape, O other, F &&offset) {
  const T fill = convert<T>(other);
  Tile<T> t{std::move(shape), {}};
  t.data.resize(std::size_t(shape_numel(t.shape)));
  detail::for_each_index(t.shape, [&](int64_t i, const int64_t *index) {
    const int64_t off = offset(index);
    t.data[i] = off == masked ? fill : base[off];
  });
  return t;
}

/// load() with the shape first (the order the generated code uses for every creation
/// function).
template <class T, class O, class F> Tile<T> load(Shape shape, const T *base, O other, F &&offset) {
  return load(base, std::move(shape), other, std::forward<F>(offset));
}

/// Stores `value`: the element at index I goes to base[offset(I)], converted to T (float →
/// float16 rounds to nearest even; see convert()); elements whose offset is `masked` are skipped.
template <class T, class U, class F> void store(T *base, const Tile<U> &value, F &&offset) {
  detail::for_each_index(value.shape, [&](int64_t i, const int64_t *index) {
    const int64_t off = offset(index);
    if (off != masked)
      base[off] = convert<T>(U(value.data[i]));
  });
}

} // namespace ntc::cpu

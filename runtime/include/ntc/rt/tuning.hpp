// Shape buckets and alignment classes of tuning tables, and the choice of a configuration by
// the generated dispatcher. ntc-tune uses the same functions to label what it measured, so a
// table's keys mean the same thing when they are written and when they are matched.
#pragma once

#include <dlpack/dlpack.h>

#include <array>
#include <cstddef>
#include <cstdint>

namespace ntc::rt {

/// The bucket of one size: the smallest power of two at least `n` (0 for 0 and below).
constexpr int64_t size_bucket(int64_t n) {
  if (n <= 0)
    return 0;
  int64_t b = 1;
  while (b < n && b < (int64_t{1} << 62))
    b *= 2;
  return b;
}

/// The alignment class of a tensor: true ("aligned16") when its first element and every step
/// of a dimension that is not unit-strided are multiples of 16 bytes (the vector and TMA paths
/// need this), false ("any") otherwise. A null tensor is "any".
inline bool aligned16(const DLTensor *t) {
  if (!t)
    return false;
  const int64_t bytes = (int64_t{t->dtype.bits} * t->dtype.lanes + 7) / 8;
  const uintptr_t first =
      reinterpret_cast<uintptr_t>(t->data) + static_cast<uintptr_t>(t->byte_offset);
  if (first % 16 != 0)
    return false;
  for (int d = 0; d < t->ndim; ++d) {
    if (t->shape[d] == 1)
      continue; // never stepped
    const int64_t stride = t->strides ? t->strides[d] : 0;
    if (!t->strides) { // compact row-major: the step of d is the product of the later sizes
      int64_t step = 1;
      for (int e = d + 1; e < t->ndim; ++e)
        step *= t->shape[e];
      if (step != 1 && (step * bytes) % 16 != 0)
        return false;
    } else if (stride != 1 && (stride * bytes) % 16 != 0) {
      return false;
    }
  }
  return true;
}

/// A tuning-table entry's value of a compile-time scalar (nt::Constexpr) that stands for every
/// value: the entry was written without one.
inline constexpr int64_t any_value = INT64_MIN;

/// One shape bucket of a tuning table compiled into a dispatcher: the architecture it was
/// measured on (compute capability × 10, 0 on the CPU), its alignment class, the configuration
/// that won, the buckets of every tensor dimension of the call (parameters in order), the
/// values of the integer compile-time scalars it was measured with (parameters in order;
/// any_value for one the entry does not name) and the compiled extent of each padded tile
/// extent at its shape (any_value where the shape does not give it).
template <std::size_t Dims, std::size_t Keys = 0, std::size_t Extents = 0> struct tuned_shape {
  int arch;
  bool aligned;
  int config;
  std::array<int64_t, Dims> bucket;
  std::array<int64_t, Keys> values;
  std::array<int64_t, Extents> extents;
};

/// log2 of a bucket, -1 for the empty bucket.
constexpr int bucket_log2(int64_t b) {
  int l = -1;
  for (; b > 0; b /= 2)
    ++l;
  return l;
}

/// The configuration for a call: among the entries of the same architecture, alignment class
/// and compile-time scalar values whose padded tile extents are at least the call's, the one
/// whose buckets are nearest to the call's (the sum over dimensions of the distance in powers of
/// two; the first of equals); 0 (the default) when none matches. A configuration is compiled
/// only for the scalar values of its entries and the extents up to theirs (a program holds more
/// registers per thread for longer rows, so an extent measured says nothing of longer ones), and
/// an entry is never taken for another call.
template <std::size_t Dims, std::size_t Keys, std::size_t Extents, std::size_t N>
int pick_config(const tuned_shape<Dims, Keys, Extents> (&table)[N], int arch, bool aligned,
                const std::array<int64_t, Dims> &sizes,
                const std::array<int64_t, Keys> &values = {},
                const std::array<int64_t, Extents> &extents = {}) {
  int best = 0;
  int64_t nearest = -1;
  for (const tuned_shape<Dims, Keys, Extents> &entry : table) {
    if (entry.arch != arch || entry.aligned != aligned)
      continue;
    bool same = true;
    auto value = values.begin(); // (no indices: Keys and Extents may be 0)
    for (const int64_t measured : entry.values) {
      same = same && (measured == any_value || measured == *value);
      ++value;
    }
    auto extent = extents.begin();
    for (const int64_t measured : entry.extents) {
      same = same && (measured == any_value || *extent <= measured);
      ++extent;
    }
    if (!same)
      continue;
    int64_t distance = 0;
    for (std::size_t d = 0; d < Dims; ++d) {
      const int diff = bucket_log2(entry.bucket[d]) - bucket_log2(size_bucket(sizes[d]));
      distance += diff < 0 ? -diff : diff;
    }
    if (nearest < 0 || distance < nearest) {
      nearest = distance;
      best = entry.config;
    }
  }
  return best;
}

} // namespace ntc::rt

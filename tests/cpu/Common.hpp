// Helpers of the CPU-backend numerics tests: host tensors behind DLTensor views (contiguous or
// strided, with a sentinel-filled backing buffer so that stray stores are caught), seeded random
// fills, error checks and a timer.
#pragma once

#include <ntc/cpu/half.hpp>
#include <ntc/runtime.h>

#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace ntc_test {

using ntc::cpu::bfloat16;
using ntc::cpu::float16;

template <class T> DLDataType dtype_of();
template <> inline DLDataType dtype_of<float>() { return {kDLFloat, 32, 1}; }
template <> inline DLDataType dtype_of<double>() { return {kDLFloat, 64, 1}; }
template <> inline DLDataType dtype_of<float16>() { return {kDLFloat, 16, 1}; }
template <> inline DLDataType dtype_of<bfloat16>() { return {kDLBfloat, 16, 1}; }
template <> inline DLDataType dtype_of<int32_t>() { return {kDLInt, 32, 1}; }
template <> inline DLDataType dtype_of<int64_t>() { return {kDLInt, 64, 1}; }

template <class T> double to_double(T v) { return double(float(v)); }
inline double to_double(double v) { return v; }

/// Row-major strides of `shape` (in elements).
inline std::vector<int64_t> contiguous_strides(const std::vector<int64_t> &shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;)
    strides[i - 1] = strides[i] * shape[i];
  return strides;
}

/// A host tensor: a backing buffer of `storage` elements and a DLTensor view of it with the
/// given shape, strides (elements) and offset (elements, passed as byte_offset). Every element of
/// the buffer starts as `sentinel`, so elements outside the view can be checked untouched.
template <class T> struct Tensor {
  std::vector<T> buffer;
  std::vector<int64_t> shape, strides;
  int64_t offset = 0;
  DLTensor dl{};

  Tensor(std::vector<int64_t> shape_, std::vector<int64_t> strides_ = {}, int64_t offset_ = 0,
         int64_t storage = -1)
      : shape(std::move(shape_)), strides(std::move(strides_)), offset(offset_) {
    if (strides.empty())
      strides = contiguous_strides(shape);
    if (storage < 0) { // just enough for the view
      storage = offset + 1;
      for (size_t d = 0; d < shape.size(); ++d)
        storage += (shape[d] > 0 ? shape[d] - 1 : 0) * strides[d];
    }
    buffer.assign(size_t(storage), T(sentinel()));
    dl.data = buffer.data();
    dl.device = {kDLCPU, 0};
    dl.ndim = int32_t(shape.size());
    dl.dtype = dtype_of<T>();
    dl.shape = shape.data();
    dl.strides = strides.data();
    dl.byte_offset = uint64_t(offset) * sizeof(T);
  }
  Tensor(const Tensor &) = delete;
  Tensor &operator=(const Tensor &) = delete;

  static double sentinel() { return -12345.0; }

  const DLTensor *operator&() const { return &dl; }
  DLTensor *get() { return &dl; }

  int64_t numel() const {
    int64_t n = 1;
    for (int64_t s : shape)
      n *= s;
    return n;
  }
  int64_t position(const std::vector<int64_t> &index) const {
    int64_t p = offset;
    for (size_t d = 0; d < index.size(); ++d)
      p += index[d] * strides[d];
    return p;
  }
  /// The index of the `linear`-th element in row-major order.
  std::vector<int64_t> unravel(int64_t linear) const {
    std::vector<int64_t> index(shape.size());
    for (int d = int(shape.size()) - 1; d >= 0; --d) {
      index[d] = linear % shape[d];
      linear /= shape[d];
    }
    return index;
  }
  T &at(const std::vector<int64_t> &index) { return buffer[size_t(position(index))]; }
  const T &at(const std::vector<int64_t> &index) const { return buffer[size_t(position(index))]; }
  T &operator()(int64_t i) { return buffer[size_t(offset + i * strides[0])]; }
  T &operator()(int64_t i, int64_t j) {
    return buffer[size_t(offset + i * strides[0] + j * strides[1])];
  }
  T &operator()(int64_t a, int64_t b, int64_t c, int64_t d) {
    return buffer[size_t(offset + a * strides[0] + b * strides[1] + c * strides[2] + d * strides[3])];
  }
  double get(const std::vector<int64_t> &index) const { return to_double(at(index)); }
  double flat(int64_t linear) const { return get(unravel(linear)); }

  /// Fills the view with uniform values in [lo, hi] (rounded to T).
  void randomize(std::mt19937_64 &rng, double lo = -1.0, double hi = 1.0) {
    std::uniform_real_distribution<double> dist(lo, hi);
    for (int64_t i = 0; i < numel(); ++i)
      at(unravel(i)) = T(dist(rng));
  }
  void fill(double value) {
    for (int64_t i = 0; i < numel(); ++i)
      at(unravel(i)) = T(value);
  }
  /// Number of buffer elements outside the view that no longer hold the sentinel.
  int64_t touched_outside_view() const {
    std::vector<char> inside(buffer.size(), 0);
    for (int64_t i = 0; i < numel(); ++i)
      inside[size_t(position(unravel(i)))] = 1;
    int64_t n = 0;
    for (size_t i = 0; i < buffer.size(); ++i)
      if (!inside[i] && to_double(buffer[i]) != to_double(T(sentinel())))
        ++n;
    return n;
  }
};

/// Comparison of an output with a reference: counts elements with
/// |out - ref| > atol + rtol·|ref| (NaN counts as a mismatch) and keeps the worst one.
struct Mismatch {
  int64_t count = 0;
  int64_t checked = 0;
  double worst_excess = -1;
  std::string worst;
  double max_abs = 0, max_rel = 0;

  void add(const std::string &where, double out, double ref, double atol, double rtol) {
    ++checked;
    const double diff = std::fabs(out - ref);
    const bool bad = !(diff <= atol + rtol * std::fabs(ref)) || std::isnan(out) != std::isnan(ref);
    if (!std::isnan(diff)) {
      max_abs = std::max(max_abs, diff);
      if (ref != 0)
        max_rel = std::max(max_rel, diff / std::fabs(ref));
    }
    if (bad) {
      ++count;
      const double excess = std::isnan(diff) ? std::numeric_limits<double>::infinity()
                                             : diff - (atol + rtol * std::fabs(ref));
      if (excess > worst_excess) {
        worst_excess = excess;
        std::ostringstream s;
        s << where << ": got " << out << ", expected " << ref;
        worst = s.str();
      }
    }
  }
  std::string summary() const {
    std::ostringstream s;
    s << count << " of " << checked << " elements out of tolerance (max abs err " << max_abs
      << ", max rel err " << max_rel << ")";
    if (count)
      s << "; worst " << worst;
    return s.str();
  }
};

inline std::string index_string(const std::vector<int64_t> &index) {
  std::ostringstream s;
  s << "(";
  for (size_t i = 0; i < index.size(); ++i)
    s << (i ? ", " : "") << index[i];
  s << ")";
  return s.str();
}

/// Compares every element of `out` with `ref` (row-major, same shape).
template <class T>
Mismatch compare(const Tensor<T> &out, const std::vector<double> &ref, double atol, double rtol) {
  Mismatch m;
  REQUIRE(int64_t(ref.size()) == out.numel());
  for (int64_t i = 0; i < out.numel(); ++i)
    m.add(index_string(out.unravel(i)), out.flat(i), ref[size_t(i)], atol, rtol);
  return m;
}

/// The row-major values of a tensor view, as doubles.
template <class T> std::vector<double> values(const Tensor<T> &t) {
  std::vector<double> v(size_t(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i)
    v[size_t(i)] = t.flat(i);
  return v;
}

/// Seconds of wall time taken by f().
template <class F> double seconds(F &&f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace ntc_test

/// REQUIREs NTC_SUCCESS, showing ntc_last_error() otherwise.
#define REQUIRE_NTC_OK(call)                                                                     \
  do {                                                                                           \
    const ntc_status_t ntc_test_status_ = (call);                                                \
    INFO("ntc_last_error(): " << ntc_last_error());                                              \
    REQUIRE(ntc_test_status_ == NTC_SUCCESS);                                                    \
  } while (0)

/// CHECKs that the Mismatch `m` has no element out of tolerance, printing its summary.
#define CHECK_CLOSE(m)                                                                           \
  do {                                                                                           \
    const ntc_test::Mismatch &ntc_test_m_ = (m);                                                 \
    INFO(ntc_test_m_.summary());                                                                 \
    CHECK(ntc_test_m_.checked > 0);                                                              \
    CHECK(ntc_test_m_.count == 0);                                                               \
  } while (0)

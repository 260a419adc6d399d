//===- ntc/rt/index.hpp - integer helpers used by generated code ----------===//
//
// Floor/ceil division and floor modulo with Python's semantics (the layout algebra's),
// and next-power-of-two, for any integer index type. Header-only; used by the code that
// ntc generates for every target.
//
//===----------------------------------------------------------------------===//
#ifndef NTC_RT_INDEX_HPP
#define NTC_RT_INDEX_HPP

#include <cstdint>

#if defined(__CUDACC__)
#define NTC_HOST_DEVICE __host__ __device__
#else
#define NTC_HOST_DEVICE
#endif

namespace ntc::rt {

/// a // b (rounds toward negative infinity); 0 when b is 0. Generated code divides by run-time
/// sizes (unravelling a flattened dimension, counting the tiles of a whole-extent tile), and a
/// size may be 0: the dimension is then empty, so the quotient never selects an element (the
/// dimension's own bound masks the lane, or the grid is empty), but the division must not trap.
template <class I> NTC_HOST_DEVICE constexpr I floor_div(I a, I b) {
  if (b == 0)
    return 0;
  I q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/// ceil(a / b); 0 when b is 0.
template <class I> NTC_HOST_DEVICE constexpr I ceil_div(I a, I b) { return -floor_div<I>(-a, b); }

/// The smaller of a and b (std::min is not callable from device code).
template <class I> NTC_HOST_DEVICE constexpr I min(I a, I b) { return b < a ? b : a; }

/// The larger of a and b.
template <class I> NTC_HOST_DEVICE constexpr I max(I a, I b) { return a < b ? b : a; }

/// a mod b with the sign of b; a when b is 0.
template <class I> NTC_HOST_DEVICE constexpr I floor_mod(I a, I b) {
  return a - floor_div<I>(a, b) * b;
}

/// The smallest power of two >= v (1 for v <= 1). Saturates: for v > 2^62 that power (2^63)
/// does not fit in int64_t, and the result is INT64_MAX (not a power of two). Generated wrappers
/// compare the result with a tile extent's upper bound, which INT64_MAX exceeds, so such sizes
/// are rejected instead of looping forever.
NTC_HOST_DEVICE constexpr int64_t next_pow2(int64_t v) {
  if (v > (int64_t(1) << 62))
    return INT64_MAX;
  int64_t p = 1;
  while (p < v)
    p <<= 1;
  return p;
}

} // namespace ntc::rt

#endif // NTC_RT_INDEX_HPP

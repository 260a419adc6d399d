// Counter-based random numbers for device tiles, bit-compatible with ntc::cpu::rand (and so
// with Triton's tl.rand / tl.randint / tl.randn): Philox-4x32-10 keyed by the 64-bit seed (low
// word, high word) with counter (offset, 0, 0, 0) for offsets of ≤ 32 bits, Philox-4x64-10
// keyed by (seed, 0) for 64-bit offsets. randint and rand give the same bits as the CPU;
// randn uses the device's logf/cosf/sqrtf, so its last bits may differ.
#pragma once

#include <ntc/common/random.hpp>
#include <ntc/device/tile.cuh>

#include <cstdint>
#include <type_traits>

namespace ntc::dev {

// Philox and Triton's conversion of its words to floats: ntc/common/random.hpp, shared with the
// CPU library.
using philox::philox4x32_10;
using philox::philox4x64_10;
using philox::uint4x32;
using philox::uint4x64;
using philox::uint_to_uniform_float;

namespace detail {
template <class O> inline constexpr bool wide_offset_v = sizeof(O) > 4;

/// The first two Philox words for one element (32-bit words for offsets of ≤ 32 bits, 64-bit
/// words otherwise), as Triton's randint4x.
template <class Sd, class O> struct random_words {
  static_assert(is_integer_v<Sd> && is_integer_v<O>, "ntc::dev::rand: integer seed and offsets");
  using word = std::conditional_t<wide_offset_v<O>, uint64_t, uint32_t>;
  word w0, w1;
  NTC_DEV_HD random_words(Sd seed, O offset) {
    const uint64_t s = uint64_t(seed); // sign-extends a negative seed, as seed.to(uint64)
    if constexpr (wide_offset_v<O>) {
      const uint4x64 r = philox4x64_10(uint4x64{{uint64_t(offset), 0, 0, 0}}, s, 0);
      w0 = r.w[0];
      w1 = r.w[1];
    } else {
      const uint4x32 r = philox4x32_10(uint4x32{{uint32_t(int32_t(offset)), 0, 0, 0}}, uint32_t(s),
                                       uint32_t(s >> 32));
      w0 = r.w[0];
      w1 = r.w[1];
    }
  }
};
} // namespace detail

/// Raw random integers (Triton's randint): int32 for offsets of ≤ 32 bits, int64 for 64-bit
/// offsets (the first Philox word). Bit-exact with ntc::cpu::randint.
template <class Sd, class O, class S, int Th>
__device__ inline auto randint(Sd seed, const Tile<O, S, Th> &offsets) {
  using R = std::conditional_t<detail::wide_offset_v<O>, int64_t, int32_t>;
  return ::ntc::dev::map(offsets,
                         [seed](O o) { return R(detail::random_words<Sd, O>(seed, o).w0); });
}

/// Uniform floats in [0, 1) from a seed and each element's offset (Triton's tl.rand).
/// Bit-exact with ntc::cpu::rand.
template <class Sd, class O, class S, int Th>
__device__ inline Tile<float, S, Th> rand(Sd seed, const Tile<O, S, Th> &offsets) {
  return ::ntc::dev::map(offsets, [seed](O o) {
    return uint_to_uniform_float(detail::random_words<Sd, O>(seed, o).w0);
  });
}

/// Standard normal floats (Triton's tl.randn: Box–Muller on the first two Philox words).
template <class Sd, class O, class S, int Th>
__device__ inline Tile<float, S, Th> randn(Sd seed, const Tile<O, S, Th> &offsets) {
  return ::ntc::dev::map(offsets, [seed](O o) {
    const detail::random_words<Sd, O> words(seed, o);
    float u1 = uint_to_uniform_float(words.w0);
    const float u2 = uint_to_uniform_float(words.w1);
    u1 = u1 < 1.0e-7f ? 1.0e-7f : u1;
    const float th = 6.283185307179586f * u2;
    const float r = ::sqrtf(-2.0f * ::logf(u1));
    return r * ::cosf(th);
  });
}

} // namespace ntc::dev

// Counter-based random numbers for device tiles, bit-compatible with ntc::cpu::rand (and so
// with Triton's tl.rand / tl.randint / tl.randn): Philox-4x32-10 keyed by the 64-bit seed (low
// word, high word) with counter (offset, 0, 0, 0) for offsets of ≤ 32 bits, Philox-4x64-10
// keyed by (seed, 0) for 64-bit offsets. randint and rand give the same bits as the CPU;
// randn uses the device's logf/cosf/sqrtf, so its last bits may differ.
#pragma once

#include <ntc/device/tile.cuh>

#include <cstdint>
#include <type_traits>

namespace ntc::dev {

/// Four 32-bit words (a Philox-4x32 block).
struct uint4x32 {
  uint32_t w[4]; ///< the words
};
/// Four 64-bit words (a Philox-4x64 block).
struct uint4x64 {
  uint64_t w[4]; ///< the words
};

/// Philox-4x32 with 10 rounds (Random123's philox4x32_10) on one counter block.
NTC_DEV_HD inline uint4x32 philox4x32_10(uint4x32 counter, uint32_t key0, uint32_t key1) {
  constexpr uint64_t round_a = 0xD2511F53u, round_b = 0xCD9E8D57u;
  uint32_t *c = counter.w;
  for (int round = 0; round < 10; ++round) {
    const uint64_t p0 = round_a * c[0];
    const uint64_t p2 = round_b * c[2];
    const uint32_t c1 = c[1], c3 = c[3];
    c[0] = uint32_t(p2 >> 32) ^ c1 ^ key0;
    c[1] = uint32_t(p2);
    c[2] = uint32_t(p0 >> 32) ^ c3 ^ key1;
    c[3] = uint32_t(p0);
    key0 += 0x9E3779B9u;
    key1 += 0xBB67AE85u;
  }
  return counter;
}

namespace detail {
/// High and low 64 bits of a · b.
NTC_DEV_HD inline void mul_hi_lo64(uint64_t a, uint64_t b, uint64_t &hi, uint64_t &lo) {
#if defined(__CUDA_ARCH__)
  hi = __umul64hi(a, b);
  lo = a * b;
#elif defined(__SIZEOF_INT128__)
  __extension__ typedef unsigned __int128 uint128;
  const uint128 p = uint128(a) * b;
  hi = uint64_t(p >> 64);
  lo = uint64_t(p);
#else
  const uint64_t a_lo = a & 0xffffffffu, a_hi = a >> 32, b_lo = b & 0xffffffffu, b_hi = b >> 32;
  const uint64_t ll = a_lo * b_lo, lh = a_lo * b_hi, hl = a_hi * b_lo, hh = a_hi * b_hi;
  const uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
  hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
  lo = a * b;
#endif
}
} // namespace detail

/// Philox-4x64 with 10 rounds (Random123's philox4x64_10) on one counter block.
NTC_DEV_HD inline uint4x64 philox4x64_10(uint4x64 counter, uint64_t key0, uint64_t key1) {
  constexpr uint64_t round_a = 0xD2E7470EE14C6C93u, round_b = 0xCA5A826395121157u;
  uint64_t *c = counter.w;
  for (int round = 0; round < 10; ++round) {
    uint64_t hi0, lo0, hi2, lo2;
    detail::mul_hi_lo64(round_a, c[0], hi0, lo0);
    detail::mul_hi_lo64(round_b, c[2], hi2, lo2);
    const uint64_t c1 = c[1], c3 = c[3];
    c[0] = hi2 ^ c1 ^ key0;
    c[1] = lo2;
    c[2] = hi0 ^ c3 ^ key1;
    c[3] = lo0;
    key0 += 0x9E3779B97F4A7C15u;
    key1 += 0xBB67AE8584CAA73Bu;
  }
  return counter;
}

/// Triton's uint_to_uniform_float for 32 bits: a float in [0, 1).
NTC_DEV_HD inline float uint_to_uniform_float(uint32_t bits) {
  int32_t x = int32_t(bits);
  if (x < 0)
    x = ~x;
  return float(x) * 4.6566127342e-10f;
}

/// Triton's uint_to_uniform_float for 64 bits: a float in [0, 1).
NTC_DEV_HD inline float uint_to_uniform_float(uint64_t bits) {
  int64_t x = int64_t(bits);
  if (x < 0)
    x = ~x;
  return float(x) * 1.0842020432385337e-19f;
}

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

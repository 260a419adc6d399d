//===- ntc/common/random.hpp - Philox and Triton's word-to-float conversion -*- C++ -*-===//
//
// The counter-based generator behind ntl::rand, shared by the CPU tile library
// (ntc/cpu/random.hpp) and the device tile library (ntc/device/random.cuh), so that the two
// produce the same bits and Triton's (tl.rand / tl.randint / tl.randn): Philox-4x32-10 and
// Philox-4x64-10 (Random123's philox4x32_10 and philox4x64_10) and Triton's
// uint_to_uniform_float. Plain C++17; under nvcc every function is __host__ __device__.
//
//===----------------------------------------------------------------------===//
#ifndef NTC_COMMON_RANDOM_HPP
#define NTC_COMMON_RANDOM_HPP

#include <cstdint>

#if defined(__CUDACC__)
/// Marks a function of this header usable on the host and on the device (nvcc).
#define NTC_COMMON_HD __host__ __device__
#else
/// Marks a function of this header usable on the host and on the device (nvcc).
#define NTC_COMMON_HD
#endif

namespace ntc::philox {

/// Four 32-bit words (a Philox-4x32 block).
struct uint4x32 {
  uint32_t w[4]; ///< the words
};
/// Four 64-bit words (a Philox-4x64 block).
struct uint4x64 {
  uint64_t w[4]; ///< the words
};

/// Philox-4x32 with 10 rounds (Random123's philox4x32_10) on one counter block.
NTC_COMMON_HD inline uint4x32 philox4x32_10(uint4x32 counter, uint32_t key0, uint32_t key1) {
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

/// High and low 64 bits of a · b.
NTC_COMMON_HD inline void mul_hi_lo64(uint64_t a, uint64_t b, uint64_t &hi, uint64_t &lo) {
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

/// Philox-4x64 with 10 rounds (Random123's philox4x64_10) on one counter block.
NTC_COMMON_HD inline uint4x64 philox4x64_10(uint4x64 counter, uint64_t key0, uint64_t key1) {
  constexpr uint64_t round_a = 0xD2E7470EE14C6C93u, round_b = 0xCA5A826395121157u;
  uint64_t *c = counter.w;
  for (int round = 0; round < 10; ++round) {
    uint64_t hi0, lo0, hi2, lo2;
    mul_hi_lo64(round_a, c[0], hi0, lo0);
    mul_hi_lo64(round_b, c[2], hi2, lo2);
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
NTC_COMMON_HD inline float uint_to_uniform_float(uint32_t bits) {
  int32_t x = int32_t(bits);
  if (x < 0)
    x = ~x; // −x − 1 without overflow
  return float(x) * 4.6566127342e-10f;
}

/// Triton's uint_to_uniform_float for 64 bits: a float in [0, 1).
NTC_COMMON_HD inline float uint_to_uniform_float(uint64_t bits) {
  int64_t x = int64_t(bits);
  if (x < 0)
    x = ~x;
  return float(x) * 1.0842020432385337e-19f;
}

} // namespace ntc::philox

#undef NTC_COMMON_HD

#endif // NTC_COMMON_RANDOM_HPP

// Counter-based random numbers for ntl::rand, bit-compatible with Triton's tl.rand / tl.randint
// / tl.randn: Philox-4x32-10 keyed by the 64-bit seed (low word, high word) with counter
// (offset, 0, 0, 0) for 32-bit offsets, and Philox-4x64-10 keyed by (seed, 0) with counter
// (offset, 0, 0, 0) for 64-bit offsets. Deterministic: the same seed and offset give the same
// number on every backend.
#pragma once

#include <ntc/common/random.hpp>
#include <ntc/cpu/tile.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <type_traits>

namespace ntc::cpu {

/// Philox-4x32 with 10 rounds (Random123's philox4x32_10) on one counter block (the shared
/// ntc::philox::philox4x32_10 on arrays).
inline std::array<uint32_t, 4> philox4x32_10(std::array<uint32_t, 4> counter,
                                             std::array<uint32_t, 2> key) {
  const philox::uint4x32 r = philox::philox4x32_10(
      philox::uint4x32{{counter[0], counter[1], counter[2], counter[3]}}, key[0], key[1]);
  return {r.w[0], r.w[1], r.w[2], r.w[3]};
}

/// Philox-4x64 with 10 rounds (Random123's philox4x64_10) on one counter block (the shared
/// ntc::philox::philox4x64_10 on arrays).
inline std::array<uint64_t, 4> philox4x64_10(std::array<uint64_t, 4> counter,
                                             std::array<uint64_t, 2> key) {
  const philox::uint4x64 r = philox::philox4x64_10(
      philox::uint4x64{{counter[0], counter[1], counter[2], counter[3]}}, key[0], key[1]);
  return {r.w[0], r.w[1], r.w[2], r.w[3]};
}

/// Triton's uint_to_uniform_float (32 and 64 bits): a float in [0, 1).
using philox::uint_to_uniform_float;

namespace detail {
template <class O> inline constexpr bool wide_offset_v = sizeof(O) > 4;

/// The four Philox words for one element (32-bit words for offsets of ≤ 32 bits, 64-bit words
/// otherwise), as Triton's randint4x.
template <class S, class O> auto randint4x_element(S seed, O offset) {
  static_assert(is_integer_v<S> && is_integer_v<O>, "ntc::cpu::rand: integer seed and offsets");
  const uint64_t s = uint64_t(seed); // sign-extends a negative seed, as seed.to(uint64)
  if constexpr (wide_offset_v<O>)
    return philox4x64_10({uint64_t(offset), 0, 0, 0}, {s, 0});
  else
    return philox4x32_10({uint32_t(int32_t(offset)), 0, 0, 0}, {uint32_t(s), uint32_t(s >> 32)});
}

/// Box–Muller as Triton's pair_uniform_to_normal (first output), in float.
inline float uniform_pair_to_normal(float u1, float u2) {
  u1 = u1 < 1.0e-7f ? 1.0e-7f : u1;
  const float th = 6.283185307179586f * u2;
  const float r = std::sqrt(-2.0f * std::log(u1));
  return r * std::cos(th);
}
} // namespace detail

/// Raw random integers (Triton's randint): int32 words for offsets of ≤ 32 bits, int64 words
/// for 64-bit offsets (bit patterns of the first Philox output word).
template <class S, class O> auto randint(S seed, const Tile<O> &offsets) {
  using R = std::conditional_t<detail::wide_offset_v<O>, int64_t, int32_t>;
  return elementwise<R>([seed](O o) { return R(detail::randint4x_element(seed, o)[0]); }, offsets);
}

/// Uniform floats in [0, 1) from a seed and each element's offset (Triton's tl.rand).
template <class S, class O> Tile<float> rand(S seed, const Tile<O> &offsets) {
  return elementwise<float>(
      [seed](O o) { return uint_to_uniform_float(detail::randint4x_element(seed, o)[0]); },
      offsets);
}

/// Standard normal floats from a seed and each element's offset (Triton's tl.randn: Box–Muller
/// on the first two Philox words; cos/log/sqrt from <cmath>, so the last bits may differ from
/// the GPU's).
template <class S, class O> Tile<float> randn(S seed, const Tile<O> &offsets) {
  return elementwise<float>(
      [seed](O o) {
        const auto words = detail::randint4x_element(seed, o);
        return detail::uniform_pair_to_normal(uint_to_uniform_float(words[0]),
                                              uint_to_uniform_float(words[1]));
      },
      offsets);
}

} // namespace ntc::cpu

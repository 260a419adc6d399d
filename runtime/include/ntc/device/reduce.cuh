// Reductions of device tiles: sum, max, min, argmax, argmin over all elements (a replicated
// rank-0 result) or over one axis (that dimension removed).
//
// Result types and NaN rules are those of ntc::cpu: sum of bool/int8/int16 gives int32 and of
// uint8/uint16 uint32 (integers wrap); max/min propagate NaN; argmax/argmin give the int32
// index of the first extreme element, NaN counting as the extreme. max/min/argmax/argmin are
// bit-exact with the CPU whatever the combining order: argmax/argmin track indices (ties go to
// the first element); floating max/min keep only the value, with max(+0, −0) = +0 and
// min(+0, −0) = −0, and give a NaN when any element is NaN (for float the canonical NaN, not
// necessarily the payload of the first NaN that ntc::cpu returns). Floating sums accumulate in
// float (double for double tiles) in a tree order, while ntc::cpu accumulates sequentially in
// double: compare with a tolerance.
//
// Full reductions: per-thread partial over its slots → warp butterfly (__shfl_xor_sync) →
// shared memory across warps → every thread combines the warp partials in the same order, so
// all threads hold the same bits. Axis reductions stage the tile in shared memory, reduce each
// output with a group of P lanes (P a power of two; several warps for few outputs) and go back
// to the blocked layout through shared memory.
#pragma once

#include <ntc/device/tile.cuh>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace ntc::dev {

namespace detail {

template <class T> struct sum_type {
  using type = std::conditional_t<
      std::is_same_v<T, bool> || (is_integer_v<T> && std::is_signed_v<T> && sizeof(T) < 4), int32_t,
      std::conditional_t<is_integer_v<T> && sizeof(T) < 4, uint32_t, T>>;
};

/// __shfl_xor_sync of any trivially copyable value of at most 8 bytes, over the full warp.
template <class V> __device__ inline V shfl_xor_bits(V value, int mask) {
  static_assert(sizeof(V) <= 8, "shfl_xor_bits: value too large");
  if constexpr (sizeof(V) <= 4) {
    uint32_t u = 0;
    std::memcpy(&u, &value, sizeof(V));
    u = __shfl_xor_sync(0xffffffffu, u, mask);
    std::memcpy(&value, &u, sizeof(V));
  } else {
    unsigned long long u = 0;
    std::memcpy(&u, &value, sizeof(V));
    u = __shfl_xor_sync(0xffffffffu, u, mask);
    std::memcpy(&value, &u, sizeof(V));
  }
  return value;
}

/// Largest power of two ≤ x (x ≥ 1).
NTC_DEV_HD constexpr int pow2_floor(int x) {
  int p = 1;
  while (p * 2 <= x)
    p *= 2;
  return p;
}

/// Smaller of two ints (constexpr, usable in device code).
NTC_DEV_HD constexpr int min_int(int a, int b) { return a < b ? a : b; }
/// Larger of two ints.
NTC_DEV_HD constexpr int max_int(int a, int b) { return a > b ? a : b; }

/// Sum: State is the accumulator (float for 16/8-bit floats and float, double for double, the
/// unsigned wrap type of the result for integers).
template <class T> struct sum_reduce {
  using R = typename sum_type<T>::type;
  using State =
      std::conditional_t<is_floating_v<R>,
                         std::conditional_t<std::is_same_v<R, double>, double, float>, wrap_t<R>>;
  using Stage = State;
  __device__ static State identity() { return State(0); }
  __device__ static Stage stage(T value) {
    if constexpr (is_floating_v<R>)
      return State(::ntc::dev::widen(value));
    else
      return State(::ntc::dev::convert<R>(value));
  }
  __device__ static State init(Stage x, int) { return x; }
  __device__ static State combine(State a, State b) { return State(a + b); }
  __device__ static State shfl(State s, int mask) {
    return ::ntc::dev::detail::shfl_xor_bits(s, mask);
  }
  __device__ static R result(State s) {
    if constexpr (is_floating_v<R>)
      return ::ntc::dev::convert<R>(s);
    else
      return R(s);
  }
};

/// The extreme element and its index; index < 0 means "no element yet".
template <class T> struct extreme_state {
  T value;
  int index;
};

/// max/min (Arg = false: the element) and argmax/argmin (Arg = true: its int32 index); NaN is
/// the extreme, ties go to the smaller index.
template <class T, bool Max, bool Arg> struct extreme_reduce {
  using R = std::conditional_t<Arg, int32_t, T>;
  using State = extreme_state<T>;
  using Stage = T;
  __device__ static State identity() { return State{T{}, -1}; }
  __device__ static Stage stage(T value) { return value; }
  __device__ static State init(Stage x, int k) { return State{x, k}; }
  __device__ static State combine(State a, State b) {
    if (a.index < 0)
      return b;
    if (b.index < 0)
      return a;
    const auto x = ::ntc::dev::widen(a.value), y = ::ntc::dev::widen(b.value);
    const bool xn = ::ntc::dev::is_nan(a.value), yn = ::ntc::dev::is_nan(b.value);
    if (xn || yn) {
      if (xn && yn)
        return a.index < b.index ? a : b;
      return xn ? a : b;
    }
    if (Max ? x < y : y < x)
      return b;
    if (Max ? y < x : x < y)
      return a;
    return a.index < b.index ? a : b;
  }
  __device__ static State shfl(State s, int mask) {
    return State{::ntc::dev::detail::shfl_xor_bits(s.value, mask),
                 __shfl_xor_sync(0xffffffffu, s.index, mask)};
  }
  __device__ static R result(State s) {
    if constexpr (Arg)
      return s.index;
    else
      return s.value;
  }
};

/// max/min of floating-point values without the position (argmax needs extreme_reduce): NaN
/// wins (for float the canonical NaN of max.NaN, for other types an operand's), else the
/// extreme, with max(+0, −0) = +0 and min(+0, −0) = −0 in any combining order, as in ntc::cpu
/// (other types: equal values combine by their bits, AND for max, OR for min). For float one
/// instruction and one shuffle per step, without branches, instead of a (value, index) pair.
template <class T, bool Max> struct value_extreme {
  using R = T;
  using State = T;
  using Stage = T;
  __device__ static State identity() {
    return ::ntc::dev::convert<T>(Max ? -__int_as_float(0x7f800000) : __int_as_float(0x7f800000));
  }
  __device__ static Stage stage(T value) { return value; }
  __device__ static State init(Stage x, int) { return x; }
  __device__ static State combine(State a, State b) {
    if constexpr (std::is_same_v<T, float>) {
      // max.NaN / min.NaN: any NaN gives the canonical NaN, and the hardware orders −0 below +0
      // (IEEE 754-2019 maximum/minimum; the device tests check signed zeros bit for bit).
      return ::ntc::dev::detail::extreme_nan<Max>(a, b);
    }
    const auto x = ::ntc::dev::widen(a), y = ::ntc::dev::widen(b);
    if (x != x)
      return a;
    if (y != y)
      return b;
    if (x == y) { // equal values have equal bits, except +0 and −0
      using Bits = std::conditional_t<
          sizeof(T) == 8, unsigned long long,
          std::conditional_t<sizeof(T) == 4, uint32_t,
                             std::conditional_t<sizeof(T) == 2, uint16_t, uint8_t>>>;
      Bits u = 0, v = 0;
      std::memcpy(&u, &a, sizeof(T));
      std::memcpy(&v, &b, sizeof(T));
      u = Max ? Bits(u & v) : Bits(u | v);
      State r;
      std::memcpy(&r, &u, sizeof(T));
      return r;
    }
    return (Max ? x < y : y < x) ? b : a;
  }
  __device__ static State shfl(State s, int mask) {
    return ::ntc::dev::detail::shfl_xor_bits(s, mask);
  }
  __device__ static R result(State s) { return s; }
};

/// The operation of max (Max) or min over T: value_extreme for floating types.
template <class T, bool Max>
using extreme_value_t =
    std::conditional_t<is_floating_v<T>, value_extreme<T, Max>, extreme_reduce<T, Max, false>>;

/// Full reduction to one State, identical in every thread, of any tile whose slots are held
/// by one thread each (Tile, or an LTile of the Chunked layout: Slots, owns, linear, v, threads
/// and N as in Tile).
template <class Op, class X>
__device__ inline typename Op::State reduce_all(const X &t, Smem smem) {
  using State = typename Op::State;
  constexpr int Th = X::threads;
  if constexpr (X::N == 1) {
    return Op::init(Op::stage(t.v[0]), 0);
  } else {
    State st = Op::identity();
#pragma unroll
    for (int s = 0; s < t.Slots; ++s)
      if (t.owns(s))
        st = Op::combine(st, Op::init(Op::stage(t.v[s]), t.linear(s)));
#pragma unroll
    for (int mask = 16; mask > 0; mask >>= 1)
      st = Op::combine(st, Op::shfl(st, mask));
    if constexpr (Th > 32) {
      State *partial = smem.as<State>();
      smem.sync();
      if (threadIdx.x % 32 == 0)
        partial[threadIdx.x / 32] = st;
      smem.sync();
      st = partial[0];
#pragma unroll
      for (int w = 1; w < Th / 32; ++w)
        st = Op::combine(st, partial[w]);
      smem.sync();
    }
    return st;
  }
}

/// A full reduction with Op as a replicated rank-0 tile of R (the result of sum/max/min/
/// argmax/argmin over all elements, for any tile reduce_all takes).
template <class R, class Op, class X>
__device__ inline Tile<R, Shape<>, X::threads> reduce_replicated(const X &t, Smem smem) {
  return ::ntc::dev::full<R, Shape<>, X::threads>(Op::result(reduce_all<Op>(t, smem)));
}

/// Lanes per output of an axis reduction with N elements, axis extent n and inner stride
/// `inner`: enough to use the block when there are few outputs, a warp's worth when reducing the
/// contiguous axis (conflict-free staging reads), never more than n.
template <int N, int n, int inner, int Th> NTC_DEV_HD constexpr int axis_lanes() {
  constexpr int M = N / n;
  int p = M >= Th ? 1 : Th / M;
  if (inner == 1)
    p = max_int(p, 32);
  return pow2_floor(min_int(min_int(p, n), Th));
}

/// Shared-memory bytes of an axis reduction with operation Op.
template <class Op, class S, int Th, int Axis> NTC_DEV_HD constexpr std::size_t axis_bytes() {
  constexpr int n = S::dim(Axis);
  if constexpr (n == 1 || S::numel == 1) {
    return 0;
  } else {
    constexpr int P = axis_lanes<S::numel, n, S::stride(Axis), Th>();
    constexpr std::size_t M = std::size_t(S::numel / n);
    constexpr std::size_t out = P == 1 ? 0 : M * sizeof(typename Op::R);
    constexpr std::size_t partial = P <= 32 ? 0 : std::size_t(Th / 32) * sizeof(typename Op::State);
    return smem_align(sizeof(typename Op::Stage) * std::size_t(S::numel)) +
           smem_align(out > partial ? out : partial);
  }
}

/// Reduction over axis `Axis` (normalised) with operation Op.
template <int Axis, class Op, class T, class S, int Th>
__device__ inline auto reduce_axis(const Tile<T, S, Th> &t, Smem smem) {
  static_assert(Axis >= 0 && Axis < S::rank, "ntc::dev: reduction axis out of range");
  using R = typename Op::R;
  using State = typename Op::State;
  using Stage = typename Op::Stage;
  using S2 = typename remove_axis<S, Axis>::type;
  constexpr int n = S::dim(Axis), inner = S::stride(Axis), M = S::numel / n;
  Tile<R, S2, Th> r;
  if constexpr (n == 1 || S::numel == 1) { // removing a size-1 axis keeps the linear order
#pragma unroll
    for (int s = 0; s < r.Slots; ++s)
      r.v[s] = Op::result(Op::init(Op::stage(t.v[s]), 0));
    return r;
  } else {
    constexpr int P = axis_lanes<S::numel, n, inner, Th>();
    constexpr int G = Th / P; // groups of P lanes
    constexpr std::size_t region = smem_align(sizeof(Stage) * std::size_t(S::numel));
    Stage *staged = smem.as<Stage>();
    const int tid = int(threadIdx.x);
    smem.sync();
#pragma unroll
    for (int s = 0; s < t.Slots; ++s)
      if (t.owns(s))
        staged[t.linear(s)] = Op::stage(t.v[s]);
    smem.sync();
    if constexpr (P == 1) { // every thread reduces its own outputs, in the result's layout
#pragma unroll
      for (int s = 0; s < r.Slots; ++s) {
        const int o = r.owns(s) ? r.linear(s) : 0;
        const int base = (o / inner) * n * inner + o % inner;
        State st = Op::identity();
        for (int k = 0; k < n; ++k)
          st = Op::combine(st, Op::init(staged[base + k * inner], k));
        r.v[s] = Op::result(st);
      }
      smem.sync();
    } else if constexpr (P <= 32) { // groups of P lanes inside a warp, G outputs per round
      R *out = smem.as<R>(region);
      const int g = tid / P, l = tid % P;
      for (int round = 0; round < (M + G - 1) / G; ++round) {
        const int o = round * G + g;
        State st = Op::identity();
        if (o < M) {
          const int base = (o / inner) * n * inner + o % inner;
          for (int k = l; k < n; k += P)
            st = Op::combine(st, Op::init(staged[base + k * inner], k));
        }
#pragma unroll
        for (int mask = P / 2; mask > 0; mask >>= 1)
          st = Op::combine(st, Op::shfl(st, mask));
        if (o < M && l == 0)
          out[o] = Op::result(st);
      }
      smem.sync();
#pragma unroll
      for (int s = 0; s < r.Slots; ++s)
        r.v[s] = out[r.owns(s) ? r.linear(s) : 0];
      smem.sync();
    } else { // P/32 warps per output, all outputs in one round (G ≥ M)
      static_assert(G >= M, "ntc::dev: reduction lane assignment");
      constexpr int W = P / 32; // warps per output
      State *partial = smem.as<State>(region);
      const int g = tid / P, l = tid % P;
      State st = Op::identity();
      if (g < M) {
        const int base = (g / inner) * n * inner + g % inner;
        for (int k = l; k < n; k += P)
          st = Op::combine(st, Op::init(staged[base + k * inner], k));
      }
#pragma unroll
      for (int mask = 16; mask > 0; mask >>= 1)
        st = Op::combine(st, Op::shfl(st, mask));
      if (tid % 32 == 0)
        partial[tid / 32] = st;
      smem.sync();
#pragma unroll
      for (int s = 0; s < r.Slots; ++s) {
        const int o = r.owns(s) ? r.linear(s) : 0;
        State acc = partial[o * W];
        for (int w = 1; w < W; ++w)
          acc = Op::combine(acc, partial[o * W + w]);
        r.v[s] = Op::result(acc);
      }
      smem.sync();
    }
    return r;
  }
}

/// Normalises a possibly negative axis.
template <int Axis, int Rank> NTC_DEV_HD constexpr int normalize_axis() {
  static_assert(Axis >= -Rank && Axis < Rank, "ntc::dev: reduction axis out of range");
  return Axis < 0 ? Axis + Rank : Axis;
}

} // namespace detail

/// S with dimension `Axis` removed (negative counts from the end): the shape of an axis
/// reduction's result.
template <class S, int Axis>
using remove_axis_t =
    typename detail::remove_axis<S, detail::normalize_axis<Axis, S::rank>()>::type;

/// Sum type: int32 for bool, int8, int16; uint32 for uint8, uint16; T otherwise.
template <class T> using sum_t = typename detail::sum_type<T>::type;

/// Shared-memory bytes of the full reductions (sum/max/min/argmax/argmin over all elements) of
/// a tile of T with shape S: one partial per warp.
template <class T, class S, int Th> NTC_DEV_HD constexpr std::size_t reduce_smem_bytes() {
  if constexpr (S::numel == 1 || Th <= 32) {
    return 0;
  } else {
    constexpr std::size_t a = sizeof(typename detail::sum_reduce<T>::State);
    constexpr std::size_t b = sizeof(detail::extreme_state<T>);
    return smem_align(std::size_t(Th / 32) * (a > b ? a : b));
  }
}

/// Shared-memory bytes of the reductions over axis `Axis` (any of sum/max/min/argmax/argmin)
/// of a tile of T with shape S: the staged tile plus the outputs or warp partials.
template <class T, class S, int Th, int Axis> NTC_DEV_HD constexpr std::size_t reduce_smem_bytes() {
  constexpr int a = detail::normalize_axis<Axis, S::rank>();
  constexpr std::size_t x = detail::axis_bytes<detail::sum_reduce<T>, S, Th, a>();
  constexpr std::size_t y = detail::axis_bytes<detail::extreme_reduce<T, true, false>, S, Th, a>();
  constexpr std::size_t z = detail::axis_bytes<detail::extreme_reduce<T, true, true>, S, Th, a>();
  return smem_max(x, y, z);
}

/// Sum of all elements, as a replicated rank-0 tile (reduce_smem_bytes<T, S, Th>()).
template <class T, class S, int Th>
__device__ inline Tile<sum_t<T>, Shape<>, Th> sum(const Tile<T, S, Th> &t, Smem smem) {
  return detail::reduce_replicated<sum_t<T>, detail::sum_reduce<T>>(t, smem);
}
/// Sum over `Axis` (negative counts from the end); that dimension is removed
/// (reduce_smem_bytes<T, S, Th, Axis>()).
template <int Axis, class T, class S, int Th>
__device__ inline auto sum(const Tile<T, S, Th> &t, Smem smem) {
  return detail::reduce_axis<detail::normalize_axis<Axis, S::rank>(), detail::sum_reduce<T>>(t,
                                                                                             smem);
}

/// Largest element (NaN propagates), as a replicated rank-0 tile.
template <class T, class S, int Th>
__device__ inline Tile<T, Shape<>, Th> max(const Tile<T, S, Th> &t, Smem smem) {
  return detail::reduce_replicated<T, detail::extreme_value_t<T, true>>(t, smem);
}
/// Largest element over `Axis` (NaN propagates); that dimension is removed.
template <int Axis, class T, class S, int Th>
__device__ inline auto max(const Tile<T, S, Th> &t, Smem smem) {
  return detail::reduce_axis<detail::normalize_axis<Axis, S::rank>(),
                             detail::extreme_value_t<T, true>>(t, smem);
}

/// Smallest element (NaN propagates), as a replicated rank-0 tile.
template <class T, class S, int Th>
__device__ inline Tile<T, Shape<>, Th> min(const Tile<T, S, Th> &t, Smem smem) {
  return detail::reduce_replicated<T, detail::extreme_value_t<T, false>>(t, smem);
}
/// Smallest element over `Axis` (NaN propagates); that dimension is removed.
template <int Axis, class T, class S, int Th>
__device__ inline auto min(const Tile<T, S, Th> &t, Smem smem) {
  return detail::reduce_axis<detail::normalize_axis<Axis, S::rank>(),
                             detail::extreme_value_t<T, false>>(t, smem);
}

/// Row-major index of the first largest element (first NaN if any), as a replicated rank-0
/// int32 tile.
template <class T, class S, int Th>
__device__ inline Tile<int32_t, Shape<>, Th> argmax(const Tile<T, S, Th> &t, Smem smem) {
  return detail::reduce_replicated<int32_t, detail::extreme_reduce<T, true, true>>(t, smem);
}
/// Index along `Axis` of the first largest element (first NaN if any); that dimension is
/// removed.
template <int Axis, class T, class S, int Th>
__device__ inline auto argmax(const Tile<T, S, Th> &t, Smem smem) {
  return detail::reduce_axis<detail::normalize_axis<Axis, S::rank>(),
                             detail::extreme_reduce<T, true, true>>(t, smem);
}

/// Row-major index of the first smallest element (first NaN if any), as a replicated rank-0
/// int32 tile.
template <class T, class S, int Th>
__device__ inline Tile<int32_t, Shape<>, Th> argmin(const Tile<T, S, Th> &t, Smem smem) {
  return detail::reduce_replicated<int32_t, detail::extreme_reduce<T, false, true>>(t, smem);
}
/// Index along `Axis` of the first smallest element (first NaN if any); that dimension is
/// removed.
template <int Axis, class T, class S, int Th>
__device__ inline auto argmin(const Tile<T, S, Th> &t, Smem smem) {
  return detail::reduce_axis<detail::normalize_axis<Axis, S::rank>(),
                             detail::extreme_reduce<T, false, true>>(t, smem);
}

} // namespace ntc::dev

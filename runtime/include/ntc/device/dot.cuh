// Matrix products of device tiles: dot(a, b) for (M×K)·(K×N) tiles (or batched
// (B×M×K)·(B×K×N)), accumulated in Acc (dot_acc_t by default: float for 16/8-bit floats,
// int32/uint32 for narrow integers, the promoted type otherwise), as ntc::cpu::dot.
//
// The operands are staged in shared memory in their own types (detail::dot_stage), then:
// * tensor cores (sm_80+, float16·float16 or bfloat16·bfloat16 with a float accumulator,
//   2-D, M and K multiples of 16, N a multiple of 8; define NTC_DEV_NO_MMA to disable): each
//   warp takes 16×8 output tiles round-robin, loads fragments with ldmatrix and accumulates with
//   mma.sync.m16n8k16 (detail::dot_mma); the fragments go back to the blocked layout through
//   the staging buffer, a few rows at a time, and are added to the accumulator tile;
// * float32·float32 with a float accumulator and input precision "tf32" or "tf32x3"
//   (tf32_inputs<1> / <3>: NineToothed's dot(..., input_precision)), 2-D, M a multiple of 16,
//   N and K of 8: the same round-robin over 16×8 output tiles with mma.sync.m16n8k8 on tf32
//   operands (rounded to nearest, ties away: cvt.rna); with three passes each operand is split
//   into a tf32 head and a tf32 tail and the product is head·head + head·tail + tail·head,
//   about float32's accuracy (detail::dot_mma_tf32);
// * otherwise SIMT (detail::dot_simt): every thread computes its outputs of the blocked layout
//   with a K loop in order k = 0, 1, …, converting the operands to Acc.
// Float accumulation uses fused multiply-adds (and the tensor cores' own summation), so
// results differ from the CPU's separate multiply and add in the last bits: compare with a
// tolerance. Integer accumulation wraps and is exact.
#pragma once

#include <ntc/device/mma_layout.cuh>
#include <ntc/device/tile.cuh>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace ntc::dev {

/// The input precision of a float32 dot on the tensor cores: Passes = 1 is NineToothed's
/// "tf32", 3 its "tf32x3" (passed as dot's last argument; without it, dot is IEEE).
template <int Passes> struct tf32_inputs {
  static_assert(Passes == 1 || Passes == 3, "ntc::dev::tf32_inputs: 1 or 3 passes");
};

namespace detail {

template <class TA, class TB> struct dot_acc_type {
  using C = promote_t<TA, TB>;
  using type = std::conditional_t<
      is_small_float_v<C>, float,
      std::conditional_t<
          std::is_same_v<C, bool> || (is_integer_v<C> && sizeof(C) < 4),
          std::conditional_t<std::is_unsigned_v<C> && !std::is_same_v<C, bool>, uint32_t, int32_t>,
          C>>;
};

/// The sizes of a dot of tiles with shapes SA and SB.
template <class SA, class SB> struct dot_dims {
  static_assert(SA::rank == SB::rank && (SA::rank == 2 || SA::rank == 3),
                "ntc::dev::dot: operands must both be 2-D or both 3-D");
  static constexpr int rank = SA::rank;
  static constexpr int batch = rank == 3 ? SA::dim(0) : 1;
  static constexpr int M = SA::dim(rank - 2), K = SA::dim(rank - 1), N = SB::dim(rank - 1);
  static_assert(SB::dim(rank - 2) == K, "ntc::dev::dot: inner dimensions differ");
  static_assert(rank == 2 || SB::dim(0) == batch, "ntc::dev::dot: batch dimensions differ");
  using result = std::conditional_t<rank == 3, Shape<batch, M, N>, Shape<M, N>>;
};

/// Byte offset of the B operand in the staging buffer.
template <class TA, int Batch, int M, int K> NTC_DEV_HD constexpr std::size_t dot_b_offset() {
  return smem_align(sizeof(TA) * std::size_t(Batch) * std::size_t(M) * std::size_t(K));
}

/// Stages both operands in shared memory, row-major in their own types: A at offset 0, B at
/// dot_b_offset(). Called between barriers; dot_simt and dot_mma read it.
template <class TA, class SA, class TB, class SB, int Th>
__device__ inline void dot_stage(const Tile<TA, SA, Th> &a, const Tile<TB, SB, Th> &b, Smem smem) {
  using D = dot_dims<SA, SB>;
  TA *sa = smem.as<TA>();
  TB *sb = smem.as<TB>(dot_b_offset<TA, D::batch, D::M, D::K>());
#pragma unroll
  for (int s = 0; s < a.Slots; ++s)
    if (a.owns(s))
      sa[a.linear(s)] = a.v[s];
#pragma unroll
  for (int s = 0; s < b.Slots; ++s)
    if (b.owns(s))
      sb[b.linear(s)] = b.v[s];
}

/// acc + a·b for one output, in Acc (integers wrap).
template <class Acc> __device__ inline Acc fma_acc(Acc acc, Acc x, Acc y) {
  if constexpr (is_integer_v<Acc>)
    return Acc(wrap_t<Acc>(acc) + wrap_t<Acc>(x) * wrap_t<Acc>(y));
  else
    return acc + x * y;
}

/// SIMT product from the staged operands: c (holding the initial accumulator) += A·B for the
/// calling thread's outputs, k in order.
template <class TA, class TB, class Acc, class SA, class SB, int Th, class SC>
__device__ inline void dot_simt(Smem smem, Tile<Acc, SC, Th> &c) {
  using D = dot_dims<SA, SB>;
  using C = Tile<Acc, SC, Th>;
  constexpr int M = D::M, K = D::K, N = D::N;
  const TA *sa = smem.as<TA>();
  const TB *sb = smem.as<TB>(dot_b_offset<TA, D::batch, M, K>());
  if constexpr (D::batch == 1 && Th % N == 0 && !C::replicated && C::V == 1) {
    // Cyclic layout: every slot of a thread is in the same column: one B element per k for all
    // slots.
    const int j = int(threadIdx.x) % N;
    const int i0 = int(threadIdx.x) / N;
    for (int k = 0; k < K; ++k) {
      const Acc y = ::ntc::dev::convert<Acc>(sb[k * N + j]);
#pragma unroll
      for (int s = 0; s < c.Slots; ++s) {
        const int i = c.owns(s) ? s * (Th / N) + i0 : 0;
        c.v[s] = ::ntc::dev::detail::fma_acc(c.v[s], ::ntc::dev::convert<Acc>(sa[i * K + k]), y);
      }
    }
  } else if constexpr (D::batch == 1 && !C::replicated && C::full && N % C::V == 0 &&
                       (Th * C::V) % N == 0) {
    // Blocked layout whose chunks stay in one row and whose chunk rows start at column 0: the
    // thread's outputs are Slots / V rows, (Th·V) / N apart, of V consecutive columns. Per k
    // it reads one A element per row and V B elements, and keeps only two indices (an array of
    // indices per slot took two registers per output, which ptxas spilled).
    constexpr int V = C::V, rows = C::Slots / V, rowStep = (Th * V) / N;
    const int first = c.linear(0);
    const int i0 = first / N, j0 = first % N;
    for (int k = 0; k < K; ++k) {
      Acc y[V];
#pragma unroll
      for (int x = 0; x < V; ++x)
        y[x] = ::ntc::dev::convert<Acc>(sb[k * N + j0 + x]);
#pragma unroll
      for (int r = 0; r < rows; ++r) {
        const Acc a = ::ntc::dev::convert<Acc>(sa[(i0 + r * rowStep) * K + k]);
#pragma unroll
        for (int x = 0; x < V; ++x)
          c.v[r * V + x] = ::ntc::dev::detail::fma_acc(c.v[r * V + x], a, y[x]);
      }
    }
  } else {
    int abase[c.Slots], bbase[c.Slots];
#pragma unroll
    for (int s = 0; s < c.Slots; ++s) {
      const int o = c.owns(s) ? c.linear(s) : 0;
      const int p = o / (M * N), i = (o / N) % M, j = o % N;
      abase[s] = (p * M + i) * K;
      bbase[s] = p * K * N + j;
    }
    for (int k = 0; k < K; ++k) {
#pragma unroll
      for (int s = 0; s < c.Slots; ++s)
        c.v[s] = ::ntc::dev::detail::fma_acc(c.v[s], ::ntc::dev::convert<Acc>(sa[abase[s] + k]),
                                             ::ntc::dev::convert<Acc>(sb[bbase[s] + k * N]));
    }
  }
}

/// True when dot of these operands runs on the tensor cores (on sm_80 and later).
template <class TA, class TB, class Acc, class SA, class SB> struct mma_eligible {
  using D = dot_dims<SA, SB>;
  static constexpr bool value =
#if defined(NTC_DEV_NO_MMA)
      false &&
#endif
      std::is_same_v<TA, TB> && is_half_v<TA> && std::is_same_v<Acc, float> && D::batch == 1 &&
      D::M % 16 == 0 && D::N % 8 == 0 && D::K % 16 == 0;
};

/// True when a dot with tf32 inputs runs on the tensor cores (on sm_80 and later); otherwise it
/// is computed in IEEE precision (dot_simt), which every input precision allows.
template <class TA, class TB, class Acc, class SA, class SB> struct tf32_eligible {
  using D = dot_dims<SA, SB>;
  static constexpr bool value =
#if defined(NTC_DEV_NO_MMA)
      false &&
#endif
      std::is_same_v<TA, float> && std::is_same_v<TB, float> && std::is_same_v<Acc, float> &&
      D::batch == 1 && D::M % 16 == 0 && D::N % 8 == 0 && D::K % 8 == 0;
};

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
/// ldmatrix.sync.aligned.m8n8.x4.shared.b16 from the row addressed by this lane.
__device__ inline void ldmatrix_x4(uint32_t (&r)[4], const void *row) {
  const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address)
               : "memory");
}

/// ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 from the row addressed by this lane.
__device__ inline void ldmatrix_x2_trans(uint32_t (&r)[2], const void *row) {
  const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n"
               : "=r"(r[0]), "=r"(r[1])
               : "r"(address)
               : "memory");
}

/// d += a·b with mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}.
template <class T>
__device__ inline void mma_m16n8k16(float (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
  if constexpr (std::is_same_v<T, float16>)
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  else
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

/// c += the 16×8 accumulator fragments `acc` that the warps hold round-robin (output tile
/// t = warp + j·warps in acc[j]), through the staging buffer of `Stage` bytes, a few rows at a
/// time (the blocked layout's threads own other elements than the fragments' lanes).
template <int M, int N, int PerWarp, std::size_t Stage, int Th, class SC>
__device__ inline void add_fragments(const float (&acc)[PerWarp][4], Smem smem,
                                     Tile<float, SC, Th> &c) {
  constexpr int TN = N / 8, tiles = (M / 16) * TN, W = Th / 32;
  constexpr int fit = int(Stage / (sizeof(float) * N)) / 8 * 8;
  constexpr int CH = fit < M ? fit : M;
  static_assert(CH >= 8, "ntc::dev::dot: staging buffer too small for the write-back");
  const int lane = int(threadIdx.x) % 32, warp = int(threadIdx.x) / 32;
  float *out = smem.as<float>();
#pragma unroll 1
  for (int r0 = 0; r0 < M; r0 += CH) {
    smem.sync();
#pragma unroll
    for (int j = 0; j < PerWarp; ++j) {
      const int t = warp + j * W;
      if (t < tiles) {
        const int tm = t / TN, tn = t % TN;
#pragma unroll
        for (int i = 0; i < 4; ++i) {
          const mma::Coord p = mma::c_coord(lane, i);
          const int row = tm * 16 + p.row;
          if (row >= r0 && row < r0 + CH)
            out[(row - r0) * N + tn * 8 + p.col] = acc[j][i];
        }
      }
    }
    smem.sync();
#pragma unroll
    for (int s = 0; s < c.Slots; ++s) {
      const int e = c.linear(s);
      if (c.owns(s) && e >= r0 * N && e < (r0 + CH) * N)
        c.v[s] = __fadd_rn(c.v[s], out[e - r0 * N]);
    }
  }
}

/// A float rounded to tf32 (10 mantissa bits, nearest, ties away from zero), in a b32 register.
__device__ inline uint32_t to_tf32(float x) {
  uint32_t r;
  asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
  return r;
}

/// d += a·b with mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32.
__device__ inline void mma_m16n8k8_tf32(float (&d)[4], const uint32_t (&a)[4],
                                        const uint32_t (&b)[2]) {
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

/// Tensor-core product of staged float32 operands with tf32 inputs: c += A·B in `Passes`
/// passes (see the top of this file). Fragments of m16n8k8: A (g, q), (g+8, q), (g, q+4),
/// (g+8, q+4) and B (q, g), (q+4, g) of the lane's group g = lane / 4 and q = lane % 4. Called
/// between barriers; overwrites the staging buffer.
template <int Passes, class SA, class SB, int Th, class SC>
__device__ inline void dot_mma_tf32(Smem smem, Tile<float, SC, Th> &c) {
  using D = dot_dims<SA, SB>;
  constexpr int M = D::M, K = D::K, N = D::N;
  constexpr int TN = N / 8, tiles = (M / 16) * TN, W = Th / 32, per_warp = (tiles + W - 1) / W;
  const float *sa = smem.as<float>();
  const float *sb = smem.as<float>(dot_b_offset<float, 1, M, K>());
  const int lane = int(threadIdx.x) % 32, warp = int(threadIdx.x) / 32;
  const int g = lane / 4, q = lane % 4;
  float acc[per_warp][4] = {};
  for (int k0 = 0; k0 < K; k0 += 8) {
#pragma unroll
    for (int j = 0; j < per_warp; ++j) {
      const int t = warp + j * W; // warp-uniform
      if (t < tiles) {
        const int tm = t / TN, tn = t % TN;
        const float *a = sa + (tm * 16 + g) * K + k0 + q;
        const float *b = sb + (k0 + q) * N + tn * 8 + g;
        const float av[4] = {a[0], a[8 * K], a[4], a[8 * K + 4]};
        const float bv[2] = {b[0], b[4 * N]};
        uint32_t ah[4], bh[2];
#pragma unroll
        for (int i = 0; i < 4; ++i)
          ah[i] = to_tf32(av[i]);
#pragma unroll
        for (int i = 0; i < 2; ++i)
          bh[i] = to_tf32(bv[i]);
        if constexpr (Passes == 3) {
          uint32_t at[4], bt[2];
#pragma unroll
          for (int i = 0; i < 4; ++i)
            at[i] = to_tf32(av[i] - __uint_as_float(ah[i]));
#pragma unroll
          for (int i = 0; i < 2; ++i)
            bt[i] = to_tf32(bv[i] - __uint_as_float(bh[i]));
          ::ntc::dev::detail::mma_m16n8k8_tf32(acc[j], at, bh);
          ::ntc::dev::detail::mma_m16n8k8_tf32(acc[j], ah, bt);
        }
        ::ntc::dev::detail::mma_m16n8k8_tf32(acc[j], ah, bh);
      }
    }
  }
  add_fragments<M, N, per_warp, dot_b_offset<float, 1, M, K>() + smem_align(sizeof(float) * K * N)>(
      acc, smem, c);
}

/// Tensor-core product from the staged operands: c += A·B (see the top of this file). Called
/// between barriers; overwrites the staging buffer.
template <class T, class SA, class SB, int Th, class SC>
__device__ inline void dot_mma(Smem smem, Tile<float, SC, Th> &c) {
  using D = dot_dims<SA, SB>;
  constexpr int M = D::M, K = D::K, N = D::N;
  constexpr int TN = N / 8, tiles = (M / 16) * TN, W = Th / 32, per_warp = (tiles + W - 1) / W;
  const T *sa = smem.as<T>();
  const T *sb = smem.as<T>(dot_b_offset<T, 1, M, K>());
  const int lane = int(threadIdx.x) % 32, warp = int(threadIdx.x) / 32;
  const mma::Coord ra = mma::ldmatrix_a_address(lane), rb = mma::ldmatrix_b_trans_address(lane);
  float acc[per_warp][4] = {};
  for (int k0 = 0; k0 < K; k0 += 16) {
#pragma unroll
    for (int j = 0; j < per_warp; ++j) {
      const int t = warp + j * W; // warp-uniform
      if (t < tiles) {
        const int tm = t / TN, tn = t % TN;
        uint32_t a[4], b[2];
        ::ntc::dev::detail::ldmatrix_x4(a, sa + (tm * 16 + ra.row) * K + k0 + ra.col);
        ::ntc::dev::detail::ldmatrix_x2_trans(b, sb + (k0 + rb.row) * N + tn * 8 + rb.col);
        ::ntc::dev::detail::mma_m16n8k16<T>(acc[j], a, b);
      }
    }
  }
  add_fragments<M, N, per_warp, dot_b_offset<T, 1, M, K>() + smem_align(sizeof(T) * K * N)>(
      acc, smem, c);
}
#endif

/// c += A·B from the staged operands: on the tensor cores when possible, else SIMT. Tf32
/// (0: IEEE, else tf32_inputs' passes) allows float32 operands on the tensor cores.
template <class TA, class TB, class Acc, class SA, class SB, int Tf32 = 0, int Th, class SC>
__device__ inline void dot_compute(Smem smem, Tile<Acc, SC, Th> &c) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (mma_eligible<TA, TB, Acc, SA, SB>::value)
    ::ntc::dev::detail::dot_mma<TA, SA, SB>(smem, c);
  else if constexpr (Tf32 > 0 && tf32_eligible<TA, TB, Acc, SA, SB>::value)
    ::ntc::dev::detail::dot_mma_tf32<Tf32, SA, SB>(smem, c);
  else
#endif
    ::ntc::dev::detail::dot_simt<TA, TB, Acc, SA, SB>(smem, c);
}

/// acc + a·b through the staging buffer (Tf32 as dot_compute's).
template <int Tf32, class Acc, class TA, class SA, class TB, class SB, int Th, class SC>
__device__ inline Tile<Acc, SC, Th> dot_staged(const Tile<TA, SA, Th> &a, const Tile<TB, SB, Th> &b,
                                               Tile<Acc, SC, Th> acc, Smem smem) {
  using D = dot_dims<SA, SB>;
  static_assert(std::is_same_v<SC, typename D::result>, "ntc::dev::dot: accumulator shape");
  static_assert(!std::is_same_v<Acc, bool>, "ntc::dev::dot: bool accumulator");
  smem.sync();
  dot_stage(a, b, smem);
  smem.sync();
  dot_compute<TA, TB, Acc, SA, SB, Tf32>(smem, acc);
  smem.sync();
  return acc;
}

template <class Acc, class TA, class TB>
using dot_result_t =
    std::conditional_t<std::is_void_v<Acc>, typename dot_acc_type<TA, TB>::type, Acc>;

} // namespace detail

/// Default accumulator of dot (ntc::cpu::dot_acc_t).
template <class TA, class TB> using dot_acc_t = typename detail::dot_acc_type<TA, TB>::type;

/// Shared-memory bytes of dot for (Batch×)M×K operands of TA and K×N operands of TB.
template <class TA, class TB, int M, int K, int N, int Batch = 1>
NTC_DEV_HD constexpr std::size_t dot_smem_bytes() {
  return detail::dot_b_offset<TA, Batch, M, K>() +
         smem_align(sizeof(TB) * std::size_t(Batch) * std::size_t(K) * std::size_t(N));
}
/// Shared-memory bytes of dot for M×K and K×N operands of T.
template <class T, int M, int K, int N> NTC_DEV_HD constexpr std::size_t dot_smem_bytes() {
  return dot_smem_bytes<T, T, M, K, N, 1>();
}

/// acc + a·b (Triton's dot(a, b, acc)), accumulated in Acc (dot_smem_bytes bytes of Smem).
template <class Acc, class TA, class SA, class TB, class SB, int Th, class SC>
__device__ inline Tile<Acc, SC, Th> dot(const Tile<TA, SA, Th> &a, const Tile<TB, SB, Th> &b,
                                        Tile<Acc, SC, Th> acc, Smem smem) {
  return detail::dot_staged<0>(a, b, acc, smem);
}

/// acc + a·b with float32 inputs rounded to tf32 on the tensor cores (Passes = 1) or split into
/// three tf32 products (Passes = 3), where the shapes allow; IEEE otherwise.
template <class Acc, class TA, class SA, class TB, class SB, int Th, class SC, int Passes>
__device__ inline Tile<Acc, SC, Th> dot(const Tile<TA, SA, Th> &a, const Tile<TB, SB, Th> &b,
                                        Tile<Acc, SC, Th> acc, Smem smem, tf32_inputs<Passes>) {
  return detail::dot_staged<Passes>(a, b, acc, smem);
}

/// dot(a, b) with tf32 inputs (see above).
template <class Acc = void, class TA, class SA, class TB, class SB, int Th, int Passes>
__device__ inline auto dot(const Tile<TA, SA, Th> &a, const Tile<TB, SB, Th> &b, Smem smem,
                           tf32_inputs<Passes> precision) {
  using R = detail::dot_result_t<Acc, TA, TB>;
  using D = detail::dot_dims<SA, SB>;
  return dot(a, b, ::ntc::dev::full<R, typename D::result, Th>(0), smem, precision);
}

/// Matrix product of (M×K) and (K×N) tiles (or batched (B×M×K)·(B×K×N)), accumulated in Acc
/// (dot_acc_t by default); the result has type Acc (dot_smem_bytes bytes of Smem).
template <class Acc = void, class TA, class SA, class TB, class SB, int Th>
__device__ inline auto dot(const Tile<TA, SA, Th> &a, const Tile<TB, SB, Th> &b, Smem smem) {
  using R = detail::dot_result_t<Acc, TA, TB>;
  using D = detail::dot_dims<SA, SB>;
  return dot(a, b, ::ntc::dev::full<R, typename D::result, Th>(0), smem);
}

} // namespace ntc::dev

// The GEMM main loop: acc += Σ_k A_k · B_k over a loop of K steps, for float16/bfloat16 operand
// tiles read straight from global memory and a float accumulator (the loop
// `for k: acc = acc + dot(load a[k], load b[k])`, which the CUDA code generator hands to
// dot_loop whole). On sm_80 and later:
// * the operand tiles of each step go to shared memory without passing through registers:
//   16-byte cp.async where a chunk of 8 elements is in bounds and the caller has guaranteed
//   that such chunks are contiguous and aligned (VecA/VecB, the contract of load_vec), element
//   by element otherwise (masked elements get the fill value). An operand with an affine form
//   (affine_tile) copies a step whose tile is wholly in bounds from one offset per step and
//   per-thread offsets computed before the loop, instead of evaluating the masked offset of
//   every chunk (measured on the H200: GEMM 4096³ 278 → 309 TFLOP/s);
// * Stages shared buffers form a ring: the copies of step k + Stages − 1 are in flight while
//   step k is computed (cp.async.commit_group / wait_group);
// * the shared tiles are XOR-swizzled in 16-byte units (layout::swizzled_offset), so that
//   ldmatrix reads them without bank conflicts;
// * the warps tile the BM×BN block (gemm_warp_rows × the rest); each warp keeps its part of
//   the accumulator in mma.sync fragments for the whole loop and multiplies with
//   ldmatrix.x4 (A), ldmatrix.x4.trans (B) and mma.sync.m16n8k16; with an even number of
//   k16 slices per stage the fragments sit in two register buffers, so that the next slice
//   (the next stage's first one, after the barrier) loads while this one multiplies (with 8
//   warps of 64×64: 309 → 414 TFLOP/s at 4096³; at 16 warps ptxas has 128 registers per thread
//   and spills);
// * acc enters the fragments through shared memory before the loop (not when the caller
//   knows it is zero) and goes back to the blocked layout after it, so that its blocked
//   registers are free during the loop.
// On sm_90a (dot_loop_wgmma: a warpgroup per 64 rows of the block, N at most 256) the ring
// holds wgmma's canonical swizzled column blocks and each step is one group of wgmma.mma_async
// reading both operands from shared memory through descriptors, the previous step's group still
// in flight; the accumulator stays in the same fragments (wgmma's are mma.sync's, warp by warp).
// Other element types, shapes or architectures take the generic path (one dot per step).
#pragma once

#include <ntc/device/dot.cuh>
#include <ntc/device/layout.cuh>
#include <ntc/device/memory.cuh>
#include <ntc/device/tma.cuh>
#include <ntc/device/wgmma.cuh>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace ntc::dev {

namespace detail {

/// Bytes of one ring stage: the BM×BK tile of A and the BK×BN tile of B.
template <class T, int BM, int BK, int BN> NTC_DEV_HD constexpr std::size_t gemm_stage_bytes() {
  return smem_align(sizeof(T) * std::size_t(BM) * BK) +
         smem_align(sizeof(T) * std::size_t(BK) * BN);
}

/// The shared layout of dot_loop's ring on the ldmatrix path: row-major, each row's 16-byte units
/// swizzled in place (layout::swizzled_offset).
template <class T, int R, int C> struct row_swizzled {
  NTC_DEV_HD static constexpr int offset(int r, int c) {
    return layout::swizzled_offset(r, c, C, int(sizeof(T)));
  }
};

/// The shared layout of dot_loop's ring on the wgmma path: column blocks of row_bytes bytes,
/// swizzled (layout::block_swizzled_offset: the Swizzled<row_bytes> layout wgmma reads).
template <class T, int R, int C> struct block_swizzled {
  /// Bytes of one row of a column block.
  static constexpr int row_bytes = layout::block_row_bytes(C * int(sizeof(T)));
  NTC_DEV_HD static constexpr int offset(int r, int c) {
    return layout::block_swizzled_offset(r, c, R, row_bytes, int(sizeof(T)));
  }
};

/// True when dot_loop multiplies with wgmma (sm_90a): both operands from the swizzled ring
/// through descriptors, one warpgroup per 64 rows of the block (every warp one 16-row slab, N
/// one instruction wide), and a ring of three stages or more (one stage being copied while
/// the wgmmas of two are in flight).
template <class T, int BM, int BK, int BN, int Th, int Stages>
NTC_DEV_HD constexpr bool dot_loop_wgmma() {
#if defined(NTC_DEV_HAS_WGMMA)
  return is_half_v<T> && layout::gemm_wgmma_shape(BM, BK, BN, Th, Stages);
#else
  return false;
#endif
}

/// Rows of the warp grid of dot_loop's accumulator fragments in this pass of nvcc
/// (layout::gemm_accumulator_warp_rows).
template <class T, int BM, int BK, int BN, int Th, int Stages>
NTC_DEV_HD constexpr int dot_loop_warp_rows() {
  return dot_loop_wgmma<T, BM, BK, BN, Th, Stages>() ? Th / 32
                                                     : layout::gemm_warp_rows(BM, BN, Th / 32);
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
/// cp.async of 16 bytes from global to shared memory (L2 only: .cg).
__device__ inline void cp_async_16(void *shared, const void *global) {
  const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(shared));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(address), "l"(global)
               : "memory");
}

/// Closes the group of cp.async issued since the last commit.
__device__ inline void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }

/// Waits until at most N committed groups are pending.
template <int N> __device__ inline void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

/// ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 from the row addressed by this lane.
__device__ inline void ldmatrix_x4_trans(uint32_t (&r)[4], const void *row) {
  const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address)
               : "memory");
}

/// offset(index) called out of line: one copy of a long offset computation per operand instead of
/// one per call site (the element-by-element path of gemm_copy is the slow one anyway).
template <class F>
__device__ __noinline__ long long element_offset(const F &offset, int row, int col) {
  const int index[2] = {row, col};
  return static_cast<long long>(offset(index));
}

/// Copies the R×C operand tile of one step into a shared tile in layout Map (row_swizzled or
/// block_swizzled): chunk by chunk of 8
/// elements (16 bytes); offset(index) gives the element offset of tile element index[0..1] or
/// `masked`, chunk(index) that of the 8 elements from index when all are in bounds (load_vec).
/// Rolled: one chunk at a time (few registers, for the rare steps whose tile is not full).
/// Elements copied one by one (masked chunks, or every chunk without Vector) go through a rolled
/// loop: offset() may be long (an im2col arrangement divides by several run-time sizes), and
/// unrolled per element and per chunk it made ptxas run for many minutes; for operands without
/// an affine form (not Rolled) it is also called out of line.
template <bool Vector, bool Rolled, class T, int R, int C, int Th, class Map, class F, class G>
__device__ inline void gemm_copy(T *tile, const T *base, T fill, F offset, G chunk) {
  constexpr int per_row = C / 8, chunks = R * per_row;
#pragma unroll((Rolled || !Vector) ? 1 : (chunks + Th - 1) / Th)
  for (int i = 0; i < (chunks + Th - 1) / Th; ++i) {
    const int c = i * Th + int(threadIdx.x);
    if (chunks % Th != 0 && c >= chunks)
      break;
    const int row = c / per_row, col = (c % per_row) * 8;
    T *dst = tile + Map::offset(row, col);
    int index[2] = {row, col};
    if constexpr (Vector) {
      const long long first = static_cast<long long>(chunk(static_cast<const int *>(index)));
      if (first != masked) {
        ::ntc::dev::detail::cp_async_16(dst, base + first);
        continue;
      }
    }
    auto put = [&](int k, long long off) { dst[k] = off == masked ? fill : base[off]; };
    // Affine operands (Rolled) copy element by element only at the edges, and their offset is
    // short: called in line, as before 2026-12-02, when an out-of-line call here made ptxas keep
    // dot_loop's invariants in local memory (4096³ float16 GEMM 568 → 419 TFLOP/s on the H200).
    if constexpr (Rolled) {
#pragma unroll
      for (int k = 0; k < 8; ++k, ++index[1])
        put(k, static_cast<long long>(offset(static_cast<const int *>(index))));
    } else {
#pragma unroll 1
      for (int k = 0; k < 8; ++k, ++index[1])
        put(k, element_offset(offset, index[0], index[1]));
    }
  }
}

/// The 16-byte chunks that one thread copies of an R×C operand tile with an affine form
/// (affine_tile): chunk c = i·Th + threadIdx.x, its offset from the tile's origin in the source
/// and its place in the shared tile (layout Map), computed once before the loop.
template <class T, int R, int C, int Th, class Index, class Map> struct affine_chunks {
  static constexpr int per_row = C / 8, chunks = R * per_row, count = (chunks + Th - 1) / Th;
  Index offset[count];
  int place[count];

  __device__ affine_chunks(Index stride0, Index stride1) {
#pragma unroll
    for (int i = 0; i < count; ++i) {
      const int c = i * Th + int(threadIdx.x), row = c / per_row, col = (c % per_row) * 8;
      offset[i] = Index(row) * stride0 + Index(col) * stride1;
      place[i] = Map::offset(row, col);
    }
  }

  /// Copies the tile whose element (0, 0) is at `origin`.
  __device__ void copy(T *tile, const T *origin) const {
#pragma unroll
    for (int i = 0; i < count; ++i)
      if (chunks % Th == 0 || i * Th + int(threadIdx.x) < chunks)
        cp_async_16(tile + place[i], origin + offset[i]);
  }
};

/// The affine_chunks of an operand with an affine form; nothing for one without.
template <class T, int R, int C, int Th, class Index, class Map>
__device__ inline int affine_chunks_of(no_affine) {
  return 0;
}
template <class T, int R, int C, int Th, class Index, class Map, int Rank, int RowDim, class Ring,
          class Coords, bool Multicast>
__device__ inline int affine_chunks_of(const tma_operand<Rank, RowDim, Ring, Coords, Multicast> &) {
  return 0;
}
template <class T, int R, int C, int Th, class Index, class Map, class Full, class Origin>
__device__ inline affine_chunks<T, R, C, Th, Index, Map>
affine_chunks_of(const affine_tile<Full, Origin> &affine) {
  return affine_chunks<T, R, C, Th, Index, Map>(Index(affine.stride0), Index(affine.stride1));
}
#endif

} // namespace detail

/// True when dot_loop runs its tensor-core pipeline for these operands (else it runs one
/// generic dot per step).
template <class T, int BM, int BK, int BN, int Th>
inline constexpr bool
    dot_loop_eligible_v = (BK % 16 == 0) && layout::swizzles(BK, 2) && layout::swizzles(BN, 2) &&
                          (layout::gemm_warp_rows(BM, BN, Th / 32) > 0) && is_half_v<T>;

/// Shared-memory bytes of dot_loop with `Stages` ring stages.
template <class T, int BM, int BK, int BN, int Th, int Stages>
NTC_DEV_HD constexpr std::size_t dot_loop_smem_bytes() {
  return dot_loop_eligible_v<T, BM, BK, BN, Th>
             ? std::size_t(Stages) * detail::gemm_stage_bytes<T, BM, BK, BN>()
             : dot_smem_bytes<T, BM, BK, BN>();
}

namespace detail {

/// The accumulator fragments of dot_loop's tensor-core path over a WM × (Th / 32 / WM) warp grid:
/// fragment (m, n) of warp w covers rows (w / WN)·BM/WM + 16m … and columns (w % WN)·BN/WN + 8n …,
/// element i at mma::c_coord(lane, i) (the slots of an LTile in layout Mma<WM, WN>, in order).
template <int BM, int BN, int Th, int WM>
using gemm_fragments_t = float[BM / WM / 16][BN / (Th / 32 / WM) / 8][4];

/// The TMA copy of an R × C operand tile of step k into the ring at byte `at` (the
/// Swizzled<RowBytes> layout of block_swizzled), by `operand`'s map and ring; a multicast
/// operand's share of it, into the ring of every CTA of the cluster.
template <class T, int R, int C, int RowBytes, class Index, int Rank, int RowDim, class Ring,
          class Coords, bool Multicast>
__device__ inline void tma_copy(const tma_operand<Rank, RowDim, Ring, Coords, Multicast> &operand,
                                int stage, Index k, Smem smem, std::size_t at) {
  int c[Rank];
  const bool in_bounds = operand.coords(k, c);
  if constexpr (Multicast)
    operand.ring->template copy_multicast<T, R, C, RowBytes, RowDim, Rank>(stage, *operand.map,
                                                                           smem, at, c, in_bounds);
  else
    operand.ring->template copy<T, R, C, RowBytes, RowDim, Rank>(stage, *operand.map, smem, at, c,
                                                                 in_bounds);
}
/// No TMA copy for an operand without a map (never called: dot_loop copies both or neither).
template <class T, int R, int C, int RowBytes, class Index, class Operand>
__device__ inline void tma_copy(const Operand &, int, Index, Smem, std::size_t) {}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
/// The tensor-core main loop of dot_loop: c += Σ over k in [begin, end) of A_k · B_k, c in the
/// fragments of this pass's warp grid (WM must be dot_loop_warp_rows). Starts with a barrier (the
/// ring reuses the block's scratch memory) and ends once every copy has landed and every product
/// is in c; the caller puts a barrier before anything else writes the ring's memory.
template <int Stages, bool VecA, bool VecB, class T, int BM, int BK, int BN, int Th, int WM,
          class Index, class FA, class CA, class AA, class FB, class CB, class AB>
__device__ inline void gemm_fragments_loop(gemm_fragments_t<BM, BN, Th, WM> &c, Index begin,
                                           Index end, const T *base_a, T fill_a, FA a_offset,
                                           CA a_chunk, AA a_affine, const T *base_b, T fill_b,
                                           FB b_offset, CB b_chunk, AB b_affine, Smem smem) {
  constexpr bool Wgmma = dot_loop_wgmma<T, BM, BK, BN, Th, Stages>();
  using MapA = std::conditional_t<Wgmma, block_swizzled<T, BM, BK>, row_swizzled<T, BM, BK>>;
  using MapB = std::conditional_t<Wgmma, block_swizzled<T, BK, BN>, row_swizzled<T, BK, BN>>;
  constexpr int W = Th / 32, WN = W / WM;
  static_assert(WM == dot_loop_warp_rows<T, BM, BK, BN, Th, Stages>(),
                "ntc::dev::dot_loop: fragments of another warp grid than this pass's loop");
  constexpr int TM = BM / WM, TN = BN / WN, MT = TM / 16, NT = TN / 8;
  constexpr std::size_t stage_bytes = gemm_stage_bytes<T, BM, BK, BN>();
  constexpr std::size_t b_start = smem_align(sizeof(T) * std::size_t(BM) * BK);
  const Index steps = end > begin ? end - begin : Index(0);
  const int lane = int(threadIdx.x) % 32, warp = int(threadIdx.x) / 32;
  const int row0 = (warp / WN) * TM, col0 = (warp % WN) * TN;
  const mma::Coord ra = mma::ldmatrix_a_address(lane);
  const mma::Coord rb{lane % 16, 8 * (lane / 16)}; // x4.trans: two 16×8 B tiles side by side

  // The ring stage of a step.
  auto stage_at = [&](Index step) {
    return smem.as<unsigned char>(std::size_t(step % Stages) * stage_bytes);
  };
  // Both operands by TMA (wgmma only: TMA writes the swizzled column blocks wgmma reads); the
  // cp.async path otherwise, where an operand with an affine form and 16-byte chunks copies a
  // full tile from one offset.
  constexpr bool Tma = Wgmma && is_tma_operand_v<AA> && is_tma_operand_v<AB>;
  constexpr bool AffineA = VecA && !std::is_same_v<AA, no_affine> && !is_tma_operand_v<AA>;
  constexpr bool AffineB = VecB && !std::is_same_v<AB, no_affine> && !is_tma_operand_v<AB>;
  const auto chunks_a = affine_chunks_of<T, BM, BK, Th, Index, MapA>(a_affine);
  const auto chunks_b = affine_chunks_of<T, BK, BN, Th, Index, MapB>(b_affine);
  // Thread 0 issues one TMA copy per column block of each operand, on the barrier of the stage.
  auto issue_tma = [&](Index step) {
    if constexpr (Tma) {
      if (step >= steps)
        return;
      const Index k = begin + step;
      const int stage = int(step % Stages);
      const std::size_t at = std::size_t(stage) * stage_bytes;
      tma_copy<T, BM, BK, MapA::row_bytes>(a_affine, stage, k, smem, at);
      tma_copy<T, BK, BN, MapB::row_bytes>(b_affine, stage, k, smem, at + b_start);
    }
  };
  // The cp.async copies of a step (the loops without TMA).
  auto issue = [&](Index step) {
    if (step < steps) {
      const Index k = begin + step;
      unsigned char *stage = stage_at(step);
      T *tile_a = reinterpret_cast<T *>(stage), *tile_b = reinterpret_cast<T *>(stage + b_start);
      bool copied_a = false, copied_b = false;
      if constexpr (AffineA)
        if ((copied_a = a_affine.full(k)))
          chunks_a.copy(tile_a, base_a + Index(a_affine.origin(k)));
      if constexpr (AffineB)
        if ((copied_b = b_affine.full(k)))
          chunks_b.copy(tile_b, base_b + Index(b_affine.origin(k)));
      if (!copied_a)
        gemm_copy<VecA, AffineA, T, BM, BK, Th, MapA>(
            tile_a, base_a, fill_a, [&](const int *index) { return a_offset(k, index); },
            [&](const int *index) { return a_chunk(k, index); });
      if (!copied_b)
        gemm_copy<VecB, AffineB, T, BK, BN, Th, MapB>(
            tile_b, base_b, fill_b, [&](const int *index) { return b_offset(k, index); },
            [&](const int *index) { return b_chunk(k, index); });
    }
    cp_async_commit();
  };

  // The fragments of one k16 slice of a stage: A by ldmatrix.x4, B two 16×8 tiles at a time.
  auto fragments = [&](const unsigned char *stage, int k0, uint32_t(&a)[MT][4],
                       uint32_t(&b)[NT][2]) {
    const T *sa = reinterpret_cast<const T *>(stage);
    const T *sb = reinterpret_cast<const T *>(stage + b_start);
#pragma unroll
    for (int m = 0; m < MT; ++m)
      ldmatrix_x4(a[m], sa + MapA::offset(row0 + m * 16 + ra.row, k0 + ra.col));
#pragma unroll
    for (int n = 0; n < NT; n += 2) {
      uint32_t r[4];
      ldmatrix_x4_trans(r, sb + MapB::offset(k0 + rb.row, col0 + n * 8 + rb.col));
      b[n][0] = r[0];
      b[n][1] = r[1];
      b[n + 1][0] = r[2];
      b[n + 1][1] = r[3];
    }
  };
  auto multiply = [&](float(&acc)[MT][NT][4], const uint32_t(&a)[MT][4],
                      const uint32_t(&b)[NT][2]) {
#pragma unroll
    for (int m = 0; m < MT; ++m)
#pragma unroll
      for (int n = 0; n < NT; ++n)
        mma_m16n8k16<T>(acc[m][n], a[m], b[n]);
  };

#if defined(NTC_DEV_HAS_WGMMA)
  if constexpr (Tma)
    fence_proxy_async(); // this thread's accesses to the scratch memory, before TMA writes it
#endif
  smem.sync();            // the ring reuses the block's scratch memory
  constexpr int KS = BK / 16; // k16 slices per stage
  if constexpr (Wgmma) {
#if defined(NTC_DEV_HAS_WGMMA)
    // One group of KS wgmmas per step, its operands read by the tensor cores from the ring
    // through descriptors (A K-major, B MN-major), each warpgroup its 64 rows; the group of
    // step − 1 stays in flight while step's is issued. The accumulator fragments are
    // mma.sync's, warp by warp.
    float(&d)[BN / 2] = reinterpret_cast<float(&)[BN / 2]>(c[0]);
    const int slab = 64 * (warp / 4); // the warpgroup's first row
    constexpr int RA = MapA::row_bytes, RB = MapB::row_bytes;
    auto multiply_stage = [&](Index step) {
      const unsigned char *stage = stage_at(step);
      wgmma_fence();
#pragma unroll
      for (int kk = 0; kk < KS; ++kk)
        wgmma_ss<T, BN, 1>(d, wgmma_operand_descriptor<RA, true>(stage + slab * RA, BM, kk),
                           wgmma_operand_descriptor<RB, false>(stage + b_start, BK, kk), 1);
      wgmma_commit();
    };
    if constexpr (Tma) {
      // Both operands by TMA, the ring Stages − 1 steps ahead. Once a warp's group of step − 1
      // is complete it releases that stage on the ring, and thread 0 refills the stage as soon
      // as every warp has: no barrier of the whole program in the loop.
      auto &ring = *a_affine.ring;
      using Ring = std::remove_reference_t<decltype(ring)>;
      static_assert(Ring::releasers == Ring::cluster * Th / 32,
                    "ntc::dev::dot_loop: a TMA ring released by every warp of the cluster");
#pragma unroll
      for (int s = 0; s < Stages - 1; ++s)
        issue_tma(Index(s));
      fence_operands(d);
      for (Index step = 0; step < steps; ++step) {
        ring.template wait<false>(int(step % Stages)); // stage step has landed (wgmma reads it)
        multiply_stage(step);
        wgmma_wait<1>();
        if (step > 0)
          ring.release(int((step - 1) % Stages));
        if (threadIdx.x == 0 && step + Stages - 1 < steps) {
          if (step > 0)
            ring.acquire(int((step - 1) % Stages));
          issue_tma(step + Stages - 1);
        }
      }
      wgmma_wait<0>();
      fence_operands(d);
      if (steps > 0)
        ring.release(int((steps - 1) % Stages));
      // Thread 0 acquires the releases no refill acquired, so that every release is acquired
      // once and the ring's phases carry over to its next loop. In a cluster this also keeps
      // the CTA, whose barriers the others release on, until their last release has arrived.
      if (threadIdx.x == 0)
        for (Index j = steps > Index(Stages) ? steps - Index(Stages) : Index(0); j < steps; ++j)
          ring.acquire(int(j % Stages));
    } else {
      // The cp.async ring runs Stages − 2 steps ahead: the copies of a stage may overwrite it
      // only once every warpgroup has waited for the group that read it, which the barrier
      // of the next step ensures.
#pragma unroll
      for (int s = 0; s < Stages - 2; ++s)
        issue(Index(s));
      fence_operands(d);
      for (Index step = 0; step < steps; ++step) {
        cp_async_wait<Stages - 3>();
        fence_proxy_async(); // this thread's copies, to the tensor cores' proxy
        smem.sync();     // stage step has arrived; the wgmmas of step − 2 are done everywhere
        issue(step + Stages - 2);
        multiply_stage(step);
        wgmma_wait<1>();
      }
      wgmma_wait<0>();
      fence_operands(d);
    }
#endif
  } else if constexpr (KS % 2 == 0) {
#pragma unroll
    for (int s = 0; s < Stages - 1; ++s)
      issue(Index(s));
    // Fragments in two register buffers: slice j + 1 (of this stage, or slice 0 of the next
    // stage once it has arrived) loads while slice j multiplies.
    uint32_t a[2][MT][4], b[2][NT][2];
    cp_async_wait<Stages - 2>();
    smem.sync();
    if (steps > 0)
      fragments(stage_at(0), 0, a[0], b[0]);
    for (Index step = 0; step < steps; ++step) {
      // Nobody reads stage step − 1 since the last step's barrier: refill it.
      issue(step + Stages - 1);
      const unsigned char *stage = stage_at(step);
#pragma unroll
      for (int j = 0; j < KS; ++j) {
        if (j == KS - 1) {
          cp_async_wait<Stages - 2>();
          smem.sync(); // stage step + 1 has arrived
          if (step + 1 < steps)
            fragments(stage_at(step + 1), 0, a[(j + 1) % 2], b[(j + 1) % 2]);
        } else {
          fragments(stage, (j + 1) * 16, a[(j + 1) % 2], b[(j + 1) % 2]);
        }
        multiply(c, a[j % 2], b[j % 2]);
      }
    }
  } else {
    // An odd number of slices: one buffer, the fragments of a slice before its products.
#pragma unroll
    for (int s = 0; s < Stages - 1; ++s)
      issue(Index(s));
    for (Index step = 0; step < steps; ++step) {
      cp_async_wait<Stages - 2>();
      smem.sync();
      issue(step + Stages - 1);
      const unsigned char *stage = stage_at(step);
#pragma unroll
      for (int k0 = 0; k0 < BK; k0 += 16) {
        uint32_t a[MT][4], b[NT][2];
        fragments(stage, k0, a, b);
        multiply(c, a, b);
      }
    }
  }
  cp_async_wait<0>();
}

/// dot_loop on an accumulator of another layout (a blocked Tile, or an LTile whose warp grid is
/// not this pass's): its elements move into the fragments before the loop (unless AccZero) and
/// back after it, through the ring's memory CH rows at a time, so that their registers are free
/// during the loop.
template <int Stages, bool VecA, bool VecB, bool AccZero, class T, int BM, int BK, int BN, int Th,
          class Acc, class Index, class FA, class CA, class AA, class FB, class CB, class AB>
__device__ inline void dot_loop_exchanged(Acc &acc, Index begin, Index end, const T *base_a,
                                          T fill_a, FA a_offset, CA a_chunk, AA a_affine,
                                          const T *base_b, T fill_b, FB b_offset, CB b_chunk,
                                          AB b_affine, Smem smem) {
  constexpr int WM = dot_loop_warp_rows<T, BM, BK, BN, Th, Stages>(), WN = Th / 32 / WM;
  constexpr int TM = BM / WM, TN = BN / WN, MT = TM / 16, NT = TN / 8;
  const int lane = int(threadIdx.x) % 32, warp = int(threadIdx.x) / 32;
  const int row0 = (warp / WN) * TM, col0 = (warp % WN) * TN;
  constexpr std::size_t total = std::size_t(Stages) * gemm_stage_bytes<T, BM, BK, BN>();
  constexpr int fit = int(total / (sizeof(float) * BN)) / 8 * 8;
  constexpr int CH = fit < BM ? fit : BM;
  static_assert(CH >= 8, "ntc::dev::dot_loop: ring too small for the accumulator exchange");
  float *exchange = smem.as<float>();
  float c[MT][NT][4];
  auto each_fragment_element = [&](int r0, auto &&f) { // f(fragment element, exchange slot)
#pragma unroll
    for (int m = 0; m < MT; ++m)
#pragma unroll
      for (int n = 0; n < NT; ++n)
#pragma unroll
        for (int i = 0; i < 4; ++i) {
          const mma::Coord p = mma::c_coord(lane, i);
          const int row = row0 + m * 16 + p.row;
          if (row >= r0 && row < r0 + CH)
            f(c[m][n][i], exchange[(row - r0) * BN + col0 + n * 8 + p.col]);
        }
  };
  if constexpr (AccZero) {
#pragma unroll
    for (int m = 0; m < MT; ++m)
#pragma unroll
      for (int n = 0; n < NT; ++n)
#pragma unroll
        for (int i = 0; i < 4; ++i)
          c[m][n][i] = 0.0f;
  } else {
#pragma unroll 1
    for (int r0 = 0; r0 < BM; r0 += CH) {
      smem.sync(); // the exchange region reuses the scratch buffer
#pragma unroll
      for (int s = 0; s < Acc::Slots; ++s) {
        const int e = Acc::linear(s);
        if (Acc::owns(s) && e >= r0 * BN && e < (r0 + CH) * BN)
          exchange[e - r0 * BN] = acc.v[s];
      }
      smem.sync();
      each_fragment_element(r0, [](float &x, float &slot) { x = slot; });
    }
  }
  gemm_fragments_loop<Stages, VecA, VecB, T, BM, BK, BN, Th, WM>(
      c, begin, end, base_a, fill_a, a_offset, a_chunk, a_affine, base_b, fill_b, b_offset, b_chunk,
      b_affine, smem);
  // Back to acc's layout (the fragments hold acc + the products).
  Acc result;
#pragma unroll 1
  for (int r0 = 0; r0 < BM; r0 += CH) {
    smem.sync();
    each_fragment_element(r0, [](float &x, float &slot) { slot = x; });
    smem.sync();
#pragma unroll
    for (int s = 0; s < Acc::Slots; ++s) {
      const int e = Acc::linear(s);
      if (Acc::owns(s) && e >= r0 * BN && e < (r0 + CH) * BN)
        result.v[s] = exchange[e - r0 * BN];
    }
  }
  acc = result;
  smem.sync();
}
#endif

} // namespace detail

/// acc += Σ over k in [begin, end) of A_k · B_k, where A_k (BM×BK) and B_k (BK×BN) are the
/// masked loads base_a[a_offset(k, index)] (fill_a where masked) and likewise for B; the
/// offset callables take (k, const int *index). VecA/VecB: a_chunk/b_chunk give the offsets of
/// chunks of 8 elements under the contract of load_vec (the dispatcher checked alignment);
/// otherwise they are not called (pass no_chunk{}). a_affine/b_affine: the operand's affine_tile
/// (used with VecA/VecB) or no_affine{}. AccZero: the caller guarantees that acc
/// holds zeros (it is then not read). Uses dot_loop_smem_bytes<T, BM, BK, BN, Th, Stages>()
/// bytes of smem. A blocked accumulator goes through the ring's memory into the tensor cores'
/// fragments and back (an LTile in layout Mma, layouts.cuh, can skip that).
template <int Stages, bool VecA, bool VecB, bool AccZero, class T, int BM, int BK, int BN, int Th,
          class Index, class FA, class CA, class AA, class FB, class CB, class AB>
__device__ inline void dot_loop(Tile<float, Shape<BM, BN>, Th> &acc, Index begin, Index end,
                                const T *base_a, T fill_a, FA a_offset, CA a_chunk, AA a_affine,
                                const T *base_b, T fill_b, FB b_offset, CB b_chunk, AB b_affine,
                                Smem smem) {
  static_assert(Stages >= 2, "ntc::dev::dot_loop: at least two stages");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (dot_loop_eligible_v<T, BM, BK, BN, Th>) {
    detail::dot_loop_exchanged<Stages, VecA, VecB, AccZero, T, BM, BK, BN, Th>(
        acc, begin, end, base_a, fill_a, a_offset, a_chunk, a_affine, base_b, fill_b, b_offset,
        b_chunk, b_affine, smem);
  } else
#endif
  {
    // Generic path: one masked load of each operand and one dot per step.
    for (Index k = begin; k < end; ++k) {
      const auto a = ::ntc::dev::load<T, Shape<BM, BK>, Th>(
          base_a, fill_a, [&](const int *index) { return a_offset(k, index); });
      const auto b = ::ntc::dev::load<T, Shape<BK, BN>, Th>(
          base_b, fill_b, [&](const int *index) { return b_offset(k, index); });
      acc = ::ntc::dev::dot<float>(a, b, acc, smem);
    }
  }
}

} // namespace ntc::dev

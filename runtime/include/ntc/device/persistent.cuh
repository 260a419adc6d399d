// Warp-specialized persistent programs (passes/SpecializeWarps.cpp): one block runs program id
// blockIdx.x, then blockIdx.x + gridDim.x, and so on. A producer warpgroup, placed after the
// consumer warps, issues the TMA copies of every GEMM main loop of those programs into the ring,
// as far ahead as the ring's stages allow; the consumer warps multiply from the ring, release its
// stages and run each program's epilogue, while the producer already copies the next program's
// first tiles. The consumers synchronize among themselves through named barrier 1
// (sync_threads), never through __syncthreads, which would wait for the producer. In clusters
// of two, each producer multicasts its half of the shared operand into both blocks' rings, and
// drains the releases of both blocks' consumers before it exits (dot_loop_drain).
#pragma once

#include <ntc/device/gemm.cuh>
#include <ntc/device/layouts.cuh>
#include <ntc/device/tma.cuh>
#include <ntc/device/wgmma.cuh>

#include <cstddef>

namespace ntc::dev {

/// Threads of the producer warpgroup of a warp-specialized program.
inline constexpr int producer_threads = 128;

/// The calling warpgroup's registers per thread become Regs (setmaxnreg: lowered when Grow is
/// false, raised otherwise; a multiple of 8 from 24 to 256). Nothing outside sm_90a.
template <int Regs, bool Grow> __device__ inline void set_max_registers() {
  static_assert(Regs % 8 == 0 && Regs >= 24 && Regs <= 256,
                "ntc::dev::set_max_registers: a multiple of 8 from 24 to 256");
#if defined(NTC_DEV_HAS_WGMMA)
  if constexpr (Grow)
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(Regs));
  else
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(Regs));
#endif
}

/// Thread `Issuer` of a warp-specialized program (the producer's first): the TMA copies of
/// steps [begin, end) of a GEMM main loop whose operands a and b (tma_operand, on one ring of
/// Stages stages with releases) are BM×BK and BK×BN tiles of T, into the ring's stages after the
/// `filled` ones copied before (counted across the block's programs). A stage is refilled once
/// the consumers have released it (dot_loop_consume).
template <int Stages, class T, int BM, int BK, int BN, class Index, class OA, class OB>
__device__ inline void dot_loop_produce(Index begin, Index end, const OA &a, const OB &b, Smem smem,
                                        unsigned &filled) {
  static_assert(is_tma_operand_v<OA> && is_tma_operand_v<OB>,
                "ntc::dev::dot_loop_produce: both operands by TMA");
  constexpr std::size_t stage_bytes = detail::gemm_stage_bytes<T, BM, BK, BN>();
  constexpr std::size_t b_start = smem_align(sizeof(T) * std::size_t(BM) * BK);
  constexpr int RA = detail::block_swizzled<T, BM, BK>::row_bytes;
  constexpr int RB = detail::block_swizzled<T, BK, BN>::row_bytes;
  for (Index k = begin; k < end; ++k, ++filled) {
    const int stage = int(filled % unsigned(Stages));
    if (filled >= unsigned(Stages))
      a.ring->acquire(stage); // the consumers have released the stage's last use
    const std::size_t at = std::size_t(stage) * stage_bytes;
    detail::tma_copy<T, BM, BK, RA>(a, stage, k, smem, at);
    detail::tma_copy<T, BK, BN, RB>(b, stage, k, smem, at + b_start);
  }
}

/// Thread `Issuer` of a warp-specialized program in a cluster, after its last copies: waits
/// until the consumers of every CTA of the cluster have released the stages of the last
/// min(filled, Stages) copies, so that this CTA does not exit while another's releases can still
/// arrive on its barriers. Nothing without a cluster.
template <int Stages, class Ring>
__device__ inline void dot_loop_drain(Ring &ring, unsigned filled) {
  if constexpr (Ring::cluster > 1) {
    for (unsigned f = filled > unsigned(Stages) ? filled - unsigned(Stages) : 0u; f < filled; ++f)
      ring.acquire(int(f % unsigned(Stages)));
  } else {
    (void)ring, (void)filled;
  }
}

/// The Th consumer threads of a warp-specialized program: acc += Σ over k in [begin, end) of
/// A_k · B_k, both operands read by wgmma from the ring stages that dot_loop_produce filled,
/// continuing after the `consumed` stages of earlier loops (counted as the producer counts).
/// Each warpgroup multiplies its 64 rows; the group of step k − 1 stays in flight while step
/// k's is issued, and its stage is released once it completes. AccZero: acc holds zeros (not
/// read). Only the sm_90a pass has this path (the program is never launched elsewhere).
template <int Stages, bool AccZero, class T, int BM, int BK, int BN, int Th, int WM, int WN,
          class Index, class Ring>
__device__ inline void dot_loop_consume(LTile<float, Shape<BM, BN>, Mma<WM, WN>> &acc, Index begin,
                                        Index end, Ring &ring, Smem smem, unsigned &consumed) {
  static_assert(32 * WM * WN == Th && WN == 1 && BM == 16 * WM,
                "ntc::dev::dot_loop_consume: one 16-row slab per warp (the wgmma accumulator)");
  static_assert(Ring::releasers == Th / 32 * Ring::cluster,
                "ntc::dev::dot_loop_consume: a ring released by every consumer warp (of the "
                "cluster)");
  if constexpr (AccZero) {
#pragma unroll
    for (int s = 0; s < acc.Slots; ++s)
      acc.v[s] = 0.0f;
  }
#if defined(NTC_DEV_HAS_WGMMA)
  static_assert(detail::dot_loop_wgmma<T, BM, BK, BN, Th, Stages>(),
                "ntc::dev::dot_loop_consume: a loop of wgmma's shapes");
  using MapA = detail::block_swizzled<T, BM, BK>;
  using MapB = detail::block_swizzled<T, BK, BN>;
  constexpr std::size_t stage_bytes = detail::gemm_stage_bytes<T, BM, BK, BN>();
  constexpr std::size_t b_start = smem_align(sizeof(T) * std::size_t(BM) * BK);
  constexpr int KS = BK / 16, RA = MapA::row_bytes, RB = MapB::row_bytes;
  float(&d)[BN / 2] = reinterpret_cast<float(&)[BN / 2]>(acc.v);
  const int slab = 64 * (int(threadIdx.x) / 128); // the warpgroup's first row
  detail::fence_operands(d);
  for (Index k = begin; k < end; ++k, ++consumed) {
    const int stage = int(consumed % unsigned(Stages));
    ring.template wait<false>(stage); // the stage has landed (the tensor cores read it)
    const unsigned char *at = smem.as<unsigned char>(std::size_t(stage) * stage_bytes);
    detail::wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < KS; ++kk)
      detail::wgmma_ss<T, BN, 1>(
          d, detail::wgmma_operand_descriptor<RA, true>(at + slab * RA, BM, kk),
          detail::wgmma_operand_descriptor<RB, false>(at + b_start, BK, kk), 1);
    detail::wgmma_commit();
    detail::wgmma_wait<1>();
    if (k > begin)
      ring.release(int((consumed - 1) % unsigned(Stages)));
  }
  detail::wgmma_wait<0>();
  detail::fence_operands(d);
  if (end > begin)
    ring.release(int((consumed - 1) % unsigned(Stages)));
#else
  (void)begin, (void)end, (void)ring, (void)smem, (void)consumed;
#if defined(__CUDA_ARCH__)
  __trap(); // never launched without sm_90a's code (the dispatcher checks the device)
#endif
#endif
}

/// Thread 0, before the block exits: waits until its TMA stores (tma_store with Deferred) have
/// completed.
__device__ inline void tma_store_drain() {
#if defined(NTC_DEV_HAS_TMA)
  if (threadIdx.x == 0)
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
#endif
}

} // namespace ntc::dev

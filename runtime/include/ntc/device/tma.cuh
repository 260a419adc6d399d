// Hopper's tensor memory accelerator (TMA, sm_90) for the pipelined copies of the device tile
// library: a tile of global memory lands in a stage of shared memory through one instruction
// (cp.async.bulk.tensor) issued by one thread, described by a tensor map that the host wrapper
// encoded (ntc/rt/tensor_map.hpp) and passed as a __grid_constant__ kernel parameter.
//
// A copy completes on an mbarrier in shared memory: the issuing thread announces the bytes
// to come (mbarrier.arrive.expect_tx) and the copy counts them down as they land; every thread
// then waits for the barrier's phase to flip. A tma_ring holds one barrier per stage of a
// pipelined loop, shared by all copies of that stage, and the parity each stage's barrier is on
// (one bit per stage, flipped by every wait), so a loop entered again keeps the right phases as
// long as every copy started is waited for once, which the pipelined loops of
// passes/PipelineLoads.cpp guarantee.
//
// The tensor map's box is one column block of the Swizzled<RowBytes> layout (RowBytes bytes of
// the innermost dimension by the tile's rows), written with the matching TMA swizzle: a tile of
// several column blocks is one copy per block, into consecutive blocks of the stage.
#pragma once

#include <ntc/device/tile.cuh>

#include <cstddef>
#include <cstdint>

namespace ntc::dev {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
/// Defined (1) in the device passes that can issue TMA copies (sm_90 and newer).
#define NTC_DEV_HAS_TMA 1
#endif

/// `__cluster_dims__(X, Y, Z)` where the device pass has clusters (sm_90 and newer) and in the
/// host pass; nothing in an older device pass (sm_80 in a fatbin with sm_90a), which rejects
/// the attribute and never launches the programs that carry it (their rings trap there).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define NTC_DEV_CLUSTER_DIMS(X, Y, Z)
#else
#define NTC_DEV_CLUSTER_DIMS(X, Y, Z) __cluster_dims__(X, Y, Z)
#endif

/// An encoded tensor map as the kernel receives it (the host's ntc::rt::tma_map, the driver's
/// CUtensorMap): 128 opaque bytes, 64-byte aligned.
struct alignas(64) tensor_map {
  unsigned char bytes[128];
};

namespace detail {

#if defined(NTC_DEV_HAS_TMA)
/// The shared-window address of `p` (32 bits, as the mbarrier and bulk-copy instructions take).
__device__ inline unsigned shared_address(const void *p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

/// cp.async.bulk.tensor of Rank dimensions (coordinates innermost first) into `dst`,
/// completing on mbarrier `bar`.
template <int Rank>
__device__ inline void tma_load(unsigned dst, const tensor_map *map, unsigned bar,
                                const int (&c)[Rank]) {
  const unsigned long long m = reinterpret_cast<unsigned long long>(map);
  if constexpr (Rank == 1)
    asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%3}], [%2];" ::"r"(dst),
                 "l"(m), "r"(bar), "r"(c[0])
                 : "memory");
  else if constexpr (Rank == 2)
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%3, %4}], [%2];" ::"r"(dst),
                 "l"(m), "r"(bar), "r"(c[0]), "r"(c[1])
                 : "memory");
  else if constexpr (Rank == 3)
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%3, %4, %5}], [%2];" ::"r"(dst),
                 "l"(m), "r"(bar), "r"(c[0]), "r"(c[1]), "r"(c[2])
                 : "memory");
  else if constexpr (Rank == 4)
    asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%3, %4, %5, %6}], [%2];" ::"r"(dst),
                 "l"(m), "r"(bar), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])
                 : "memory");
  else
    asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%3, %4, %5, %6, %7}], [%2];" ::"r"(dst),
                 "l"(m), "r"(bar), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4])
                 : "memory");
}

/// tma_load into the same shared address of every CTA of the cluster in `cta_mask` (and the
/// complete_tx on each one's barrier at `bar`): cp.async.bulk.tensor's multicast, 2-D.
__device__ inline void tma_load_multicast(unsigned dst, const tensor_map *map, unsigned bar,
                                          const int (&c)[2], unsigned short cta_mask) {
  const unsigned long long m = reinterpret_cast<unsigned long long>(map);
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
               ".multicast::cluster [%0], [%1, {%3, %4}], [%2], %5;" ::"r"(dst),
               "l"(m), "r"(bar), "r"(c[0]), "r"(c[1]), "h"(cta_mask)
               : "memory");
}

/// This CTA's rank in its cluster.
__device__ inline unsigned cluster_rank() {
  unsigned r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}

/// Every thread of every CTA of the cluster: waits until all have arrived (release/acquire:
/// what each wrote before, barrier initializations included, is visible to all after).
__device__ inline void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\n"
               "barrier.cluster.wait.acquire.aligned;" ::
                   : "memory");
}

/// Arrives on the mbarrier at shared address `bar` of the CTA of rank `rank` in this cluster
/// (the same offset as `bar` in this CTA). The default semantics (release at CTA scope), as for
/// a local arrival: a release only says that the warp's tensor-core reads of a stage are
/// complete, and a cluster-scope release costs a memory barrier per arrival (measured: the
/// multicast GEMM at half the speed).
__device__ inline void arrive_remote(unsigned bar, unsigned rank) {
  asm volatile("{\n .reg .b32 remote;\n"
               " mapa.shared::cluster.u32 remote, %0, %1;\n"
               " mbarrier.arrive.shared::cluster.b64 _, [remote];\n}" ::"r"(bar),
               "r"(rank)
               : "memory");
}

/// cp.async.bulk.tensor of Rank dimensions (coordinates innermost first) from shared memory at
/// `src` into the tensor of `map`, in the calling thread's bulk async-group.
template <int Rank>
__device__ inline void tma_store_block(const tensor_map *map, unsigned src, const int (&c)[Rank]) {
  const unsigned long long m = reinterpret_cast<unsigned long long>(map);
  if constexpr (Rank == 2)
    asm volatile(
        "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];" ::"l"(m),
        "r"(src), "r"(c[0]), "r"(c[1])
        : "memory");
  else if constexpr (Rank == 3)
    asm volatile(
        "cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%2, %3, %4}], [%1];" ::"l"(m),
        "r"(src), "r"(c[0]), "r"(c[1]), "r"(c[2])
        : "memory");
  else if constexpr (Rank == 4)
    asm volatile(
        "cp.async.bulk.tensor.4d.global.shared::cta.bulk_group [%0, {%2, %3, %4, %5}], [%1];" ::"l"(
            m),
        "r"(src), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])
        : "memory");
  else
    asm volatile(
        "cp.async.bulk.tensor.5d.global.shared::cta.bulk_group [%0, {%2, %3, %4, %5, %6}], [%1];" ::
            "l"(m),
        "r"(src), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4])
        : "memory");
}

/// Waits until the mbarrier at shared address `bar` has completed the phase of `parity`.
__device__ inline void wait_parity(unsigned bar, unsigned parity) {
  unsigned done = 0;
  while (!done)
    asm volatile("{\n .reg .pred p;\n"
                 " mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                 " selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(done)
                 : "r"(bar), "r"(parity)
                 : "memory");
}
#endif

} // namespace detail

/// The barriers of the TMA copies of one pipelined loop: one per stage of its Stages, each
/// expecting Arrivals copies per phase (the copies of one iteration). Construct it once, by
/// every thread of the program, before the loop's first copy: thread 0 initializes the
/// barriers at `byte_offset` (8-byte aligned; 8 bytes per stage, 16 with releases) and the
/// program synchronizes.
/// With Releasers > 0 the ring also has a second barrier per stage, on which that many warps
/// say that they no longer read the stage (release), so that thread 0 refills it once they all
/// have (acquire) instead of the program synchronizing. In a device pass without TMA the
/// constructor traps.
/// With Cluster > 1 the program runs in a cluster of that many CTAs (the kernel's
/// __cluster_dims__) whose rings share the copies of one operand (copy_multicast: each CTA
/// copies its share of the tile into every CTA's stage). A stage may then be refilled only once
/// the warps of every CTA of the cluster have released it: each warp releases on the ring of
/// every CTA, so Releasers counts the warps of the whole cluster. The constructor synchronizes
/// the cluster, and every CTA must run the same steps of the loop.
/// Thread Issuer issues the copies and acquires (0; a warp-specialized program's producer
/// thread, persistent.cuh).
/// With LastRefills the releases are counted instead (a counter per stage where the second
/// barrier would be): release_last() names the one thread, lane 0 of the warp that releases a
/// stage last, that refills it (refill()) at once; nobody acquires and nobody waits for the
/// others (passes/ReleaseStages.cpp). Thread Issuer still issues the copies before the loop.
template <int Stages, int Arrivals, int Releasers = 0, int Cluster = 1, int Issuer = 0,
          bool LastRefills = false>
class tma_ring {
  static_assert(Stages >= 1 && Stages <= 32 && Arrivals >= 1 && Releasers >= 0,
                "ntc::dev::tma_ring: 1 to 32 stages, one arrival at least");
  static_assert(!LastRefills || (Releasers > 0 && Cluster == 1),
                "ntc::dev::tma_ring: refills by the last releaser need releasers, no cluster");
  static_assert(Cluster >= 1 && Cluster <= 8 && (Cluster == 1 || Releasers > 0),
                "ntc::dev::tma_ring: clusters of 1 to 8, whose rings are released");
  static_assert(Issuer == 0 || (!LastRefills && Releasers > 0),
                "ntc::dev::tma_ring: another issuer than thread 0 needs releases, acquired");

public:
  /// The warps that release stages (0: none; the program synchronizes before refilling).
  static constexpr int releasers = Releasers;
  /// CTAs of the cluster that share the ring's multicast copies (1: none).
  static constexpr int cluster = Cluster;

  /// Initializes the barriers (thread 0) and synchronizes the program (the cluster).
  __device__ tma_ring(Smem smem, std::size_t byte_offset)
      : bars_(smem.as<unsigned long long>(byte_offset)) {
#if defined(NTC_DEV_HAS_TMA)
    if (threadIdx.x == 0) {
      for (int s = 0; s < Stages; ++s)
        asm volatile(
            "mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(detail::shared_address(bars_ + s)),
            "r"(Arrivals)
            : "memory");
      for (int s = 0; s < (Releasers ? Stages : 0); ++s)
        if constexpr (LastRefills)
          bars_[Stages + s] = 0; // the releases counted since the last refill
        else
          asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(
                           detail::shared_address(bars_ + Stages + s)),
                       "r"(Releasers)
                       : "memory");
      asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
#elif defined(__CUDA_ARCH__)
    // A device pass without TMA (sm_80 in a fatbin with sm_90a): its copies would do nothing,
    // so a program that reached here on such a device stops instead of computing garbage. The
    // dispatchers launch TMA programs only on devices that run the sm_90a code.
    __trap();
#endif
#if defined(NTC_DEV_HAS_TMA)
    if constexpr (Cluster > 1) {
      detail::cluster_sync(); // every CTA's barriers are initialized before any remote use
      return;
    }
#endif
    __syncthreads();
  }

  /// Thread Issuer: copies the R × C tile (C a whole number of column blocks of BlockBytes bytes)
  /// whose element (0, 0) is at `coords` (the tensor's dimensions innermost first; RowDim is
  /// the dimension of the tile's rows, the innermost that of its columns) into the stage
  /// buffer at `byte_offset`, in the Swizzled<BlockBytes> layout, completing on the barrier of
  /// `stage`. Elements outside the tensor land as zeros; with `in_bounds` false the whole tile
  /// does (its rows are moved above the tensor's first).
  template <class T, int R, int C, int BlockBytes, int RowDim, int Rank>
  __device__ void copy(int stage, const tensor_map &map, Smem smem, std::size_t byte_offset,
                       const int (&coords)[Rank], bool in_bounds) {
    static_assert(Rank >= 2 && Rank <= 5 && RowDim > 0 && RowDim < Rank,
                  "ntc::dev::tma_ring::copy: 2 to 5 dimensions, rows outside the innermost");
    static_assert(C % (BlockBytes / int(sizeof(T))) == 0,
                  "ntc::dev::tma_ring::copy: whole column blocks");
    if (threadIdx.x == Issuer)
      refill<T, R, C, BlockBytes, RowDim, Rank>(stage, map, smem, byte_offset, coords, in_bounds);
  }

  /// The calling thread (the one that release_last() named, or Issuer): copy()'s copies.
  template <class T, int R, int C, int BlockBytes, int RowDim, int Rank>
  __device__ void refill(int stage, const tensor_map &map, Smem smem, std::size_t byte_offset,
                         const int (&coords)[Rank], bool in_bounds) {
    static_assert(Rank >= 2 && Rank <= 5 && RowDim > 0 && RowDim < Rank,
                  "ntc::dev::tma_ring::refill: 2 to 5 dimensions, rows outside the innermost");
    static_assert(C % (BlockBytes / int(sizeof(T))) == 0,
                  "ntc::dev::tma_ring::refill: whole column blocks");
#if defined(NTC_DEV_HAS_TMA)
    constexpr int block_cols = BlockBytes / int(sizeof(T));
    const unsigned bar = expect_bytes(stage, unsigned(R * C * sizeof(T)));
    int c[Rank];
#pragma unroll
    for (int d = 0; d < Rank; ++d)
      c[d] = coords[d];
    if (!in_bounds)
      c[RowDim] = -R;
    const unsigned dst = detail::shared_address(smem.as<T>(byte_offset));
#pragma unroll
    for (int b = 0; b < C / block_cols; ++b) {
      detail::tma_load<Rank>(dst + unsigned(b * R * BlockBytes), &map, bar, c);
      c[0] += block_cols;
    }
#else
    (void)stage, (void)map, (void)smem, (void)byte_offset, (void)coords, (void)in_bounds;
#endif
    filled_ |= 1u << stage;
  }

  /// Thread 0 of each CTA of the cluster: copy() of a tile that every CTA's stage receives, each
  /// CTA copying its share of the column blocks into all of them (TMA multicast). Each CTA
  /// expects the whole tile on its own barrier. `coords` and `in_bounds` must be the same in
  /// every CTA (the tile does not depend on the CTA's place in the cluster). In an sm_90 pass
  /// without sm_90a's features each CTA copies the whole tile itself.
  template <class T, int R, int C, int BlockBytes, int RowDim, int Rank>
  __device__ void copy_multicast(int stage, const tensor_map &map, Smem smem,
                                 std::size_t byte_offset, const int (&coords)[Rank],
                                 bool in_bounds) {
    constexpr int block_cols = BlockBytes / int(sizeof(T)), blocks = C / block_cols;
    static_assert(Rank == 2 && RowDim == 1 && C % block_cols == 0 && blocks % Cluster == 0,
                  "ntc::dev::tma_ring::copy_multicast: 2-D tiles of whole column blocks, as "
                  "many per CTA");
#if defined(NTC_DEV_HAS_TMA)
    if (threadIdx.x != Issuer)
      return;
    const unsigned bar = expect_bytes(stage, unsigned(R * C * sizeof(T)));
    const unsigned dst = detail::shared_address(smem.as<T>(byte_offset));
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    constexpr int share = blocks / Cluster;
    const int first = int(detail::cluster_rank()) * share;
    int c[2] = {coords[0] + first * block_cols, in_bounds ? coords[1] : -R};
#pragma unroll
    for (int b = first; b < first + share; ++b) {
      detail::tma_load_multicast(dst + unsigned(b * R * BlockBytes), &map, bar, c,
                                 static_cast<unsigned short>((1u << Cluster) - 1));
      c[0] += block_cols;
    }
#else
    // Plain sm_90 (not sm_90a), where multicast is slow on some future parts (ptxas advises
    // against it): each CTA copies the whole tile into its own stage; the result is the same.
    int c[2] = {coords[0], in_bounds ? coords[1] : -R};
#pragma unroll
    for (int b = 0; b < blocks; ++b) {
      detail::tma_load<2>(dst + unsigned(b * R * BlockBytes), &map, bar, c);
      c[0] += block_cols;
    }
#endif
#else
    (void)stage, (void)map, (void)smem, (void)byte_offset, (void)coords, (void)in_bounds;
#endif
    filled_ |= 1u << stage;
  }

  /// Every thread: waits until the copies of `stage`'s current phase have landed (and makes
  /// them visible to this thread and to the tensor cores), then moves the stage to its next
  /// phase. GenericAccess: the thread reads or writes stages through the generic proxy (not
  /// only the tensor cores through descriptors), so its accesses are ordered before the
  /// stage's next copy.
  template <bool GenericAccess = true> __device__ void wait(int stage) {
#if defined(NTC_DEV_HAS_TMA)
    detail::wait_parity(detail::shared_address(bars_ + stage), (phases_ >> stage) & 1u);
    // The stage's next copy, issued after the program's next barrier, overwrites what this
    // thread read or wrote through the generic proxy before: order those accesses first.
    if constexpr (GenericAccess)
      asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#else
    (void)stage;
#endif
    phases_ ^= 1u << stage;
    held_ |= 1u << stage;
  }

  /// Every thread of a releasing warp (Releasers > 0), once its reads of `stage` are done:
  /// the warp no longer reads the stage; lane 0 arrives on the stage's release barrier (of
  /// every CTA of the cluster).
  __device__ void release(int stage) {
    static_assert(Releasers > 0, "ntc::dev::tma_ring::release: a ring without releases");
    held_ &= ~(1u << stage);
#if defined(NTC_DEV_HAS_TMA)
    __syncwarp(); // every lane's reads, before lane 0 speaks for the warp
    if (threadIdx.x % 32 != 0)
      return;
    const unsigned bar = detail::shared_address(bars_ + Stages + stage);
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
    if constexpr (Cluster > 1) {
      const unsigned self = detail::cluster_rank();
#pragma unroll
      for (int rank = 0; rank < Cluster; ++rank)
        if (unsigned(rank) != self)
          detail::arrive_remote(bar, unsigned(rank)); // the other CTAs' rings
    }
#else
    (void)stage;
#endif
  }

  /// Every thread of every releasing warp (LastRefills), once its reads of `stage` are done:
  /// the warp releases the stage; true in exactly one thread per round of Releasers releases,
  /// lane 0 of the warp whose release completes it, which then refills the stage (refill()).
  /// The thread's reads through the generic proxy are ordered before that copy here (fence),
  /// and the warps' releases before it by the counter's acquire-release increments.
  __device__ bool release_last(int stage) {
    static_assert(LastRefills, "ntc::dev::tma_ring::release_last: a ring without counted releases");
#if defined(NTC_DEV_HAS_TMA)
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncwarp(); // every lane's reads, before lane 0 speaks for the warp
    if (threadIdx.x % 32 != 0)
      return false;
    unsigned before;
    // atom.inc wraps to 0 after Releasers - 1: the counter is ready for the stage's next round.
    asm volatile("atom.acq_rel.cta.shared::cta.inc.u32 %0, [%1], %2;"
                 : "=r"(before)
                 : "r"(detail::shared_address(bars_ + Stages + stage)), "r"(unsigned(Releasers - 1))
                 : "memory");
    return before == unsigned(Releasers - 1);
#else
    (void)stage;
    return false;
#endif
  }

  /// Thread Issuer, before refilling `stage` (Releasers > 0): waits until every releasing warp (of
  /// the cluster) has released it since the last acquire. Every release is acquired once, in order,
  /// so the phases stay right when the ring serves another loop.
  __device__ void acquire(int stage) {
    static_assert(Releasers > 0, "ntc::dev::tma_ring::acquire: a ring without releases");
#if defined(NTC_DEV_HAS_TMA)
    detail::wait_parity(detail::shared_address(bars_ + Stages + stage), (released_ >> stage) & 1u);
#endif
    released_ ^= 1u << stage;
    filled_ &= ~(1u << stage);
  }

  /// Every thread of a releasing warp (Releasers > 0): release()s each stage that the warp has
  /// waited for and not released since (a persistent program's last stages, before its next
  /// program waits again).
  __device__ void release_held() {
#pragma unroll
    for (int stage = 0; stage < Stages; ++stage)
      if ((held_ >> stage) & 1u)
        release(stage);
  }

  /// Thread Issuer, before filling `stage` again (Releasers > 0): acquire()s the stage if a fill
  /// of it has not been acquired since (every filled stage is waited for and released once), so
  /// that a persistent producer's first fills of a program wait only for the stages that the
  /// consumers may still read.
  __device__ void acquire_filled(int stage) {
    if ((filled_ >> stage) & 1u)
      acquire(stage);
  }

private:
#if defined(NTC_DEV_HAS_TMA)
  /// Thread Issuer: one arrival on the barrier of `stage` that announces `bytes` to come (the
  /// copies' transactions); returns the barrier's shared address, which the copies complete on.
  __device__ unsigned expect_bytes(int stage, unsigned bytes) {
    const unsigned bar = detail::shared_address(bars_ + stage);
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes)
                 : "memory");
    return bar;
  }
#endif

  unsigned long long *bars_;
  unsigned phases_ = 0;
  unsigned released_ = 0; // the issuer's phase bit of each stage's release barrier
  unsigned filled_ = 0;   // the issuer's stages filled and not acquired since
  unsigned held_ = 0;     // the stages this thread waited for and did not release since
};

/// An operand of dot_loop copied by TMA (the `_tma` programs of use-tensor-maps): the ring its
/// copies complete on (shared by both operands of the loop: two arrivals per stage), its tensor
/// map, and `coords(k, c)`, which fills c with the coordinates (innermost first) of the tile of
/// step k and returns whether the mask terms TMA does not check hold (else the tile lands as
/// zeros). RowDim is the dimension of the tile's rows, counted innermost first. Multicast: the
/// CTAs of the ring's cluster share the tile (tma_ring::copy_multicast).
template <int Rank, int RowDim, class Ring, class Coords, bool Multicast = false>
struct tma_operand {
  Ring *ring;
  const tensor_map *map;
  Coords coords;
};

/// Builds a tma_operand (deducing the ring and the coordinate callable).
template <int Rank, int RowDim, bool Multicast = false, class Ring, class Coords>
__device__ inline tma_operand<Rank, RowDim, Ring, Coords, Multicast>
make_tma_operand(Ring &ring, const tensor_map &map, Coords coords) {
  static_assert(!Multicast || Ring::cluster > 1,
                "ntc::dev::make_tma_operand: a multicast operand on the ring of a cluster");
  return {&ring, &map, coords};
}

/// True for a tma_operand.
template <class X> inline constexpr bool is_tma_operand_v = false;
/// True for a tma_operand.
template <int Rank, int RowDim, class Ring, class Coords, bool Multicast>
inline constexpr bool is_tma_operand_v<tma_operand<Rank, RowDim, Ring, Coords, Multicast>> = true;

} // namespace ntc::dev

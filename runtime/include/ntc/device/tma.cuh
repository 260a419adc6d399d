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
template <int Stages, int Arrivals, int Releasers = 0> class tma_ring {
  static_assert(Stages >= 1 && Stages <= 32 && Arrivals >= 1 && Releasers >= 0,
                "ntc::dev::tma_ring: 1 to 32 stages, one arrival at least");

public:
  /// The warps that release stages (0: none; the program synchronizes before refilling).
  static constexpr int releasers = Releasers;

  /// Initializes the barriers (thread 0) and synchronizes the program.
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
    __syncthreads();
  }

  /// Thread 0: copies the R × C tile (C a whole number of column blocks of BlockBytes bytes)
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
    constexpr int block_cols = BlockBytes / int(sizeof(T));
    static_assert(C % block_cols == 0, "ntc::dev::tma_ring::copy: whole column blocks");
#if defined(NTC_DEV_HAS_TMA)
    if (threadIdx.x != 0)
      return;
    const unsigned bar = detail::shared_address(bars_ + stage);
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar),
                 "r"(unsigned(R * C * sizeof(T)))
                 : "memory");
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
  }

  /// Every thread of a releasing warp (Releasers > 0), once its reads of `stage` are done:
  /// the warp no longer reads the stage; lane 0 arrives on the stage's release barrier.
  __device__ void release(int stage) {
    static_assert(Releasers > 0, "ntc::dev::tma_ring::release: a ring without releases");
#if defined(NTC_DEV_HAS_TMA)
    __syncwarp(); // every lane's reads, before lane 0 speaks for the warp
    if (threadIdx.x % 32 == 0)
      asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(
                       detail::shared_address(bars_ + Stages + stage))
                   : "memory");
#else
    (void)stage;
#endif
  }

  /// Thread 0, before refilling `stage` (Releasers > 0): waits until every releasing warp has
  /// released it since the last acquire. Every release is acquired once, in order, so the
  /// phases stay right when the ring serves another loop.
  __device__ void acquire(int stage) {
    static_assert(Releasers > 0, "ntc::dev::tma_ring::acquire: a ring without releases");
#if defined(NTC_DEV_HAS_TMA)
    detail::wait_parity(detail::shared_address(bars_ + Stages + stage), (released_ >> stage) & 1u);
#endif
    released_ ^= 1u << stage;
  }

private:
  unsigned long long *bars_;
  unsigned phases_ = 0;
  unsigned released_ = 0; // thread 0's phase bit of each stage's release barrier
};

/// An operand of dot_loop copied by TMA (the `_tma` programs of use-tensor-maps): the ring its
/// copies complete on (shared by both operands of the loop: two arrivals per stage), its tensor
/// map, and `coords(k, c)`, which fills c with the coordinates (innermost first) of the tile of
/// step k and returns whether the mask terms TMA does not check hold (else the tile lands as
/// zeros). RowDim is the dimension of the tile's rows, counted innermost first.
template <int Rank, int RowDim, class Ring, class Coords> struct tma_operand {
  Ring *ring;
  const tensor_map *map;
  Coords coords;
};

/// Builds a tma_operand (deducing the ring and the coordinate callable).
template <int Rank, int RowDim, class Ring, class Coords>
__device__ inline tma_operand<Rank, RowDim, Ring, Coords>
make_tma_operand(Ring &ring, const tensor_map &map, Coords coords) {
  return {&ring, &map, coords};
}

/// True for a tma_operand.
template <class X> inline constexpr bool is_tma_operand_v = false;
/// True for a tma_operand.
template <int Rank, int RowDim, class Ring, class Coords>
inline constexpr bool is_tma_operand_v<tma_operand<Rank, RowDim, Ring, Coords>> = true;

} // namespace ntc::dev

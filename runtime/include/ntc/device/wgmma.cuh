// Hopper's warpgroup matrix multiply (wgmma.mma_async, sm_90a) for the device tile library's dot:
// the instruction wrappers, the shared-memory matrix descriptor and the fences around them.
//
// A warpgroup is four consecutive warps starting at a warp index divisible by 4; one
// wgmma.mma_async.m64nNk16 multiplies its 64 × 16 A (here in registers, each warp holding its
// 16 rows exactly as mma.sync m16n8k16's A fragment) by a 16 × N B read from shared memory
// through a 64-bit descriptor, into 64 × N float accumulators (N / 2 per thread, each warp's
// 16 rows in mma.sync's C fragment order, fragment after fragment along N). The accumulators of
// Mma<WM, 1> tiles of 16·WM rows (WM a multiple of 4) are therefore those of WM / 4 warpgroups.
//
// The descriptor describes B in the Swizzled<RowBytes> shared layout of layouts.cuh: start
// address, the byte distance between column blocks (leading dimension, used when B's buffer
// rows are K: the instruction's N spans several blocks) and between groups of eight buffer rows
// (stride dimension), and the swizzle mode of the row width. Everything here compiles only in
// the sm_90a pass (NTC_DEV_HAS_WGMMA).
#pragma once

#include <ntc/device/types.cuh>

#include <cstdint>
#include <type_traits>

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL) && !defined(NTC_DEV_NO_WGMMA)
/// Defined (1) in the device passes that can issue wgmma (sm_90a), unless NTC_DEV_NO_WGMMA is
/// defined (every product then takes mma.sync, as on sm_80).
#define NTC_DEV_HAS_WGMMA 1
#endif

namespace ntc::dev::detail {
/// True for the N (columns of a product) of one wgmma_rs instruction.
template <int N>
inline constexpr bool wgmma_n_v = N == 16 || N == 32 || N == 64 || N == 128 || N == 256;
} // namespace ntc::dev::detail

#if defined(NTC_DEV_HAS_WGMMA)

// The accumulators of one wgmma.m64nNk16, d[0] … d[N/2 − 1] (N / 2 floats per thread): their
// operand numbers in the instruction text and their constraints, N = 16 … 256.
#define NTC_DEV_WGMMA_D_TEXT_16 "%0, %1, %2, %3, %4, %5, %6, %7"
#define NTC_DEV_WGMMA_D_TEXT_32 NTC_DEV_WGMMA_D_TEXT_16 ", %8, %9, %10, %11, %12, %13, %14, %15"
#define NTC_DEV_WGMMA_D_TEXT_64                                                                    \
  NTC_DEV_WGMMA_D_TEXT_32                                                                          \
  ", %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
#define NTC_DEV_WGMMA_D_TEXT_128                                                                   \
  NTC_DEV_WGMMA_D_TEXT_64                                                                          \
  ", %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47"               \
  ", %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
#define NTC_DEV_WGMMA_D_TEXT_256                                                                   \
  NTC_DEV_WGMMA_D_TEXT_128                                                                         \
  ", %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79"               \
  ", %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95"               \
  ", %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, "       \
  "%111"                                                                                           \
  ", %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, "         \
  "%126, %127"
#define NTC_DEV_WGMMA_D8(o)                                                                        \
  "+f"(d[o]), "+f"(d[o + 1]), "+f"(d[o + 2]), "+f"(d[o + 3]), "+f"(d[o + 4]), "+f"(d[o + 5]),      \
      "+f"(d[o + 6]), "+f"(d[o + 7])
#define NTC_DEV_WGMMA_D_16 NTC_DEV_WGMMA_D8(0)
#define NTC_DEV_WGMMA_D_32 NTC_DEV_WGMMA_D_16, NTC_DEV_WGMMA_D8(8)
#define NTC_DEV_WGMMA_D_64 NTC_DEV_WGMMA_D_32, NTC_DEV_WGMMA_D8(16), NTC_DEV_WGMMA_D8(24)
#define NTC_DEV_WGMMA_D_128                                                                        \
  NTC_DEV_WGMMA_D_64, NTC_DEV_WGMMA_D8(32), NTC_DEV_WGMMA_D8(40), NTC_DEV_WGMMA_D8(48),            \
      NTC_DEV_WGMMA_D8(56)
#define NTC_DEV_WGMMA_D_256                                                                        \
  NTC_DEV_WGMMA_D_128, NTC_DEV_WGMMA_D8(64), NTC_DEV_WGMMA_D8(72), NTC_DEV_WGMMA_D8(80),           \
      NTC_DEV_WGMMA_D8(88), NTC_DEV_WGMMA_D8(96), NTC_DEV_WGMMA_D8(104), NTC_DEV_WGMMA_D8(112),    \
      NTC_DEV_WGMMA_D8(120)

// One wgmma.mma_async.m64nNk16 with A in registers: d (+)= a · B(desc); `accumulate` = 0 ignores
// d's old values; TransB = 1 when B's buffer rows are K (B is "MN-major"). The tensor cores read
// the A registers until the wait (see release_operands). ACC, A, DESC, TB: the operand numbers
// of accumulate, a[0..3], desc and TransB, which follow the N / 2 accumulators.
#define NTC_DEV_WGMMA_RS(N, TYPE, ACC, A, DESC, TB)                                                \
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, " ACC ", 0;\n"                                    \
               "wgmma.mma_async.sync.aligned.m64n" #N "k16.f32." TYPE "." TYPE                     \
               " {" NTC_DEV_WGMMA_D_TEXT_##N "}, {" A "}, " DESC ", p, 1, 1, " TB ";\n}\n"         \
               : NTC_DEV_WGMMA_D_##N                                                               \
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc), "r"(accumulate),           \
                 "n"(TransB))
#define NTC_DEV_WGMMA_RS_16(TYPE)                                                                  \
  NTC_DEV_WGMMA_RS(16, TYPE, "%13", "%8, %9, %10, %11", "%12", "%14")
#define NTC_DEV_WGMMA_RS_32(TYPE)                                                                  \
  NTC_DEV_WGMMA_RS(32, TYPE, "%21", "%16, %17, %18, %19", "%20", "%22")
#define NTC_DEV_WGMMA_RS_64(TYPE)                                                                  \
  NTC_DEV_WGMMA_RS(64, TYPE, "%37", "%32, %33, %34, %35", "%36", "%38")
#define NTC_DEV_WGMMA_RS_128(TYPE)                                                                 \
  NTC_DEV_WGMMA_RS(128, TYPE, "%69", "%64, %65, %66, %67", "%68", "%70")
#define NTC_DEV_WGMMA_RS_256(TYPE)                                                                 \
  NTC_DEV_WGMMA_RS(256, TYPE, "%133", "%128, %129, %130, %131", "%132", "%134")

// One wgmma.mma_async.m64nNk16 with both operands in shared memory: d (+)= A(desc_a) ·
// B(desc_b); A is K-major (its buffer rows are M), TransB as for the register form. ACC, DA, DB,
// TB: the operand numbers of accumulate, desc_a, desc_b and TransB.
#define NTC_DEV_WGMMA_SS(N, TYPE, ACC, DA, DB, TB)                                                 \
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, " ACC ", 0;\n"                                    \
               "wgmma.mma_async.sync.aligned.m64n" #N "k16.f32." TYPE "." TYPE                     \
               " {" NTC_DEV_WGMMA_D_TEXT_##N "}, " DA ", " DB ", p, 1, 1, 0, " TB ";\n}\n"         \
               : NTC_DEV_WGMMA_D_##N                                                               \
               : "l"(desc_a), "l"(desc_b), "r"(accumulate), "n"(TransB))
#define NTC_DEV_WGMMA_SS_16(TYPE) NTC_DEV_WGMMA_SS(16, TYPE, "%10", "%8", "%9", "%11")
#define NTC_DEV_WGMMA_SS_32(TYPE) NTC_DEV_WGMMA_SS(32, TYPE, "%18", "%16", "%17", "%19")
#define NTC_DEV_WGMMA_SS_64(TYPE) NTC_DEV_WGMMA_SS(64, TYPE, "%34", "%32", "%33", "%35")
#define NTC_DEV_WGMMA_SS_128(TYPE) NTC_DEV_WGMMA_SS(128, TYPE, "%66", "%64", "%65", "%67")
#define NTC_DEV_WGMMA_SS_256(TYPE) NTC_DEV_WGMMA_SS(256, TYPE, "%130", "%128", "%129", "%131")

// The instruction of FORM (RS or SS) for the function's N and element type T (float16 or
// bfloat16).
#define NTC_DEV_WGMMA_CASE(FORM, n)                                                                \
  if constexpr (N == n) {                                                                          \
    if constexpr (std::is_same_v<T, float16>)                                                      \
      NTC_DEV_WGMMA_##FORM##_##n("f16");                                                           \
    else                                                                                           \
      NTC_DEV_WGMMA_##FORM##_##n("bf16");                                                          \
  }
#define NTC_DEV_WGMMA_DISPATCH(FORM)                                                               \
  NTC_DEV_WGMMA_CASE(FORM, 16)                                                                     \
  NTC_DEV_WGMMA_CASE(FORM, 32)                                                                     \
  NTC_DEV_WGMMA_CASE(FORM, 64)                                                                     \
  NTC_DEV_WGMMA_CASE(FORM, 128)                                                                    \
  NTC_DEV_WGMMA_CASE(FORM, 256)

namespace ntc::dev::detail {

/// Orders this thread's register and shared-memory accesses before the wgmmas that follow.
__device__ inline void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }

/// Closes the group of wgmmas issued since the last commit.
__device__ inline void wgmma_commit() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}

/// Waits until at most N committed groups of wgmmas are pending.
template <int N> __device__ inline void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}

/// Makes this thread's earlier generic-proxy writes of shared memory (cp.async included) visible
/// to the async proxy that wgmma reads through; the writers run it before the barrier.
__device__ inline void fence_proxy_async() {
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

/// Keeps the compiler from moving accesses of these registers across the point of the call:
/// the accumulators and A fragments of pending wgmmas belong to the tensor cores until the wait
/// (writing them earlier, even to reuse a register, is undefined behaviour).
template <int N> __device__ inline void fence_operands(float (&d)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i)
    asm volatile("" : "+f"(d[i])::"memory");
}
/// fence_operands for A fragments.
template <int K> __device__ inline void fence_operands(uint32_t (&a)[K][4]) {
#pragma unroll
  for (int k = 0; k < K; ++k)
#pragma unroll
    for (int q = 0; q < 4; ++q)
      asm volatile("" : "+r"(a[k][q])::"memory");
}

/// A zero that ptxas cannot prove is zero (the dynamic shared-memory size, far below 2^31,
/// shifted right by 31).
__device__ inline uint32_t opaque_zero() {
  uint32_t bytes;
  asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(bytes));
  return bytes >> 31;
}

/// Two 16-bit elements as the .b32 register of a wgmma A fragment, through an operation ptxas
/// cannot see through (x ^ opaque zero): when a fragment was a mere copy of a value that lives
/// on (a loop-invariant A operand, such as attention's queries), ptxas (CUDA 13.0) gave both
/// one register and reused it in the loop body once the wgmma had completed, so that every
/// iteration after the first read garbage.
__device__ inline uint32_t wgmma_fragment(uint32_t packed, uint32_t zero) { return packed ^ zero; }

/// The shared-memory matrix descriptor of a B operand at `address` (1024-byte aligned buffer):
/// leading and stride byte offsets and the swizzle of rows of RowBytes (128, 64 or 32) bytes.
template <int RowBytes>
__device__ inline uint64_t wgmma_descriptor(const void *address, uint32_t leading,
                                            uint32_t stride) {
  static_assert(RowBytes == 128 || RowBytes == 64 || RowBytes == 32,
                "ntc::dev: wgmma swizzles rows of 32, 64 or 128 bytes");
  constexpr uint64_t mode = RowBytes == 128 ? 1 : RowBytes == 64 ? 2 : 3;
  const uint32_t shared = static_cast<uint32_t>(__cvta_generic_to_shared(address));
  return uint64_t((shared & 0x3ffff) >> 4) | (uint64_t((leading >> 4) & 0x3fff) << 16) |
         (uint64_t((stride >> 4) & 0x3fff) << 32) | (mode << 62);
}

/// One wgmma.mma_async.m64nNk16.f32.T.T with A in registers (see the macros above).
template <class T, int N, int TransB>
__device__ inline void wgmma_rs(float (&d)[N / 2], const uint32_t (&a)[4], uint64_t desc,
                                int accumulate) {
  static_assert(wgmma_n_v<N>, "ntc::dev::wgmma_rs: N of 16, 32, 64, 128 or 256");
  NTC_DEV_WGMMA_DISPATCH(RS);
}

/// The descriptor `start` (wgmma_descriptor) moved `bytes` (a multiple of 16) further into the
/// buffer. The start address field holds the shared address / 16 in 14 bits and every shared
/// address of a block lies below 2^18, so the field cannot overflow: the sum is one 32-bit add
/// on the low word, where recomputing the descriptor from the moved address costs a mask, a
/// shift and the fields' merging per slice (and ptxas kept those per wgmma of a loop).
__device__ inline uint64_t wgmma_descriptor_plus(uint64_t start, uint32_t bytes) {
  const uint32_t low = static_cast<uint32_t>(start) + (bytes >> 4);
  return (start & 0xffffffff00000000ull) | low;
}

/// The shared-memory matrix descriptor of an operand tile in the Swizzled<RowBytes> layout
/// (layouts.cuh) for the k16 slice `kk`: K-major (buffer rows are M or N, the slice starts 32·kk
/// bytes into the rows, in column block 32·kk / RowBytes of a buffer of `rows` rows) or
/// MN-major (buffer rows are K: the slice starts 16 rows down and the instruction's M or N spans
/// the column blocks, `rows` rows apart). The buffer's descriptor is the same for every slice
/// (one per buffer once ptxas has merged them); each slice adds its offset.
template <int RowBytes, bool KMajor>
__device__ inline uint64_t wgmma_operand_descriptor(const void *buffer, int rows, int kk) {
  const uint64_t start = KMajor ? wgmma_descriptor<RowBytes>(buffer, 16, 8 * RowBytes)
                                : wgmma_descriptor<RowBytes>(buffer, rows * RowBytes, 8 * RowBytes);
  const int offset =
      KMajor ? (32 * kk / RowBytes) * rows * RowBytes + (32 * kk) % RowBytes : 16 * kk * RowBytes;
  return wgmma_descriptor_plus(start, static_cast<uint32_t>(offset));
}

/// One wgmma.mma_async.m64nNk16.f32.T.T with both operands in shared memory (see the SS macros
/// above): A K-major through desc_a, B through desc_b.
template <class T, int N, int TransB>
__device__ inline void wgmma_ss(float (&d)[N / 2], uint64_t desc_a, uint64_t desc_b,
                                int accumulate) {
  static_assert(wgmma_n_v<N>, "ntc::dev::wgmma_ss: N of 16, 32, 64, 128 or 256");
  NTC_DEV_WGMMA_DISPATCH(SS);
}

} // namespace ntc::dev::detail

#endif // NTC_DEV_HAS_WGMMA

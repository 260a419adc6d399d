// The GEMM main loop on the GPU: `for k: acc += dot(load a[k], load b[k])` becomes one
// ntc::dev::dot_loop call, the GPU meta default picks the loop with the most arithmetic per byte
// (128×256 blocks, k step 32) over 8 warps (128 accumulators per thread); such a block is alone
// on its SM, so its ring takes 6 stages of 128×32 + 32×256 float16 tiles (6·24 KiB + 64 bytes of
// shared memory, the most sm_80 allows a block), the loop bound check of the operands' k level is
// dropped (the loop guarantees it), the vector twin passes chunk callables and the affine forms of
// both operands (the whole tile in bounds when its last row and column are; the origin at lane
// (0, 0); the lane strides), the element-by-element twin none, and an accumulator set to zeros
// right before the loop is not read (AccZero). The accumulator is an LTile in the Mma layout of
// the loop's fragments on sm_90a's wgmma (one 16-row slab per warp), so the epilogue casts and
// stores those registers, a fragment row of eight float16 at once (the four threads of a quad
// exchange their column pairs). A loop that does more than accumulate a dot stays a loop.

#include "../../kernels/matmul.hpp"

NT_APPLICATION void scaled_application(nt::Tile lhs, nt::Tile rhs, nt::Tile output) {
  auto accumulator = ntl::zeros(output.shape(), ntl::float32);
  for (int k = 0; k < lhs.shape(0); ++k)
    accumulator = accumulator * 0.5f + ntl::dot(lhs[k], rhs[k]);
  output = accumulator.to(ntl::float16);
}

NT_APPLICATION void ones_application(nt::Tile lhs, nt::Tile rhs, nt::Tile output) {
  auto accumulator = ntl::full(output.shape(), 1.0, ntl::float32);
  for (int k = 0; k < lhs.shape(0); ++k)
    accumulator += ntl::dot(lhs[k], rhs[k]);
  output = accumulator.to(ntl::float16);
}

NT_KERNEL(mm, mm_arrangement, mm_application, nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16));
NT_KERNEL(scaled_mm, mm_arrangement, scaled_application, nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16));
NT_KERNEL(ones_mm, mm_arrangement, ones_application, nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16));

// CU: // mm with BLOCK_SIZE_K=32 BLOCK_SIZE_M=128 BLOCK_SIZE_N=256; 256 threads, 147520 bytes of shared memory.
// CU: auto t_accumulator = ntc::dev::full<float, ntc::dev::Shape<128, 256>, ntc::dev::Mma<8, 1>>(ntc::dev::convert<float>(0.0));
// CU: // for l_k: t_accumulator += dot(a, b), pipelined over 6 shared stages.
// CU-NEXT: ntc::dev::dot_loop<6, false, false, true, ntc::dev::float16, 128, 32, 256, 256>(t_accumulator, static_cast<Index>(0), static_cast<Index>(ntc::rt::ceil_div<Index>(ntc_lhs_size_1, 32)), ntc_args.lhs
// CU-NOT: l_k <
// CU: ntc::dev::no_chunk{}, ntc::dev::no_affine{}, ntc_args.rhs
// CU: ntc::dev::no_chunk{}, ntc::dev::no_affine{}, ntc_smem);
// CU: ntc_mm_program0_vec(
// CU: ntc::dev::dot_loop<6, true, true, true, ntc::dev::float16, 128, 32, 256, 256>(
// CU: ((32 * l_k) + lane1 + 7) < ntc_lhs_size_1
// CU: }, ntc::dev::affine_tile{[&](const Index l_k) -> bool { return ((128 * pid0) + 127) < ntc_lhs_size_0 && ((32 * l_k) + 31) < ntc_lhs_size_1; }, [&](const Index l_k) -> long long { return static_cast<long long>((128 * pid0) * ntc_lhs_stride_0 + (32 * l_k) * ntc_lhs_stride_1); }, static_cast<long long>(ntc_lhs_stride_0), static_cast<long long>(ntc_lhs_stride_1)}, ntc_args.rhs,
// CU: (lane1 + (256 * pid1) + 7) < ntc_rhs_size_1
// CU: }, ntc::dev::affine_tile{[&](const Index l_k) -> bool { return ((32 * l_k) + 31) < ntc_rhs_size_0 && ((256 * pid1) + 255) < ntc_rhs_size_1; }, [&](const Index l_k) -> long long { return static_cast<long long>((32 * l_k) * ntc_rhs_stride_0 + (256 * pid1) * ntc_rhs_stride_1); }, static_cast<long long>(ntc_rhs_stride_0), static_cast<long long>(ntc_rhs_stride_1)}, ntc_smem);
// CU: ntc::dev::store_vec(ntc_args.output, ntc::dev::cast<ntc::dev::float16>(t_accumulator)
// CU: (lane1 + (256 * pid1) + 7) < ntc_output_size_1
// CU: if (ntc::rt::vector_ready(lhs, 1, 8) && ntc::rt::vector_ready(rhs, 1, 8) && ntc::rt::vector_ready(output, 1, 8)) {
// CU-NEXT: cudaFuncSetAttribute(ntc_mm_program0_vec<int32_t>
// CU: ntc_mm_program0_vec<int32_t><<<dim3(static_cast<unsigned>(ntc_grid)), dim3(256), 147520,
// CU-LABEL: ntc_scaled_mm_program0(
// CU-NOT: dot_loop
// CU: for (Index l_k = 0;
// CU: ntc::dev::dot<float>(
// An accumulator that does not start at zero is read by dot_loop (AccZero = false).
// CU-LABEL: ntc_ones_mm_program0(
// CU: ntc::dev::dot_loop<6, false, false, false, ntc::dev::float16, 128, 32, 256, 256>(t_accumulator,

// The layout-typed IR: the loop's accumulator is anchored on the loop's fragments, and the
// epilogue (the cast, the store) stays in that layout.
// GIR-LABEL: IR after assign-layouts{{.*}}(ntc_mm_program0,
// GIR: %accumulator = full(0) : float32[128, 256] #mma<8x1>
// GIR-NEXT: for k in range(0,
// GIR: store output[] <- cast(%accumulator : float32[128, 256] #mma<8x1>) : float16[128, 256] #mma<8x1>
// GIR-LABEL: IR after assign-layouts{{.*}}(ntc_ones_mm_program0,
// GIR: %accumulator = full(1) : float32[128, 256] #mma<8x1>

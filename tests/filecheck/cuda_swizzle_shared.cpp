// swizzle-shared (passes/SwizzleShared.cpp): the stage buffers of pipelined copies of 16-bit
// tiles take the swizzled layout that wgmma reads, with the widest 32/64/128-byte block that
// divides a buffer row, in whole kilobytes per stage placed 1024-byte aligned: rows of 64
// float16 (128 bytes), of 48 (96 bytes: three 32-byte blocks) and of 128 (two 128-byte
// blocks); rows of 24 float16 (48 bytes) stay padded. The generated code names the layout in
// async_copy and stage_view, and the shared buffer is 1024-byte aligned.

#include <ntc/dsl.hpp>

// Each program owns a row of blocks of x, w and y and walks it block by block: y[i] is the
// product of w[i] with x[i] (transposed, so x's buffer rows are x's rows) or with x[i] itself.
NT_ARRANGEMENT auto rows64(nt::Tensor x, nt::Tensor w, nt::Tensor y) {
  auto xa = x.tile({64, 64}).tile({1, -1});
  xa.dtype() = xa.dtype().squeeze(0);
  auto wa = w.tile({64, 64}).tile({1, -1});
  wa.dtype() = wa.dtype().squeeze(0);
  auto ya = y.tile({64, 64}).tile({1, -1});
  ya.dtype() = ya.dtype().squeeze(0);
  return nt::arrange(xa, wa, ya);
}

NT_ARRANGEMENT auto rows48(nt::Tensor x, nt::Tensor w, nt::Tensor y) {
  auto xa = x.tile({64, 48}).tile({1, -1});
  xa.dtype() = xa.dtype().squeeze(0);
  auto wa = w.tile({64, 48}).tile({1, -1});
  wa.dtype() = wa.dtype().squeeze(0);
  auto ya = y.tile({64, 64}).tile({1, -1});
  ya.dtype() = ya.dtype().squeeze(0);
  return nt::arrange(xa, wa, ya);
}

NT_ARRANGEMENT auto cols128(nt::Tensor x, nt::Tensor w, nt::Tensor y) {
  auto xa = x.tile({64, 128}).tile({1, -1});
  xa.dtype() = xa.dtype().squeeze(0);
  auto wa = w.tile({64, 64}).tile({1, -1});
  wa.dtype() = wa.dtype().squeeze(0);
  auto ya = y.tile({64, 128}).tile({1, -1});
  ya.dtype() = ya.dtype().squeeze(0);
  return nt::arrange(xa, wa, ya);
}

NT_ARRANGEMENT auto cols24(nt::Tensor x, nt::Tensor w, nt::Tensor y) {
  auto xa = x.tile({64, 24}).tile({1, -1});
  xa.dtype() = xa.dtype().squeeze(0);
  auto wa = w.tile({128, 64}).tile({1, -1});
  wa.dtype() = wa.dtype().squeeze(0);
  auto ya = y.tile({128, 24}).tile({1, -1});
  ya.dtype() = ya.dtype().squeeze(0);
  return nt::arrange(xa, wa, ya);
}

NT_APPLICATION void by_transpose(nt::Tile x, nt::Tile w, nt::Tile y) {
  for (int i = 0; i < x.shape(0); ++i)
    y[i] = ntl::dot(w[i], ntl::trans(x[i]));
}

NT_APPLICATION void by_rows(nt::Tile x, nt::Tile w, nt::Tile y) {
  for (int i = 0; i < x.shape(0); ++i)
    y[i] = ntl::dot(w[i], x[i]);
}

NT_KERNEL(t64, rows64, by_transpose, nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16));
NT_KERNEL(t48, rows48, by_transpose, nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16));
NT_KERNEL(n128, cols128, by_rows, nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16));
NT_KERNEL(n24, cols24, by_rows, nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16));

// GIR-LABEL: swizzle-shared, keep-operands-resident, overlap-products and allocate-shared (ntc_t64_program0,
// GIR: async_copy if 0 < ⌈x_size_1/64⌉: convert_layout(load x[0] : float16[64, 64], transpose, iteration 0 from 0) : float16[64, 64] #shared<offset=9216, swizzle=128B, transposed, buffer=0, stages=4x8192B>
// GIR: shared_stage(iteration i from 0) : float16[64, 64] #shared<offset=9216, swizzle=128B, transposed, buffer=0, stages=4x8192B>
// GIR-LABEL: swizzle-shared, keep-operands-resident, overlap-products and allocate-shared (ntc_t48_program0,
// GIR: shared_stage(iteration i from 0) : float16[48, 64] #shared<offset={{[0-9]*}}, swizzle=32B, transposed, buffer=0, stages=4x6144B>
// GIR-LABEL: swizzle-shared, keep-operands-resident, overlap-products and allocate-shared (ntc_n128_program0,
// GIR: shared_stage(iteration i from 0) : float16[64, 128] #shared<offset={{[0-9]*}}, swizzle=128B, buffer=0, stages=2x16384B>
// GIR-LABEL: swizzle-shared, keep-operands-resident, overlap-products and allocate-shared (ntc_n24_program0,
// GIR: shared_stage(iteration i from 0) : float16[64, 24] #shared<offset={{[0-9]*}}, pad=16B, buffer=0, stages=4x4096B>

// CU-LABEL: ntc_t64_program0(
// CU-NEXT: extern __shared__ __align__(1024) unsigned char ntc_smem_buffer[];
// CU: ntc::dev::async_copy<ntc::dev::float16, ntc::dev::Shape<64, 64>, 128, ntc::dev::Swizzled<128>>(ntc_smem, static_cast<std::size_t>(9216 + (0) % 4 * 8192)
// CU: ntc::dev::stage_view<ntc::dev::float16, ntc::dev::Shape<64, 64>, true, ntc::dev::Swizzled<128>>(ntc_smem, static_cast<std::size_t>(9216 + (l_i) % 4 * 8192))
// CU-LABEL: ntc_t48_program0(
// CU: ntc::dev::stage_view<ntc::dev::float16, ntc::dev::Shape<48, 64>, true, ntc::dev::Swizzled<32>>(
// CU-LABEL: ntc_n128_program0(
// CU: ntc::dev::stage_view<ntc::dev::float16, ntc::dev::Shape<64, 128>, false, ntc::dev::Swizzled<128>>(
// CU-LABEL: ntc_n24_program0(
// CU: ntc::dev::async_copy<ntc::dev::float16, ntc::dev::Shape<64, 24>, 256>(
// CU: ntc::dev::stage_view<ntc::dev::float16, ntc::dev::Shape<64, 24>, false>(

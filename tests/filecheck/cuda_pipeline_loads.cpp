// pipeline-loads (passes/PipelineLoads.cpp) starts a loop's copies into shared memory
// iterations ahead — but never the copy of a parameter that the loop also stores to: `inplace`
// writes x[i] in the loop, so reading x[i + 3] early could see the value before that store
// (x's blocks may overlap through strides); `readonly`'s loop only reads x and is pipelined.

#include <ntc/dsl.hpp>

constexpr nt::Symbol B = nt::block_size("B", 64, 64);

// Each program owns a row of 64×64 blocks of x, w and y and walks it block by block.
NT_ARRANGEMENT auto rows(nt::Tensor x, nt::Tensor w, nt::Tensor y) {
  auto xa = x.tile({B, B}).tile({1, -1});
  xa.dtype() = xa.dtype().squeeze(0);
  auto wa = w.tile({B, B}).tile({1, -1});
  wa.dtype() = wa.dtype().squeeze(0);
  auto ya = y.tile({B, B}).tile({1, -1});
  ya.dtype() = ya.dtype().squeeze(0);
  return nt::arrange(xa, wa, ya);
}

NT_APPLICATION void inplace_application(nt::Tile x, nt::Tile w, nt::Tile y) {
  for (int i = 0; i < x.shape(0); ++i) {
    y[i] = ntl::dot(w[i], ntl::trans(x[i]));
    x[i] = w[i];
  }
}

NT_APPLICATION void readonly_application(nt::Tile x, nt::Tile w, nt::Tile y) {
  for (int i = 0; i < x.shape(0); ++i)
    y[i] = ntl::dot(w[i], ntl::trans(x[i]));
}

NT_KERNEL(inplace, rows, inplace_application, nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16));
NT_KERNEL(readonly, rows, readonly_application, nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16));

// GIR-LABEL: (ntc_inplace_program0,
// GIR-NOT: async_copy
// GIR: for i in range(0, ⌈x_size_1/64⌉, 1):
// GIR-NEXT: store y[i] <- dot(convert_layout(load w[i] : float16[64, 64]) : float16[64, 64] #dot_a<#mma<4x1>, k=2>, convert_layout(load x[i] : float16[64, 64], transpose) : float16[64, 64] #shared<offset=8256, pad=16B, transposed>)
// GIR-NEXT: store x[i] <- load w[i]
// GIR-LABEL: (ntc_readonly_program0,
// The ring has four stages of 8 KiB (the deepest whose buffers fit twice in an H100's shared
// memory): three copies start before the loop, each iteration waits for its own (two newer
// groups may stay in flight; the wait is the iteration's barrier) and starts the copy three
// iterations ahead into the stage the previous iteration used.
// GIR: async_copy if 0 < ⌈x_size_1/64⌉: convert_layout(load x[0] : float16[64, 64], transpose, iteration 0 from 0) : float16[64, 64] #shared<{{.*}}stages=4x8192B>
// GIR-NEXT: async_commit
// GIR-NEXT: async_copy if 1 < ⌈x_size_1/64⌉: convert_layout(load x[1] : float16[64, 64], transpose, iteration 1 from 0)
// GIR-NEXT: async_commit
// GIR-NEXT: async_copy if 2 < ⌈x_size_1/64⌉: convert_layout(load x[2] : float16[64, 64], transpose, iteration 2 from 0)
// GIR-NEXT: async_commit
// GIR-NEXT: for i in range(0, ⌈x_size_1/64⌉, 1):
// GIR-NEXT: async_wait pending=2
// GIR-NEXT: async_copy if i + 3 < ⌈x_size_1/64⌉: convert_layout(load x[i + 3] : float16[64, 64], transpose, iteration i + 3 from 0)
// GIR-NEXT: async_commit
// GIR-NEXT: store y[i] <- dot(convert_layout(load w[i] : float16[64, 64]) : float16[64, 64] #dot_a<#mma<4x1>, k=2>, shared_stage(iteration i from 0)

// The vector twin's copies pass their affine forms (the whole 64×64 block in bounds; its origin;
// the lane strides), so that a full block goes by 16-byte copies without a mask per chunk; the
// element-by-element twin's copies have none.
// CU-LABEL: ntc_readonly_program0(
// CU: ntc::dev::async_wait<2>();
// CU: ntc::dev::async_copy<ntc::dev::float16, ntc::dev::Shape<64, 64>, 128, ntc::dev::Swizzled<128>>(ntc_smem, static_cast<std::size_t>(9216 + ((l_i + 3)) % 4 * 8192), ntc_args.x, ntc::dev::convert<ntc::dev::float16>(0.0), ntc::dev::chunk_width<0>{}
// CU: }, ntc::dev::no_chunk{});
// CU-LABEL: ntc_readonly_program0_vec(
// CU: ntc::dev::async_copy<ntc::dev::float16, ntc::dev::Shape<64, 64>, 128, ntc::dev::Swizzled<128>>(ntc_smem, static_cast<std::size_t>(9216 + ((l_i + 3)) % 4 * 8192), ntc_args.x, ntc::dev::convert<ntc::dev::float16>(0.0), ntc::dev::chunk_width<8>{}
// CU: }, ntc::dev::affine_tile{[&]() -> bool { return ((64 * pid0) + 63) < ntc_x_size_0 && ((64 * l_i) + 192) >= 0 && ((64 * l_i) + 255) < ntc_x_size_1 && {{.*}}; }, [&]() -> long long { return static_cast<long long>((64 * pid0) * ntc_x_stride_0 + ((64 * l_i) + 192) * ntc_x_stride_1); }, static_cast<long long>(ntc_x_stride_0), static_cast<long long>(ntc_x_stride_1)});

// order-programs (passes/OrderPrograms.cpp): a GPU program with a GEMM main loop numbers the
// programs of the last two grid dimensions in bands (grouped order) whose height balances the
// bytes of both operands that one wave of programs reads: the power of two nearest to
// sqrt(SMs · bn / bm), 16 for 128×256 blocks on 132 SMs; a batch dimension in front is
// unravelled after the plane (a plane that is the whole grid takes the program id as it is); a
// program without such a loop stays in row-major order, and so does every CPU program.
// NTC-ARGS: --print-ir-after-all

#include "../../kernels/matmul.hpp"

#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto rows_arrangement(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.tile({16, 64}), y.tile({16, 64}));
}

NT_APPLICATION void copy_application(nt::Tile x, nt::Tile y) { y = x; }

constexpr nt::Symbol BB = nt::block_size("BATCH_BLOCK", 1, 1);

NT_ARRANGEMENT auto batched(nt::Tensor a, nt::Tensor b, nt::Tensor c) {
  auto c_arranged = c.tile({1, 128, 256});
  auto a_arranged = a.tile({1, 128, 32}).tile({1, 1, -1}).expand({-1, -1, c_arranged.shape(2)});
  auto b_arranged = b.tile({1, 32, 256}).tile({1, -1, 1}).expand({-1, c_arranged.shape(1), -1});
  a_arranged.dtype() = a_arranged.dtype().squeeze({0, 1});
  a_arranged.dtype().dtype() = a_arranged.dtype().dtype().squeeze(0);
  b_arranged.dtype() = b_arranged.dtype().squeeze({0, 2});
  b_arranged.dtype().dtype() = b_arranged.dtype().dtype().squeeze(0);
  c_arranged.dtype() = c_arranged.dtype().squeeze(0);
  return nt::arrange(a_arranged, b_arranged, c_arranged);
}

NT_APPLICATION void batched_application(nt::Tile a, nt::Tile b, nt::Tile c) {
  auto acc = ntl::zeros(c.shape(), ntl::float32);
  for (int k = 0; k < a.shape(0); ++k)
    acc = acc + ntl::dot(a[k], b[k]);
  c = acc;
}

NT_KERNEL(mm, mm_arrangement, mm_application, nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16));
NT_KERNEL(copy2d, rows_arrangement, copy_application, nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::float32));
NT_KERNEL(batched_mm, batched, batched_application, nt::Tensor(3, nt::float16),
          nt::Tensor(3, nt::float16), nt::Tensor(3, nt::float16));

// GIR: // order-programs: bands of 16 rows

// CU-LABEL: ntc_mm_program0(
// CU: // ... the last two in bands of 16 rows, column after column inside a band
// CU-NEXT: const Index ntc_in_plane = ntc_rest;
// CU-NEXT: const Index ntc_band_first = ntc_in_plane / (16 * ntc::rt::ceil_div<Index>(ntc_output_size_1, 256)) * 16;
// CU-NEXT: const Index ntc_band_rows = ntc::rt::ceil_div<Index>(ntc_lhs_size_0, 128) - ntc_band_first < 16 ? ntc::rt::ceil_div<Index>(ntc_lhs_size_0, 128) - ntc_band_first : 16;
// CU-NEXT: const Index ntc_in_band = ntc_in_plane % (16 * ntc::rt::ceil_div<Index>(ntc_output_size_1, 256));
// CU-NEXT: const Index pid0 = ntc_band_first + ntc_in_band % ntc_band_rows;
// CU-NEXT: const Index pid1 = ntc_in_band / ntc_band_rows;
// CU-NEXT: auto t_accumulator

// CU-LABEL: ntc_copy2d_program0(
// CU-NOT: bands of
// CU: const Index pid1 = ntc_rest %
// CU-NEXT: ntc_rest /=
// CU-NEXT: const Index pid0 = ntc_rest;

// CU-LABEL: ntc_batched_mm_program0(
// CU: // ... the last two in bands of 16 rows
// CU-NEXT: const Index ntc_in_plane = ntc_rest % (ntc::rt::ceil_div<Index>(ntc_a_size_1, 128) * ntc::rt::ceil_div<Index>(ntc_c_size_2, 256));
// CU-NEXT: ntc_rest /= ntc::rt::ceil_div<Index>(ntc_a_size_1, 128) * ntc::rt::ceil_div<Index>(ntc_c_size_2, 256);
// CU: const Index pid1 = ntc_band_first + ntc_in_band % ntc_band_rows;
// CU-NEXT: const Index pid2 = ntc_in_band / ntc_band_rows;
// CU-NEXT: const Index pid0 = ntc_rest;

// CPP-NOT: bands of
// CPP: const Index pid1 = ntc_rest %

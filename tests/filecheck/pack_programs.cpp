// pack-programs: a one-warp program whose operations stay inside the warp (loads, elementwise
// work, full reductions) runs four to a block, warp w taking program blockIdx.x * 4 + w, with
// its own slice of the shared memory; a warp past the last program returns at once, and the
// launch divides the grid by four. A program with an axis reduction (through shared memory and
// block barriers) keeps one program per block.
#include <ntc/dsl.hpp>

#include <limits>

NT_ARRANGEMENT auto rows(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.tile({1, 64}), y.tile({1, 64}));
}

NT_APPLICATION void short_softmax(nt::Tile x, nt::Tile y) {
  auto e = ntl::exp(x - ntl::max(x));
  y = e / ntl::sum(e);
}

NT_KERNEL(short_softmax, rows, short_softmax,
          nt::Tensor(2, nt::float32).other(-std::numeric_limits<double>::infinity()),
          nt::Tensor(2, nt::float32));

NT_ARRANGEMENT auto blocks(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.tile({4, 16}), y.tile({1, 16}));
}

NT_APPLICATION void column_sums(nt::Tile x, nt::Tile y) { y = ntl::expand_dims(ntl::sum(x, 0), 0); }

NT_KERNEL(column_sums, blocks, column_sums, nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::float32));

// CU-LABEL: // short_softmax with no compile-time parameters; 32 threads, {{[0-9]+}} bytes of shared memory; 4 programs per block.
// CU-NEXT:  template <class Index>
// CU-NEXT:  __global__ void __launch_bounds__(128) ntc_short_softmax_program0(
// CU:       // 4 one-warp programs per block: warp w runs program blockIdx.x * 4 + w.
// CU-NEXT:  const ntc::dev::Smem ntc_smem{ntc_smem_buffer + threadIdx.x / 32 * [[SLICE:[0-9]+]]};
// CU-NEXT:  const int64_t ntc_program = static_cast<int64_t>(blockIdx.x) * 4 + threadIdx.x / 32;
// CU:       if (ntc_program >= ntc_x_size_0 * ntc::rt::ceil_div<Index>(ntc_x_size_1, 64))
// CU-NEXT:    return; // past the last program
// CU:       ntc_short_softmax_program0<int32_t><<<dim3(static_cast<unsigned>((ntc_grid + 3) / 4)), dim3(128), {{[0-9]+}},
// CU:       // column_sums with no compile-time parameters; 32 threads, {{[0-9]+}} bytes of shared memory.
// CU-NEXT:  template <class Index>
// CU-NEXT:  __global__ void __launch_bounds__(32) ntc_column_sums_program0(
// CU-NOT:   past the last program
// CU:       ntc_column_sums_program0<int32_t><<<dim3(static_cast<unsigned>(ntc_grid)), dim3(32),

// The block of a program that reduces tiles and multiplies none (a row softmax over rows of
// 1024): 8 elements per thread (128 threads, the reduction's shared memory sized for 4 warps)
// in both the element-by-element program (cyclic layout) and its twin with 16-byte accesses,
// each launched with its block and shared memory. A program that reduces nothing keeps 4
// elements per thread (256 threads) in both twins.

#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto row_arrangement(nt::Tensor input, nt::Tensor output) {
  return nt::arrange(input.tile({1, 1024}), output.tile({1, 1024}));
}

NT_APPLICATION void softmax_application(nt::Tile input, nt::Tile output) {
  auto numerator = ntl::exp(input - ntl::max(input));
  output = numerator / ntl::sum(numerator);
}

NT_APPLICATION void scale_application(nt::Tile input, nt::Tile output) { output = input * 2; }

NT_KERNEL(row_softmax, row_arrangement, softmax_application, nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::float32));
NT_KERNEL(row_scale, row_arrangement, scale_application, nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::float32));

// CU: // row_softmax with no compile-time parameters; 128 threads, 1600 bytes of shared memory.
// CU-NEXT: template <class Index>
// CU-NEXT: __launch_bounds__(128) ntc_row_softmax_program0(
// CU: ntc::dev::load<float, ntc::dev::Shape<1, 1024>, ntc::dev::Chunked<128, 1>>(
// CU: // row_softmax with no compile-time parameters; 128 threads, 1600 bytes of shared memory; vector accesses
// CU-NEXT: template <class Index>
// CU-NEXT: __launch_bounds__(128) ntc_row_softmax_program0_vec(
// CU: ntc::dev::load_vec<float, ntc::dev::Shape<1, 1024>, 128>(
// CU-LABEL: static ntc_status_t ntc_row_softmax_run(
// CU: ntc_row_softmax_program0_vec<int32_t><<<dim3(static_cast<unsigned>(ntc_grid)), dim3(128), 1600,
// CU: ntc_row_softmax_program0<int32_t><<<dim3(static_cast<unsigned>(ntc_grid)), dim3(128), 1600,
// CU-LABEL: // row_scale with no compile-time parameters; 256 threads, {{[0-9]+}} bytes of shared memory.
// CU-NEXT: template <class Index>
// CU-NEXT: __launch_bounds__(256) ntc_row_scale_program0(
// CU: // row_scale with no compile-time parameters; 256 threads, {{[0-9]+}} bytes of shared memory; vector accesses
// CU-NEXT: template <class Index>
// CU-NEXT: __launch_bounds__(256) ntc_row_scale_program0_vec(

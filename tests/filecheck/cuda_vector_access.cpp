// Vector accesses on the GPU: a contiguous 1-D tile gets a vector twin of its program, picked
// by the dispatcher only after ntc::rt::vector_ready has checked stride, other strides and the
// pointer; a tile whose lanes walk memory with a stride (tile(..., strides)) stays element by
// element; loads and stores in the twin pass an offset and a chunk-offset callable whose upper
// bound check covers the whole chunk (lane0 + 3 for chunks of 4 floats over 256 threads). In
// the twin the strides that ntc::rt::vector_ready checked are the constant 1. The
// element-by-element program holds its tiles in the cyclic layout (assign-cyclic-layouts).

#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto copy_arrangement(nt::Tensor input, nt::Tensor output) {
  return nt::arrange(input.tile({1024}), output.tile({1024}));
}

NT_APPLICATION void copy_application(nt::Tile input, nt::Tile output) { output = input * 2; }

NT_KERNEL(scale, copy_arrangement, copy_application, nt::Tensor(1, nt::float32),
          nt::Tensor(1, nt::float32));

// CU-LABEL: __global__ void __launch_bounds__(256) ntc_scale_program0(
// CU: const Index ntc_input_stride_0 = static_cast<Index>(ntc_args.ntc_input_stride_0);
// CU: ntc::dev::store(ntc_args.output
// CU: ntc::dev::load<float, ntc::dev::Shape<1024>, ntc::dev::Chunked<256, 1>>(ntc_args.input
// CU: vector accesses (the dispatcher checked strides and alignment)
// CU-NEXT: template <class Index>
// CU-NEXT: __global__ void __launch_bounds__(256) ntc_scale_program0_vec(
// CU: const Index ntc_input_stride_0 = 1; // the dispatcher checked it
// CU: const Index ntc_output_stride_0 = 1; // the dispatcher checked it
// CU: ntc::dev::store_vec(ntc_args.output
// CU: ntc::dev::load_vec<float, ntc::dev::Shape<1024>, 256>(ntc_args.input
// CU: if (!((lane0 + (1024 * pid0)) < ntc_input_size_0))
// CU: return static_cast<long long>((lane0 + (1024 * pid0)) * ntc_input_stride_0);
// CU: if (!((lane0 + (1024 * pid0) + 3) < ntc_input_size_0))
// CU: return static_cast<long long>((lane0 + (1024 * pid0)) * ntc_input_stride_0);
// CU-LABEL: static ntc_status_t ntc_scale_run(
// CU: if (ntc::rt::vector_ready(input, 0, 4) && ntc::rt::vector_ready(output, 0, 4)) {
// CU-NEXT: ntc_scale_program0_vec<int32_t><<<
// CU: ntc_scale_program0<int32_t><<<

// assign-cyclic-layouts (passes/AssignCyclicLayouts.cpp): the element-by-element program of a
// row softmax (launched when rows are not 16-byte aligned) holds its tiles in the cyclic
// layout, so that a warp's 32 scalar loads and stores fall on 32 consecutive elements; its
// 16-byte-access twin keeps the blocked layout (chunks of 4 floats) that load_vec needs. A
// program with an axis reduction and a broadcast is not a candidate and stays blocked in both,
// and so do a tile smaller than the block (16 elements over 32 threads) and a program with a
// loop.
// Both twins of a reduction program get 8 elements per thread (128 threads for rows of 1024).

#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto row_arrangement(nt::Tensor input, nt::Tensor output) {
  return nt::arrange(input.tile({1, 1024}), output.tile({1, 1024}));
}

NT_APPLICATION void softmax_application(nt::Tile input, nt::Tile output) {
  auto numerator = ntl::exp(input - ntl::max(input));
  output = numerator / ntl::sum(numerator);
}

NT_APPLICATION void center_application(nt::Tile input, nt::Tile output) {
  output = input - ntl::sum(input, 1);
}

NT_ARRANGEMENT auto short_rows(nt::Tensor input, nt::Tensor output) {
  return nt::arrange(input.tile({1, 16}), output.tile({1, 16}));
}

NT_APPLICATION void twice_application(nt::Tile input, nt::Tile output) {
  auto x = input * 1;
  for (int i = 0; i < 2; ++i)
    x = x * 2;
  output = x;
}

NT_KERNEL(row_softmax, row_arrangement, softmax_application, nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::float32));
NT_KERNEL(short_softmax, short_rows, softmax_application, nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::float32));
NT_KERNEL(row_twice, row_arrangement, twice_application, nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::float32));
NT_KERNEL(row_center, row_arrangement, center_application, nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::float32));

// GIR-LABEL: IR after assign-layouts, fuse-dot-accumulate, defer-lane-sums, skip-unit-factors, mark-dying-operands, mark-canonical-nans, select-min-max, assign-cyclic-layouts, pipeline-loads, swizzle-shared, keep-operands-resident, overlap-products and allocate-shared (ntc_row_softmax_program0, 128 threads,
// GIR-NEXT: kernel row_softmax(
// GIR-NEXT: %numerator = exp(sub(load input[] : float32[1, 1024] #blocked<128, chunk=1>, max(load input[] : float32[1, 1024] #blocked<128, chunk=1>) : float32[]) : float32[1, 1024] #blocked<128, chunk=1>) : float32[1, 1024] #blocked<128, chunk=1>
// GIR-NEXT: store output[] <- div(%numerator : float32[1, 1024] #blocked<128, chunk=1>, sum(%numerator : float32[1, 1024] #blocked<128, chunk=1>) : float32[]) : float32[1, 1024] #blocked<128, chunk=1>
// GIR-LABEL: IR after assign-layouts, fuse-dot-accumulate, defer-lane-sums, skip-unit-factors, mark-dying-operands, mark-canonical-nans, select-min-max, pipeline-loads, swizzle-shared, keep-operands-resident, overlap-products and allocate-shared (ntc_row_softmax_program0_vec, 128 threads,
// GIR-NOT: #blocked
// GIR-LABEL: IR after assign-layouts, fuse-dot-accumulate, defer-lane-sums, skip-unit-factors, mark-dying-operands, mark-canonical-nans, select-min-max, assign-cyclic-layouts, pipeline-loads, swizzle-shared, keep-operands-resident, overlap-products and allocate-shared (ntc_row_center_program0, 128 threads,
// GIR-NOT: #blocked
// GIR: store output[] <- sub(load input[] : float32[1, 1024], sum(load input[] : float32[1, 1024], axis=1) : float32[1]) : float32[1, 1024]

// CU: __launch_bounds__(128) ntc_row_softmax_program0(
// CU: ntc::dev::load<float, ntc::dev::Shape<1, 1024>, ntc::dev::Chunked<128, 1>>(
// CU: ntc::dev::store(ntc_args.output,
// CU: __launch_bounds__(128) ntc_row_softmax_program0_vec(
// CU: ntc::dev::load_vec<float, ntc::dev::Shape<1, 1024>, 128>(
// CU: ntc::dev::store_vec(ntc_args.output,
// CU-LABEL: __launch_bounds__(128) ntc_short_softmax_program0(
// CU: ntc::dev::load<float, ntc::dev::Shape<1, 16>, 32>(
// CU-LABEL: __launch_bounds__(256) ntc_row_twice_program0(
// CU-NOT: Chunked
// CU: ntc::dev::load<float, ntc::dev::Shape<1, 1024>, 256>(
// CU: __launch_bounds__(128) ntc_row_center_program0(
// CU: ntc::dev::load<float, ntc::dev::Shape<1, 1024>, 128>(

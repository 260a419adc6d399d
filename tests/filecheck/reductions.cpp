// Reductions over the whole tile (0-d result) and along an axis (that axis removed). One program
// per 8 x 32 block of x writes the block's row sums, column minima and total.
#include <ntc/dsl.hpp>

// x: (⌈M/8⌉, ⌈N/32⌉) -> (8, 32); rows: (⌈M/8⌉, P) -> (8,); cols: (Q, ⌈N/32⌉) -> (32,);
// total: (Q, P) -> ().
NT_ARRANGEMENT auto arrangement(nt::Tensor x, nt::Tensor rows, nt::Tensor cols, nt::Tensor total) {
  auto rows_arranged = rows.tile({8, 1});
  rows_arranged.dtype() = rows_arranged.dtype().squeeze(1);
  auto cols_arranged = cols.tile({1, 32});
  cols_arranged.dtype() = cols_arranged.dtype().squeeze(0);
  auto total_arranged = total.tile({1, 1});
  total_arranged.dtype() = total_arranged.dtype().squeeze({0, 1});
  return nt::arrange(x.tile({8, 32}), rows_arranged, cols_arranged, total_arranged);
}

NT_APPLICATION void application(nt::Tile x, nt::Tile rows, nt::Tile cols, nt::Tile total) {
  rows = ntl::sum(x, 1) + ntl::max(x, 1);
  cols = ntl::min(x, 0) - ntl::max(x);
  total = ntl::sum(x);
}

NT_KERNEL(reduce, arrangement, application, nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float32));

NT_ARRANGEMENT auto argmax_arrangement(nt::Tensor x, nt::Tensor index) {
  auto index_arranged = index.tile({4, 1});
  index_arranged.dtype() = index_arranged.dtype().squeeze(1);
  return nt::arrange(x.tile({4, 16}), index_arranged);
}

NT_APPLICATION void argmax_application(nt::Tile x, nt::Tile index) { index = ntl::argmax(x, 1); }

NT_KERNEL(row_argmax, argmax_arrangement, argmax_application, nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::int64));

// CHECK-LABEL: kernel reduce(
// CHECK-SAME:    rows: (⌈rows_size_0/8⌉, rows_size_1) -> (8,)
// CHECK-NEXT:    store rows[] <- add(sum(load x[] : float32[8, 32], axis=1) : float32[8], max(load x[] : float32[8, 32], axis=1) : float32[8]) : float32[8]
// CHECK-NEXT:    store cols[] <- sub(min(load x[] : float32[8, 32], axis=0) : float32[32], max(load x[] : float32[8, 32]) : float32[]) : float32[32]
// CHECK-NEXT:    store total[] <- sum(load x[] : float32[8, 32]) : float32[]

// CHECK-LABEL: kernel row_argmax(
// CHECK-NEXT:    store index[] <- argmax(load x[] : float32[4, 16], axis=1) : {{int32|int64}}[4]

// A row-wise softmax (NineToothed's tests/test_softmax.py), one program per row of run-time
// width: its arrangement and application for the FileCheck tests of tuning by warps and by
// padded tile extents (each declares the kernel: ntc compiles the kernels of the file it reads).
#pragma once

#include <ntc/dsl.hpp>

#include <limits>

NT_ARRANGEMENT auto rows_arrangement(nt::Tensor input, nt::Tensor output) {
  return nt::arrange(input.tile({1, -1}), output.tile({1, -1}));
}

NT_APPLICATION void softmax_application(nt::Tile input, nt::Tile output) {
  auto numerator = ntl::exp(input - ntl::max(input));
  output = numerator / ntl::sum(numerator);
}

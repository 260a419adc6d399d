// softmax: row-wise softmax of a 2-d float32 tensor, one program per row (NineToothed's
// tests/test_softmax.py). The row is one tile of run-time width; masked lanes read -inf so they
// neither win the max nor add to the sum.

#include <ntc/dsl.hpp>

#include <limits>

NT_ARRANGEMENT auto softmax_arrangement(nt::Tensor input, nt::Tensor output) {
  return nt::arrange(input.tile({1, -1}), output.tile({1, -1}));
}

NT_APPLICATION void softmax_application(nt::Tile input, nt::Tile output) {
  auto row_minus_max = input - ntl::max(input);
  auto numerator = ntl::exp(row_minus_max);
  output = numerator / ntl::sum(numerator);
}

NT_KERNEL(softmax, softmax_arrangement, softmax_application,
          nt::Tensor(2, nt::float32).other(-std::numeric_limits<double>::infinity()),
          nt::Tensor(2, nt::float32));

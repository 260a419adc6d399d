// Arrangement values that are invalid for every size are diagnosed at compile time (those
// invalid for some run-time sizes are checked by the wrapper instead).
#include <ntc/dsl.hpp>

constexpr nt::Symbol B = nt::block_size("B", 16, 64);

NT_ARRANGEMENT auto negative_tile(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.tile({8 - B}), y.tile({8 - B})); // expected-error {{tile(0): the tile size is -B + 8; it must be at least 1}}
}

NT_ARRANGEMENT auto expand_negative(nt::Tensor x, nt::Tensor y) {
  auto x_arranged = x.tile({1}).tile({-1});
  return nt::arrange(x_arranged.expand({-5}), y); // expected-error {{expand: extent -5 of dimension 0 is negative (only -1, to keep a dimension)}}
}

NT_ARRANGEMENT auto squeeze_twice(nt::Tensor x, nt::Tensor y) {
  auto x_arranged = x.tile({1, 1, 4}).squeeze({0, 0, -3}); // expected-error {{squeeze: dimension 0 is given twice}}
  return nt::arrange(x_arranged, y);
}

NT_APPLICATION void copy(nt::Tile x, nt::Tile y) { y = x; }

NT_KERNEL(negative_tile, negative_tile, copy, nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32));
NT_KERNEL(expand_negative, expand_negative, copy, nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32));
NT_KERNEL(squeeze_twice, squeeze_twice, copy, nt::Tensor(3, nt::float32), nt::Tensor(3, nt::float32));

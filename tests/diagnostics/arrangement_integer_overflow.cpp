// Integer arithmetic in arrangements and applications is checked: an overflow of 64-bit
// integers is a diagnostic at the expression, never a wrapped value.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto overflowing_tile(nt::Tensor x, nt::Tensor y) {
  auto huge = x.shape(0) * (1LL << 62);
  return nt::arrange(x.tile({huge * 4}), y.tile({16})); // expected-error {{integer overflow: 4611686018427387904 * 4 overflows a 64-bit integer}}
}

NT_ARRANGEMENT auto plain(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.tile({16}), y.tile({16}));
}

NT_APPLICATION void copy(nt::Tile x, nt::Tile y) { y = x; }

NT_APPLICATION void overflowing_subscript(nt::Tile x, nt::Tile y) {
  long long big = (1LL << 62);
  y = x + ntl::full(x.shape(), 1, ntl::float32) * (big + big + big); // expected-error {{integer overflow}}
}

NT_KERNEL(overflowing_tile, overflowing_tile, copy, nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32));
NT_KERNEL(overflowing_application, plain, overflowing_subscript, nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32));

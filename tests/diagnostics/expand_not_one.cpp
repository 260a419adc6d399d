// expand() of a dimension whose size is provably not 1, and an expand shape of the wrong length.
#include <ntc/dsl.hpp>

constexpr nt::Symbol BN = nt::block_size("BLOCK_SIZE_N", 64, 256);

NT_ARRANGEMENT auto constant(nt::Tensor x) {
  auto t = x.tile({4});
  t.dtype() = t.dtype().expand({8}); // expected-error {{expand: cannot expand dimension 0 from 4 to 8; only size-1 dimensions can be expanded (use -1 to keep a dimension)}}
  return nt::arrange(t);
}

NT_ARRANGEMENT auto block_size(nt::Tensor x) {
  auto t = x.tile({1, BN});
  t.dtype() = t.dtype().expand({16, 2 * BN}); // expected-error {{expand: cannot expand dimension 1 from BLOCK_SIZE_N to 2*BLOCK_SIZE_N; only size-1 dimensions can be expanded (use -1 to keep a dimension)}}
  return nt::arrange(t);
}

NT_ARRANGEMENT auto wrong_length(nt::Tensor x) {
  return nt::arrange(x.tile({4, -1}).expand({-1})); // expected-error {{expand: shape has 1 entries but the tensor has rank 2}}
}

NT_APPLICATION void app(nt::Tile x) { x = x + 1; }

NT_KERNEL(constant, constant, app, nt::Tensor(1, nt::float32));
NT_KERNEL(block_size, block_size, app, nt::Tensor(2, nt::float32));
NT_KERNEL(wrong_length, wrong_length, app, nt::Tensor(2, nt::float32));

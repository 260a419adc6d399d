// A tile shape (or strides, or dilation) whose length differs from the rank of the level.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto too_many(nt::Tensor x) {
  return nt::arrange(x.tile({4, 4})); // expected-error {{tile: tile shape has 2 entries but the tensor has rank 1}}
}

NT_ARRANGEMENT auto too_few(nt::Tensor x) {
  return nt::arrange(x.tile({4})); // expected-error {{tile: tile shape has 1 entries but the tensor has rank 2}}
}

NT_ARRANGEMENT auto strides(nt::Tensor x) {
  return nt::arrange(x.tile({2}, {1, 1})); // expected-error {{tile: strides has 2 entries but the tensor has rank 1}}
}

NT_ARRANGEMENT auto dilation(nt::Tensor x) {
  return nt::arrange(x.tile({2, 2}, {}, {1})); // expected-error {{tile: dilation has 1 entries but the tensor has rank 2}}
}

// The second tile() applies to the outer level of the first one, which has rank 2.
NT_ARRANGEMENT auto second_tile(nt::Tensor x) {
  return nt::arrange(x.tile({8, 8}).tile({1})); // expected-error {{tile: tile shape has 1 entries but the tensor has rank 2}}
}

NT_APPLICATION void app(nt::Tile x) { x = x + 1; }

NT_KERNEL(too_many, too_many, app, nt::Tensor(1, nt::float32));
NT_KERNEL(too_few, too_few, app, nt::Tensor(2, nt::float32));
NT_KERNEL(strides, strides, app, nt::Tensor(1, nt::float32));
NT_KERNEL(dilation, dilation, app, nt::Tensor(2, nt::float32));
NT_KERNEL(second_tile, second_tile, app, nt::Tensor(2, nt::float32));

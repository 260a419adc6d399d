// Inferred axes: a dimension tiled by 1 is not in the tile the application sees; it lines up
// with the written tensor's dimensions tiled by 1, and y has none, so x's first dimension
// cannot be derived. Also: nt::inferred names every dimension, alone.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto arrangement(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.axes(nt::inferred).tile({1, 4, 4}), // expected-error {{cannot infer the axes of kernel 'batched': dimension 0 of 'x' cannot be derived: it is tiled by 1, which leaves it out of the tile the application sees, and it lines up with no dimension of the written tensor}}
                     y.axes(nt::inferred).tile({4, 4}));
}

NT_APPLICATION void application(nt::Tile x, // expected-note {{name the axes instead, e.g. x.axes("...", "p0", "p1")}}
                                nt::Tile y) {
  y = x;
}

NT_KERNEL(batched, arrangement, application, nt::Tensor(3, nt::float32),
          nt::Tensor(2, nt::float32));

NT_ARRANGEMENT auto mixed_arrangement(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.axes("m", nt::inferred).tile({4, 4}), // expected-error {{nt::inferred names every dimension: write axes(nt::inferred) alone}}
                     y.tile({4, 4}));
}

NT_KERNEL(mixed, mixed_arrangement, application, nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::float32));

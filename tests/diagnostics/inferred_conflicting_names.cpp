// Inferred and named tensors mix: y's axes come from x, whose names the user wrote. `x * w`
// broadcasts w's only dimension against x's last one, so the user's names 'n' and 'k' would be
// one axis: a conflict between two relations, reported where the second one arises, with notes
// at the tensors that name them.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto arrangement(nt::Tensor x, nt::Tensor w, nt::Tensor y) {
  return nt::arrange(x.axes("m", "n").tile({4, 4}), // expected-note {{'x' names an axis 'n' here}}
                     w.axes("k").tile({4}),         // expected-note {{'w' names an axis 'k' here}}
                     y.axes(nt::inferred).tile({4, 4}));
}

NT_APPLICATION void application(nt::Tile x, nt::Tile w, nt::Tile y) {
  y = x * w; // expected-error {{cannot infer the axes of kernel 'scaled': this makes the axes 'n' and 'k' one axis; give the dimensions one name, or let both be inferred}}
}

NT_KERNEL(scaled, arrangement, application, nt::Tensor(2, nt::float32), nt::Tensor(1, nt::float32),
          nt::Tensor(2, nt::float32));

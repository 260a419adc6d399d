// Inferred axes: `x + trans(x)` broadcasts x's first dimension against its second, which would
// make them one axis; a tensor's dimensions are different axes. The error is at the expression
// that implies the relation, with a note where each dimension was related before.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto arrangement(nt::Tensor x, nt::Tensor w, nt::Tensor y) {
  return nt::arrange(x.axes(nt::inferred).tile({4, 4}), w.axes(nt::inferred).tile({4, 4}),
                     y.axes(nt::inferred).tile({4, 4}));
}

NT_APPLICATION void application(nt::Tile x, nt::Tile w, nt::Tile y) {
  auto scaled = x * w; // expected-note 2 {{was related here}}
  y = scaled + ntl::trans(x); // expected-error {{cannot infer the axes of kernel 'symmetric': this makes dimensions 0 and 1 of 'x' one axis; a tensor's dimensions are different axes (name them with axes(...) where the inferred relation is not meant)}}
}

NT_KERNEL(symmetric, arrangement, application, nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float32));

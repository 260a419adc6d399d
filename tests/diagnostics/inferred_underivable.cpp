// Inferred axes: the application sums x over its first dimension, so y is x's second axis; x's
// first dimension is related to nothing the program writes, and x is not walked with a loop
// index, so what it is cannot be derived (named, it would be an axis to iterate, and the
// application would have to walk it).
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto arrangement(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.axes(nt::inferred).tile({4, 4}), // expected-error {{cannot infer the axes of kernel 'column_sums': dimension 0 of 'x' cannot be derived: the application relates it to no dimension of the written tensor and does not walk 'x' with a loop index}}
                     y.axes(nt::inferred).tile({4}));
}

NT_APPLICATION void application(nt::Tile x, // expected-note {{name the axes instead, e.g. x.axes("...", "p0")}}
                                nt::Tile y) {
  y = ntl::sum(x, 0);
}

NT_KERNEL(column_sums, arrangement, application, nt::Tensor(2, nt::float32),
          nt::Tensor(1, nt::float32));

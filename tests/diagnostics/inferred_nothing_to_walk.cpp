// Inferred axes: y = x[k] makes both of x's dimensions axes of the written y, so nothing of x is
// left for the loop index to walk.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto arrangement(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.axes(nt::inferred).tile({4, 4}), // expected-error {{cannot infer the axes of kernel 'walked': the application subscripts 'x', but every dimension of it is an axis of the written tensor, so no level is left to subscript}}
                     y.axes(nt::inferred).tile({4, 4}));
}

NT_APPLICATION void application(nt::Tile x, // expected-note {{the axes derived: x.axes("p0", "p1")}}
                                nt::Tile y) {
  for (int k = 0; k < x.shape(0); ++k)
    y = x[k];
}

NT_KERNEL(walked, arrangement, application, nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::float32));

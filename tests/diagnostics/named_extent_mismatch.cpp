// One axis whose extents provably differ: i has 2 tiles of 4 in x[0:8] but 3 in y[0:12].
// (With run-time sizes the generated wrapper checks the extents instead.) The note sits on the
// local variable passed to nt::arrange.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto arrangement(nt::Tensor x, nt::Tensor y) {
  auto x_arranged = x.axes("i").slice(0, 0, 8).tile({4}); // #x
  auto y_arranged = y.axes("i").slice(0, 0, 12).tile({4}); // #y
  return nt::arrange(x_arranged, y_arranged);
}

NT_APPLICATION void application(nt::Tile x, nt::Tile y) { y = x; }

// expected-note@#y {{'y' has 3 tiles along 'i'}}
// expected-note@#x {{'x' has 2 tiles along 'i'}}
NT_KERNEL(extents, arrangement, application, nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32)); // expected-error {{axis 'i' has 2 tiles in 'x' but 3 in 'y'; tensors sharing an axis must agree on its extent}}

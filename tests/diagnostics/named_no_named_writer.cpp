// Named inputs, but the written tensors have no axis names: there are no program axes. The
// notes list every written tensor, however the application writes it (directly, `x[k] = `,
// through a helper's nt::Tile& parameter).
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto arrangement(nt::Tensor x, nt::Tensor y, nt::Tensor z, nt::Tensor w) {
  return nt::arrange(x.axes("i").tile({4}), // #x
                     y.tile({4}),           // #y
                     z.tile({4}).tile({2}), // #z
                     w.tile({4}));          // #w
}

void store(nt::Tile &target, nt::Tile value) { target = value; }

NT_APPLICATION void application(nt::Tile x, nt::Tile y, nt::Tile z, nt::Tile w) {
  y = x;
  for (int k = 0; k < z.shape(0); ++k)
    z[k] = x;
  store(w, x);
}

// expected-note@#x {{'x' names its axes here}}
// expected-note@#y {{'y' is written without axis names}}
// expected-note@#z {{'z' is written without axis names}}
// expected-note@#w {{'w' is written without axis names}}
NT_KERNEL(unnamed_output, arrangement, application, nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32)); // expected-error {{'x' names its axes, but no tensor the application writes does; the program axes are the axes of the written tensors, so name the axes of the output}}

// Inferred axes need program axes: the written tensor's. Here the output is arranged
// positionally (no axes), so nothing can be derived for the inputs.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto arrangement(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.axes(nt::inferred).tile({4, 4}), // expected-error {{cannot infer the axes of kernel 'copy': the program axes are the axes of the tensors the application writes, and none of them has axes; arrange the output with axes(nt::inferred) or name its axes}}
                     y.tile({4, 4}));                   // expected-note {{'y' is written without axes}}
}

NT_APPLICATION void application(nt::Tile x, nt::Tile y) { y = x; }

NT_KERNEL(copy, arrangement, application, nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float32));

// unsqueeze after axes(...) leaves an unnamed dimension on the outer level.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto arrangement(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.axes("m", "n").unsqueeze(0).tile({1, 4, 4}), // #x
                     y.axes("m", "n").tile({4, 4}));
}

NT_APPLICATION void application(nt::Tile x, nt::Tile y) { y = 0; }

// expected-note@#x {{'x' is arranged here}}
NT_KERNEL(partial, arrangement, application, nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float32)); // expected-error {{the outer level of 'x' names some dimensions but not dimension 0; name every dimension with axes(...) (unsqueeze and flatten create unnamed dimensions)}}

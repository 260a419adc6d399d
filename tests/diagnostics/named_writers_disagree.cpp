// The application writes two named tensors whose axes disagree: (m, n) and (n, m).
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto arrangement(nt::Tensor a, nt::Tensor b) {
  return nt::arrange(a.axes("m", "n").tile({4, 4}), // #a
                     b.axes("n", "m").tile({4, 4})); // #b
}

NT_APPLICATION void application(nt::Tile a, nt::Tile b) {
  a = 1;
  b += 2;
}

// expected-note@#b {{'b' has axes (n, m)}}
// expected-note@#a {{'a' has axes (m, n)}}
NT_KERNEL(disagree, arrangement, application, nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float32)); // expected-error {{the tensors the application writes disagree on the program axes: 'b' has axes (n, m) but 'a' has (m, n)}}

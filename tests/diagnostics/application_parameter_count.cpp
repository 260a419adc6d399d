// The application takes a different number of tiles than the arrangement returns.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto two(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.tile({4}), y.tile({4}));
}

NT_ARRANGEMENT auto one(nt::Tensor x) { return nt::arrange(x.tile({4})); }

// A scalar passes through nt::arrange and counts as one tile.
NT_ARRANGEMENT auto with_scalar(nt::Tensor x, nt::Tensor alpha) {
  return nt::arrange(x.tile({4}), alpha);
}

NT_APPLICATION void app1(nt::Tile x) { x = x + 1; } // #app1
NT_APPLICATION void app2(nt::Tile x, nt::Tile y) { x = y; } // #app2

// expected-note@#app1 {{application declared here}}
NT_KERNEL(fewer, two, app1, nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32)); // expected-error {{application 'app1' takes 1 tiles but arrangement 'two' produces 2}}

// expected-note@#app2 {{application declared here}}
NT_KERNEL(more, one, app2, nt::Tensor(1, nt::float32)); // expected-error {{application 'app2' takes 2 tiles but arrangement 'one' produces 1}}

// expected-note@#app1 {{application declared here}}
NT_KERNEL(scalar, with_scalar, app1, nt::Tensor(1, nt::float32), nt::Scalar(nt::float32)); // expected-error {{application 'app1' takes 1 tiles but arrangement 'with_scalar' produces 2}}

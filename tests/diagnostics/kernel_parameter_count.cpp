// NT_KERNEL lists a different number of parameters than the arrangement takes.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto two(nt::Tensor x, nt::Tensor y) { // #two
  return nt::arrange(x.tile({4}), y.tile({4}));
}

NT_ARRANGEMENT auto one(nt::Tensor x) { return nt::arrange(x.tile({4})); } // #one

NT_APPLICATION void app1(nt::Tile x) { x = x + 1; }
NT_APPLICATION void app2(nt::Tile x, nt::Tile y) { x = y; }

// expected-note@#two {{arrangement declared here}}
NT_KERNEL(too_few, two, app2, nt::Tensor(1, nt::float32)); // expected-error {{kernel 'too_few' declares 1 parameters but arrangement 'two' takes 2}}

// expected-note@#one {{arrangement declared here}}
NT_KERNEL(too_many, one, app1, nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32)); // expected-error {{kernel 'too_many' declares 2 parameters but arrangement 'one' takes 1}}

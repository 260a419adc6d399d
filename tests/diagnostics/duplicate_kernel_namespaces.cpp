// Two kernels of the same name in different namespaces: both would be the C function `twice`.
// The second definition gets the error, a note points at the first.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto pass(nt::Tensor x) { return nt::arrange(x.tile({4})); }
NT_APPLICATION void increment(nt::Tile x) { x = x + 1; }

namespace first {
NT_KERNEL(twice, pass, increment, nt::Tensor(1, nt::float32)); // #first
} // namespace first

namespace second {
// expected-note@#first {{first defined here}}
NT_KERNEL(twice, pass, increment, nt::Tensor(1, nt::float32)); // expected-error {{kernel 'twice' is defined twice}}
} // namespace second

// A third definition is reported against the first as well.
// expected-note@#first {{first defined here}}
NT_KERNEL(twice, pass, increment, nt::Tensor(1, nt::float32)); // expected-error {{kernel 'twice' is defined twice}}

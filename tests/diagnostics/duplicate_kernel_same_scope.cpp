// Two NT_KERNELs of the same name in one scope: Clang itself reports the redefinition of the
// function NT_KERNEL defines (`ntc_kernel_<name>`), at the second, with a note at the first.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto pass(nt::Tensor x) { return nt::arrange(x.tile({4})); }
NT_APPLICATION void increment(nt::Tile x) { x = x + 1; }

NT_KERNEL(twice, pass, increment, nt::Tensor(1, nt::float32)); // expected-note {{previous definition is here}}
NT_KERNEL(twice, pass, increment, nt::Tensor(1, nt::float32)); // expected-error {{redefinition of 'ntc_kernel_twice'}}

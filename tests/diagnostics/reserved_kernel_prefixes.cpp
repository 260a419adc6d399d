// Kernel names that cannot be the name of the generated C function: names the generated code
// uses, reserved prefixes, and names that are not identifiers (reserved_kernel_names.cpp has
// keywords and the C library).
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto pass(nt::Tensor x) { return nt::arrange(x.tile({4})); }
NT_APPLICATION void increment(nt::Tile x) { x = x + 1; }

#define K(name) NT_KERNEL(name, pass, increment, nt::Tensor(1, nt::float32))

K(std); // expected-error {{kernel name 'std' is reserved (the namespace of the C++ standard library, used by the generated code)}}
K(ntc); // expected-error {{kernel name 'ntc' is reserved (the namespace of ntc's runtime, used by the generated code)}}
K(DLTensor); // expected-error {{kernel name 'DLTensor' is reserved (a DLPack name, used by the generated code)}}
K(threadIdx); // expected-error {{kernel name 'threadIdx' is reserved (a CUDA built-in variable)}}
K(ntc_add); // expected-error {{kernel name 'ntc_add' is reserved (names beginning with 'ntc_' or 'NTC_' are reserved for ntc's generated code)}}
K(NTC_ADD); // expected-error {{kernel name 'NTC_ADD' is reserved (names beginning with 'ntc_' or 'NTC_' are reserved for ntc's generated code)}}
K(__add); // expected-error {{kernel name '__add' is reserved (names beginning with '__' or with '_' and an upper-case letter are reserved for the C and C++ implementation)}}
K(_Add); // expected-error {{kernel name '_Add' is reserved (names beginning with '__' or with '_' and an upper-case letter are reserved for the C and C++ implementation)}}
K(2x); // expected-error {{kernel name '2x' is not a C identifier (the kernel becomes a C function of that name)}}

// Fine: not reserved (`stream`, one underscore and a lower-case letter, `ntc` without '_').
K(stream);
K(_add);
K(ntcadd);

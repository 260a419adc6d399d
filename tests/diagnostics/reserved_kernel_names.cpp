// Kernel names that cannot be the name of the generated C function: keywords, main, C library
// and POSIX functions, macros and types (reserved_kernel_prefixes.cpp has the rest). NT_KERNEL
// stringizes and pastes its first argument without expanding it, so all of these reach ntc.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto pass(nt::Tensor x) { return nt::arrange(x.tile({4})); }
NT_APPLICATION void increment(nt::Tile x) { x = x + 1; }

#define K(name) NT_KERNEL(name, pass, increment, nt::Tensor(1, nt::float32))

K(main); // expected-error {{kernel name 'main' is reserved (the program's entry point)}}
K(int); // expected-error {{kernel name 'int' is reserved (a C keyword)}}
K(restrict); // expected-error {{kernel name 'restrict' is reserved (a C keyword)}}
K(class); // expected-error {{kernel name 'class' is reserved (a C++ keyword)}}
K(printf); // expected-error {{kernel name 'printf' is reserved (a function of the C standard library, declared in <stdio.h>)}}
K(memcpy); // expected-error {{kernel name 'memcpy' is reserved (a function of the C standard library, declared in <string.h>)}}
K(malloc); // expected-error {{kernel name 'malloc' is reserved (a function of the C standard library, declared in <stdlib.h>)}}
K(exit); // expected-error {{kernel name 'exit' is reserved (a function of the C standard library, declared in <stdlib.h>)}}
K(exp); // expected-error {{kernel name 'exp' is reserved (a function of the C standard library, declared in <math.h>)}}
K(sqrtf); // expected-error {{kernel name 'sqrtf' is reserved (a function of the C standard library, declared in <math.h>)}}
K(read); // expected-error {{kernel name 'read' is reserved (a POSIX function, declared in <unistd.h>)}}
K(write); // expected-error {{kernel name 'write' is reserved (a POSIX function, declared in <unistd.h>)}}
K(open); // expected-error {{kernel name 'open' is reserved (a POSIX function, declared in <fcntl.h>)}}
K(close); // expected-error {{kernel name 'close' is reserved (a POSIX function, declared in <unistd.h>)}}
K(select); // expected-error {{kernel name 'select' is reserved (a POSIX function, declared in <sys/select.h>)}}
K(NULL); // expected-error {{kernel name 'NULL' is reserved (a macro of the C standard library, defined in <stddef.h>)}}
K(INFINITY); // expected-error {{kernel name 'INFINITY' is reserved (a macro of the C standard library, defined in <math.h>)}}
K(assert); // expected-error {{kernel name 'assert' is reserved (a macro of the C standard library, defined in <assert.h>)}}
K(size_t); // expected-error {{kernel name 'size_t' is reserved (a type of the C standard library, defined in <stddef.h>)}}

// Fine: a library name with a suffix.
K(exp_kernel);

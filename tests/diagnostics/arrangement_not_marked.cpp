// NT_KERNEL names an arrangement without NT_ARRANGEMENT, an application without NT_APPLICATION,
// or an arrangement that is only declared.
#include <ntc/dsl.hpp>

auto unmarked(nt::Tensor x) { return nt::arrange(x.tile({4})); } // #unmarked
NT_ARRANGEMENT auto marked(nt::Tensor x) { return nt::arrange(x.tile({4})); }
NT_ARRANGEMENT nt::Arranged declared_only(nt::Tensor x);

void plain_application(nt::Tile x) { x = x + 1; } // #plain
NT_APPLICATION void application(nt::Tile x) { x = x + 1; }

// expected-note@#unmarked {{declare it with NT_ARRANGEMENT}}
NT_KERNEL(unmarked_arrangement, unmarked, application, nt::Tensor(1, nt::float32)); // expected-error {{'unmarked' is not an arrangement}}

// expected-note@#plain {{declare it with NT_APPLICATION}}
NT_KERNEL(unmarked_application, marked, plain_application, nt::Tensor(1, nt::float32)); // expected-error {{'plain_application' is not an application}}

NT_KERNEL(no_body, declared_only, application, nt::Tensor(1, nt::float32)); // expected-error {{arrangement 'declared_only' has no body}}

// An application calls a function whose body ntc cannot see (only declared, or from a library).
#include <ntc/dsl.hpp>

#include <cmath>
#include <utility>

NT_ARRANGEMENT auto arrangement(nt::Tensor x) { return nt::arrange(x.tile({4})); }

nt::Tile external_helper(nt::Tile t); // #external

NT_APPLICATION void declared_only(nt::Tile x) {
  // expected-note@#external {{declared here}}
  x = external_helper(x); // expected-error {{'external_helper' has no body; an application can only call ntl:: functions and functions defined in the kernel source}}
}

// The body is reached through another helper that has one.
inline nt::Tile wrapper(nt::Tile t) {
  // expected-note@#external {{declared here}}
  return external_helper(t) + 1; // expected-error {{'external_helper' has no body; an application can only call ntl:: functions and functions defined in the kernel source}}
}

NT_APPLICATION void through_wrapper(nt::Tile x) { x = wrapper(x); }

NT_APPLICATION void standard_library(nt::Tile x) {
  x = std::move(x) + 1; // expected-error {{'std::move' is not supported in an application function; use the ntl:: functions on tiles}}
}

// FIXME(ntc): std::sqrt is the C library's ::sqrt, so the message names 'sqrt' and points into a
// system header; it should read "'std::sqrt' is not supported in an application function; use
// ntl::sqrt" like the std::move case above.
NT_APPLICATION void c_library(nt::Tile x) {
  x = x * std::sqrt(2.0); // expected-error {{'sqrt' has no body; an application can only call ntl:: functions and functions defined in the kernel source}}
  // expected-note@*:* {{declared here}}
}

NT_KERNEL(declared_only, arrangement, declared_only, nt::Tensor(1, nt::float32));
NT_KERNEL(through_wrapper, arrangement, through_wrapper, nt::Tensor(1, nt::float32));
NT_KERNEL(standard_library, arrangement, standard_library, nt::Tensor(1, nt::float32));
NT_KERNEL(c_library, arrangement, c_library, nt::Tensor(1, nt::float32));

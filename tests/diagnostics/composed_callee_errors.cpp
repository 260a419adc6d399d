// Kernel functions that cannot be called: an application that writes two parameters or none,
// a call with the wrong number of arguments, a call inside a helper, a kernel function made of
// something other than an arrangement, and an untiled tensor passed to two calls.
#include <ntc/dsl.hpp>

#define T1 nt::Tensor(1, nt::float32)

NT_ARRANGEMENT auto three(nt::Tensor a, nt::Tensor b, nt::Tensor c) {
  return nt::arrange(a.tile({64}), b.tile({64}), c.tile({64}));
}
NT_APPLICATION void writes_two(nt::Tile a, nt::Tile b, nt::Tile c) { // expected-note {{application declared here}}
  b = a;
  c = a;
}
NT_APPLICATION void writes_none(nt::Tile a, nt::Tile b, nt::Tile c) { // expected-note {{application declared here}}
  auto unused = a + b + c;
}
NT_APPLICATION void add(nt::Tile a, nt::Tile b, nt::Tile c) { c = a + b; } // expected-note {{application declared here}}
inline constexpr auto split = nt::kernel_function(three, writes_two);
inline constexpr auto nothing = nt::kernel_function(three, writes_none);
inline constexpr auto sum = nt::kernel_function(three, add);

NT_ARRANGEMENT auto caller(nt::Tensor x, nt::Tensor y, nt::Tensor out) {
  return nt::arrange(x, y, out.tile({64}));
}
NT_APPLICATION void call_split(nt::Tile x, nt::Tile y, nt::Tile out) {
  out = split(x); // expected-error {{'writes_two' writes both 'b' and 'c'; a kernel function has exactly one output}}
}
NT_KERNEL(calls_split, caller, call_split, T1, T1, T1);

NT_APPLICATION void call_nothing(nt::Tile x, nt::Tile y, nt::Tile out) {
  out = nothing(x, y, y); // expected-error {{'writes_none' writes none of its parameters; a kernel function's value is the parameter its application writes}}
}
NT_KERNEL(calls_nothing, caller, call_nothing, T1, T1, T1);

NT_APPLICATION void call_one_argument(nt::Tile x, nt::Tile y, nt::Tile out) {
  out = sum(x); // expected-error {{this kernel function takes 2 arguments ('a', 'b'; 'c' is its value), not 1}}
}
NT_KERNEL(calls_with_one_argument, caller, call_one_argument, T1, T1, T1);

inline nt::Tile helper(nt::Tile x, nt::Tile y) {
  return sum(x, y); // expected-error {{a kernel function is called in a function that the application calls; call it in the application itself, where the tensor its value is stored to decides how its inputs are arranged}}
}
NT_APPLICATION void call_in_helper(nt::Tile x, nt::Tile y, nt::Tile out) { out = helper(x, y); }
NT_KERNEL(calls_in_helper, caller, call_in_helper, T1, T1, T1);

NT_APPLICATION void twice_x(nt::Tile x, nt::Tile y, nt::Tile out) {
  out = sum(x, // expected-note {{first passed here}}
             y) +
        sum(x, // expected-error {{'x' is an argument of two kernel function calls; ntc arranges an untiled tensor for one call (pass the other call its own tensor)}}
            y);
}
NT_KERNEL(passes_y_twice, caller, twice_x, T1, T1, T1);

NT_APPLICATION void not_an_arrangement(nt::Tile x, nt::Tile y, nt::Tile out) {
  auto f = nt::kernel_function(add, add); // expected-error {{the first argument of nt::kernel_function must be an arrangement (a function declared with NT_ARRANGEMENT)}}
  out = f(x, y);
}
NT_KERNEL(calls_a_non_kernel, caller, not_an_arrangement, T1, T1, T1);

NT_ARRANGEMENT auto two(nt::Tensor a, nt::Tensor c) { return nt::arrange(a.tile({64}), c.tile({64})); }
NT_APPLICATION void negate(nt::Tile a, nt::Tile c) { c = -a; }
inline constexpr auto minus = nt::kernel_function(two, negate);

NT_APPLICATION void nested(nt::Tile x, nt::Tile y, nt::Tile out) {
  out = minus(sum(x, y)); // expected-error {{the value of a kernel function cannot be the argument of another: the callee would read it as a tensor, whose masked elements read the value its kernel declares, but a computed tile has none; compute the outer callee's work on the value in this application}} expected-note {{the outer call}}
}
NT_KERNEL(nests_calls, caller, nested, T1, T1, T1);

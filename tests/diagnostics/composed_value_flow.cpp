// Where a kernel function's value goes decides its callee's program grid: a value stored to no
// parameter, one stored to two, and one stored to a tensor the caller does not tile are errors.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto double_arrangement(nt::Tensor input, nt::Tensor output) {
  return nt::arrange(input.tile({64}), output.tile({64}));
}
NT_APPLICATION void double_application(nt::Tile input, nt::Tile output) { output = 2 * input; }
inline constexpr auto twice = nt::kernel_function(double_arrangement, double_application);

NT_ARRANGEMENT auto pair(nt::Tensor x, nt::Tensor y, nt::Tensor z) {
  return nt::arrange(x, y.tile({64}), z.tile({64}));
}
#define T1 nt::Tensor(1, nt::float32)

NT_APPLICATION void unused(nt::Tile x, nt::Tile y, nt::Tile z) {
  auto value = twice(x); // expected-error {{the value of this kernel function call is never stored to a parameter; ntc arranges the callee's inputs for the program grid of the tensor its value is stored to}}
  y = z;
}
NT_KERNEL(value_unused, pair, unused, T1, T1, T1);

NT_APPLICATION void stored_twice(nt::Tile x, nt::Tile y, nt::Tile z) {
  auto value = twice(x) + 1; // expected-error {{the value of this kernel function call is stored to both 'y' and 'z'; ntc arranges its inputs for the program grid of the one tensor it is stored to}}
  y = value; // expected-note {{stored here}}
  z = value; // expected-note {{and here}}
}
NT_KERNEL(value_stored_twice, pair, stored_twice, T1, T1, T1);

NT_ARRANGEMENT auto untiled(nt::Tensor x, nt::Tensor y) { return nt::arrange(x, y); }
NT_APPLICATION void into_untiled(nt::Tile x, nt::Tile y) {
  y = twice(x); // expected-error {{the value of this kernel function call is stored to 'y', which nt::arrange receives untiled; tile 'y' as the callee tiles its output}}
}
NT_KERNEL(value_untiled, untiled, into_untiled, T1, T1);

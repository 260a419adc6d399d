// An error in the callee's arrangement of the caller's tensors (a 1-D tensor where the callee
// tiles a matrix) is reported in the callee's arrangement, with a note at the call.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto rows(nt::Tensor input, nt::Tensor output) {
  return nt::arrange(input.tile({1, -1}), // expected-error {{tile: tile shape has 2 entries but the tensor has rank 1}}
                     output.tile({1, -1}));
}
NT_APPLICATION void negate(nt::Tile input, nt::Tile output) { output = -input; }
inline constexpr auto minus = nt::kernel_function(rows, negate);

NT_ARRANGEMENT auto caller(nt::Tensor x, nt::Tensor out) { return nt::arrange(x, out.tile({1, -1})); }
NT_APPLICATION void apply(nt::Tile x, nt::Tile out) {
  out = minus(x); // expected-note {{while arranging the tensors of this call with 'rows'}}
}
NT_KERNEL(vector_into_rows, caller, apply, nt::Tensor(1, nt::float32), nt::Tensor(2, nt::float32));

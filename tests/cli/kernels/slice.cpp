// slice(): NumPy basic slicing of one dimension; x[1:, ::2] on a (3, 4) tensor, and a
// negative step.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto rows_and_columns(nt::Tensor x) {
  return nt::arrange(x.slice(0, 1).slice(1, nt::none, nt::none, 2));
}

// x[::-1, -3:-1]
NT_ARRANGEMENT auto reversed(nt::Tensor x) {
  return nt::arrange(x.slice(0, nt::none, nt::none, -1).slice(-1, -3, -1));
}

NT_APPLICATION void application(nt::Tile x) { x = x + 1; }

NT_KERNEL(rows_and_columns, rows_and_columns, application, nt::Tensor(2, nt::float32));
NT_KERNEL(reversed, reversed, application, nt::Tensor(2, nt::float32));

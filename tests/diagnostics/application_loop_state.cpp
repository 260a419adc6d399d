// Loop indices are read-only in the loop body, and integers (compile-time values) cannot be
// carried across iterations: either would otherwise be silently dropped.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto arrangement(nt::Tensor x, nt::Tensor y) {
  auto x_arranged = x.tile({4});
  auto y_arranged = y.tile({4}).tile({-1}).expand({x_arranged.shape(0)});
  return nt::arrange(x_arranged, y_arranged);
}

NT_APPLICATION void assigns_index(nt::Tile x, nt::Tile y) {
  for (int k = 0; k < y.shape(0); ++k) {
    x = x + y[k];
    k = k + 1; // expected-error {{'k' is the index of an enclosing loop; an application loop runs every index from its start to its bound, so the index cannot be assigned in the body}}
  }
}

NT_APPLICATION void increments_index(nt::Tile x, nt::Tile y) {
  for (int k = 0; k < y.shape(0); ++k) {
    x = x + y[k];
    ++k; // expected-error {{'k' is the index of an enclosing loop; an application loop runs every index from its start to its bound, so the index cannot be assigned in the body}}
  }
}

NT_APPLICATION void carries_integer(nt::Tile x, nt::Tile y) {
  int j = 0;
  for (int k = 0; k < y.shape(0); ++k)
    j += 1; // expected-error {{'j' is an integer defined outside this loop or branch; integers are compile-time values in an application, so it cannot change per iteration (use a tile, e.g. ntl::full, for a value that changes)}}
  x = y[j];
}

NT_APPLICATION void index_through_reference(nt::Tile x, nt::Tile y) {
  for (int k = 0; k < y.shape(0); ++k) {
    int &r = k;
    r = 2; // expected-error {{'r' is the index of an enclosing loop; an application loop runs every index from its start to its bound, so the index cannot be assigned in the body}}
    x = y[k];
  }
}

NT_KERNEL(assigns_index, arrangement, assigns_index, nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32));
NT_KERNEL(increments_index, arrangement, increments_index, nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32));
NT_KERNEL(carries_integer, arrangement, carries_integer, nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32));
NT_KERNEL(index_through_reference, arrangement, index_through_reference, nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32));

// A subscript on a parameter that is already a tile (no inner level left) is a located error
// that says what to write instead; the same subscript on a middle level is accepted.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto one_element(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.tile({1}), y.tile({1}));
}
NT_ARRANGEMENT auto middle(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.tile({1}).tile({1}), y.tile({1}).tile({1}));
}
NT_APPLICATION void store_element(nt::Tile x, nt::Tile y) {
  y[0] = x; // expected-error {{'y' has no inner level left to index; it is already a tile: read or assign 'y' itself (a tile of one element takes a broadcast value), or tile it once more in the arrangement to index a middle level}}
}
NT_APPLICATION void store_middle(nt::Tile x, nt::Tile y) { y[0] = x[0]; }

NT_KERNEL(element_store, one_element, store_element, nt::Tensor(1, nt::float32),
          nt::Tensor(1, nt::float32));
NT_KERNEL(middle_store, middle, store_middle, nt::Tensor(1, nt::float32),
          nt::Tensor(1, nt::float32));

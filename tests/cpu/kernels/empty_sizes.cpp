// empty_sizes: arrangements whose index computations divide by a run-time size, called with a
// size of 0 (found by fuzzing; docs/fuzzing.md). Test-only kernels of tests/cpu.
//   flatten_pad_add_one: y = pad(flatten(x), 1 each side) + 1; the mask unravels the padded
//     index with x_size_1, which is 0 for an empty x, while the padding still has elements.
//   whole_tile_dilated_add_one: x[0::2] += 1 through one whole-extent tile with dilation 2;
//     the tile count is ⌈1/x_size_0⌉, computed by the wrapper even when x is empty.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto flatten_pad_arrangement(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.flatten().pad({{1, 1}}).tile({4}), y.tile({4}));
}
NT_APPLICATION void add_one_application(nt::Tile x, nt::Tile y) { y = x + 1; }
NT_KERNEL(flatten_pad_add_one, flatten_pad_arrangement, add_one_application,
          nt::Tensor(2, nt::float32), nt::Tensor(1, nt::float32));

NT_ARRANGEMENT auto whole_dilated_arrangement(nt::Tensor x) {
  return nt::arrange(x.tile({-1}, {}, {2}));
}
NT_APPLICATION void increment_application(nt::Tile x) { x = x + 1; }
NT_KERNEL(whole_tile_dilated_add_one, whole_dilated_arrangement, increment_application,
          nt::Tensor(1, nt::float32));

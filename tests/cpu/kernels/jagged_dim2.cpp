// NineToothed's test_to_padded_tensor with the jagged dimension last (jagged_dim=2) and
// other=-1: (batch, channels, sequence) values stored (channels, all sequences' columns).
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto padded_arrangement(nt::Tensor input, nt::Tensor output) {
  return nt::arrange(input.tile({1, 8, 16}), output.tile({1, 8, 16}));
}

NT_APPLICATION void padded_application(nt::Tile input, nt::Tile output) { output = input; }

NT_KERNEL(to_padded_dim2, padded_arrangement, padded_application,
          nt::Tensor(3, nt::float32).jagged_dim(2).other(-1), nt::Tensor(3, nt::float32));

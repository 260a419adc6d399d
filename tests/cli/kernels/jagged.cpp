// A jagged tensor: --eval and --visualize cannot draw it (its tiles depend on the offsets).
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto arrangement(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.tile({1, 4, 4}), y.tile({1, 4, 4}));
}

NT_APPLICATION void application(nt::Tile x, nt::Tile y) { y = x; }

NT_KERNEL(padded, arrangement, application, nt::Tensor(3, nt::float32).jagged_dim(1),
          nt::Tensor(3, nt::float32));

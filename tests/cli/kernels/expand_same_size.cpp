// expand() to a dimension's own size keeps the dimension (as PyTorch's expand does), so
// `t.dtype().expand({4})` of a 4-wide tile is the tile itself.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto same_size(nt::Tensor x) {
  auto t = x.tile({4});
  t.dtype() = t.dtype().expand({4});
  return nt::arrange(t);
}

NT_APPLICATION void application(nt::Tile x) { x = x + 1; }

NT_KERNEL(same_size, same_size, application, nt::Tensor(1, nt::float32));

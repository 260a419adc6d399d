// unsqueeze() inserts a size-1 dimension; expand() broadcasts it (stride 0).
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto unsqueeze_expand(nt::Tensor x) {
  return nt::arrange(x.unsqueeze(1).expand({-1, 2, -1}));
}

NT_APPLICATION void application(nt::Tile x) { x = x + 1; }

NT_KERNEL(unsqueeze_expand, unsqueeze_expand, application, nt::Tensor(2, nt::float32));

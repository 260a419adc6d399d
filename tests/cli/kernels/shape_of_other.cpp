// `.shape(d)` of another arranged tensor: y is broadcast over the programs of x.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto broadcast(nt::Tensor x, nt::Tensor y) {
  auto x_arranged = x.tile({2});
  auto y_arranged = y.tile({-1}).expand({x_arranged.shape(0)});
  return nt::arrange(x_arranged, y_arranged);
}

NT_APPLICATION void application(nt::Tile x, nt::Tile y) { x = x + ntl::sum(y); }

NT_KERNEL(broadcast, broadcast, application, nt::Tensor(1, nt::float32),
          nt::Tensor(1, nt::float32));

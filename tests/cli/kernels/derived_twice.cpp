// One intermediate tensor with two derivations (NineToothed's quirk 1: there the first one
// breaks). `tiled` is permuted for `a` and tiled again for `b`; each must stay intact.
// `second` returns (2, 1) -> (2,) -> (2, 3) and walks the middle level. The grids of x and y
// agree, as every kernel's must.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto first(nt::Tensor x, nt::Tensor y) {
  auto tiled = x.tile({2, 3});
  auto a = tiled.permute({1, 0});
  auto b = tiled.tile({1, -1});
  return nt::arrange(a, y.tile({3, b.shape(0) + 1}));
}

NT_ARRANGEMENT auto second(nt::Tensor x, nt::Tensor y) {
  auto tiled = x.tile({2, 3});
  auto a = tiled.permute({1, 0});
  auto b = tiled.tile({1, -1});
  b.dtype() = b.dtype().squeeze(0);
  return nt::arrange(b, y.tile({a.shape(0), -1}));
}

NT_APPLICATION void application(nt::Tile x, nt::Tile y) { y = y + ntl::sum(x); }

NT_APPLICATION void walk(nt::Tile x, nt::Tile y) {
  for (int k = 0; k < x.shape(0); ++k)
    x[k] = x[k] + ntl::sum(y);
}

NT_KERNEL(first, first, application, nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float32));
NT_KERNEL(second, second, walk, nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float32));

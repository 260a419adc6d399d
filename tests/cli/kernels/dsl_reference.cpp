// The arrangement examples of docs/dsl.md, one kernel each on a 2-D x: the CLI tests check that
// `ntc --dump-layout` prints what the reference says.
#include <ntc/dsl.hpp>

NT_APPLICATION void nothing(nt::Tile x) {}

NT_ARRANGEMENT auto tile(nt::Tensor x) { return nt::arrange(x.tile({4, 2})); }
NT_ARRANGEMENT auto rows(nt::Tensor x) { return nt::arrange(x.tile({1, -1})); }
NT_ARRANGEMENT auto strided(nt::Tensor x) { return nt::arrange(x.tile({3, 3}, {1, 1})); }
NT_ARRANGEMENT auto dilated(nt::Tensor x) { return nt::arrange(x.tile({2, 2}, {}, {1, 2})); }
NT_ARRANGEMENT auto nested(nt::Tensor x) { return nt::arrange(x.tile({4, 2}).tile({1, -1})); }
NT_ARRANGEMENT auto squeezed(nt::Tensor x) {
  auto t = x.tile({4, 2}).tile({1, -1});
  t.dtype() = t.dtype().squeeze(0);
  return nt::arrange(t);
}
NT_ARRANGEMENT auto unsqueezed(nt::Tensor x) { return nt::arrange(x.tile({4, 2}).unsqueeze(0)); }
NT_ARRANGEMENT auto expanded(nt::Tensor x) { return nt::arrange(x.tile({8, 2}).expand({3, -1})); }
NT_ARRANGEMENT auto permuted(nt::Tensor x) { return nt::arrange(x.tile({4, 2}).permute({1, 0})); }
NT_ARRANGEMENT auto flattened(nt::Tensor x) { return nt::arrange(x.tile({4, 2}).flatten()); }
NT_ARRANGEMENT auto raveled(nt::Tensor x) { return nt::arrange(x.tile({4, 2}).ravel()); }
NT_ARRANGEMENT auto padded(nt::Tensor x) {
  return nt::arrange(x.pad({{1, 1}, {0, 2}}).tile({5, 4}));
}
NT_ARRANGEMENT auto sliced(nt::Tensor x) { return nt::arrange(x.slice(1, 1, 5, 2).tile({4, 2})); }

NT_KERNEL(tile, tile, nothing, nt::Tensor(2, nt::float32));
NT_KERNEL(rows, rows, nothing, nt::Tensor(2, nt::float32));
NT_KERNEL(strided, strided, nothing, nt::Tensor(2, nt::float32));
NT_KERNEL(dilated, dilated, nothing, nt::Tensor(2, nt::float32));
NT_KERNEL(nested, nested, nothing, nt::Tensor(2, nt::float32));
NT_KERNEL(squeezed, squeezed, nothing, nt::Tensor(2, nt::float32));
NT_KERNEL(unsqueezed, unsqueezed, nothing, nt::Tensor(2, nt::float32));
NT_KERNEL(expanded, expanded, nothing, nt::Tensor(2, nt::float32));
NT_KERNEL(permuted, permuted, nothing, nt::Tensor(2, nt::float32));
NT_KERNEL(flattened, flattened, nothing, nt::Tensor(2, nt::float32));
NT_KERNEL(raveled, raveled, nothing, nt::Tensor(2, nt::float32));
NT_KERNEL(padded, padded, nothing, nt::Tensor(2, nt::float32));
NT_KERNEL(sliced, sliced, nothing, nt::Tensor(2, nt::float32));

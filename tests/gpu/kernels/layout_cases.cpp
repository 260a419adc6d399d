// GPU-only test kernels (tests/gpu/check_kernels.py): programs that assign-cyclic-layouts
// gives the cyclic layout in their element-by-element variant (wheres, comparisons, maxima
// with scalars, casts through float16, integer and 16-bit reductions, a 3-D tile), checked
// against the CPU backend on aligned, misaligned and strided inputs. tools/scripts/gpu-bundle.sh
// compiles them beside the stock kernels.

#include <ntc/dsl.hpp>

constexpr nt::Symbol BS = nt::block_size("BS", 1024);

NT_ARRANGEMENT auto flat(nt::Tensor a, nt::Tensor b, nt::Tensor out) {
  return nt::arrange(a.tile({BS}), b.tile({BS}), out.tile({BS}));
}

NT_APPLICATION void mixed(nt::Tile a, nt::Tile b, nt::Tile out) {
  auto m = ntl::where(a > b, a, b * 2);
  auto c = ntl::maximum(m, 0.5f) - ntl::min(a) + ntl::sum(b) * ntl::max(b);
  out = ntl::exp(c * 0.01f).to(ntl::float16).to(ntl::float32) + ntl::abs(a);
}
NT_KERNEL(layout_mixed, flat, mixed, nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32),
          nt::Tensor(1, nt::float32));

NT_APPLICATION void ints(nt::Tile a, nt::Tile b, nt::Tile out) {
  out = a + b * 3 - ntl::max(a) + ntl::argmax(b) - ntl::sum(a);
}
NT_KERNEL(layout_ints, flat, ints, nt::Tensor(1, nt::int32), nt::Tensor(1, nt::int32),
          nt::Tensor(1, nt::int32));

NT_APPLICATION void halves(nt::Tile a, nt::Tile b, nt::Tile out) {
  auto x = a * b;
  out = x - ntl::max(x) + ntl::min(a) + ntl::sum(a) * 0.001f;
}
NT_KERNEL(layout_halves, flat, halves, nt::Tensor(1, nt::float16), nt::Tensor(1, nt::bfloat16),
          nt::Tensor(1, nt::float16));

NT_ARRANGEMENT auto boxes(nt::Tensor a, nt::Tensor b, nt::Tensor out) {
  return nt::arrange(a.tile({1, 4, 64}), b.tile({1, 4, 64}), out.tile({1, 4, 64}));
}

NT_APPLICATION void masked(nt::Tile a, nt::Tile b, nt::Tile out) {
  auto keep = (a > 0) & (b < 1);
  out = ntl::where(keep, a - ntl::max(a), 0.0f);
}
NT_KERNEL(layout_3d, boxes, masked, nt::Tensor(3, nt::float32), nt::Tensor(3, nt::float32),
          nt::Tensor(3, nt::float32));

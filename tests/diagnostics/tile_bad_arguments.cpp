// Bad arguments of tile, pad, slice and axes.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto zero_size(nt::Tensor x) {
  return nt::arrange(x.tile({0})); // expected-error {{tile: tile size 0 of dimension 0 must be positive (or -1 for the whole extent)}}
}

NT_ARRANGEMENT auto negative_size(nt::Tensor x) {
  return nt::arrange(x.tile({4, -2})); // expected-error {{tile: tile size -2 of dimension 1 must be positive (or -1 for the whole extent)}}
}

NT_ARRANGEMENT auto zero_stride(nt::Tensor x) {
  return nt::arrange(x.tile({2}, {0})); // expected-error {{tile: stride 0 of dimension 0 must be positive (or -1 for the tile size)}}
}

NT_ARRANGEMENT auto zero_dilation(nt::Tensor x) {
  return nt::arrange(x.tile({2}, {}, {0})); // expected-error {{tile: dilation 0 of dimension 0 must be positive}}
}

NT_ARRANGEMENT auto pad_pairs(nt::Tensor x) {
  return nt::arrange(x.pad({{1, 1}, {1, 1}})); // expected-error {{pad: 2 (left, right) pairs given but the tensor has rank 1; give one pair per dimension}}
}

NT_ARRANGEMENT auto slice_zero_step(nt::Tensor x) {
  return nt::arrange(x.slice(0, 0, 4, 0)); // expected-error {{slice: step 0 must be a non-zero compile-time constant}}
}

NT_ARRANGEMENT auto slice_runtime_step(nt::Tensor x) {
  return nt::arrange(x.slice(0, nt::none, nt::none, x.shape(0))); // expected-error {{slice: step x_size_0 must be a non-zero compile-time constant}}
}

NT_ARRANGEMENT auto axes_count(nt::Tensor x) {
  return nt::arrange(x.axes("m", "n")); // expected-error {{axes: 2 names given but the tensor has rank 1}}
}

NT_ARRANGEMENT auto axes_repeated(nt::Tensor x) {
  return nt::arrange(x.axes("m", "m")); // expected-error {{axes: axis name 'm' is used twice}}
}

NT_APPLICATION void app(nt::Tile x) { x = x + 1; }

NT_KERNEL(zero_size, zero_size, app, nt::Tensor(1, nt::float32));
NT_KERNEL(negative_size, negative_size, app, nt::Tensor(2, nt::float32));
NT_KERNEL(zero_stride, zero_stride, app, nt::Tensor(1, nt::float32));
NT_KERNEL(zero_dilation, zero_dilation, app, nt::Tensor(1, nt::float32));
NT_KERNEL(pad_pairs, pad_pairs, app, nt::Tensor(1, nt::float32));
NT_KERNEL(slice_zero_step, slice_zero_step, app, nt::Tensor(1, nt::float32));
NT_KERNEL(slice_runtime_step, slice_runtime_step, app, nt::Tensor(1, nt::float32));
NT_KERNEL(axes_count, axes_count, app, nt::Tensor(1, nt::float32));
NT_KERNEL(axes_repeated, axes_repeated, app, nt::Tensor(2, nt::float32));

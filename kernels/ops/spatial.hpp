// spatial.hpp: the window arrangement shared by max_pool2d.cpp and avg_pool2d.cpp (ntops'
// pooling.py), in ceil mode with PyTorch's rule for the last window.
//
// The padded NCHW input is cut into window × window tiles moved by `stride` in ceil mode, so a
// last window may overhang the padded input (its missing elements are masked and read the
// input's `other`). The window level is then sliced to the output's extents: PyTorch's ceil mode
// drops a last window that would start in the right padding, and its floor mode keeps a prefix
// of the ceil-mode windows, so the output tensor's size (computed by the caller with
// torch.nn.functional's formula) selects the windows. One program takes BLOCK output elements,
// in row-major (n, c, p, q) order, with their windows as rows of a (BLOCK, window²) tile.

#ifndef NTC_KERNELS_OPS_SPATIAL_HPP
#define NTC_KERNELS_OPS_SPATIAL_HPP

#include <ntc/dsl.hpp>

inline constexpr nt::Symbol POOL2D_BLOCK = nt::block_size("POOL2D_BLOCK_SIZE", 32, 128);

// input: (⌈N·C·P·Q/BLOCK⌉, 1) -> (BLOCK, window²); output: (⌈N·C·P·Q/BLOCK⌉, 1) -> (BLOCK,).
NT_ARRANGEMENT inline auto pool2d_arrangement(nt::Tensor input, nt::Tensor output,
                                              nt::Tensor window, nt::Tensor stride,
                                              nt::Tensor padding) {
  auto windows = input.pad({{0, 0}, {0, 0}, {padding, padding}, {padding, padding}})
                     .tile({1, 1, window, window}, {-1, -1, stride, stride});
  windows = windows.slice(2, 0, output.shape(2)).slice(3, 0, output.shape(3));
  auto input_rows = windows.ravel().flatten(0, 4).flatten(1).tile({POOL2D_BLOCK, -1});

  auto output_rows =
      output.tile({1, 1, 1, 1}).ravel().flatten(0, 4).flatten(1).tile({POOL2D_BLOCK, -1});
  output_rows.dtype() = output_rows.dtype().squeeze(1);
  return nt::arrange(input_rows, output_rows, window, stride, padding);
}

// The launch-time options of both poolings (one kernel variant per combination): square
// windows of 2 or 3, strides 1 or 2, padding 0 or 1 on every side.
#define POOL2D_OPTIONS                                                                             \
  nt::Constexpr("window", {2, 3}), nt::Constexpr("stride", {1, 2}), nt::Constexpr("padding", {0, 1})

#endif // NTC_KERNELS_OPS_SPATIAL_HPP

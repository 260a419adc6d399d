// max_pool2d: the largest element of each window × window window of an NCHW tensor, windows
// `stride` apart over the input padded by `padding` (padding never wins: it reads −∞):
// torch.nn.functional.max_pool2d(input, window, stride, padding, ceil_mode=True) when the output
// has ceil mode's size, ceil_mode=False when it has floor mode's (spatial.hpp; dilation 1).
//
//   input (N, C, H, W) -> output (N, C, P, Q),
//   P = ⌈(H + 2·padding − window) / stride⌉ + 1, minus 1 when that last window would start at or
//   after H + padding (PyTorch's ceil mode); ⌊…⌋ + 1 in floor mode. Q likewise from W.
//
// window ∈ {2, 3}, stride ∈ {1, 2}, padding ∈ {0, 1} are launch-time nt::Constexpr values.

#include "spatial.hpp"

#include <limits>

NT_APPLICATION void max_pool2d_application(nt::Tile input, nt::Tile output, nt::Tile window,
                                           nt::Tile stride, nt::Tile padding) {
  output = ntl::max(input, 1);
}

NT_KERNEL(max_pool2d_f32, pool2d_arrangement, max_pool2d_application,
          nt::Tensor(4, nt::float32).other(-std::numeric_limits<double>::infinity()),
          nt::Tensor(4, nt::float32), POOL2D_OPTIONS);

NT_KERNEL(max_pool2d_f16, pool2d_arrangement, max_pool2d_application,
          nt::Tensor(4, nt::float16).other(-std::numeric_limits<double>::infinity()),
          nt::Tensor(4, nt::float16), POOL2D_OPTIONS);

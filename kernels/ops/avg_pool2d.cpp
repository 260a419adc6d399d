// avg_pool2d: the mean of each window × window window of an NCHW tensor, windows `stride` apart
// over the input padded by `padding` with zeros: torch.nn.functional.avg_pool2d(input, window,
// stride, padding, ceil_mode=True, count_include_pad=True) when the output has ceil mode's size,
// ceil_mode=False when it has floor mode's (spatial.hpp).
//
//   input (N, C, H, W) -> output (N, C, P, Q), P and Q as in max_pool2d.cpp.
//
// The divisor is count_include_pad=True's, PyTorch's: the window's elements that lie inside the
// padded input [−padding, H + padding) × [−padding, W + padding), so the padding counts (as
// zeros) but the part of a ceil-mode window that overhangs the padding does not. Sums are
// float32 (also for float16 inputs). window ∈ {2, 3}, stride ∈ {1, 2}, padding ∈ {0, 1} are
// launch-time nt::Constexpr values.

#include "spatial.hpp"

NT_APPLICATION void avg_pool2d_application(nt::Tile input, nt::Tile output, nt::Tile window,
                                           nt::Tile stride, nt::Tile padding) {
  auto in_padded_input = (input.offsets(2) < input.source().shape(2) + padding) &
                         (input.offsets(3) < input.source().shape(3) + padding);
  auto divisor = ntl::sum(ntl::where(in_padded_input, 1.0, 0.0), 1);
  output = ntl::sum(input.to(ntl::float32), 1) / divisor;
}

NT_KERNEL(avg_pool2d_f32, pool2d_arrangement, avg_pool2d_application, nt::Tensor(4, nt::float32),
          nt::Tensor(4, nt::float32), POOL2D_OPTIONS);

NT_KERNEL(avg_pool2d_f16, pool2d_arrangement, avg_pool2d_application, nt::Tensor(4, nt::float16),
          nt::Tensor(4, nt::float16), POOL2D_OPTIONS);

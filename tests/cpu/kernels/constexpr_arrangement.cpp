// nt::Constexpr parameters used as integers of an arrangement: a 2-D max pool whose window and
// stride (ceil mode) and a dilated 2×2 max whose dilation are launch-time constants, one variant
// per listed value (ntops writes max_pool2d and conv2d this way).

#include <ntc/dsl.hpp>

#include <limits>

NT_ARRANGEMENT auto pool_arrangement(nt::Tensor input, nt::Tensor output, nt::Tensor window,
                                     nt::Tensor stride) {
  return nt::arrange(input.tile({window, window}, {stride, stride}), output.tile({1, 1}), window,
                     stride);
}

NT_APPLICATION void pool_application(nt::Tile input, nt::Tile output, nt::Tile window,
                                     nt::Tile stride) {
  output = ntl::max(input);
}

NT_KERNEL(max_pool_constexpr, pool_arrangement, pool_application,
          nt::Tensor(2, nt::float32).other(-std::numeric_limits<double>::infinity()),
          nt::Tensor(2, nt::float32), nt::Constexpr("window", {2, 3}),
          nt::Constexpr("stride", {1, 2, 3}));

NT_ARRANGEMENT auto dilated_arrangement(nt::Tensor input, nt::Tensor output,
                                        nt::Tensor dilation) {
  return nt::arrange(input.tile({2, 2}, {1, 1}, {dilation, dilation}), output.tile({1, 1}),
                     dilation);
}

NT_APPLICATION void dilated_application(nt::Tile input, nt::Tile output, nt::Tile dilation) {
  output = ntl::max(input);
}

NT_KERNEL(dilated_max_constexpr, dilated_arrangement, dilated_application,
          nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float32),
          nt::Constexpr("dilation", {1, 2}));

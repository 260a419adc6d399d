// tile() with strides, dilation and floor_mode (NineToothed's worked examples on a (7,) tensor).
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto strided(nt::Tensor x) { return nt::arrange(x.tile({3}, {2})); }
NT_ARRANGEMENT auto dilated(nt::Tensor x) { return nt::arrange(x.tile({3}, {}, {2})); }
NT_ARRANGEMENT auto floored(nt::Tensor x) { return nt::arrange(x.tile({3}, {}, {}, true)); }
NT_ARRANGEMENT auto all_three(nt::Tensor x) { return nt::arrange(x.tile({3}, {2}, {2}, true)); }
// A stride of -1 means "the tile size".
NT_ARRANGEMENT auto default_stride(nt::Tensor x) { return nt::arrange(x.tile({3}, {-1})); }

NT_APPLICATION void application(nt::Tile x) { x = x + 1; }

NT_KERNEL(strided, strided, application, nt::Tensor(1, nt::float32));
NT_KERNEL(dilated, dilated, application, nt::Tensor(1, nt::float32));
NT_KERNEL(floored, floored, application, nt::Tensor(1, nt::float32));
NT_KERNEL(all_three, all_three, application, nt::Tensor(1, nt::float32));
NT_KERNEL(default_stride, default_stride, application, nt::Tensor(1, nt::float32));

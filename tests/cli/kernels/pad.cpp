// pad() grows a dimension with masked elements; tiling the padded tensor masks whole tiles.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto padded(nt::Tensor x) { return nt::arrange(x.pad({{1, 2}})); }
NT_ARRANGEMENT auto padded_tiled(nt::Tensor x) { return nt::arrange(x.pad({{1, 2}}).tile({4})); }
// Negative padding crops.
NT_ARRANGEMENT auto cropped(nt::Tensor x) { return nt::arrange(x.pad({{-1, -1}})); }

NT_APPLICATION void application(nt::Tile x) { x = x + 1; }

NT_KERNEL(padded, padded, application, nt::Tensor(1, nt::float32));
NT_KERNEL(padded_tiled, padded_tiled, application, nt::Tensor(1, nt::float32));
NT_KERNEL(cropped, cropped, application, nt::Tensor(1, nt::float32));

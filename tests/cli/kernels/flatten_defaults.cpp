// flatten()'s defaults: start 0 and "through the last dim" (the header's `end = -1` is only a
// "not given" sentinel), so x.flatten() merges every dim and x.flatten(1) merges dims 1 to the
// end (NineToothed: start_dim=None -> 0, end_dim=None -> ndim).
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto all_dims(nt::Tensor x) { return nt::arrange(x.flatten()); }
NT_ARRANGEMENT auto from_one(nt::Tensor x) { return nt::arrange(x.flatten(1)); }

NT_APPLICATION void application(nt::Tile x) { x = x + 1; }

NT_KERNEL(all_dims, all_dims, application, nt::Tensor(3, nt::float32));
NT_KERNEL(from_one, from_one, application, nt::Tensor(3, nt::float32));

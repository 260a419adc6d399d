// A second kernel named `vector` (vector.cpp has the first): one ntc run cannot hold both.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto halves(nt::Tensor x) { return nt::arrange(x.tile({2})); }

NT_APPLICATION void twice(nt::Tile x) { x = x + x; }

NT_KERNEL(vector, halves, twice, nt::Tensor(1, nt::float32));

// An arrangement and an application but no NT_KERNEL: nothing to compile.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto vector_arrangement(nt::Tensor x) { return nt::arrange(x.tile({4})); }

NT_APPLICATION void vector_application(nt::Tile x) { x = x + 1; }

// vector.cpp as a .cu file: ntc reads every input as C++ (no CUDA headers needed).
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto vector_arrangement(nt::Tensor x) { return nt::arrange(x.tile({4})); }

NT_APPLICATION void vector_application(nt::Tile x) { x = x + 1; }

NT_KERNEL(vector, vector_arrangement, vector_application, nt::Tensor(1, nt::float32));

// use-tensor-maps (passes/UseTensorMaps.cpp) needs sm_90a among the architectures compiled:
// without it, the knob tma=1 adds no program, and the dispatcher encodes no tensor map.

#include "two_products.hpp"

NT_KERNEL(mapped, rows, two_products, nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64));

// NTC-ARGS: --cuda-arch 80,86 --kernel mapped --config stages=3,tma=1

// CU-NOT: tensor_map_driver
// CU: ntc_mapped_program2_vec(
// CU-NOT: _tma
// CU-NOT: encode_tma
// CU-LABEL: ntc_status_t mapped(

// take-turns (passes/TakeTurns.cpp) leaves a program of one warpgroup (64-row blocks) alone:
// there is no one to take turns with, so its products carry no turn even with turns=1. (The
// knob is not in the tuner's space until it has been measured on a GPU: --config only.)

#include "two_products.hpp"

NT_KERNEL(narrow, rows, two_products,
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64));

// NTC-ARGS: --cuda-arch 90a --config stages=2,tma=1,turns=1

// clang-format off
// GIR-LABEL: IR after take-turns (ntc_narrow_program2_tma)
// GIR: for i in range(0,
// GIR-NOT: turn=
// GIR: store o[]

// CU-LABEL: ntc_narrow_program2_tma(const ntc_narrow_args ntc_args
// CU-NOT: ntc::dev::turn<
// CU: ntc::dev::tma_store<
// clang-format on

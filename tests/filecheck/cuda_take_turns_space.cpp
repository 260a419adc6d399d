// The tuner's space on sm_90a offers take-turns (knob turns=1, passes/TakeTurns.cpp) for the TMA
// ring of a program of two warpgroups (128-row blocks) at every stage count, with the barrier
// (not with released stages, whose waits are no barriers); a program of one warpgroup (64-row
// blocks) has no one to take turns with and is not offered the knob.

#include "two_products.hpp"

NT_ARRANGEMENT auto wide_rows(nt::Tensor q, nt::Tensor k, nt::Tensor v, nt::Tensor o) {
  auto q_tiled = q.tile({128, -1});
  auto keys = [&](nt::Tensor t) {
    auto tiled = t.tile({64, -1}).tile({-1, -1}).expand({q_tiled.shape(0), -1});
    tiled.dtype() = tiled.dtype().squeeze({1});
    return tiled;
  };
  return nt::arrange(q_tiled, keys(k), keys(v), o.tile({128, -1}));
}

NT_KERNEL(turned, wide_rows, two_products,
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64));

NT_KERNEL(narrow, rows, two_products,
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64));

// NTC-ARGS: --cuda-arch 90a

// LIST-LABEL: # turned:
// LIST: turned stages=2,tma=1,turns=1
// LIST-NOT: release=1,turns=1
// LIST: turned stages=3,tma=1,turns=1
// LIST-NOT: release=1,turns=1
// LIST: turned stages=4,tma=1,turns=1
// LIST-LABEL: # narrow:
// LIST-NOT: turns

// The arrangement of the FileCheck tests of 128-row attention programs (two warpgroups): q in
// row blocks of 128, each of which sees every 64-row block of k and v,
// (⌈M/128⌉,) -> (⌈N/64⌉,) -> (64, D) (cuda_min_blocks.cpp, cuda_take_turns.cpp).
#pragma once

#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto query_blocks(nt::Tensor q, nt::Tensor k, nt::Tensor v, nt::Tensor o) {
  auto q_tiled = q.tile({128, -1});
  auto keys = [&](nt::Tensor t) {
    auto tiled = t.tile({64, -1}).tile({-1, -1}).expand({q_tiled.shape(0), -1});
    tiled.dtype() = tiled.dtype().squeeze({1});
    return tiled;
  };
  return nt::arrange(q_tiled, keys(k), keys(v), o.tile({128, -1}));
}

// The arrangement of the attention-like FileCheck tests: q in row blocks of 64, and every row
// block of q sees all of k and v, (⌈M/64⌉, 1) -> (⌈N/64⌉,) -> (64, D).
#pragma once

#include <ntc/dsl.hpp>

inline nt::Tensor every_block(nt::Tensor input, nt::Tensor q_tiled) {
  auto tiled = input.tile({64, -1}).tile({-1, -1}).expand({q_tiled.shape(0), -1});
  tiled.dtype() = tiled.dtype().squeeze({1});
  return tiled;
}

NT_ARRANGEMENT auto rows(nt::Tensor q, nt::Tensor k, nt::Tensor v, nt::Tensor o) {
  auto q_tiled = q.tile({64, -1});
  return nt::arrange(q_tiled, every_block(k, q_tiled), every_block(v, q_tiled), o.tile({64, -1}));
}

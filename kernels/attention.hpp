// The arrangement of FlashAttention-style kernels over (batch, heads, sequence, head_dim)
// tensors, as NineToothed's tests/test_attention.py writes it: one program per `block_m` query
// rows of one head, which walks the keys and values `block_n` rows at a time. Shared by
// kernels/attention.cpp and kernels/ops/scaled_dot_product_attention.cpp.
#pragma once

#include <ntc/dsl.hpp>

// (B, H, ⌈S/block_m⌉, 1) -> (block_m, D)
inline nt::Tensor arrange_q_or_o(nt::Tensor input, nt::Symbol block_m) {
  auto arranged = input.tile({1, 1, block_m, -1});
  arranged.dtype() = arranged.dtype().squeeze({0, 1});
  return arranged;
}

// (B, H, ⌈S/block_m⌉, 1) -> (⌈S/block_n⌉,) -> (block_n, D): every query block sees all key/value
// blocks.
inline nt::Tensor arrange_k_or_v(nt::Tensor input, nt::Tensor q_arranged, nt::Symbol block_n) {
  auto arranged = input.tile({1, 1, block_n, -1})
                      .tile({1, 1, -1, -1})
                      .expand({-1, -1, q_arranged.shape(-2), -1});
  arranged.dtype() = arranged.dtype().squeeze({0, 1, 3});
  arranged.dtype().dtype() = arranged.dtype().dtype().squeeze({0, 1});
  return arranged;
}

// bmm: batched `output[b] = lhs[b] @ rhs[b]` for float16 tensors with float32 accumulation,
// arranged with named axes (docs/named-axes.md); the application is matmul.hpp's, unchanged.
//
//   bmm:            lhs (B, M, K) x rhs (B, K, N) -> output (B, M, N)
//   bmm_shared_rhs: lhs (B, M, K) x rhs    (K, N) -> output (B, M, N), one rhs for the batch
//
// The output's axes (b, m, n) are the program axes: one program per batch element and
// BM x BN tile. The batch axis is tiled by 1, so the program indexes it and it is not a tile
// dimension: tiles are the 2-D (BM, BK), (BK, BN) and (BM, BN) that ntl::dot takes. k becomes
// the level walked by lhs[k] and rhs[k]. In bmm_shared_rhs rhs has no b: every batch element
// reads the same rhs tiles (stride 0). No expand or squeeze is written by hand.

#include "matmul.hpp"

// lhs: (B, ⌈M/BM⌉, ⌈N/BN⌉) -> (⌈K/BK⌉,) -> (BM, BK); rhs: (B, ⌈M/BM⌉, ⌈N/BN⌉) -> (⌈K/BK⌉,) ->
// (BK, BN); output: (B, ⌈M/BM⌉, ⌈N/BN⌉) -> (BM, BN).
NT_ARRANGEMENT auto bmm_arrangement(nt::Tensor lhs, nt::Tensor rhs, nt::Tensor output) {
  return nt::arrange(lhs.axes("b", "m", "k").tile({1, BM, BK}),
                     rhs.axes("b", "k", "n").tile({1, BK, BN}),
                     output.axes("b", "m", "n").tile({1, BM, BN}));
}

// The same with a 2-D rhs: its level 0 is (B, ⌈M/BM⌉, ⌈N/BN⌉) too, broadcast along b and m.
NT_ARRANGEMENT auto bmm_shared_rhs_arrangement(nt::Tensor lhs, nt::Tensor rhs, nt::Tensor output) {
  return nt::arrange(lhs.axes("b", "m", "k").tile({1, BM, BK}), rhs.axes("k", "n").tile({BK, BN}),
                     output.axes("b", "m", "n").tile({1, BM, BN}));
}

NT_KERNEL(bmm, bmm_arrangement, mm_application, nt::Tensor(3, nt::float16),
          nt::Tensor(3, nt::float16), nt::Tensor(3, nt::float16));

NT_KERNEL(bmm_shared_rhs, bmm_shared_rhs_arrangement, mm_application, nt::Tensor(3, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(3, nt::float16));

// default-metas for attention's chain of two products outside GEMM loops: the default keeps
// only block sizes whose largest variant (head dimension at its upper bound, 128) compiles.
// With a key block of up to 128 rows, float16 attention takes 64 query rows (one warpgroup) and
// the largest key block that still leaves room for two programs per SM (64: 128 keys need
// 144 KiB); float32 products are not warpgroup products, so its block sizes grow towards 128
// and then shrink, the key block first (grown most above its lower bound), until the program
// fits a block's shared memory (128×128 needs 192 KiB).

#include "online_softmax.hpp"

constexpr nt::Symbol BM = nt::block_size("BLOCK_SIZE_M", 64, 128);
constexpr nt::Symbol BN = nt::block_size("BLOCK_SIZE_N", 32, 128);

inline nt::Tensor query_rows(nt::Tensor input) {
  auto arranged = input.tile({1, 1, BM, -1});
  arranged.dtype() = arranged.dtype().squeeze({0, 1});
  return arranged;
}

inline nt::Tensor key_rows(nt::Tensor input, nt::Tensor q_arranged) {
  auto arranged =
      input.tile({1, 1, BN, -1}).tile({1, 1, -1, -1}).expand({-1, -1, q_arranged.shape(-2), -1});
  arranged.dtype() = arranged.dtype().squeeze({0, 1, 3});
  arranged.dtype().dtype() = arranged.dtype().dtype().squeeze({0, 1});
  return arranged;
}

NT_ARRANGEMENT auto wide_keys(nt::Tensor q, nt::Tensor k, nt::Tensor v, nt::Tensor o) {
  auto q_arranged = query_rows(q);
  return nt::arrange(q_arranged, key_rows(k, q_arranged), key_rows(v, q_arranged), query_rows(o));
}

NT_KERNEL(wide_f16, wide_keys, online_softmax,
          nt::Tensor(4, nt::float16).constexpr_dim(3).upper_bound(3, 128),
          nt::Tensor(4, nt::float16).constexpr_dim(3).upper_bound(3, 128),
          nt::Tensor(4, nt::float16).constexpr_dim(3).upper_bound(3, 128),
          nt::Tensor(4, nt::float16).constexpr_dim(3).upper_bound(3, 128));

NT_KERNEL(wide_f32, wide_keys, online_softmax,
          nt::Tensor(4, nt::float32).constexpr_dim(3).upper_bound(3, 128),
          nt::Tensor(4, nt::float32).constexpr_dim(3).upper_bound(3, 128),
          nt::Tensor(4, nt::float32).constexpr_dim(3).upper_bound(3, 128),
          nt::Tensor(4, nt::float32).constexpr_dim(3).upper_bound(3, 128));

// LIST: wide_f16 BLOCK_SIZE_M=64,BLOCK_SIZE_N=64 default
// LIST: wide_f32 BLOCK_SIZE_M=128,BLOCK_SIZE_N=64 default
// CU: // wide_f16 with BLOCK_SIZE_M=64 BLOCK_SIZE_N=64 NP2_128=128
// CU: // wide_f32 with BLOCK_SIZE_M=128 BLOCK_SIZE_N=64 NP2_128=128

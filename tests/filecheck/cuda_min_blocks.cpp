// choose-min-blocks (passes/ChooseMinBlocks.cpp) on attention's 128×64 step at head dimension
// 128: the loop carries 66 registers per thread (the 128×128 float accumulator and two row
// statistics) and defines 32-register locals (the scores and probabilities of a step). Twice the
// carried tiles (132) exceeds the 128 registers of two programs per SM; carried plus the largest
// local plus 24 scalars (122) fits, so the TMA program asks for two. The programs whose threads
// issue the copies themselves keep 40 registers for addresses and masks (138): no request, as
// ptxas spills them under the cap.

#include <ntc/dsl.hpp>

#include <limits>

NT_ARRANGEMENT auto query_blocks(nt::Tensor q, nt::Tensor k, nt::Tensor v, nt::Tensor o) {
  auto q_tiled = q.tile({128, -1});
  auto keys = [&](nt::Tensor t) {
    auto tiled = t.tile({64, -1}).tile({-1, -1}).expand({q_tiled.shape(0), -1});
    tiled.dtype() = tiled.dtype().squeeze({1});
    return tiled;
  };
  return nt::arrange(q_tiled, keys(k), keys(v), o.tile({128, -1}));
}

NT_APPLICATION void online_softmax(nt::Tile q, nt::Tile k, nt::Tile v, nt::Tile o) {
  auto acc = ntl::zeros({q.shape(-2), q.shape(-1)}, ntl::float32);
  auto l_i = ntl::full({q.shape(-2)}, 1, ntl::float32);
  auto m_i = ntl::full({q.shape(-2)}, -std::numeric_limits<double>::infinity(), ntl::float32);
  for (int i = 0; i < k.shape(0); ++i) {
    auto qk = ntl::dot(q, ntl::trans(k[i]));
    auto m_ij = ntl::maximum(m_i, ntl::max(qk, 1));
    auto p = ntl::exp2(qk - ntl::expand_dims(m_ij, 1));
    auto alpha = ntl::exp2(m_i - m_ij);
    acc = acc * ntl::expand_dims(alpha, 1) + ntl::dot(p.to(ntl::float16), v[i]);
    l_i = l_i * alpha + ntl::sum(p, 1);
    m_i = m_ij;
  }
  o = acc / ntl::expand_dims(l_i, 1);
}

NT_KERNEL(step, query_blocks, online_softmax,
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 128),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 128),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 128),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 128));

// NTC-ARGS: --cuda-arch 90a --config stages=2,tma=1

// clang-format off
// CU-LABEL: // step with NP2_128=128; 256 threads
// CU-NEXT: template <class Index>
// CU-NEXT: __global__ void __launch_bounds__(256) ntc_step_program{{[0-9]+}}(
// CU: // step with NP2_128=128; 256 threads{{.*}}; vector accesses
// CU-NEXT: template <class Index>
// CU-NEXT: __global__ void __launch_bounds__(256) ntc_step_program{{[0-9]+}}_vec(
// CU: // step with NP2_128=128; 256 threads{{.*}}; pipelined copies by TMA
// CU: template <class Index>
// CU-NEXT: __global__ void __launch_bounds__(256, sizeof(Index) == 4 ? 2 : 1) ntc_step_program{{[0-9]+}}_tma(
// clang-format on

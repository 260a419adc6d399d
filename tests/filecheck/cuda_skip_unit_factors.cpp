// skip-unit-factors (passes/SkipUnitFactors.cpp): the product that rescales a loop-carried
// accumulator by per-row factors (`acc = acc * expand_dims(alpha, 1) + ...`, the factor on
// either side) is marked unless_one and printed as ntc::dev::mul_unless_one, which a warp skips
// where its factors are all one; the factor becomes the second operand. Not marked: a product
// of a value the loop does not carry, a product after the loop, and the rescale of a tile whose
// threads hold fewer than 64 elements each (head dimension 64 with 128 threads: 32).

#include "every_block.hpp"
#include "online_softmax.hpp"

// The factor on the left; a product of the iteration's own values; a product after the loop.
NT_APPLICATION void factor_first(nt::Tile q, nt::Tile k, nt::Tile v, nt::Tile o) {
  auto acc = ntl::zeros({q.shape(-2), q.shape(-1)}, ntl::float32);
  auto m_i = ntl::full({q.shape(-2)}, -std::numeric_limits<double>::infinity(), ntl::float32);
  for (int i = 0; i < k.shape(0); ++i) {
    auto qk = ntl::dot(q, ntl::trans(k[i]));
    auto m_ij = ntl::maximum(m_i, ntl::max(qk, 1));
    auto alpha = ntl::exp2(m_i - m_ij);
    auto p = ntl::exp2(qk - ntl::expand_dims(m_ij, 1)) * ntl::expand_dims(alpha, 1);
    acc = ntl::expand_dims(alpha, 1) * acc + ntl::dot(p.to(v[i].dtype()), v[i]);
    m_i = m_ij;
  }
  o = acc * ntl::expand_dims(m_i, 1);
}

NT_KERNEL(online, rows, online_softmax,
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 128),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 128),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 128),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 128));
NT_KERNEL(first, rows, factor_first,
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 128),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 128),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 128),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 128));

// NTC-ARGS: --cuda-arch 90a

// clang-format off
// GIR-LABEL: skip-unit-factors, {{.*}}(ntc_online_program2,
// GIR-NOT: unless_one
// GIR: -----//
// GIR-LABEL: skip-unit-factors, {{.*}}(ntc_online_program3,
// GIR: %acc <- dot({{.*}}, mul(%acc : float32[64, 128] #mma<4x1>, expand_dims(%alpha : float32[64] #slice<#mma<4x1>, dim=1>, 1) : float32[64, 1] #slice<#mma<4x1>, dim=1>, unless_one) : float32[64, 128] #mma<4x1>
// GIR-LABEL: skip-unit-factors, {{.*}}(ntc_first_program3,
// GIR: %p = mul(exp2(
// GIR-NOT: unless_one
// GIR: %acc <- dot({{.*}}, mul(%acc : float32[64, 128] #mma<4x1>, expand_dims(%alpha : float32[64] #slice<#mma<4x1>, dim=1>, 1) : float32[64, 1] #slice<#mma<4x1>, dim=1>, unless_one) : float32[64, 128] #mma<4x1>
// GIR-NOT: unless_one
// GIR: store o[] {{.*}}<- mul(%acc
// GIR-NOT: unless_one
// GIR: -----//

// CU-LABEL: // online with NP2_128=64
// CU-NOT: mul_unless_one
// CU-LABEL: // online with NP2_128=128
// CU: t_acc = ntc::dev::dot<float>({{.*}}, ntc::dev::mul_unless_one(t_acc, ntc::dev::broadcast_to<ntc::dev::Shape<64, 128>>(ntc::dev::expand_dims<1>(t_alpha), ntc_smem)), ntc_smem
// CU-LABEL: // first with NP2_128=128
// CU-NOT: mul_unless_one
// CU: t_acc = ntc::dev::dot<float>({{.*}}, ntc::dev::mul_unless_one(t_acc, ntc::dev::broadcast_to<ntc::dev::Shape<64, 128>>(ntc::dev::expand_dims<1>(t_alpha), ntc_smem)), ntc_smem
// CU-NOT: mul_unless_one
// CU: ntc::dev::store
// clang-format on

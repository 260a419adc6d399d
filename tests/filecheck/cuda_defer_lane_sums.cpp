// defer-lane-sums (passes/DeferLaneSums.cpp): the row sums that an online softmax carries
// through its loop (`l = l * alpha + sum(p, 1)`, read only after the loop) stay lane shares
// inside it: the sum leaves out the shuffles across the four lanes of a row
// (sum_lane_partial), the carried local starts as shares of its value, and one conversion after
// the loop adds them up for the statements that follow. A sum that the loop reads, and a
// carried maximum, keep their reductions across lanes.

#include "every_block.hpp"
#include "online_softmax.hpp"

// The running sum is read inside the loop (to normalize the accumulator): every step needs the
// whole sums.
NT_APPLICATION void read_in_loop(nt::Tile q, nt::Tile k, nt::Tile v, nt::Tile o) {
  auto acc = ntl::zeros({q.shape(-2), q.shape(-1)}, ntl::float32);
  auto l_i = ntl::full({q.shape(-2)}, 1, ntl::float32);
  for (int i = 0; i < k.shape(0); ++i) {
    auto p = ntl::exp2(ntl::dot(q, ntl::trans(k[i])));
    l_i = l_i + ntl::sum(p, 1);
    acc = acc + ntl::dot(p.to(ntl::float16), v[i]) / ntl::expand_dims(l_i, 1);
  }
  o = acc;
}

NT_KERNEL(online, rows, online_softmax,
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64));
NT_KERNEL(read_sum, rows, read_in_loop,
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64));

// NTC-ARGS: --cuda-arch 90a

// clang-format off
// GIR-LABEL: defer-lane-sums, {{.*}}(ntc_online_program2,
// GIR: %l_i = convert_layout(full(1) : float32[64] #slice<#mma<4x1>, dim=1>) : float32[64] #lane_partial<#slice<#mma<4x1>, dim=1>>
// GIR: %m_ij = maximum(%m_i : float32[64] #slice<#mma<4x1>, dim=1>, max(
// GIR: %l_ij = sum(%p : float32[64, 64] #mma<4x1>, axis=1) : float32[64] #lane_partial<#slice<#mma<4x1>, dim=1>>
// GIR: %l_i <- add(mul(%l_i : float32[64] #lane_partial<#slice<#mma<4x1>, dim=1>>, %alpha : float32[64] #slice<#mma<4x1>, dim=1>) : float32[64] #lane_partial<#slice<#mma<4x1>, dim=1>>, %l_ij : float32[64] #lane_partial<#slice<#mma<4x1>, dim=1>>) : float32[64] #lane_partial<#slice<#mma<4x1>, dim=1>>
// GIR: %ntc_lanes_l_i = convert_layout(%l_i : float32[64] #lane_partial<#slice<#mma<4x1>, dim=1>>) : float32[64] #slice<#mma<4x1>, dim=1>
// GIR-NEXT: store o[] {{.*}}<- div(%acc : float32[64, 64] #mma<4x1>, expand_dims(%ntc_lanes_l_i : float32[64] #slice<#mma<4x1>, dim=1>, 1)
// GIR-LABEL: defer-lane-sums, {{.*}}(ntc_read_sum_program2,
// GIR-NOT: lane_partial
// GIR: %l_i <- add(%l_i : float32[64] #slice<#mma<4x1>, dim=1>, sum(
// GIR-NOT: lane_partial
// GIR: -----//

// CU-LABEL: // online with NP2_64=64
// CU: auto t_l_i = ntc::dev::convert_layout<ntc::dev::LanePartial<ntc::dev::Slice<ntc::dev::Mma<4, 1>, 1>>, false>(ntc::dev::full<float, ntc::dev::Shape<64>, ntc::dev::Slice<ntc::dev::Mma<4, 1>, 1>>(ntc::dev::convert<float>(1.0)), ntc_smem);
// CU: auto t_m_ij = ntc::dev::maximum(t_m_i, ntc::dev::cast<float>(ntc::dev::max<1>(t_qk, ntc_smem)));
// CU: auto t_l_ij = ntc::dev::cast<float>(ntc::dev::sum_lane_partial<1>(t_p));
// CU: t_l_i = ((t_l_i * t_alpha) + t_l_ij);
// CU: auto t_ntc_lanes_l_i = ntc::dev::convert_layout<ntc::dev::Slice<ntc::dev::Mma<4, 1>, 1>, false>(t_l_i, ntc_smem);
// CU-LABEL: // read_sum with NP2_64=64
// CU-NOT: lane_partial
// CU: ntc::dev::sum<1>(
// clang-format on

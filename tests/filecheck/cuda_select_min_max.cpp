// select-min-max (passes/SelectMinMax.cpp): with the knob minmax=1 every elementwise maximum and
// minimum of floats compiles to one max.NaN/min.NaN instruction (ntc::dev::maximum_instruction);
// integer ones keep the library's form (the default keeps NaN tests and branches:
// cuda_defer_lane_sums.cpp checks `ntc::dev::maximum(`; cuda_select_min_max_space.cpp the
// tuner's space).

#include "every_block.hpp"

#include <limits>

NT_APPLICATION void running_max(nt::Tile q, nt::Tile k, nt::Tile v, nt::Tile o) {
  auto acc = ntl::zeros({q.shape(-2), q.shape(-1)}, ntl::float32);
  auto m_i = ntl::full({q.shape(-2)}, -std::numeric_limits<double>::infinity(), ntl::float32);
  auto floor = ntl::full({q.shape(-2)}, 0, ntl::int32);
  for (int i = 0; i < k.shape(0); ++i) {
    auto qk = ntl::dot(q, ntl::trans(k[i]));
    auto m_ij = ntl::maximum(m_i, ntl::max(qk, 1));
    acc = acc + ntl::dot(ntl::exp2(qk - ntl::expand_dims(m_ij, 1)).to(ntl::float16), v[i]);
    m_i = ntl::minimum(m_ij, 100.0);
    floor = ntl::maximum(floor, i);
  }
  o = acc / ntl::expand_dims(m_i + floor, 1);
}

NT_KERNEL(running, rows, running_max,
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64));

// NTC-ARGS: --cuda-arch 90a --config stages=2,tma=1,minmax=1

// clang-format off
// GIR-LABEL: select-min-max, {{.*}}(ntc_running_program2,
// GIR: %m_ij = maximum(%m_i : float32[64] #slice<#mma<4x1>, dim=1>, max({{.*}}, one_instruction) : float32[64] #slice<#mma<4x1>, dim=1>
// GIR: %m_i <- minimum(%m_ij : float32[64] #slice<#mma<4x1>, dim=1>, 100 : float32[], one_instruction)
// GIR-NOT: one_instruction
// GIR: %floor <- maximum(%floor : int32[64]
// GIR-NOT: one_instruction
// GIR: -----//

// CU-LABEL: // running with NP2_64=64
// CU: auto t_m_ij = ntc::dev::maximum_instruction(t_m_i, ntc::dev::cast<float>(ntc::dev::max<1>(t_qk, ntc_smem)));
// CU: t_m_i = ntc::dev::minimum_instruction(t_m_ij,
// CU: t_floor = ntc::dev::maximum(t_floor,
// clang-format on

// overlap-products' generated names: what the tensor cores hold for a product issued into a
// local (`t_ntc_<local>_in_flight`) cannot collide with a kernel's own locals, here one named
// `acc_in_flight` beside the accumulator `acc` (printed `t_acc_in_flight` in the same scope;
// the two names were the same before, and nvcc rejected the redefinition).

#include "every_block.hpp"

NT_APPLICATION void in_flight_named(nt::Tile q, nt::Tile k, nt::Tile v, nt::Tile o) {
  auto q_scaled = (q * 2).to(q.dtype());
  auto acc = ntl::zeros({q.shape(-2), q.shape(-1)}, ntl::float32);
  auto total = ntl::zeros({q.shape(-2)}, ntl::float32);
  for (int i = 0; i < k.shape(0); ++i) {
    auto s = ntl::dot(q_scaled, ntl::trans(k[i]));
    auto p = ntl::exp2(s);
    acc = acc * 0.5 + ntl::dot(p.to(ntl::float16), v[i]);
    auto acc_in_flight = ntl::sum(p, 1);
    total = total + acc_in_flight;
  }
  o = acc + ntl::expand_dims(total, 1);
}

NT_KERNEL(named, rows, in_flight_named,
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64));

// NTC-ARGS: --cuda-arch 90a --kernel named --config stages=2,overlap=1

// CU-LABEL: // named with NP2_64=64; 128 threads
// CU: for (Index l_i = 0;
// CU: auto t_ntc_acc_in_flight = ntc::dev::dot_issue(t_acc,
// CU-NEXT: auto t_acc_in_flight = ntc::dev::cast<float>(ntc::dev::sum<1>(t_p, ntc_smem));
// CU-NEXT: t_total = (t_total + t_acc_in_flight);
// CU: ntc::dev::dot_wait(t_acc, t_ntc_acc_in_flight);

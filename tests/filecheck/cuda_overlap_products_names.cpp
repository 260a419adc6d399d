// overlap-products' generated names: what the tensor cores hold for a product issued into a
// local (`t_ntc_<local>_in_flight`) cannot collide with a kernel's own locals, here one named
// `acc_in_flight` beside the accumulator `acc` (printed `t_acc_in_flight` in the same scope;
// the two names were the same before, and nvcc rejected the redefinition).

#include "tail_reads_head.hpp"

NT_KERNEL(named, rows, tail_reads_head,
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64),
          nt::Tensor(2, nt::float16).constexpr_dim(1).upper_bound(1, 64));

// NTC-ARGS: --cuda-arch 90a --kernel named --config stages=2,overlap=1

// CU-LABEL: // named with NP2_64=64; 128 threads
// CU: for (Index l_i = 0;
// CU: auto t_ntc_acc_in_flight = ntc::dev::dot_issue(t_acc,
// CU-NEXT: auto t_acc_in_flight = ntc::dev::cast<float>(ntc::dev::max<1>(t_s, ntc_smem));
// CU-NEXT: t_total = (t_total + t_acc_in_flight);
// CU: ntc::dev::dot_wait(t_acc, t_ntc_acc_in_flight);

// An epilogue that reads tiles of other tensors, as addmm's and linear's do, loads them in the
// accumulator's layout (assign-layouts' loads in place): the (M, N) tile of `residual` in the
// Mma layout, the bias row in the Slice of its columns, each thread reading the elements it
// holds (by fragment rows and column pairs in the programs with vector accesses: load_vec),
// with no conversion through shared memory. The epilogue then computes on registers and global
// loads alone, so specialize-warps makes the TMA program persistent and warp-specialized: the
// consumers load, add and store by TMA while the producer copies the next program's tiles.

#include "../../kernels/matmul.hpp"

NT_ARRANGEMENT auto fused_arrangement(nt::Tensor lhs, nt::Tensor rhs, nt::Tensor bias,
                                      nt::Tensor residual, nt::Tensor output) {
  return nt::arrange(lhs.axes("m", "k").tile({BM, BK}), rhs.axes("k", "n").tile({BK, BN}),
                     bias.axes("n").tile({BN}), residual.axes("m", "n").tile({BM, BN}),
                     output.axes("m", "n").tile({BM, BN}));
}

NT_APPLICATION void fused_application(nt::Tile lhs, nt::Tile rhs, nt::Tile bias,
                                      nt::Tile residual, nt::Tile output) {
  auto acc = ntl::zeros(output.shape(), ntl::float32);
  for (int k = 0; k < lhs.shape(0); ++k)
    acc += ntl::dot(lhs[k], rhs[k]);
  output = (acc + bias + residual * 2).to(output.dtype());
}

NT_KERNEL(fused, fused_arrangement, fused_application, nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(1, nt::float16), nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16));

// NTC-ARGS: --cuda-arch 90a --config BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,warps=8,stages=3,group=8,tma=1,persistent=1

// clang-format off
// GIR-LABEL: IR after assign-layouts
// GIR: store output[] <- cast(add(add(%acc : float32[128, 256] #mma<8x1>, load bias[] : float16[256] #slice<#mma<8x1>, dim=0>) : float32[128, 256] #mma<8x1>, mul(load residual[] : float16[128, 256] #mma<8x1>, 2 : int32[]) : float16[128, 256] #mma<8x1>) : float32[128, 256] #mma<8x1>) : float16[128, 256] #mma<8x1>
// GIR-NOT: convert_layout
// GIR-LABEL: IR after plan-vector-chunks (ntc_fused_program0_vec)
// GIR: load bias[] vector 2 : float16[256] #slice<#mma<8x1>, dim=0>
// GIR: load residual[] vector 8 : float16[128, 256] #mma<8x1>
// GIR-LABEL: IR after specialize-warps (ntc_fused_program0_tma)
// GIR: # persistent, warp-specialized: 256 consumer threads (232 registers)
// clang-format on

// CU: __global__ void __launch_bounds__(384, 1) ntc_fused_program0_tma(
// CU: ntc::dev::set_max_registers<232, true>();
// CU: ntc::dev::dot_loop_consume<3,
// CU-NEXT: ntc::dev::tma_store<{{[0-9]+}}, 128, 1, 2, 256, true, 1>(
// CU-SAME: ntc::dev::load_vec<ntc::dev::float16, ntc::dev::Shape<256>, ntc::dev::Slice<ntc::dev::Mma<8, 1>, 0>>(ntc_args.bias,
// CU: ntc::dev::load_vec<ntc::dev::float16, ntc::dev::Shape<128, 256>, ntc::dev::Mma<8, 1>>(ntc_args.residual,
// CU: ntc::dev::tma_store_drain();

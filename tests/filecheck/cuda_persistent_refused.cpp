// specialize-warps refuses a program whose epilogue needs shared memory
// (passes/SpecializeWarps.cpp): this GEMM adds the transpose of `input` (arranged as the
// output's transpose) after its main loop. A transposed load cannot be read in the
// accumulator's layout, so it is loaded blocked and converted through shared memory with a
// barrier of the whole block, which the consumers could not pass without the producer. With
// persistent=1 its TMA program stays one block per program. (An epilogue that loads in the
// accumulator's layout, as addmm's, is accepted: cuda_persistent_epilogue_loads.cpp.)

#include "bias_gemm.hpp"

NT_KERNEL(mm_transposed, transposed_arrangement, transposed_application,
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16));

// NTC-ARGS: --cuda-arch 90a --config BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,warps=8,stages=3,group=8,tma=1,persistent=1

// GIR-NOT: specialize-warps
// GIR: IR after use-tensor-maps (ntc_mm_transposed_program0_tma
// GIR: convert_layout(
// GIR-NOT: persistent, warp-specialized

// CU: __global__ void __launch_bounds__(256{{.*}}) ntc_mm_transposed_program0_tma(
// CU-NOT: dot_loop_produce
// CU: ntc_mm_transposed_program0_tma<int32_t><<<dim3(static_cast<unsigned>(ntc_grid)), dim3(256),

// specialize-warps refuses a program whose epilogue reads memory (passes/SpecializeWarps.cpp):
// this GEMM adds `input` (arranged like the output, as addmm does) after its main loop, a load
// the consumers could not make without the producer (a load's layout may go through shared
// memory and a barrier of the whole block). With persistent=1 its TMA program stays one block
// per program (the configuration space never lists the knob for it: unit tests).

#include "bias_gemm.hpp"

NT_KERNEL(mm_bias, bias_arrangement, bias_application, nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16));

// NTC-ARGS: --cuda-arch 90a --config BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,warps=8,stages=3,group=8,tma=1,persistent=1

// GIR-NOT: specialize-warps
// GIR: IR after use-tensor-maps (ntc_mm_bias_program0_tma
// GIR-NOT: persistent, warp-specialized

// CU: __global__ void __launch_bounds__(256{{.*}}) ntc_mm_bias_program0_tma(
// CU-NOT: dot_loop_produce
// CU: ntc_mm_bias_program0_tma<int32_t><<<dim3(static_cast<unsigned>(ntc_grid)), dim3(256),

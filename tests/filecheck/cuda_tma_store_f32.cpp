// use-tensor-maps leaves a store into a float32 output to the threads (passes/UseTensorMaps.cpp):
// the copy engine stores 16-bit tiles only, so the program copies its operands by TMA but
// stores element by element, and specialize-warps does not make it persistent.

#include "../../kernels/matmul.hpp"

NT_KERNEL(mm_f32out, mm_arrangement, mm_application, nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float32));

// NTC-ARGS: --cuda-arch 90a --kernel mm_f32out --config BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,warps=8,stages=3,group=8,tma=1

// GIR-LABEL: IR after use-tensor-maps (ntc_mm_f32out_program0_tma
// GIR-NOT: tensor map 2
// GIR: store output[]
// GIR-NOT: tma map=
// GIR-SAME: <- cast(%accumulator : float32[128, 256] #{{.*}}) : float16[128, 256]

// CU-NOT: ntc::dev::tma_store<

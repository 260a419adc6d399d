// The configuration space lists persistent=1 (passes/ConfigSpace.cpp) for the TMA configurations
// of two warpgroups of a GEMM whose body specialize-warps can split (one main loop, an epilogue
// on registers), when the ring and a column block of the output tile fit in shared memory
// together, a bfloat16 output of a float16 value too (use-tensor-maps converts it in registers
// before the TMA store), and one whose epilogue loads a tile (mm_bias adds a tile of `input`,
// which assign-layouts loads in the accumulator's layout); never for one whose epilogue
// transposes a loaded tile (mm_transposed: converted through shared memory) or whose output is
// not 16-bit (mm_f32out: TMA stores 16-bit tiles only).

#include "bias_gemm.hpp"

NT_KERNEL(mm_plain, mm_arrangement, mm_application, nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16));

// mm_application casts its result to float16: converted once more, to bfloat16, before staging.
NT_KERNEL(mm_bf16, mm_arrangement, mm_application, nt::Tensor(2, nt::bfloat16),
          nt::Tensor(2, nt::bfloat16), nt::Tensor(2, nt::bfloat16));

NT_KERNEL(mm_f32out, mm_arrangement, mm_application, nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float32));

NT_KERNEL(mm_bias, bias_arrangement, bias_application, nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16));

NT_KERNEL(mm_transposed, transposed_arrangement, transposed_application,
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16));

// NTC-ARGS: --cuda-arch 90a

// LIST: mm_plain BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,warps=8,stages=3,group=8,tma=1,persistent=1
// 128×256×64 in four stages and its output tile do not fit together, but with the tile staged
// in rounds they do.
// LIST: mm_plain BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,warps=8,stages=4,group=8,tma=1,persistent=1
// LIST: mm_plain BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,warps=8,stages=4,group=16,tma=1,cluster=2
// LIST-NOT: warps=4,{{.*}}persistent=1
// 64-row tiles of 8 warps do not multiply with wgmma (a 16-row slab per warp).
// LIST-NOT: BLOCK_SIZE_M=64,{{.*}}warps=8,{{.*}}persistent=1
// LIST: mm_bf16 BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,warps=8,stages=4,group=8,tma=1,persistent=1
// LIST-NOT: mm_f32out {{.*}}persistent=1
// LIST: mm_bias BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,warps=8,stages=4,group=8,tma=1,persistent=1
// LIST-NOT: mm_transposed {{.*}}persistent=1

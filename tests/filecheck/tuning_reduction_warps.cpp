// Warps per program as a tuning knob of kernels that reduce without multiplying
// (passes/ConfigSpace.cpp): a row-wise softmax lists warps=1, 2, 4 and 8 next to its default on
// CUDA (nothing on the CPU); a kernel that neither reduces nor multiplies lists its default
// alone. A table entry that picks warps=1 compiles one-warp programs, four to a block, next to
// the default's (longer rows: more warps).
#include "row_softmax.hpp"

NT_KERNEL(row_softmax, rows_arrangement, softmax_application,
          nt::Tensor(2, nt::float32).other(-std::numeric_limits<double>::infinity()),
          nt::Tensor(2, nt::float32));

constexpr nt::Symbol BLOCK = nt::block_size("BLOCK", 256, 256);

NT_ARRANGEMENT auto vector_arrangement(nt::Tensor x) { return nt::arrange(x.tile({BLOCK})); }

NT_APPLICATION void scale_application(nt::Tile x) { x = x * 2; }

NT_KERNEL(scale, vector_arrangement, scale_application, nt::Tensor(1, nt::float32));

// LIST:      # row_softmax: 5 configurations for sm_80,sm_90a, the default first
// LIST-NEXT: kernel row_softmax hash {{[0-9a-f]+}} target cuda arch sm_80,sm_90a
// LIST-NEXT: row_softmax none default
// LIST-NEXT: row_softmax warps=1{{$}}
// LIST-NEXT: row_softmax warps=2{{$}}
// LIST-NEXT: row_softmax warps=4{{$}}
// LIST-NEXT: row_softmax warps=8{{$}}
// LIST-NEXT: # scale: 1 configuration for sm_80,sm_90a, the default first
// LIST-NEXT: kernel scale hash {{[0-9a-f]+}} target cuda arch sm_80,sm_90a
// LIST-NEXT: scale none default
// LIST-NOT:  warps=

// LISTCPU:      # row_softmax: 1 configuration for cpu, the default first
// LISTCPU-NEXT: kernel row_softmax hash {{[0-9a-f]+}} target cpu arch cpu
// LISTCPU-NEXT: row_softmax none default
// LISTCPU-NOT:  warps=

// TABLE-ENTRY: {"kernel": "row_softmax", "hash": "@HASH@", "target": "cuda", "arch": "sm_90", "alignment": "any", "bucket": {"input": [2048, 1024], "output": [2048, 1024]}, "config": "warps=1"}

// TABCU:      // row_softmax with NP2_16384=1024 (configuration none); 128 threads, {{[0-9]+}} bytes of shared memory.
// TABCU:      // row_softmax with NP2_16384=1024 (configuration warps=1); 32 threads, {{[0-9]+}} bytes of shared memory; 4 programs per block.
// TABCU:      static const char *const ntc_row_softmax_configs[] = {
// TABCU-NEXT:   "none",
// TABCU-NEXT:   "warps=1",
// TABCU-NEXT: };
// TABCU:      {90, false, 1, {{[{][{]}}2048, 1024, 2048, 1024{{[}][}]}}, {{[{][{][}][}]}}, {{[{][{]}}1024{{[}][}]}}},

// A tuning table's configuration runs only on the architecture its entry was measured on (the
// dispatcher's ntc::rt::pick_config matches the device's compute capability), so it needs to fit
// that architecture alone (tuning/TuningTable.cpp, passes::configuredTarget): in a fatbin of
// sm_80 and sm_90a, a GEMM ring of 196 KiB measured on sm_90 is compiled, planned for sm_90a's
// 227 KiB, while the same configuration measured on sm_80 (163 KiB) is refused with a warning.

#include "../../kernels/matmul.hpp"

NT_KERNEL(wide_gemm, mm_arrangement, mm_application, nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16));

// NTC-ARGS: --cuda-arch 80,90a

// TABLE-ENTRY: {"kernel": "wide_gemm", "hash": "@HASH@", "target": "cuda", "arch": "sm_90", "alignment": "aligned16", "bucket": {"lhs": [4096, 4096], "rhs": [4096, 4096], "output": [4096, 4096]}, "config": "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,warps=8,stages=4,group=8,tma=1"}
// TABLE-ENTRY: {"kernel": "wide_gemm", "hash": "@HASH@", "target": "cuda", "arch": "sm_80", "alignment": "aligned16", "bucket": {"lhs": [4096, 4096], "rhs": [4096, 4096], "output": [4096, 4096]}, "config": "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,warps=8,stages=4,group=8,tma=1"}

// TABCU: // wide_gemm with BLOCK_SIZE_K=64 BLOCK_SIZE_M=128 BLOCK_SIZE_N=256 (configuration BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,warps=8,stages=4,group=8,tma=1); 256 threads, 19{{[0-9][0-9][0-9][0-9]}} bytes of shared memory
// TABCU: ntc::dev::dot_loop<4,
// TABCU: ntc_wide_gemm_program{{[0-9]+}}_tma(
// TABCU: ntc::dev::tma_ring<4, 2, 8>
// TABCU-LABEL: static const char *const ntc_wide_gemm_configs[] = {
// TABCU-NEXT:    "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=32",
// TABCU-NEXT:    "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,warps=8,stages=4,group=8,tma=1",
// TABCU-NEXT: };
// TABCU:        static const ntc::rt::tuned_shape<6, 0, 0> ntc_tuned[] = {
// TABCU-NEXT:     {90, true, 1, {{[{][{]}}4096, 4096, 4096, 4096, 4096, 4096{{[}][}]}}, {{[{][{][}][}]}}, {{[{][{][}][}]}}},
// TABCU-NEXT:   };

// TABWARN: warning: {{.*}}table.json: entry 1: configuration "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,warps=8,stages=4,group=8,tma=1" does not fit sm_80; its shapes take the default configuration

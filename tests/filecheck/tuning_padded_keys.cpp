// Tuning entries keyed by padded tile extents (compiler/tuning/TuningTable.cpp): an entry
// measured on rows of 781 elements (tile extent 1024) is taken for calls whose rows pad to at
// most 1024, and its configuration is compiled for those extents alone; one written without a
// shape is keyed by its bucket's extent (4096). Longer rows run the default, which scales its
// warps with the row (two warps holding rows of 16384 elements would need 256 registers per
// thread for them).
#include "row_softmax.hpp"

NT_KERNEL(row_softmax, rows_arrangement, softmax_application,
          nt::Tensor(2, nt::float32).other(-std::numeric_limits<double>::infinity()),
          nt::Tensor(2, nt::float32));

// clang-format off
// TABLE-ENTRY: {"kernel": "row_softmax", "hash": "@HASH@", "target": "cuda", "arch": "sm_90", "alignment": "any", "shape": {"input": [1823, 781], "output": [1823, 781]}, "bucket": {"input": [2048, 1024], "output": [2048, 1024]}, "config": "warps=2"}
// TABLE-ENTRY: {"kernel": "row_softmax", "hash": "@HASH@", "target": "cuda", "arch": "sm_90", "alignment": "aligned16", "bucket": {"input": [64, 4096], "output": [64, 4096]}, "config": "warps=8"}

// TABCU-NOT:  NP2_16384={{(2048|4096|8192|16384)}} (configuration warps=2)
// TABCU-NOT:  NP2_16384={{(8192|16384)}} (configuration warps=8)
// TABCU:      // row_softmax with NP2_16384=1024 (configuration warps=2); 64 threads
// TABCU-NOT:  NP2_16384={{(2048|4096|8192|16384)}} (configuration warps=2)
// TABCU-NOT:  NP2_16384={{(8192|16384)}} (configuration warps=8)
// TABCU:      // row_softmax with NP2_16384=4096 (configuration warps=8); 256 threads
// TABCU-NOT:  NP2_16384={{(2048|4096|8192|16384)}} (configuration warps=2)
// TABCU-NOT:  NP2_16384={{(8192|16384)}} (configuration warps=8)
// TABCU:      static const ntc::rt::tuned_shape<4, 0, 1> ntc_tuned[] = {
// TABCU-NEXT:   {90, false, 1, {{[{][{]}}2048, 1024, 2048, 1024{{[}][}]}}, {{[{][{][}][}]}}, {{[{][{]}}1024{{[}][}]}}},
// TABCU-NEXT:   {90, true, 2, {{[{][{]}}64, 4096, 64, 4096{{[}][}]}}, {{[{][{][}][}]}}, {{[{][{]}}4096{{[}][}]}}},
// TABCU:      const std::array<int64_t, 0> ntc_constexprs{{[{][{][}][}]}};
// TABCU-NEXT: const std::array<int64_t, 1> ntc_extents{{[{][{]}}std::max<int64_t>(16, ntc::rt::next_pow2(std::max<int64_t>({ntc_input_size_1, ntc_output_size_1}))){{[}][}]}};
// TABCU-NEXT: const int ntc_config = ntc::rt::pick_config(ntc_tuned, ntc_arch, {{.*}}, ntc_sizes, ntc_constexprs, ntc_extents);
// clang-format on

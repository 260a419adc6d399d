// prefetch-epilogues (passes/PrefetchEpilogues.cpp): before a GEMM main loop, each tile that the
// statements after the loop load is prefetched into L2 (ntc::dev::prefetch_l2, the block's
// threads sharing its 128-byte lines), once per tile, in every program of the kernel (element
// by element and vector accesses here; the persistent TMA program in
// cuda_persistent_epilogue_loads.cpp); a GEMM whose epilogue loads nothing gets no prefetch.

#include "bias_gemm.hpp"

NT_KERNEL(mm_bias, bias_arrangement, bias_application, nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16));

NT_KERNEL(mm_plain, mm_arrangement, mm_application, nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16));

// NTC-ARGS: --cuda-arch 90a

// clang-format off
// GIR-LABEL: IR after prefetch-epilogues (ntc_mm_bias_program0)
// GIR: %accumulator = full(0)
// GIR-NEXT: prefetch_l2 load input[] : float16[{{[0-9]+}}, {{[0-9]+}}]
// GIR-NEXT: for k in range(
// GIR-LABEL: IR after prefetch-epilogues (ntc_mm_bias_program0_vec)
// GIR: prefetch_l2 load input[] vector {{[0-9]+}} : float16[{{[0-9]+}}, {{[0-9]+}}]
// GIR-NEXT: for k in range(
// GIR-NOT: IR after prefetch-epilogues (ntc_mm_plain
// clang-format on

// CU-LABEL: ntc_mm_bias_program0(
// CU: ntc::dev::prefetch_l2<ntc::dev::float16, ntc::dev::Shape<{{[0-9]+}}, {{[0-9]+}}>, {{[0-9]+}}>(ntc_args.input, [&](const int *ntc_i) -> long long {
// CU-NOT: prefetch_l2
// CU: ntc::dev::dot_loop<
// CU-LABEL: ntc_mm_plain_program0(
// CU-NOT: prefetch_l2

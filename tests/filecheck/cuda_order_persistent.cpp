// order-programs (passes/OrderPrograms.cpp) in a persistent configuration: causal attention's
// programs, whose key loop grows with the query block (grid dimension 2), are numbered longest
// first across bands of 8 heads (dimensions 0 and 1 taken together as rows) rather than within
// each head, so that the programs a persistent block takes in turn mix long and short ones.
// Without the causal mask nothing grows and the grid stays row-major.

#include "../../kernels/attention.cpp"

NT_KERNEL(persistent_attention, attention_arrangement, attention_application,
          nt::Tensor(4, nt::float16).constexpr_dim(3).upper_bound(3, 128),
          nt::Tensor(4, nt::float16).constexpr_dim(3).upper_bound(3, 128),
          nt::Tensor(4, nt::float16).constexpr_dim(3).upper_bound(3, 128),
          nt::Constexpr("is_causal", {0, 1}),
          nt::Tensor(4, nt::float16).constexpr_dim(3).upper_bound(3, 128));

// clang-format off
// NTC-ARGS: --print-ir-after-all --cuda-arch 90a --kernel persistent_attention --config BLOCK_SIZE_M=128,BLOCK_SIZE_N=128,stages=3,tma=1,minmax=1,release=1,overlap=2,producer=1,persistent=1

// GIR: // order-programs: bands of 8 rows (dimensions 0 to 1), dimension 2 the columns
// GIR-NEXT: // order-programs: grid dimension 2 numbered last to first

// CU-LABEL: // persistent_attention with BLOCK_SIZE_M=128 BLOCK_SIZE_N=128 NP2_128=16 is_causal=0;
// CU-NOT: bands of
// CU: const Index pid2 = ntc_rest % ntc::rt::ceil_div<Index>(ntc_q_size_2, 128);

// CU-LABEL: // persistent_attention with BLOCK_SIZE_M=128 BLOCK_SIZE_N=128 NP2_128=16 is_causal=1;
// CU: const Index pid3 = ntc_rest % 1;
// CU-NEXT: ntc_rest /= 1;
// CU-NEXT: // ... dimensions 0 to 1 as the rows of bands of 8, dimension 2 the columns, column after column inside a band.
// CU-NEXT: const Index ntc_in_plane = ntc_rest;
// CU-NEXT: const Index ntc_band_first = ntc_in_plane / (8 * ntc::rt::ceil_div<Index>(ntc_q_size_2, 128)) * 8;
// CU-NEXT: const Index ntc_band_rows = (ntc_q_size_0 * ntc_q_size_1) - ntc_band_first < 8 ? (ntc_q_size_0 * ntc_q_size_1) - ntc_band_first : 8;
// CU-NEXT: const Index ntc_in_band = ntc_in_plane % (8 * ntc::rt::ceil_div<Index>(ntc_q_size_2, 128));
// CU-NEXT: Index ntc_row = ntc_band_first + ntc_in_band % ntc_band_rows;
// CU-NEXT: const Index pid1 = ntc_row % ntc_q_size_1;
// CU-NEXT: ntc_row /= ntc_q_size_1;
// CU-NEXT: const Index pid0 = ntc_row;
// CU-NEXT: const Index pid2 = ntc::rt::ceil_div<Index>(ntc_q_size_2, 128) - 1 - ntc_in_band / ntc_band_rows; // numbered last to first: its loops run longest

// The persistent program's producer and consumers number the programs alike.
// CU-LABEL: ntc_persistent_attention_program{{[0-9]+}}_tma(
// CU: if (threadIdx.x >= 256) {
// CU: for (int64_t ntc_program = blockIdx.x; ntc_program < ntc_programs; ntc_program += gridDim.x) {
// CU: // ... dimensions 0 to 1 as the rows of bands of 8
// CU: const Index pid2 = ntc::rt::ceil_div<Index>(ntc_q_size_2, 128) - 1 - ntc_in_band / ntc_band_rows;
// CU: for (int64_t ntc_program = blockIdx.x; ntc_program < ntc_programs; ntc_program += gridDim.x) {
// CU: // ... dimensions 0 to 1 as the rows of bands of 8
// CU: const Index pid2 = ntc::rt::ceil_div<Index>(ntc_q_size_2, 128) - 1 - ntc_in_band / ntc_band_rows;
// clang-format on

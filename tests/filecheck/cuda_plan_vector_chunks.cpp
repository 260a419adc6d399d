// plan-vector-chunks (passes/PlanVectorChunks.cpp) records on the IR of the program with
// vector accesses which accesses move whole chunks, and how many elements each chunk holds;
// the printer prints exactly that and the dispatcher checks the parameters those accesses walk
// (the conditions the pass collects). A GEMM main loop copies its operands in 16-byte chunks (8 float16), its
// Mma accumulator is stored in fragment rows (8 float16 per thread after the quad exchange, 2
// float32 without it); a blocked register tile loads and stores the blocked layout's chunk; a
// tile whose lanes walk memory with a stride stays element by element and adds no condition.
// NTC-ARGS: --print-ir-after-all

#include "../../kernels/matmul.hpp"

NT_APPLICATION void f32_application(nt::Tile lhs, nt::Tile rhs, nt::Tile output) {
  auto accumulator = ntl::zeros(output.shape(), ntl::float32);
  for (int k = 0; k < lhs.shape(0); ++k)
    accumulator += ntl::dot(lhs[k], rhs[k]);
  output = accumulator;
}

NT_KERNEL(gemm_f16, mm_arrangement, mm_application, nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16));
NT_KERNEL(gemm_f32_out, mm_arrangement, f32_application, nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float32));

NT_ARRANGEMENT auto mixed_arrangement(nt::Tensor dense, nt::Tensor strided, nt::Tensor output) {
  return nt::arrange(dense.tile({1024}), strided.tile({1024}, {2}), output.tile({1024}));
}

NT_APPLICATION void mixed_application(nt::Tile dense, nt::Tile strided, nt::Tile output) {
  output = dense + strided;
}

NT_KERNEL(mixed, mixed_arrangement, mixed_application, nt::Tensor(1, nt::float32),
          nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32));

// GIR-LABEL: IR after plan-vector-chunks (ntc_gemm_f16_program0_vec)
// GIR:       dot(load lhs[k] vector 8 : float16[{{.*}}], load rhs[k] vector 8 : float16[{{.*}}])
// GIR:       store output[] vector 8 <- cast(%accumulator : float32[{{.*}}] #mma
// GIR-LABEL: IR after plan-vector-chunks (ntc_gemm_f32_out_program0_vec)
// GIR:       dot(load lhs[k] vector 8 : float16[{{.*}}], load rhs[k] vector 8 : float16[{{.*}}])
// GIR:       store output[] vector 2 <- %accumulator : float32[{{.*}}] #mma
// GIR-LABEL: IR after plan-vector-chunks (ntc_mixed_program0_vec)
// GIR-NEXT:  kernel mixed(
// GIR-NEXT:  store output[] vector 4 <- add(load dense[] vector 4 : float32[1024], load strided[] : float32[1024])

// The element-by-element program has no chunk; the twin prints the recorded ones.
// CU-LABEL: ntc_gemm_f16_program0(
// CU:       ntc::dev::dot_loop<{{[0-9]+}}, false, false,
// CU:       ntc::dev::store(ntc_args.output
// CU-LABEL: ntc_gemm_f16_program0_vec(
// CU:       ntc::dev::dot_loop<{{[0-9]+}}, true, true,
// CU:       ntc::dev::store_vec(ntc_args.output
// CU-LABEL: static ntc_status_t ntc_gemm_f32_out_run(
// CU:       if (ntc::rt::vector_ready(lhs, 1, 8) && ntc::rt::vector_ready(rhs, 1, 8) && ntc::rt::vector_ready(output, 1, 2)) {
// CU-LABEL: ntc_mixed_program0_vec(
// CU:       ntc::dev::store_vec(ntc_args.output, (ntc::dev::load_vec<float, ntc::dev::Shape<1024>, 256>(ntc_args.dense,
// CU:       }) + ntc::dev::load<float, ntc::dev::Shape<1024>, 256>(ntc_args.strided,
// CU-LABEL: static ntc_status_t ntc_mixed_run(
// CU:       if (ntc::rt::vector_ready(dense, 0, 4) && ntc::rt::vector_ready(output, 0, 4)) {

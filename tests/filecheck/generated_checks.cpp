// The generated wrapper of a GEMM: validation of every tensor, the sizes the arrangement ties
// together (check_equal), the launch grid with its empty-grid early return, index-width
// variants; the header declares the C function and its info function.
#include <ntc/dsl.hpp>

constexpr nt::Symbol BM = nt::block_size("BM", 16);
constexpr nt::Symbol BN = nt::block_size("BN", 32);
constexpr nt::Symbol BK = nt::block_size("BK", 8);

NT_ARRANGEMENT auto arrangement(nt::Tensor a, nt::Tensor b, nt::Tensor c) {
  auto c_arranged = c.tile({BM, BN});
  auto a_arranged = a.tile({BM, BK}).tile({1, -1}).expand({-1, c_arranged.shape(1)});
  a_arranged.dtype() = a_arranged.dtype().squeeze(0);
  auto b_arranged = b.tile({BK, BN}).tile({-1, 1}).expand({c_arranged.shape(0), -1});
  b_arranged.dtype() = b_arranged.dtype().squeeze(1);
  return nt::arrange(a_arranged, b_arranged, c_arranged);
}

NT_APPLICATION void application(nt::Tile a, nt::Tile b, nt::Tile c) {
  auto acc = ntl::zeros(c.shape(), ntl::float32);
  for (int k = 0; k < a.shape(0); ++k)
    acc += ntl::dot(a[k], b[k]);
  c = acc;
}

NT_KERNEL(small_gemm, arrangement, application, nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float32));

// CHECK-LABEL: kernel small_gemm(
// CHECK-SAME:    a: (⌈a_size_0/16⌉, ⌈c_size_1/32⌉) -> (⌈a_size_1/8⌉,) -> (16, 8)
// CHECK-SAME:    b: (⌈c_size_0/16⌉, ⌈b_size_1/32⌉) -> (⌈b_size_0/8⌉,) -> (8, 32)
// CHECK-SAME:    c: (⌈c_size_0/16⌉, ⌈c_size_1/32⌉) -> (16, 32)
// CHECK:         for k in range(0, ⌈a_size_1/8⌉, 1):
// CHECK-NEXT:      %acc <- add(%acc : float32[16, 32], dot(load a[k] : float32[16, 8], load b[k] : float32[8, 32]) : float32[16, 32]) : float32[16, 32]

// HDR:      #include <ntc/runtime.h>
// HDR:      extern "C" {
// HDR:       * a: (⌈a_size_0/16⌉, ⌈c_size_1/32⌉) -> (⌈a_size_1/8⌉,) -> (16, 8)
// HDR-NEXT:  * b: (⌈c_size_0/16⌉, ⌈b_size_1/32⌉) -> (⌈b_size_0/8⌉,) -> (8, 32)
// HDR-NEXT:  * c: (⌈c_size_0/16⌉, ⌈c_size_1/32⌉) -> (16, 32)
// HDR:      ntc_status_t small_gemm(const DLTensor *a, const DLTensor *b, const DLTensor *c, ntc_stream_t ntc_stream);
// HDR:      const ntc_kernel_info_t *ntc_small_gemm_info(void);

// CPP-LABEL: static const char *const ntc_small_gemm_configs[] = {
// CPP-NEXT:      "none",
// CPP-NEXT:  };
// CPP:       static ntc_status_t ntc_small_gemm_run(
// CPP-DAG:     ntc::rt::check_tensor("small_gemm", a, "a", 2, ntc::rt::dtypes::float32, kDLCPU)
// CPP-DAG:     ntc::rt::check_tensor("small_gemm", b, "b", 2, ntc::rt::dtypes::float32, kDLCPU)
// CPP-DAG:     ntc::rt::check_tensor("small_gemm", c, "c", 2, ntc::rt::dtypes::float32, kDLCPU)
// CPP-DAG:     ntc::rt::check_equal("small_gemm", "a.shape[1]", ntc_a_size_1, "b.shape[0]", ntc_b_size_0)
// CPP-DAG:     ntc::rt::check_equal("small_gemm", "a.shape[0]", ntc_a_size_0, "c.shape[0]", ntc_c_size_0)
// CPP-DAG:     ntc::rt::check_equal("small_gemm", "c.shape[1]", ntc_c_size_1, "b.shape[1]", ntc_b_size_1)
// CPP:         const int64_t ntc_grid = {{.*}}ceil_div<int64_t>(ntc_a_size_0, 16){{.*}}ceil_div<int64_t>(ntc_c_size_1, 32);
// CPP-NEXT:    if (ntc_grid <= 0 || ntc_chosen) {
// CPP-NEXT:      if (ntc_chosen)
// CPP-NEXT:        *ntc_chosen = ntc_small_gemm_configs[ntc_config];
// CPP-NEXT:      return NTC_SUCCESS;
// CPP:         ntc_small_gemm_program0<int32_t>(
// CPP:         ntc_small_gemm_program0<int64_t>(
// CPP:       extern "C" ntc_status_t small_gemm(const DLTensor *a, const DLTensor *b, const DLTensor *c, ntc_stream_t ntc_stream) {
// CPP-NEXT:    return ntc_small_gemm_run(a, b, c, ntc_stream, nullptr);
// CPP:       {"a", NTC_PARAM_TENSOR, 2, ntc::rt::dtypes::float32, 0u},
// CPP-NEXT:  {"b", NTC_PARAM_TENSOR, 2, ntc::rt::dtypes::float32, 0u},
// CPP-NEXT:  {"c", NTC_PARAM_TENSOR, 2, ntc::rt::dtypes::float32, NTC_PARAM_WRITTEN},
// CPP:       static ntc_status_t ntc_small_gemm_generic(const void *const *ntc_a, ntc_stream_t ntc_stream, const char **ntc_chosen) {
// CPP:         return ntc_small_gemm_run(static_cast<const DLTensor *>(ntc_a[0]), static_cast<const DLTensor *>(ntc_a[1]), static_cast<const DLTensor *>(ntc_a[2]), ntc_stream, ntc_chosen);
// CPP:       extern "C" const ntc_kernel_info_t *ntc_small_gemm_info(void) {
// CPP-NEXT:    {"small_gemm", 3, ntc_small_gemm_params, "cpu", ntc_small_gemm_call, ntc_small_gemm_config_for, 1, ntc_small_gemm_configs}

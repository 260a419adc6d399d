// Tuning configurations (passes/ConfigSpace.cpp) and the dispatcher that a tuning table compiles
// in (tuning/TuningTable.cpp, codegen/host/HostWrapper.cpp): --list-configs prints the default
// first, then the meta-parameter values crossed, on the GPU, with warps, stages and the band
// of the grouped order for a GEMM main loop; a table's configurations become variants chosen
// by ntc::rt::pick_config over the call's shape buckets, with the meta-parameters (and so the
// grid) of the configuration chosen.
#include <ntc/dsl.hpp>

constexpr nt::Symbol BM = nt::block_size("BLOCK_SIZE_M", 64, 128);
constexpr nt::Symbol BN = nt::block_size("BLOCK_SIZE_N", 64, 128);
constexpr nt::Symbol BK = nt::block_size("BLOCK_SIZE_K", 32, 32);

NT_ARRANGEMENT auto gemm_arrangement(nt::Tensor lhs, nt::Tensor rhs, nt::Tensor output) {
  auto output_arranged = output.tile({BM, BN});
  auto lhs_arranged = lhs.tile({BM, BK}).tile({1, -1}).expand({-1, output_arranged.shape(1)});
  lhs_arranged.dtype() = lhs_arranged.dtype().squeeze(0);
  auto rhs_arranged = rhs.tile({BK, BN}).tile({-1, 1}).expand({output_arranged.shape(0), -1});
  rhs_arranged.dtype() = rhs_arranged.dtype().squeeze(1);
  return nt::arrange(lhs_arranged, rhs_arranged, output_arranged);
}

NT_APPLICATION void gemm_application(nt::Tile lhs, nt::Tile rhs, nt::Tile output) {
  auto accumulator = ntl::zeros(output.shape(), ntl::float32);
  for (int k = 0; k < lhs.shape(0); ++k)
    accumulator += ntl::dot(lhs[k], rhs[k]);
  output = accumulator;
}

NT_KERNEL(tuned_gemm, gemm_arrangement, gemm_application, nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float32));

constexpr nt::Symbol BLOCK = nt::block_size("BLOCK", 128, 512);

NT_ARRANGEMENT auto vector_arrangement(nt::Tensor x) { return nt::arrange(x.tile({BLOCK})); }

NT_APPLICATION void vector_application(nt::Tile x) { x = x * 2; }

NT_KERNEL(stale_vector, vector_arrangement, vector_application, nt::Tensor(1, nt::float32));

// LISTCPU:      # tuned_gemm: 4 configurations for cpu, the default first
// LISTCPU-NEXT: kernel tuned_gemm hash {{[0-9a-f]+}} target cpu arch cpu
// LISTCPU-NEXT: tuned_gemm BLOCK_SIZE_M=64,BLOCK_SIZE_N=64 default
// LISTCPU-NEXT: tuned_gemm BLOCK_SIZE_M=64,BLOCK_SIZE_N=128{{$}}
// LISTCPU-NEXT: tuned_gemm BLOCK_SIZE_M=128,BLOCK_SIZE_N=64{{$}}
// LISTCPU-NEXT: tuned_gemm BLOCK_SIZE_M=128,BLOCK_SIZE_N=128{{$}}
// LISTCPU:      kernel stale_vector hash {{[0-9a-f]+}} target cpu arch cpu
// LISTCPU-NEXT: stale_vector BLOCK=128 default

// The GPU default leaves the knobs to the planner; 64×64 tiles hold 32 accumulators per thread
// with 4 warps, too few with 8 (pruned). With sm_90a among the architectures, each
// configuration comes once more with tma=1, and those in bands of rows (group 8 or 16) a third
// time in clusters of two (cluster=2; row order, group=1, has none); those of two warpgroups
// (warps=8) would also be persistent (persistent=1) where the ring and the output tile fit
// together, but the output here is float32, which TMA does not store (16-bit tiles only).
// LIST:         kernel tuned_gemm hash {{[0-9a-f]+}} target cuda arch sm_80,sm_90a
// LIST-NEXT:    tuned_gemm BLOCK_SIZE_M=128,BLOCK_SIZE_N=128 default
// LIST-NEXT:    tuned_gemm BLOCK_SIZE_M=64,BLOCK_SIZE_N=64,warps=4,stages=3,group=1{{$}}
// LIST-NEXT:    tuned_gemm BLOCK_SIZE_M=64,BLOCK_SIZE_N=64,warps=4,stages=3,group=1,tma=1
// LIST-NOT:     BLOCK_SIZE_M=64,BLOCK_SIZE_N=64,warps=8
// LIST:         tuned_gemm BLOCK_SIZE_M=128,BLOCK_SIZE_N=128,warps=8,stages=4,group=16{{$}}
// LIST-NEXT:    tuned_gemm BLOCK_SIZE_M=128,BLOCK_SIZE_N=128,warps=8,stages=4,group=16,tma=1{{$}}
// LIST-NEXT:    tuned_gemm BLOCK_SIZE_M=128,BLOCK_SIZE_N=128,warps=8,stages=4,group=16,tma=1,cluster=2
// LIST-NEXT:    tuned_gemm BLOCK_SIZE_M=128,BLOCK_SIZE_N=128,warps=8,stages=6,group=1{{$}}
// LIST-NEXT:    tuned_gemm BLOCK_SIZE_M=128,BLOCK_SIZE_N=128,warps=8,stages=6,group=1,tma=1{{$}}
// LIST-NOT:     persistent=1
// LIST:         kernel stale_vector

// Two buckets on the CPU, one on sm_90 (compiled for 80 and 90a, so kept), one on sm_75 (not
// compiled: skipped), and an entry of stale_vector whose hash is not the kernel's.
// TABLE-ENTRY: {"kernel": "tuned_gemm", "hash": "@HASH@", "target": "cpu", "arch": "cpu", "alignment": "aligned16", "bucket": {"lhs": [64, 64], "rhs": [64, 64], "output": [64, 64]}, "config": "BLOCK_SIZE_M=64,BLOCK_SIZE_N=64"}
// TABLE-ENTRY: {"kernel": "tuned_gemm", "hash": "@HASH@", "target": "cpu", "arch": "cpu", "alignment": "aligned16", "bucket": {"lhs": [4096, 4096], "rhs": [4096, 4096], "output": [4096, 4096]}, "config": "BLOCK_SIZE_M=128,BLOCK_SIZE_N=128"}
// TABLE-ENTRY: {"kernel": "tuned_gemm", "hash": "@HASH@", "target": "cuda", "arch": "sm_90", "alignment": "aligned16", "bucket": {"lhs": [1024, 1024], "rhs": [1024, 1024], "output": [1024, 1024]}, "config": "BLOCK_SIZE_M=64,BLOCK_SIZE_N=128,warps=4,stages=4,group=8"}
// TABLE-ENTRY: {"kernel": "tuned_gemm", "hash": "@HASH@", "target": "cuda", "arch": "sm_75", "alignment": "any", "bucket": {"lhs": [16, 16], "rhs": [16, 16], "output": [16, 16]}, "config": "BLOCK_SIZE_M=128,BLOCK_SIZE_N=64"}
// TABLE-ENTRY: {"kernel": "stale_vector", "hash": "0000000000000000", "target": "cpu", "arch": "cpu", "alignment": "aligned16", "bucket": {"x": [1024]}, "config": "BLOCK=512"}

// TAB-LABEL:  static const char *const ntc_tuned_gemm_configs[] = {
// TAB-NEXT:     "BLOCK_SIZE_M=64,BLOCK_SIZE_N=64",
// TAB-NEXT:     "BLOCK_SIZE_M=128,BLOCK_SIZE_N=128",
// TAB-NEXT: };
// TAB:        static const ntc::rt::tuned_shape<6, 0, 0> ntc_tuned[] = {
// TAB-NEXT:     {0, true, 0, {{[{][{]}}64, 64, 64, 64, 64, 64{{[}][}]}}, {{[{][{][}][}]}}, {{[{][{][}][}]}}},
// TAB-NEXT:     {0, true, 1, {{[{][{]}}4096, 4096, 4096, 4096, 4096, 4096{{[}][}]}}, {{[{][{][}][}]}}, {{[{][{][}][}]}}},
// TAB-NEXT:   };
// TAB-NEXT:   const int ntc_arch = 0; // the CPU
// TAB-NEXT:   const std::array<int64_t, 6> ntc_sizes{{[{][{]}}ntc_args.ntc_lhs_size_0, ntc_args.ntc_lhs_size_1, ntc_args.ntc_rhs_size_0, ntc_args.ntc_rhs_size_1, ntc_args.ntc_output_size_0, ntc_args.ntc_output_size_1{{[}][}]}};
// TAB-NEXT:   const std::array<int64_t, 0> ntc_constexprs{{[{][{][}][}]}};
// TAB-NEXT:   const std::array<int64_t, 0> ntc_extents{{[{][{][}][}]}};
// TAB-NEXT:   const int ntc_config = ntc::rt::pick_config(ntc_tuned, ntc_arch, true && ntc::rt::aligned16(lhs) && ntc::rt::aligned16(rhs) && ntc::rt::aligned16(output), ntc_sizes, ntc_constexprs, ntc_extents);
// TAB-NEXT:   static constexpr int64_t ntc_values_BLOCK_SIZE_M[] = {64, 128};
// TAB-NEXT:   const int64_t ntc_BLOCK_SIZE_M_meta = ntc_values_BLOCK_SIZE_M[ntc_config];
// TAB:        const int64_t ntc_grid = {{.*}}ntc_BLOCK_SIZE_M_meta
// TAB:        if (!ntc_index64 && ntc_config == 0 && ntc_BLOCK_SIZE_M_meta == 64 && ntc_BLOCK_SIZE_N_meta == 64) {
// TAB:        if (!ntc_index64 && ntc_config == 1 && ntc_BLOCK_SIZE_M_meta == 128 && ntc_BLOCK_SIZE_N_meta == 128) {
// TAB:        info = {"tuned_gemm", 3, ntc_tuned_gemm_params, "cpu", ntc_tuned_gemm_call, ntc_tuned_gemm_config_for, 2, ntc_tuned_gemm_configs};
// The stale kernel keeps its default alone.
// TAB:        info = {"stale_vector", 1, ntc_stale_vector_params, "cpu", ntc_stale_vector_call, ntc_stale_vector_config_for, 1, ntc_stale_vector_configs};

// TABCU-LABEL: static const char *const ntc_tuned_gemm_configs[] = {
// TABCU-NEXT:    "BLOCK_SIZE_M=128,BLOCK_SIZE_N=128",
// TABCU-NEXT:    "BLOCK_SIZE_M=64,BLOCK_SIZE_N=128,warps=4,stages=4,group=8",
// TABCU-NEXT: };
// TABCU:        {90, true, 1, {{[{][{]}}1024, 1024, 1024, 1024, 1024, 1024{{[}][}]}}, {{[{][{][}][}]}}, {{[{][{][}][}]}}},
// TABCU-NEXT: };
// TABCU:      cudaDeviceGetAttribute(&ntc_major, cudaDevAttrComputeCapabilityMajor
// TABCU:      const int ntc_arch = ntc_major * 10 + ntc_minor;

// TABWARN: warning: {{.*}}table.json: kernel 'stale_vector' has changed since it was tuned (table hash 0000000000000000, source hash {{[0-9a-f]+}}); it is compiled with its default configuration

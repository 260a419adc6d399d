// hygiene: kernels whose user names are names that ntc generates or uses itself (test-only
// kernels of tests/cpu). Each must compute what its C++ says:
//   gemm_named_like_generated: output = lhs @ rhs with the loop index named `pid0` (a program
//     coordinate), the accumulator named `lane0` (a lane index), parameters named `x`,
//     `x_size_0` (the size symbol of x) and `stream` (the wrapper's stream parameter).
//   gemm_loop_named_size: the loop index is named `x_size_1`, the size of `x` that bounds it.
//   gemm_loop_named_meta: the loop index is named like the meta-parameter `BK_H`.
//   hygiene_args, hygiene_args_args, hygiene_args_program0: kernel names that generated
//     helpers of another kernel would take.
//   scale_by_constexpr: output = input * c for c in {0.1234567, 1e-9} (digits beyond six).

#include <ntc/dsl.hpp>

constexpr nt::Symbol BM_H = nt::block_size("BM_H", 16);
constexpr nt::Symbol BN_H = nt::block_size("BN_H", 16);
constexpr nt::Symbol BK_H = nt::block_size("BK_H", 8, 16);
constexpr nt::Symbol BLOCK_H = nt::block_size("BLOCK_H", 32);

NT_ARRANGEMENT auto gemm_arrangement_h(nt::Tensor x, nt::Tensor x_size_0, nt::Tensor stream) {
  auto out = stream.tile({BM_H, BN_H});
  auto lhs = x.tile({BM_H, BK_H}).tile({1, -1}).expand({-1, out.shape(1)});
  lhs.dtype() = lhs.dtype().squeeze(0);
  auto rhs = x_size_0.tile({BK_H, BN_H}).tile({-1, 1}).expand({out.shape(0), -1});
  rhs.dtype() = rhs.dtype().squeeze(1);
  return nt::arrange(lhs, rhs, out);
}

NT_APPLICATION void gemm_pid_application(nt::Tile x, nt::Tile x_size_0, nt::Tile stream) {
  auto lane0 = ntl::zeros(stream.shape(), ntl::float32);
  for (int pid0 = 0; pid0 < x.shape(0); ++pid0)
    lane0 += ntl::dot(x[pid0], x_size_0[pid0]);
  stream = lane0;
}

NT_KERNEL(gemm_named_like_generated, gemm_arrangement_h, gemm_pid_application,
          nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float32));

NT_APPLICATION void gemm_size_application(nt::Tile a, nt::Tile b, nt::Tile c) {
  auto x_stride_0 = ntl::zeros(c.shape(), ntl::float32);
  for (int x_size_1 = 0; x_size_1 < a.shape(0); ++x_size_1)
    x_stride_0 += ntl::dot(a[x_size_1], b[x_size_1]);
  c = x_stride_0;
}

NT_KERNEL(gemm_loop_named_size, gemm_arrangement_h, gemm_size_application,
          nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float32));

NT_APPLICATION void gemm_meta_application(nt::Tile a, nt::Tile b, nt::Tile c) {
  auto acc = ntl::zeros(c.shape(), ntl::float32);
  for (int BK_H = 0; BK_H < a.shape(0); ++BK_H)
    acc += ntl::dot(a[BK_H], b[BK_H]);
  c = acc;
}

NT_KERNEL(gemm_loop_named_meta, gemm_arrangement_h, gemm_meta_application,
          nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float32));

NT_ARRANGEMENT auto unary_arrangement_h(nt::Tensor input, nt::Tensor output) {
  return nt::arrange(input.tile({BLOCK_H}), output.tile({BLOCK_H}));
}

NT_APPLICATION void plus_one_application(nt::Tile input, nt::Tile output) {
  output = input + 1;
}
NT_APPLICATION void plus_two_application(nt::Tile input, nt::Tile output) {
  output = input + 2;
}
NT_APPLICATION void plus_three_application(nt::Tile input, nt::Tile output) {
  output = input + 3;
}

NT_KERNEL(hygiene_args, unary_arrangement_h, plus_one_application, nt::Tensor(1, nt::float32),
          nt::Tensor(1, nt::float32));
NT_KERNEL(hygiene_args_args, unary_arrangement_h, plus_two_application,
          nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32));
NT_KERNEL(hygiene_args_program0, unary_arrangement_h, plus_three_application,
          nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32));

NT_ARRANGEMENT auto scale_arrangement(nt::Tensor input, nt::Tensor c, nt::Tensor output) {
  return nt::arrange(input.tile({BLOCK_H}), c, output.tile({BLOCK_H}));
}

NT_APPLICATION void scale_application(nt::Tile input, nt::Tile c, nt::Tile output) {
  output = input * c;
}

NT_KERNEL(scale_by_constexpr, scale_arrangement, scale_application, nt::Tensor(1, nt::float64),
          nt::Constexpr("c", {0.1234567, 1e-9}), nt::Tensor(1, nt::float64));

//   pid0 (a kernel named like a program coordinate): locals named like the generated code's own
//     names (ntc_args, ntc_program, t_acc beside acc) and nested loops k and l_k.
//     output = input * 2 + 1, computed the long way.
NT_ARRANGEMENT auto rows_arrangement_h(nt::Tensor input, nt::Tensor output) {
  return nt::arrange(input.tile({1, -1}), output.tile({1, -1}));
}

NT_APPLICATION void local_names_application(nt::Tile input, nt::Tile output) {
  auto ntc_args = input * 2;
  auto ntc_program = ntl::zeros(output.shape(), ntl::float32);
  auto acc = ntl::zeros(output.shape(), ntl::float32);
  auto t_acc = ntl::full(output.shape(), 1, ntl::float32);
  for (int k = 0; k < 2; ++k)
    for (int l_k = 0; l_k < 3; ++l_k)
      acc = acc + t_acc;
  ntc_program = ntc_args + acc / 6;
  output = ntc_program;
}

NT_KERNEL(pid0, rows_arrangement_h, local_names_application, nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::float32));

// Composition with named axes: an application that calls another kernel's application (the
// classic GEMM's mm_application, with a local accumulator as its `nt::Tile &` out parameter),
// over a named arrangement: `output = beta * input + alpha * (lhs @ rhs)`.
#include "matmul.hpp"

NT_ARRANGEMENT auto named_addmm_arrangement(nt::Tensor input, nt::Tensor lhs, nt::Tensor rhs,
                                            nt::Tensor beta, nt::Tensor alpha, nt::Tensor output) {
  return nt::arrange(input.axes("m", "n").tile({BM, BN}), lhs.axes("m", "k").tile({BM, BK}),
                     rhs.axes("k", "n").tile({BK, BN}), beta, alpha,
                     output.axes("m", "n").tile({BM, BN}));
}

NT_APPLICATION void named_addmm_application(nt::Tile input, nt::Tile lhs, nt::Tile rhs,
                                            nt::Tile beta, nt::Tile alpha, nt::Tile output) {
  auto product = ntl::zeros(output.shape(), ntl::float32);
  mm_application(lhs, rhs, product);
  output = beta * input + alpha * product;
}

NT_KERNEL(named_addmm, named_addmm_arrangement, named_addmm_application,
          nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16),
          nt::Scalar(nt::float32), nt::Scalar(nt::float32), nt::Tensor(2, nt::float16));

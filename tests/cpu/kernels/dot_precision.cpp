// ntl::dot with an input precision, as NineToothed writes it for float32 operands: the same
// GEMM walk as kernels/matmul.hpp, float32 in and out, once per precision (the GPU runs "tf32"
// and "tf32x3" on the tensor cores; the CPU computes all three in IEEE precision).
#include "matmul.hpp"

NT_APPLICATION void ieee_application(nt::Tile lhs, nt::Tile rhs, nt::Tile output) {
  auto accumulator = ntl::zeros(output.shape(), ntl::float32);
  for (int k = 0; k < lhs.shape(0); ++k)
    accumulator += ntl::dot(lhs[k], rhs[k], "ieee");
  output = accumulator;
}

NT_APPLICATION void tf32_application(nt::Tile lhs, nt::Tile rhs, nt::Tile output) {
  auto accumulator = ntl::zeros(output.shape(), ntl::float32);
  for (int k = 0; k < lhs.shape(0); ++k)
    accumulator = accumulator + ntl::dot(lhs[k], rhs[k], "tf32");
  output = accumulator;
}

NT_APPLICATION void tf32x3_application(nt::Tile lhs, nt::Tile rhs, nt::Tile output) {
  auto accumulator = ntl::zeros(output.shape(), ntl::float32);
  for (int k = 0; k < lhs.shape(0); ++k)
    accumulator += ntl::dot(lhs[k], rhs[k], "tf32x3");
  output = accumulator;
}

NT_KERNEL(mm_ieee, mm_arrangement, ieee_application, nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float32));
NT_KERNEL(mm_tf32, mm_arrangement, tf32_application, nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float32));
NT_KERNEL(mm_tf32x3, mm_arrangement, tf32x3_application, nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float32));

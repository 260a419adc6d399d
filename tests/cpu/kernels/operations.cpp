// operations: kernels for every function of the operation table (ntc/common/operations.inc),
// test-only kernels of tests/cpu checked by OperationTableTest.cpp, which reads the table and so
// fails to link when a row has no line here:
//   op_<name>_f32, op_<name>_f16   output = ntl::<name>(x) or ntl::<name>(x, y), blocks of 64
// (ntc compiles the kernels written in the main file only, so the table cannot list them here.)

#include <ntc/dsl.hpp>

constexpr nt::Symbol BLOCK_SIZE = nt::block_size("BLOCK_SIZE", 64);

NT_ARRANGEMENT auto unary_arrangement(nt::Tensor x, nt::Tensor output) {
  return nt::arrange(x.tile({BLOCK_SIZE}), output.tile({BLOCK_SIZE}));
}

NT_ARRANGEMENT auto binary_arrangement(nt::Tensor x, nt::Tensor y, nt::Tensor output) {
  return nt::arrange(x.tile({BLOCK_SIZE}), y.tile({BLOCK_SIZE}), output.tile({BLOCK_SIZE}));
}

/// The float32 and float16 kernels of the one-operand function `name`.
#define OPERATION_KERNELS_1(name)                                                                  \
  NT_APPLICATION void name##_application(nt::Tile x, nt::Tile output) { output = ntl::name(x); }   \
  NT_KERNEL(op_##name##_f32, unary_arrangement, name##_application, nt::Tensor(1, nt::float32),    \
            nt::Tensor(1, nt::float32));                                                           \
  NT_KERNEL(op_##name##_f16, unary_arrangement, name##_application, nt::Tensor(1, nt::float16),    \
            nt::Tensor(1, nt::float16));

/// The float32 and float16 kernels of the two-operand function `name`.
#define OPERATION_KERNELS_2(name)                                                                  \
  NT_APPLICATION void name##_application(nt::Tile x, nt::Tile y, nt::Tile output) {                \
    output = ntl::name(x, y);                                                                      \
  }                                                                                                \
  NT_KERNEL(op_##name##_f32, binary_arrangement, name##_application, nt::Tensor(1, nt::float32),   \
            nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32));                               \
  NT_KERNEL(op_##name##_f16, binary_arrangement, name##_application, nt::Tensor(1, nt::float16),   \
            nt::Tensor(1, nt::float16), nt::Tensor(1, nt::float16));

OPERATION_KERNELS_1(exp)
OPERATION_KERNELS_1(exp2)
OPERATION_KERNELS_1(log)
OPERATION_KERNELS_1(log2)
OPERATION_KERNELS_1(log1p)
OPERATION_KERNELS_1(sqrt)
OPERATION_KERNELS_1(rsqrt)
OPERATION_KERNELS_1(abs)
OPERATION_KERNELS_1(sin)
OPERATION_KERNELS_1(cos)
OPERATION_KERNELS_1(tanh)
OPERATION_KERNELS_1(sigmoid)
OPERATION_KERNELS_1(erf)
OPERATION_KERNELS_1(floor)
OPERATION_KERNELS_1(ceil)
OPERATION_KERNELS_2(pow)
OPERATION_KERNELS_2(maximum)
OPERATION_KERNELS_2(minimum)

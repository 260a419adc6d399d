// ntl::dot's input precision (NineToothed's input_precision): the IR keeps "tf32"/"tf32x3" on
// products of float32 operands and drops it elsewhere; the CUDA backend passes it to the device
// library's dot (tensor cores with tf32 operands), the CPU backend multiplies in IEEE precision.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto arrangement(nt::Tensor a, nt::Tensor b, nt::Tensor c) {
  return nt::arrange(a.tile({32, 16}), b.tile({16, 32}), c.tile({32, 32}));
}

NT_APPLICATION void tf32(nt::Tile a, nt::Tile b, nt::Tile c) { c = ntl::dot(a, b, "tf32"); }
NT_APPLICATION void tf32x3(nt::Tile a, nt::Tile b, nt::Tile c) { c = ntl::dot(a, b, "tf32x3"); }
NT_APPLICATION void ieee(nt::Tile a, nt::Tile b, nt::Tile c) { c = ntl::dot(a, b, "ieee"); }

NT_KERNEL(dot_tf32, arrangement, tf32, nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::float32));
NT_KERNEL(dot_tf32x3, arrangement, tf32x3, nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::float32));
NT_KERNEL(dot_ieee, arrangement, ieee, nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float32),
          nt::Tensor(2, nt::float32));
// float16 operands run on the tensor cores anyway: the precision does not apply.
NT_KERNEL(dot_half, arrangement, tf32, nt::Tensor(2, nt::float16), nt::Tensor(2, nt::float16),
          nt::Tensor(2, nt::float32));

// CHECK-LABEL: kernel dot_tf32(
// CHECK:       dot(load a[] : float32[32, 16], load b[] : float32[16, 32], input_precision=tf32)
// CHECK-LABEL: kernel dot_tf32x3(
// CHECK:       dot({{.*}}, input_precision=tf32x3)
// CHECK-LABEL: kernel dot_ieee(
// CHECK-NOT:   input_precision
// CHECK-LABEL: kernel dot_half(
// CHECK-NOT:   input_precision

// CU-LABEL: ntc_dot_tf32_program0
// CU:       ntc::dev::dot<float>(
// CU:       ntc_smem, ntc::dev::tf32_inputs<1>{})
// CU-LABEL: ntc_dot_tf32x3_program0
// CU:       ntc::dev::dot<float>(
// CU:       ntc_smem, ntc::dev::tf32_inputs<3>{})
// CU-LABEL: ntc_dot_ieee_program0
// CU:       ntc::dev::dot<float>(
// CU:       }), ntc_smem), [&]
// CU-LABEL: ntc_dot_half_program0
// CU-NOT:   tf32_inputs

// CPP-NOT: tf32_inputs

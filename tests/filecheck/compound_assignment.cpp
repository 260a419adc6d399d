// Compound assignment: on a local it rebinds the local (`%a <- op(%a, ...)`); on a parameter it
// is a load, the operation and a store of the same tile.
#include <ntc/dsl.hpp>

constexpr nt::Symbol BLOCK = nt::block_size("BLOCK", 128);

NT_ARRANGEMENT auto arrangement(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.tile({BLOCK}), y.tile({BLOCK}));
}

NT_APPLICATION void on_local(nt::Tile x, nt::Tile y) {
  auto a = x * 2.0;
  a += x;
  a *= x;
  a -= 1.0;
  a /= x;
  y = a;
}

NT_APPLICATION void on_parameter(nt::Tile x, nt::Tile y) {
  y += x;
}

NT_KERNEL(compound_local, arrangement, on_local, nt::Tensor(1, nt::float32),
          nt::Tensor(1, nt::float32));
NT_KERNEL(compound_parameter, arrangement, on_parameter, nt::Tensor(1, nt::float32),
          nt::Tensor(1, nt::float32));

// CHECK-LABEL: kernel compound_local(
// CHECK-NEXT:    %a = mul(load x[] : float32[128], 2 : float32[]) : float32[128]
// CHECK-NEXT:    %a <- add(%a : float32[128], load x[] : float32[128]) : float32[128]
// CHECK-NEXT:    %a <- mul(%a : float32[128], load x[] : float32[128]) : float32[128]
// CHECK-NEXT:    %a <- sub(%a : float32[128], 1 : float32[]) : float32[128]
// CHECK-NEXT:    %a <- div(%a : float32[128], load x[] : float32[128]) : float32[128]
// CHECK-NEXT:    store y[] <- %a : float32[128]

// CHECK-LABEL: kernel compound_parameter(
// CHECK-NEXT:    store y[] <- add(load y[] : float32[128], load x[] : float32[128]) : float32[128]
// CHECK-NOT:     store

// The generated CPU code loads y, adds x and stores y.
// CPP-LABEL: void ntc_compound_parameter_program0(
// CPP:         ntc::cpu::store(ntc_args.y, {{.*}}load<float>({{.*}}ntc_args.y,
// CPP-NOT:     ntc::cpu::store
// CPP:         load<float>({{.*}}ntc_args.x,

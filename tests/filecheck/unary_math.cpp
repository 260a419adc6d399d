// An ntl:: math function of the operation table (ntc/common/operations.inc), here log1p: the IR
// types it by the row's rule (float16 stays float16; int32 becomes float32, the operand
// converted first), and both emitters call the library function of the row's name.
#include <ntc/dsl.hpp>

constexpr nt::Symbol BLOCK = nt::block_size("BLOCK", 64);

NT_ARRANGEMENT auto vector_arrangement(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.tile({BLOCK}), y.tile({BLOCK}));
}

NT_APPLICATION void log1p_application(nt::Tile x, nt::Tile y) { y = ntl::log1p(x); }

NT_KERNEL(log1p_f16, vector_arrangement, log1p_application, nt::Tensor(1, nt::float16),
          nt::Tensor(1, nt::float16));
NT_KERNEL(log1p_i32, vector_arrangement, log1p_application, nt::Tensor(1, nt::int32),
          nt::Tensor(1, nt::float32));

// CHECK-LABEL: kernel log1p_f16(
// CHECK-NEXT:    store y[] <- log1p(load x[] : float16[64]) : float16[64]
// CHECK-LABEL: kernel log1p_i32(
// CHECK-NEXT:    store y[] <- log1p(load x[] : int32[64]) : float32[64]

// CPP-LABEL: void ntc_log1p_f16_program0(
// CPP:         ntc::cpu::store(ntc_args.y, ntc::cpu::log1p(ntc::cpu::load<ntc::cpu::float16>(
// CPP-LABEL: void ntc_log1p_i32_program0(
// CPP:         ntc::cpu::store(ntc_args.y, ntc::cpu::log1p(ntc::cpu::cast<float>(ntc::cpu::load<int32_t>(

// CU-LABEL: void __launch_bounds__(128) ntc_log1p_f16_program0(
// CU:         ntc::dev::store(ntc_args.y, ntc::dev::log1p(ntc::dev::load<ntc::dev::float16,
// CU-LABEL: void __launch_bounds__(128) ntc_log1p_i32_program0(
// CU:         ntc::dev::store(ntc_args.y, ntc::dev::log1p(ntc::dev::cast<float>(ntc::dev::load<int32_t,

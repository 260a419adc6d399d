// `if` on an nt::Constexpr scalar: the IR keeps the branch; the generated code has one program
// variant per allowed value (the branch resolved), takes the scalar as int64_t and rejects values
// outside the set.
#include <ntc/dsl.hpp>

constexpr nt::Symbol BLOCK = nt::block_size("BLOCK", 64);

NT_ARRANGEMENT auto arrangement(nt::Tensor x, nt::Tensor negate, nt::Tensor y) {
  return nt::arrange(x.tile({BLOCK}), negate, y.tile({BLOCK}));
}

NT_APPLICATION void application(nt::Tile x, nt::Tile negate, nt::Tile y) {
  auto value = x * 3.0;
  if (negate)
    value = -value;
  y = value;
}

NT_KERNEL(maybe_negate, arrangement, application, nt::Tensor(1, nt::float32),
          nt::Constexpr("negate", {0, 1}), nt::Tensor(1, nt::float32));

// CHECK-LABEL: kernel maybe_negate(
// CHECK-SAME:    negate: ()
// CHECK-NEXT:    %value = mul(load x[] : float32[64], 3 : float32[]) : float32[64]
// CHECK-NEXT:    if negate != 0:
// CHECK-NEXT:      %value <- neg(%value : float32[64]) : float32[64]
// CHECK-NEXT:    store y[] <- %value : float32[64]

// HDR: ntc_status_t maybe_negate(const DLTensor *x, int64_t negate, const DLTensor *y, ntc_stream_t ntc_stream);

// The variant for negate=0 has no negation; the one for negate=1 has it.
// CPP-LABEL: // maybe_negate with negate=0.
// CPP-NOT:     -t_value
// CPP-LABEL: // maybe_negate with negate=1.
// CPP:         t_value = {{.*}}-t_value
// CPP-LABEL: static ntc_status_t ntc_maybe_negate_run(
// CPP:         if (!(negate == 0 || negate == 1))
// CPP-NEXT:      return ntc::rt::fail(NTC_ERROR_INVALID_ARGUMENT, "maybe_negate: parameter 'negate' is " + std::to_string(negate) + ", expected one of 0, 1");
// CPP:         {{.*}}negate == 0) {
// CPP-NEXT:      ntc::rt::parallel_for(
// CPP-NEXT:        ntc_maybe_negate_program0<
// CPP:         {{.*}}negate == 1) {
// CPP-NEXT:      ntc::rt::parallel_for(
// CPP-NEXT:        ntc_maybe_negate_program1<
// CPP:       {"negate", NTC_PARAM_SCALAR, 0, ntc::rt::dtypes::int64, 0u},
// CPP:       *static_cast<const int64_t *>(ntc_a[1])

// mark-canonical-nans (passes/MarkCanonicalNaNs.cpp): a cast from float32 to float16 whose
// operand can hold no NaN but the GPU's canonical one (exp2's results, constants, a `where`
// between such values, a local all of whose definitions are such) is marked `canonical_nan`, and
// the generated code narrows it with ntc::dev::cast_canonical_nan (no test for NaN payloads).
// A loaded value, arithmetic on it and a local that is also assigned a loaded value keep
// ntc::dev::cast, which preserves payloads.

#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto pair(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.tile({64, 64}), y.tile({64, 64}));
}

NT_APPLICATION void powers(nt::Tile x, nt::Tile y) { y = ntl::exp2(x).to(ntl::float16); }

NT_APPLICATION void selected(nt::Tile x, nt::Tile y) {
  y = ntl::where(x > 0, ntl::exp2(x), 0.0).to(ntl::float16);
}

NT_APPLICATION void carried(nt::Tile x, nt::Tile y) {
  auto p = ntl::zeros({64, 64}, ntl::float32);
  for (int i = 0; i < 2; ++i)
    p = ntl::exp2(x - p);
  y = p.to(ntl::float16);
}

NT_APPLICATION void loaded(nt::Tile x, nt::Tile y) { y = x.to(ntl::float16); }

NT_APPLICATION void scaled(nt::Tile x, nt::Tile y) { y = (x * 2).to(ntl::float16); }

NT_APPLICATION void mixed(nt::Tile x, nt::Tile y) {
  auto p = ntl::exp2(x);
  for (int i = 0; i < 2; ++i)
    p = x;
  y = p.to(ntl::float16);
}

NT_KERNEL(powers, pair, powers, nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float16));
NT_KERNEL(selected, pair, selected, nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float16));
NT_KERNEL(carried, pair, carried, nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float16));
NT_KERNEL(loaded, pair, loaded, nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float16));
NT_KERNEL(scaled, pair, scaled, nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float16));
NT_KERNEL(mixed, pair, mixed, nt::Tensor(2, nt::float32), nt::Tensor(2, nt::float16));

// NTC-ARGS: --cuda-arch 90a

// GIR-LABEL: mark-canonical-nans, {{.*}}(ntc_powers_program0,
// GIR: store y[] <- cast(exp2(load x[] : float32[64, 64]{{.*}}, canonical_nan) : float16[64, 64]
// GIR-LABEL: mark-canonical-nans, {{.*}}(ntc_selected_program0,
// GIR: canonical_nan
// GIR-LABEL: mark-canonical-nans, {{.*}}(ntc_carried_program0,
// GIR: store y[] <- cast(%p : float32[64, 64]{{.*}}, canonical_nan) : float16[64, 64]
// GIR-LABEL: mark-canonical-nans, {{.*}}(ntc_loaded_program0,
// GIR-NOT: canonical_nan
// GIR-LABEL: mark-canonical-nans, {{.*}}(ntc_scaled_program0,
// GIR-NOT: canonical_nan
// GIR-LABEL: mark-canonical-nans, {{.*}}(ntc_mixed_program0,
// GIR-NOT: canonical_nan
// GIR: // -----//

// CU-LABEL: ntc_powers_program0(
// CU: ntc::dev::cast_canonical_nan<ntc::dev::float16>(ntc::dev::exp2(
// CU-LABEL: ntc_selected_program0(
// CU: ntc::dev::cast_canonical_nan<ntc::dev::float16>(ntc::dev::where(
// CU-LABEL: ntc_carried_program0(
// CU: ntc::dev::cast_canonical_nan<ntc::dev::float16>(t_p)
// CU-LABEL: ntc_loaded_program0(
// CU-NOT: cast_canonical_nan
// CU: ntc::dev::cast<ntc::dev::float16>(
// CU-LABEL: ntc_scaled_program0(
// CU-NOT: cast_canonical_nan
// CU: ntc::dev::cast<ntc::dev::float16>(
// CU-LABEL: ntc_mixed_program0(
// CU-NOT: cast_canonical_nan
// CU: ntc::dev::cast<ntc::dev::float16>(t_p)

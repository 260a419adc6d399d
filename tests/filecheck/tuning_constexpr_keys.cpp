// Tuning tables keyed by compile-time scalars (tuning/TuningTable.cpp, passes/BuildVariants.cpp,
// codegen/host/HostWrapper.cpp): an entry's "scalars" give the values of the kernel's integer
// nt::Constexpr parameters it was measured with; the dispatcher takes it for calls with those
// values only (ntc::rt::pick_config), and its configuration is compiled for those values only.
// An entry without "scalars" stands for every value (ntc::rt::any_value); the default
// configuration is compiled for every value. (tests/cli tables this kernel with a value that
// `mode` does not take.)
#include <ntc/dsl.hpp>

constexpr nt::Symbol BLOCK_SIZE = nt::block_size("BLOCK_SIZE", 2, 8);

NT_ARRANGEMENT auto mode_arrangement(nt::Tensor x, nt::Tensor mode) {
  return nt::arrange(x.tile({BLOCK_SIZE}), mode);
}

NT_APPLICATION void mode_application(nt::Tile x, nt::Tile mode) {
  if (mode)
    x = x * 2;
  else
    x = x + 1;
}

NT_KERNEL(tuned_mode, mode_arrangement, mode_application, nt::Tensor(1, nt::float32),
          nt::Constexpr("mode", {0, 1}));

// clang-format off
// BLOCK_SIZE=8 measured with mode 1 at 1024 elements, BLOCK_SIZE=4 at 64 elements for any mode.
// TABLE-ENTRY: {"kernel": "tuned_mode", "hash": "@HASH@", "target": "cpu", "arch": "cpu", "alignment": "aligned16", "bucket": {"x": [1024]}, "scalars": {"mode": 1}, "config": "BLOCK_SIZE=8"}
// TABLE-ENTRY: {"kernel": "tuned_mode", "hash": "@HASH@", "target": "cpu", "arch": "cpu", "alignment": "aligned16", "bucket": {"x": [64]}, "config": "BLOCK_SIZE=4"}

// TAB:        static const ntc::rt::tuned_shape<1, 1, 0> ntc_tuned[] = {
// TAB-NEXT:     {0, true, 1, {{[{][{]}}1024{{[}][}]}}, {{[{][{]}}1{{[}][}]}}, {{[{][{][}][}]}}},
// TAB-NEXT:     {0, true, 2, {{[{][{]}}64{{[}][}]}}, {{[{][{]}}ntc::rt::any_value{{[}][}]}}, {{[{][{][}][}]}}},
// TAB-NEXT:   };
// TAB:        const std::array<int64_t, 1> ntc_constexprs{{[{][{]}}static_cast<int64_t>(mode){{[}][}]}};
// TAB-NEXT:   const std::array<int64_t, 0> ntc_extents{{[{][{][}][}]}};
// TAB-NEXT:   const int ntc_config = ntc::rt::pick_config(ntc_tuned, ntc_arch, true && ntc::rt::aligned16(x), ntc_sizes, ntc_constexprs, ntc_extents);
// TAB:        if (!ntc_index64 && ntc_config == 0 && ntc_BLOCK_SIZE_meta == 2 && mode == 0) {
// TAB:        if (!ntc_index64 && ntc_config == 0 && ntc_BLOCK_SIZE_meta == 2 && mode == 1) {
// TAB-NOT:    ntc_config == 1 && ntc_BLOCK_SIZE_meta == 8 && mode == 0
// TAB:        if (!ntc_index64 && ntc_config == 1 && ntc_BLOCK_SIZE_meta == 8 && mode == 1) {
// TAB:        if (!ntc_index64 && ntc_config == 2 && ntc_BLOCK_SIZE_meta == 4 && mode == 0) {
// TAB:        if (!ntc_index64 && ntc_config == 2 && ntc_BLOCK_SIZE_meta == 4 && mode == 1) {
// TAB:        if (ntc_index64 && ntc_config == 0
// TAB-NOT:    ntc_config == 1 && ntc_BLOCK_SIZE_meta == 8 && mode == 0
// TAB:        if (ntc_index64 && ntc_config == 1 && ntc_BLOCK_SIZE_meta == 8 && mode == 1) {
// clang-format on

// A vector tiled by a tuned block size and scaled by a compile-time mode (nt::Constexpr): tuning
// tables key their entries by the mode too (tests/cli/tables/bad_mode.json gives it a value it
// does not take).
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

// nt::block_size with bounds that are not powers of two, empty or non-positive, or one name
// declared with two different ranges. The error points at the declaration.
#include <ntc/dsl.hpp>

constexpr nt::Symbol NOT_POW2 = nt::block_size("NOT_POW2", 48, 96); // expected-error {{the bounds of tuned block size 'NOT_POW2' must be powers of two, got [48, 96]}}
constexpr nt::Symbol HIGH_NOT_POW2 = nt::block_size("HIGH_NOT_POW2", 32, 100); // expected-error {{the bounds of tuned block size 'HIGH_NOT_POW2' must be powers of two, got [32, 100]}}
constexpr nt::Symbol EMPTY = nt::block_size("EMPTY", 64, 32); // expected-error {{block size 'EMPTY' needs 0 < low <= high, got [64, 32]}}
// FIXME(ntc): for a fixed size the message should read "block size 'ZERO' must be positive, got 0".
constexpr nt::Symbol ZERO = nt::block_size("ZERO", 0); // expected-error {{block size 'ZERO' needs 0 < low <= high, got [0, 0]}}
constexpr nt::Symbol TWICE_A = nt::block_size("TWICE", 16, 64);
// FIXME(ntc): the message should give both ranges and a note at the first declaration.
constexpr nt::Symbol TWICE_B = nt::block_size("TWICE", 16, 128); // expected-error {{block size 'TWICE' is declared twice with different bounds}}

NT_ARRANGEMENT auto not_pow2(nt::Tensor x) { return nt::arrange(x.tile({NOT_POW2})); }
NT_ARRANGEMENT auto high_not_pow2(nt::Tensor x) { return nt::arrange(x.tile({HIGH_NOT_POW2})); }
NT_ARRANGEMENT auto empty(nt::Tensor x) { return nt::arrange(x.tile({EMPTY})); }
NT_ARRANGEMENT auto zero(nt::Tensor x) { return nt::arrange(x.tile({ZERO})); }
NT_ARRANGEMENT auto twice(nt::Tensor x) { return nt::arrange(x.tile({TWICE_A}).tile({TWICE_B})); }

NT_APPLICATION void app(nt::Tile x) { x = x + 1; }

NT_KERNEL(not_pow2, not_pow2, app, nt::Tensor(1, nt::float32));
NT_KERNEL(high_not_pow2, high_not_pow2, app, nt::Tensor(1, nt::float32));
NT_KERNEL(empty, empty, app, nt::Tensor(1, nt::float32));
NT_KERNEL(zero, zero, app, nt::Tensor(1, nt::float32));
NT_KERNEL(twice, twice, app, nt::Tensor(1, nt::float32));

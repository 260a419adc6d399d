// Bad parameter declarations in NT_KERNEL.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto pass(nt::Tensor x) { return nt::arrange(x); }
NT_APPLICATION void app(nt::Tile x) { x = x + 1; }

NT_KERNEL(rank_too_high, pass, app, nt::Tensor(9, nt::float32)); // expected-error {{tensor rank 9 is outside 0 to 8}}
NT_KERNEL(rank_negative, pass, app, nt::Tensor(-1, nt::float32)); // expected-error {{tensor rank -1 is outside 0 to 8}}
NT_KERNEL(no_constexpr_values, pass, app, nt::Constexpr("c", {})); // expected-error {{nt::Constexpr needs at least one value}}
NT_KERNEL(bad_upper_bound_dim, pass, app, nt::Tensor(1, nt::float32).upper_bound(1, 4)); // expected-error {{dimension 1 is out of range for a tensor of rank 1}}

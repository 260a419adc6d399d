// The conditional operator: per element on tile data (both operands are evaluated, so neither
// may have side effects), or decided at compile time.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto arrangement(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.tile({16}), y.tile({16}));
}

NT_APPLICATION void assigns_in_operand(nt::Tile x, nt::Tile y) {
  auto a = x;
  y = x > 0 ? (a = x * 2) : x; // expected-error {{the operands of a '?:' on tile data are both evaluated (it selects per element); this one has side effects}}
}

nt::Tile store_and_return(nt::Tile &out, nt::Tile v) {
  out = v;
  return v;
}

NT_APPLICATION void stores_in_operand(nt::Tile x, nt::Tile y) {
  y = x > 0 ? x : store_and_return(y, x); // expected-error {{the operands of a '?:' on tile data are both evaluated (it selects per element); this one has side effects}}
}

NT_APPLICATION void per_variant(nt::Tile x, nt::Tile flag, nt::Tile y) {
  y = flag ? x : x * 2; // expected-error {{this condition of '?:' is decided only per variant (it depends on meta-parameters or nt::Constexpr values); use an if statement}}
}

NT_ARRANGEMENT auto with_flag(nt::Tensor x, nt::Tensor flag, nt::Tensor y) {
  return nt::arrange(x.tile({16}), flag, y.tile({16}));
}

NT_KERNEL(assigns_in_operand, arrangement, assigns_in_operand, nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32));
NT_KERNEL(stores_in_operand, arrangement, stores_in_operand, nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32));
NT_KERNEL(per_variant, with_flag, per_variant, nt::Tensor(1, nt::float32), nt::Constexpr("flag", {0, 1}), nt::Tensor(1, nt::float32));

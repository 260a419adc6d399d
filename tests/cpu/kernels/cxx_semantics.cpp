// cxx_semantics: lambdas and references in applications keep their C++ meaning (test-only
// kernels of tests/cpu).
//   lambda_captures: a by-copy capture is copied when the lambda is created; a `mutable`
//     lambda changes its own copy, which lasts between calls; a by-reference capture and a
//     reference local alias the variable; an init-capture is a new variable.
//     y = (x+1)*100 + (x+1)*10000 + (x+1) + (x+1+1+1+5) + (x+2)*3

#include <ntc/dsl.hpp>

constexpr nt::Symbol BLOCK_S = nt::block_size("BLOCK_S", 16);

NT_ARRANGEMENT auto unary_arrangement_s(nt::Tensor x, nt::Tensor y) {
  return nt::arrange(x.tile({BLOCK_S}), y.tile({BLOCK_S}));
}

NT_APPLICATION void lambda_application(nt::Tile x, nt::Tile y) {
  auto c = x + 1;
  auto scaled = [c]() mutable {
    c = c * 100;
    return c;
  };
  auto a = scaled();         // (x+1)*100
  auto b = scaled();         // (x+1)*10000: the lambda's copy kept its value
  auto snapshot = [c] { return c; };
  c = c + 1;                 // snapshot() still returns x+1
  auto &r = c;
  r = r + 1;                 // c is x+3
  auto bump = [&c] { c = c + 5; };
  bump();                    // c is x+8
  auto tripled = [d = x + 2] { return d * 3; };
  auto &out = y;
  out = a + b + snapshot() + c + tripled();
}

NT_KERNEL(lambda_captures, unary_arrangement_s, lambda_application, nt::Tensor(1, nt::float64),
          nt::Tensor(1, nt::float64));

//   copy_then_write: `auto a = x;` copies x's tile before `x = x * 2` stores to x, and a helper's
//     by-value parameter is a copy too: x = 3 * (2 * x0), y = x0 + 2 * x0 (x0: x on entry).
nt::Tile scale_into(nt::Tile t, nt::Tile &out) {
  out = t * 3;
  return t;
}

NT_APPLICATION void copy_then_write_application(nt::Tile x, nt::Tile y) {
  auto a = x;
  x = x * 2;
  auto b = scale_into(x, x);
  y = a + b;
}

NT_KERNEL(copy_then_write, unary_arrangement_s, copy_then_write_application,
          nt::Tensor(1, nt::float64), nt::Tensor(1, nt::float64));

//   conditional_ops: `?:` on tile data selects per element; on data types it is decided at
//     compile time, like `if (x.dtype() == ...)`: y = (x > 0 ? x : 2x) + 1 in float32 for a
//     float16 x.
NT_APPLICATION void conditional_application(nt::Tile x, nt::Tile y) {
  auto wide = x.dtype() != ntl::float16 ? x.dtype() : ntl::float32;
  auto v = x.to(wide);
  auto chosen = v > 0 ? v : v * 2;
  if (x.dtype() == ntl::float16)
    y = chosen + 1;
  else
    y = chosen - 1;
}

NT_KERNEL(conditional_ops, unary_arrangement_s, conditional_application,
          nt::Tensor(1, nt::float16), nt::Tensor(1, nt::float32));

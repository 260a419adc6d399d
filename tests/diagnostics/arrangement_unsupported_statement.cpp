// Statements an arrangement cannot run ('for', 'if', declarations, 'return' and expressions can).
#include <ntc/dsl.hpp>

// FIXME(ntc): these messages name Clang's AST classes ('WhileStmt', 'SwitchStmt', 'BreakStmt');
// they should read like the application's: "'while' loops are not supported in an arrangement;
// use a 'for' loop", "'switch' statements are not supported in an arrangement; use 'if'",
// "'break' is not supported in an arrangement".

NT_ARRANGEMENT auto with_while(nt::Tensor x) {
  auto t = x;
  int i = 0;
  while (i < 1) { // expected-error {{'WhileStmt' statements are not supported in an arrangement}}
    t = t.tile({4});
    ++i;
  }
  return nt::arrange(t);
}

NT_ARRANGEMENT auto with_switch(nt::Tensor x) {
  switch (x.ndim()) { // expected-error {{'SwitchStmt' statements are not supported in an arrangement}}
  case 1:
    return nt::arrange(x.tile({4}));
  }
  return nt::arrange(x);
}

NT_ARRANGEMENT auto with_break(nt::Tensor x) {
  auto t = x;
  for (int i = 0; i < 3; ++i) {
    if (i == 1)
      break; // expected-error {{'BreakStmt' statements are not supported in an arrangement}}
    t = t.tile({2});
  }
  return nt::arrange(t);
}

NT_APPLICATION void app(nt::Tile x) { x = x + 1; }

NT_KERNEL(with_while, with_while, app, nt::Tensor(1, nt::float32));
NT_KERNEL(with_switch, with_switch, app, nt::Tensor(1, nt::float32));
NT_KERNEL(with_break, with_break, app, nt::Tensor(1, nt::float32));

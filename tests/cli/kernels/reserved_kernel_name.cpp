// A kernel named `exit`: the generated C function would clash with <stdlib.h>'s.
// (No semicolon after NT_KERNEL: the expected caret line of the CLI test has none.)
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto pass(nt::Tensor x) { return nt::arrange(x.tile({4})); }

NT_APPLICATION void increment(nt::Tile x) { x = x + 1; }

NT_KERNEL(exit, pass, increment, nt::Tensor(1, nt::float32))

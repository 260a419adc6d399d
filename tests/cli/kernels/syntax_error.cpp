// A kernel source with a C++ syntax error: Clang reports it and ntc exits with status 1.
#include <ntc/dsl.hpp>

NT_ARRANGEMENT auto arrangement(nt::Tensor x) { return nt::arrange(x.tile({4}) }

NT_APPLICATION void application(nt::Tile x) { x = x + 1; }

NT_KERNEL(syntax_error, arrangement, application, nt::Tensor(1, nt::float32));

// Meta-parameter (tuned nt::block_size) and nt::Constexpr names that clash with what ntc
// generates: reserved prefixes, program ids, lane indices, padded extents, the sizes and
// strides of the kernel's tensors, C names, non-identifiers, and the kernel's own parameters.
// The error is at the name; a note points at the kernel that uses it.
#include <ntc/dsl.hpp>

constexpr nt::Symbol NTC_B = nt::block_size("ntc_block", 16, 64); // expected-error {{meta-parameter name 'ntc_block' is reserved (names beginning with 'ntc_' or 'NTC_' are reserved for ntc's generated code)}}
constexpr nt::Symbol UU_B = nt::block_size("__block", 16, 64); // expected-error {{meta-parameter name '__block' is reserved (names beginning with '__' or with '_' and an upper-case letter are reserved for the C and C++ implementation)}}
constexpr nt::Symbol PID = nt::block_size("pid0", 16, 64); // expected-error {{meta-parameter name 'pid0' is reserved ('pid0' is the name ntc gives to the program's coordinate in dimension 0 of the launch grid)}}
constexpr nt::Symbol LANE = nt::block_size("lane12", 16, 64); // expected-error {{meta-parameter name 'lane12' is reserved ('lane12' is the name ntc gives to the position of an element within a tile in dimension 12)}}
constexpr nt::Symbol NP2 = nt::block_size("NP2_128", 16, 64); // expected-error {{meta-parameter name 'NP2_128' is reserved ('NP2_128' is the name ntc gives to the power-of-two tile extent that stands for run-time sizes up to 128)}}
constexpr nt::Symbol SIZE = nt::block_size("x_size_1", 16, 64); // expected-error {{meta-parameter name 'x_size_1' is reserved ('x_size_1' is the name ntc gives to the size of 'x' in dimension 1)}}
constexpr nt::Symbol STRIDE = nt::block_size("x_stride_0", 16, 64); // expected-error {{meta-parameter name 'x_stride_0' is reserved ('x_stride_0' is the name ntc gives to the stride of 'x' in dimension 0)}}
constexpr nt::Symbol SPACE = nt::block_size("BLOCK SIZE", 16, 64); // expected-error {{meta-parameter name 'BLOCK SIZE' is not a C identifier}}
constexpr nt::Symbol KEYWORD = nt::block_size("int", 16, 64); // expected-error {{meta-parameter name 'int' is reserved (a C keyword)}}
constexpr nt::Symbol MACRO = nt::block_size("INFINITY", 16, 64); // expected-error {{meta-parameter name 'INFINITY' is reserved (a macro of the C standard library, defined in <math.h>)}}
constexpr nt::Symbol SAME = nt::block_size("x", 16, 64); // expected-error {{meta-parameter name 'x' is also the name of a parameter of kernel 'same_as_parameter'}}

NT_APPLICATION void increment(nt::Tile x) { x = x + 1; }

#define TILED_BY(kernel, B)                                                                       \
  NT_ARRANGEMENT auto kernel##_arrangement(nt::Tensor x) {                                        \
    return nt::arrange(x.tile({B, 1}));                                                          \
  }                                                                                              \
  NT_KERNEL(kernel, kernel##_arrangement, increment, nt::Tensor(2, nt::float32))

TILED_BY(prefixed, NTC_B); // expected-note {{used by kernel 'prefixed' here}}
TILED_BY(underscores, UU_B); // expected-note {{used by kernel 'underscores' here}}
TILED_BY(program_id, PID); // expected-note {{used by kernel 'program_id' here}}
TILED_BY(lane_index, LANE); // expected-note {{used by kernel 'lane_index' here}}
TILED_BY(padded_extent, NP2); // expected-note {{used by kernel 'padded_extent' here}}
TILED_BY(size_symbol, SIZE); // expected-note {{used by kernel 'size_symbol' here}}
TILED_BY(stride_symbol, STRIDE); // expected-note {{used by kernel 'stride_symbol' here}}
TILED_BY(not_identifier, SPACE); // expected-note {{used by kernel 'not_identifier' here}}
TILED_BY(keyword, KEYWORD); // expected-note {{used by kernel 'keyword' here}}
TILED_BY(macro, MACRO); // expected-note {{used by kernel 'macro' here}}
// expected-note@+1 {{parameter 'x' declared here}}
TILED_BY(same_as_parameter, SAME); // expected-note {{used by kernel 'same_as_parameter' here}}

// nt::Constexpr names follow the same rules (the parameter's own name is fine).
NT_ARRANGEMENT auto with_constexpr(nt::Tensor x, nt::Tensor c) { return nt::arrange(x.tile({4}), c); }
NT_APPLICATION void use_constexpr(nt::Tile x, nt::Tile c) { x = x + c; }
NT_KERNEL(constexpr_prefix, with_constexpr, use_constexpr, nt::Tensor(1, nt::float32),
          nt::Constexpr("ntc_c", {0, 1})); // expected-error {{nt::Constexpr name 'ntc_c' is reserved (names beginning with 'ntc_' or 'NTC_' are reserved for ntc's generated code)}}
NT_KERNEL(constexpr_size, with_constexpr, use_constexpr, nt::Tensor(1, nt::float32),
          nt::Constexpr("x_size_0", {0, 1})); // expected-error {{nt::Constexpr name 'x_size_0' is reserved ('x_size_0' is the name ntc gives to the size of 'x' in dimension 0)}}
NT_KERNEL(constexpr_same_name, with_constexpr, use_constexpr, nt::Tensor(1, nt::float32),
          nt::Constexpr("c", {0, 1}));

// Fine: x_size_2 of a rank-2 x, a fixed block size named like a program id (it is a constant
// and never becomes a symbol), `stream`.
constexpr nt::Symbol BEYOND = nt::block_size("x_size_2", 16, 64);
constexpr nt::Symbol FIXED = nt::block_size("pid1", 16);
constexpr nt::Symbol STREAM = nt::block_size("stream", 16, 64);
TILED_BY(beyond_rank, BEYOND);
TILED_BY(fixed, FIXED);
TILED_BY(stream_block, STREAM);

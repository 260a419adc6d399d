// Parameter names (of the arrangement: the kernel's parameters, and of the application) that
// the generated C and C++ code cannot use: reserved prefixes, macros and types of the C library
// (<cmath> is not included here, so INFINITY is no macro yet; the generated code includes it),
// and C keywords.
#include <ntc/dsl.hpp>

NT_APPLICATION void increment(nt::Tile x) { x = x + 1; }
NT_APPLICATION void copy(nt::Tile x, nt::Tile y) { y = x; }

NT_ARRANGEMENT auto a1(nt::Tensor ntc_x) { return nt::arrange(ntc_x.tile({4})); } // expected-error {{parameter name 'ntc_x' is reserved (names beginning with 'ntc_' or 'NTC_' are reserved for ntc's generated code)}}
NT_KERNEL(k1, a1, increment, nt::Tensor(1, nt::float32));

NT_ARRANGEMENT auto a2(nt::Tensor __x) { return nt::arrange(__x.tile({4})); } // expected-error {{parameter name '__x' is reserved (names beginning with '__' or with '_' and an upper-case letter are reserved for the C and C++ implementation)}}
NT_KERNEL(k2, a2, increment, nt::Tensor(1, nt::float32));

NT_ARRANGEMENT auto a3(nt::Tensor INFINITY) { return nt::arrange(INFINITY.tile({4})); } // expected-error {{parameter name 'INFINITY' is reserved (a macro of the C standard library, defined in <math.h>)}}
NT_KERNEL(k3, a3, increment, nt::Tensor(1, nt::float32));

NT_ARRANGEMENT auto a4(nt::Tensor x, nt::Tensor NAN) { return nt::arrange(x.tile({4}), NAN.tile({4})); } // expected-error {{parameter name 'NAN' is reserved (a macro of the C standard library, defined in <math.h>)}}
NT_KERNEL(k4, a4, copy, nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32));

NT_ARRANGEMENT auto a5(nt::Tensor x, nt::Tensor y) { return nt::arrange(x.tile({4}), y.tile({4})); }
NT_APPLICATION void app5(nt::Tile x, nt::Tile errno) { errno = x; } // expected-error {{parameter name 'errno' is reserved (a macro of the C standard library, defined in <errno.h>)}}
NT_KERNEL(k5, a5, app5, nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32));

NT_APPLICATION void app6(nt::Tile NULL) { NULL = NULL + 1; } // expected-error {{parameter name 'NULL' is reserved (a macro of the C standard library, defined in <stddef.h>)}}
NT_ARRANGEMENT auto a6(nt::Tensor x) { return nt::arrange(x.tile({4})); }
NT_KERNEL(k6, a6, app6, nt::Tensor(1, nt::float32));

NT_ARRANGEMENT auto a7(nt::Tensor EOF) { return nt::arrange(EOF.tile({4})); } // expected-error {{parameter name 'EOF' is reserved (a macro of the C standard library, defined in <stdio.h>)}}
NT_KERNEL(k7, a7, increment, nt::Tensor(1, nt::float32));

NT_ARRANGEMENT auto a8(nt::Tensor assert) { return nt::arrange(assert.tile({4})); } // expected-error {{parameter name 'assert' is reserved (a macro of the C standard library, defined in <assert.h>)}}
NT_KERNEL(k8, a8, increment, nt::Tensor(1, nt::float32));

NT_ARRANGEMENT auto a9(nt::Tensor HUGE_VALF) { return nt::arrange(HUGE_VALF.tile({4})); } // expected-error {{parameter name 'HUGE_VALF' is reserved (a macro of the C standard library, defined in <math.h>)}}
NT_KERNEL(k9, a9, increment, nt::Tensor(1, nt::float32));

NT_ARRANGEMENT auto a10(nt::Tensor restrict) { return nt::arrange(restrict.tile({4})); } // expected-error {{parameter name 'restrict' is reserved (a C keyword)}}
NT_KERNEL(k10, a10, increment, nt::Tensor(1, nt::float32));

NT_ARRANGEMENT auto a11(nt::Tensor int64_t) { return nt::arrange(int64_t.tile({4})); } // expected-error {{parameter name 'int64_t' is reserved (a type of the C standard library, defined in <stdint.h>)}}
NT_KERNEL(k11, a11, increment, nt::Tensor(1, nt::float32));

NT_ARRANGEMENT auto a12(nt::Tensor Index) { return nt::arrange(Index.tile({4})); } // expected-error {{parameter name 'Index' is reserved (the index type of ntc's generated programs)}}
NT_KERNEL(k12, a12, increment, nt::Tensor(1, nt::float32));

// Fine as well: a scalar named like the size of tensor x in dimension 0, one named like a program
// id and an application parameter named like a lane (generated code keeps them apart).
NT_APPLICATION void add_scalar(nt::Tile x, nt::Tile s) { x = x + s; }
NT_ARRANGEMENT auto a13(nt::Tensor x, nt::Tensor x_size_0) { return nt::arrange(x.tile({4}), x_size_0); }
NT_KERNEL(k13, a13, add_scalar, nt::Tensor(1, nt::float32), nt::Scalar(nt::float32));

NT_ARRANGEMENT auto a14(nt::Tensor x, nt::Tensor pid0) { return nt::arrange(x.tile({4}), pid0); }
NT_KERNEL(k14, a14, add_scalar, nt::Tensor(1, nt::float32), nt::Scalar(nt::int64));

NT_ARRANGEMENT auto a15(nt::Tensor x) { return nt::arrange(x.tile({4})); }
NT_APPLICATION void app15(nt::Tile lane0) { lane0 = lane0 + 1; }
NT_KERNEL(k15, a15, app15, nt::Tensor(1, nt::float32));

// Fine: `stream` (the generated stream parameter is renamed), library functions (a parameter
// only shadows them), `x_size_1` of a rank-1 x, `y_stride_0` without a tensor y.
NT_ARRANGEMENT auto ok1(nt::Tensor stream, nt::Tensor time, nt::Tensor exp) {
  return nt::arrange(stream.tile({4}), time.tile({4}), exp.tile({4}));
}
NT_APPLICATION void ok1app(nt::Tile stream, nt::Tile time, nt::Tile exp) { exp = stream + time; }
NT_KERNEL(ok1_kernel, ok1, ok1app, nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32), nt::Tensor(1, nt::float32));
NT_ARRANGEMENT auto ok2(nt::Tensor x, nt::Tensor x_size_1, nt::Tensor y_stride_0) {
  return nt::arrange(x.tile({4}), x_size_1, y_stride_0);
}
NT_APPLICATION void ok2app(nt::Tile x, nt::Tile a, nt::Tile b) { x = x + a + b; }
NT_KERNEL(ok2_kernel, ok2, ok2app, nt::Tensor(1, nt::float32), nt::Scalar(nt::float32), nt::Scalar(nt::float32));

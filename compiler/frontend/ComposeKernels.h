//===- ComposeKernels.h - arrange a kernel function's inputs for its caller ===//
//
// compose-kernels: an application may call another kernel as a function
// (`out = ntl::maximum(mm(x, w) + b, 0.0f)`, where `mm = nt::kernel_function(mm_arrangement,
// mm_application)`). The caller passes the tensors of the call's arguments to nt::arrange
// untiled; this step arranges them with the callee's arrangement, for the caller's program
// grid:
//
//   1. the tensor the call's value is stored to (`out`; KernelCalls.h) stands for the callee's
//      output: the callee's arrangement is evaluated with its output parameter bound to `out`
//      and each input parameter to the untiled caller tensor its argument names (an argument
//      expression such as `gelu(x)` names `x`, a prologue; several tensors in one argument are
//      each arranged as that parameter);
//   2. the callee's arrangement of `out` must be the caller's: the same levels, extents and
//      elements per program. A block size of the callee's own that the caller does not use is
//      first set to the caller's extent (so a callee's BLOCK_SIZE_N becomes the caller's whole
//      row for a row-wise composition); anything else that differs is an error at the call,
//      with the two arrangements;
//   3. the untiled tensors take the callee's arrangements of their parameters (named axes of
//      the callee lowered as in its own kernel), and the callee's block sizes join the
//      caller's meta-parameters.
//
// The application translator then inlines the callee's application at the call, its output
// parameter a local tile of `out`'s tile shape, and the call's value that local.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Kernel.h"

namespace clang {
class FunctionDecl;
} // namespace clang

namespace ntc {

class ArrangementEvaluator;

/// Arrange the inputs of the kernel-function calls in `application` (the application of the
/// kernel `spec`, evaluated last by `evaluator`) as described above. No-op for an application
/// without such calls. Throws SourceError.
void composeKernels(KernelSpec &spec, ArrangementEvaluator &evaluator,
                    const clang::FunctionDecl *application);

} // namespace ntc

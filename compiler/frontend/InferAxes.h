//===- InferAxes.h - axis names derived from the application --------------===//
//
// infer-axes: a tensor arranged with `x.axes(nt::inferred)` has its dimensions named by the
// compiler instead of the user. The arrangement evaluator names each such dimension with a
// placeholder (`?1`, `?2`, ...); this pass reads the application's AST and derives which
// dimensions are one axis from what the application does with the tiles:
//
//   * `ntl::dot(a, b)`: a's last and b's first dimension are one (contracted) axis; the
//     result has a's first and b's last;
//   * elementwise operators and functions, `where`, `clamp`, assignment to a local or a
//     parameter: NumPy broadcasting aligns trailing dimensions (a size-1 dimension made by
//     `expand_dims` aligns with anything);
//   * reductions remove their axis, `trans` swaps, `expand_dims` inserts a size-1 dimension,
//     `zeros`/`full`/`broadcast_to` take the dimensions of the `t.shape(i)` they are given;
//   * two tensors walked with the same loop index (`lhs[k]`, `rhs[k]`) iterate one axis;
//   * dimensions tiled by the constant 1 (a batch) are not in the tile the application sees;
//     they line up, right-aligned, with those of the written tensor.
//
// Every class of equal dimensions is then named: after the user's name when one of them has
// one (inferred and named tensors mix), otherwise `p0, p1, ...` for the axes of the written
// tensors (the program axes) and `r0, r1, ...` for the others (axes the programs iterate).
// The named-axis lowering (passes/NamedAxes.h) then runs as for names the user wrote. A
// relation that would make two dimensions of one tensor, or two different user names, one
// axis is an error at the expression that implies it, with notes at the earlier uses; a
// dimension the application never relates to a program axis nor iterates is an error that
// suggests the axes(...) to write.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Kernel.h"

#include <string>

namespace clang {
class FunctionDecl;
} // namespace clang

namespace ntc {

/// True for the placeholder names the arrangement evaluator gives the dimensions of a tensor
/// arranged with `axes(nt::inferred)`.
bool isInferredAxisPlaceholder(const std::string &axis);

/// The placeholder name number `n` (`?n`).
std::string inferredAxisPlaceholder(int n);

/// Replace the placeholder axis names of `spec` by derived names (see above) and record them
/// in ArrangedParam::inferredAxes. No-op for a kernel without placeholders. Throws
/// SourceError (after reporting earlier ones) when the axes cannot be derived.
void inferAxes(KernelSpec &spec, const clang::FunctionDecl *kernelDecl,
               const clang::FunctionDecl *application);

} // namespace ntc

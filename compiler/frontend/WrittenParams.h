//===- WrittenParams.h - which application parameters are stored to -------===//
//
// The named-axis rule (passes/NamedAxes.h) takes its program axes from the tensors the
// application writes. `writtenParams` finds them on the Clang AST: a parameter is written
// when the application (or a helper, application or lambda it calls with the parameter as
// a non-const `nt::Tile &` argument) assigns to it: `x = ...`, `x[k] = ...`, `x += ...`.
// `applyNamedAxes` runs the lowering on a kernel and turns its problems into diagnostics.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Kernel.h"

#include <vector>

#include <clang/Basic/OperatorKinds.h>
#include <clang/Basic/SourceLocation.h>

namespace clang {
class Expr;
class FunctionDecl;
class ValueDecl;
} // namespace clang

namespace ntc {

/// True for the operators that assign to their first operand (`=`, `+=`, ..., `++`, `--`).
bool isAssignmentOperator(clang::OverloadedOperatorKind op);

/// The variable an assignment target names: `x`, `x[k]`, `x[k][j]` -> x (null for others).
const clang::ValueDecl *assignedVariable(const clang::Expr *e);

/// One entry per parameter of `application`: true when the application stores to it.
std::vector<bool> writtenParams(const clang::FunctionDecl *application);

/// Where each arranged tensor of the kernel declared by `kernelDecl` is written in the source:
/// the argument of the arrangement's nt::arrange call (or the declaration of the local
/// variable passed there); the application's parameter when the call cannot be found.
std::vector<clang::SourceRange> arrangedTensorRanges(const clang::FunctionDecl *kernelDecl,
                                                     const clang::FunctionDecl *application,
                                                     size_t n);

/// Lower the named axes of `spec` (the kernel declared by `kernelDecl`, whose application
/// is `application`), after inferring those of tensors arranged with `axes(nt::inferred)`
/// (frontend/InferAxes.h). Every problem is reported at the NT_KERNEL declaration, with notes at
/// the tensors involved (the arguments of the arrangement's nt::arrange call); the last one
/// is thrown as SourceError so that the kernel is skipped.
void applyNamedAxes(KernelSpec &spec, const clang::FunctionDecl *kernelDecl,
                    const clang::FunctionDecl *application);

} // namespace ntc

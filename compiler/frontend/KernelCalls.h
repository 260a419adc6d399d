//===- KernelCalls.h - calls of kernel functions in an application --------===//
//
// A kernel function (`inline constexpr auto mm = nt::kernel_function(mm_arrangement,
// mm_application);`) is called in another kernel's application as `mm(x, w)`. These helpers
// find such calls on the Clang AST and say what they mean: which arrangement and application
// the callee is, which of its parameters is the output (the one its application writes), and
// which parameter of the caller the call's value is stored to (the tensor whose program grid
// the callee is arranged for). compose-kernels (ComposeKernels.h) and the application
// translator share them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/Diagnostics.h"

#include <optional>
#include <vector>

namespace clang {
class CallExpr;
class Expr;
class FunctionDecl;
class ParmVarDecl;
} // namespace clang

namespace ntc {

/// One call `f(args...)` of a kernel function.
struct KernelCall {
  const clang::CallExpr *call = nullptr;            ///< the `f(args...)` expression
  const clang::FunctionDecl *arrangement = nullptr; ///< the callee's arrangement (definition)
  const clang::FunctionDecl *application = nullptr; ///< the callee's application (definition)
  std::vector<const clang::Expr *> args;            ///< the arguments, in order
  int output = -1;                                  ///< the callee parameter it writes
  std::vector<int> inputs; ///< the callee parameters the arguments bind, in order
};

/// The kernel-function call `e` is (parentheses and implicit nodes ignored), with its callee's
/// parameters checked against the arguments; nullopt when `e` is not a kernel-function call.
/// Throws SourceError for a call whose callee is not an arrangement and an application, whose
/// application does not write exactly one parameter, or whose arguments do not match.
std::optional<KernelCall> asKernelCall(const clang::Expr *e);

/// The kernel-function calls in `application`'s body (lambdas included), in source order.
/// Throws SourceError for one in a function the application calls: composition arranges the
/// callee for the caller's program grid, which only the application's own statements show.
std::vector<KernelCall> findKernelCalls(const clang::FunctionDecl *application);

/// The first kernel-function call in `e` (itself included), if any.
std::optional<KernelCall> firstKernelCallIn(const clang::Expr *e);

/// The index of the parameter of `application` that the value of `call` is stored to: the
/// target of an assignment whose right side holds the call, or a local variable that holds it
/// (followed through further locals). Throws SourceError when it is stored to no parameter
/// or to two.
int storedToParam(const clang::FunctionDecl *application, const clang::CallExpr *call);

/// The parameters of `application` that `e` names (each once, in order of first use).
std::vector<const clang::ParmVarDecl *> namedParams(const clang::FunctionDecl *application,
                                                    const clang::Expr *e);

} // namespace ntc

//===- NameChecks.h - reserved and duplicate names in kernel sources ------===//
//
// Reports the rules of ReservedNames.h at the declarations: the NT_KERNEL for a kernel name,
// the parameter declaration for a parameter name, the nt::block_size or nt::Constexpr string
// for a meta-parameter name. Errors are thrown as SourceError.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Kernel.h"

#include <clang/Basic/SourceLocation.h>

#include <string>

namespace clang {
class ASTContext;
class CallExpr;
class FunctionDecl;
class SourceManager;
} // namespace clang

namespace ntc {

/// The call `::nt::kernel("name", arrangement, application, parameters...)` that the function
/// NT_KERNEL defines consists of; nullptr when the declaration is malformed.
const clang::CallExpr *kernelCall(const clang::FunctionDecl *kernel);
/// The kernel's name as NT_KERNEL spells it; "" when the declaration is malformed.
std::string kernelName(const clang::FunctionDecl *kernel);
/// The NT_KERNEL invocation (file locations, so diagnostics point at the macro's line).
clang::SourceRange kernelRange(const clang::FunctionDecl *kernel, const clang::SourceManager &sm);

/// Throws SourceError when `name` (the name of `kernel`) is not a C identifier or reserved.
void checkKernelName(const clang::FunctionDecl *kernel, const std::string &name,
                     const clang::SourceManager &sm);

/// Throws SourceError when a parameter of the arrangement or the application, a
/// meta-parameter or an nt::Constexpr of the evaluated kernel `spec` has a reserved name, or
/// a meta-parameter has the name of one of the kernel's parameters.
void checkParameterNames(clang::ASTContext &ctx, const clang::FunctionDecl *kernel,
                         const KernelSpec &spec, const clang::FunctionDecl *application);

} // namespace ntc

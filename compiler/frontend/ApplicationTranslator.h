//===- ApplicationTranslator.h - application AST to kernel IR -------------===//
#pragma once

#include "ir/KernelIR.h"

namespace clang {
class FunctionDecl;
} // namespace clang

namespace ntc {

/// Translate an application function (inlining the helpers and applications it calls)
/// into kernel IR over the arranged parameters of `spec`. Throws SourceError for
/// constructs outside the DSL and for type or shape errors.
kir::Function translateApplication(const clang::FunctionDecl *application, const KernelSpec &spec);

} // namespace ntc

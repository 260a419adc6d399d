//===- ArrangementEvaluator.h - interpret NT_KERNEL and arrangements ------===//
//
// Reads one NT_KERNEL declaration: evaluates its parameter list, then interprets the
// arrangement function's body over symbolic tensors (locals, member-call chains,
// `.dtype() =` assignments, integer and Symbol arithmetic, constexpr globals, helper
// functions and lambdas) to produce the arranged layouts. User errors are thrown as
// SourceError.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Kernel.h"

#include <memory>

namespace clang {
class ASTContext;
class FunctionDecl;
} // namespace clang

namespace ntc {

class ArrangementEvaluator {
public:
  explicit ArrangementEvaluator(clang::ASTContext &context);
  ~ArrangementEvaluator();

  /// Evaluate the NT_KERNEL function `kernelDecl` (the inline function the macro expands
  /// to). Fills name, params, metas and arranged layouts; `application` receives the
  /// application function. Throws SourceError.
  KernelSpec evaluateKernel(const clang::FunctionDecl *kernelDecl,
                            const clang::FunctionDecl *&application);

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// True when `decl` carries [[clang::annotate(annotation)]].
bool hasAnnotation(const clang::FunctionDecl *decl, const char *annotation);

} // namespace ntc

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

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
class Stmt;
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

  /// Evaluate `arrangement` on `tensors` (one per parameter) within the kernel evaluated last:
  /// its block sizes join that kernel's meta-parameters (metas()), except that those named in
  /// `blockSizeValues` read as the given expressions. Returns the arranged tensors in the
  /// order of its nt::arrange call. Errors in the arrangement are located there; others at
  /// `where`. Throws SourceError.
  std::vector<Layout> evaluateArrangement(const clang::FunctionDecl *arrangement,
                                          const std::vector<Layout> &tensors,
                                          const clang::Stmt *where,
                                          const std::map<std::string, Expr> &blockSizeValues);

  /// The meta-parameters (block sizes) of the kernel evaluated last, including those that
  /// evaluateArrangement added.
  const std::vector<MetaParam> &metas() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// True when `decl` carries [[clang::annotate(annotation)]].
bool hasAnnotation(const clang::FunctionDecl *decl, const char *annotation);

} // namespace ntc

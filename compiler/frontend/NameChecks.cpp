//===- NameChecks.cpp - reserved and duplicate names in kernel sources ----===//
#include "frontend/NameChecks.h"

#include "frontend/DslNames.h"
#include "frontend/ReservedNames.h"
#include "support/Diagnostics.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>

namespace ntc {

namespace {

/// The function a call of the DSL calls when it is `nt::<name>`, else nullptr.
bool isDslCall(const clang::CallExpr *call, llvm::StringRef name) {
  const clang::FunctionDecl *callee = call->getDirectCallee();
  return callee && callee->getIdentifier() && callee->getName() == name && declaredInDsl(callee);
}

/// The string literal a call passes as its first argument, or nullptr.
const clang::StringLiteral *firstStringArg(const clang::CallExpr *call) {
  if (call->getNumArgs() == 0)
    return nullptr;
  return llvm::dyn_cast<clang::StringLiteral>(call->getArg(0)->IgnoreParenImpCasts());
}

/// The function an argument of NT_KERNEL names (`arrangement`, `&application`), or nullptr.
const clang::FunctionDecl *functionArg(const clang::Expr *e) {
  e = e->IgnoreParenImpCasts();
  if (const auto *u = llvm::dyn_cast<clang::UnaryOperator>(e))
    e = u->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(e))
    return llvm::dyn_cast<clang::FunctionDecl>(ref->getDecl());
  return nullptr;
}

/// The definition of `fn` when it has one (parameter names are the definition's).
const clang::FunctionDecl *definition(const clang::FunctionDecl *fn) {
  const clang::FunctionDecl *def = nullptr;
  return fn && fn->getBody(def) ? def : fn;
}

/// Every `nt::Constexpr("name", ...)` call under `s`.
void findConstexprCalls(const clang::Stmt *s, std::vector<const clang::CallExpr *> &out) {
  if (!s)
    return;
  if (const auto *call = llvm::dyn_cast<clang::CallExpr>(s))
    if (isDslCall(call, "Constexpr"))
      out.push_back(call);
  for (const clang::Stmt *child : s->children())
    findConstexprCalls(child, out);
}

/// Finds the `nt::block_size("NAME", ...)` string that declares a meta-parameter, preferring
/// one in the main file.
class BlockSizeFinder : public clang::RecursiveASTVisitor<BlockSizeFinder> {
public:
  BlockSizeFinder(const clang::SourceManager &sm, const std::string &name) : sm_(sm), name_(name) {}

  bool VisitCallExpr(clang::CallExpr *call) {
    if (!isDslCall(call, "block_size"))
      return true;
    const clang::StringLiteral *s = firstStringArg(call);
    if (!s || !s->isOrdinary() || s->getString() != name_)
      return true;
    bool inMain = sm_.isInMainFile(sm_.getExpansionLoc(s->getBeginLoc()));
    if (!found || (inMain && !foundInMain)) {
      found = s;
      foundInMain = inMain;
    }
    return true;
  }

  const clang::StringLiteral *found = nullptr;

private:
  const clang::SourceManager &sm_;
  const std::string &name_;
  bool foundInMain = false;
};

/// `range` in the file: the spelling of a macro argument, the expansion of anything else.
clang::SourceRange fileRange(const clang::SourceManager &sm, clang::SourceRange range) {
  return {sm.getFileLoc(range.getBegin()), sm.getFileLoc(range.getEnd())};
}

} // namespace

const clang::CallExpr *kernelCall(const clang::FunctionDecl *kernel) {
  const auto *body = llvm::dyn_cast_or_null<clang::CompoundStmt>(kernel->getBody());
  if (!body || body->size() != 1)
    return nullptr;
  const auto *e = llvm::dyn_cast<clang::Expr>(body->body_front());
  const auto *call = e ? llvm::dyn_cast<clang::CallExpr>(e->IgnoreImplicit()) : nullptr;
  return call && call->getNumArgs() >= 3 ? call : nullptr;
}

std::string kernelName(const clang::FunctionDecl *kernel) {
  const clang::CallExpr *call = kernelCall(kernel);
  const clang::StringLiteral *s = call ? firstStringArg(call) : nullptr;
  return s && s->isOrdinary() ? s->getString().str() : std::string();
}

clang::SourceRange kernelRange(const clang::FunctionDecl *kernel, const clang::SourceManager &sm) {
  return sm.getExpansionRange(kernel->getSourceRange()).getAsRange();
}

void checkKernelName(const clang::FunctionDecl *kernel, const std::string &name,
                     const clang::SourceManager &sm) {
  if (!isIdentifier(name))
    throw SourceError(kernelRange(kernel, sm), "kernel name '" + name +
                                                   "' is not a C identifier (the kernel "
                                                   "becomes a C function of that name)");
  std::string why = reservedKernelName(name);
  if (!why.empty())
    throw SourceError(kernelRange(kernel, sm),
                      "kernel name '" + name + "' is reserved (" + why + ")");
}

void checkParameterNames(clang::ASTContext &ctx, const clang::FunctionDecl *kernel,
                         const KernelSpec &spec, const clang::FunctionDecl *application) {
  const clang::SourceManager &sm = ctx.getSourceManager();
  const clang::CallExpr *call = kernelCall(kernel);
  if (!call)
    return; // the evaluator has accepted it, so this does not happen
  std::vector<TensorName> tensors;
  for (const ParamSpec &p : spec.params)
    if (p.kind == ParamSpec::Kind::Tensor)
      tensors.push_back({p.name, p.ndim, p.jaggedDim.has_value()});

  // Parameters of the arrangement (the kernel's parameters) and of the application.
  std::vector<const clang::ParmVarDecl *> params;
  const clang::FunctionDecl *arrangement = definition(functionArg(call->getArg(1)));
  for (const clang::FunctionDecl *fn : {arrangement, definition(application)})
    if (fn)
      for (const clang::ParmVarDecl *p : fn->parameters())
        params.push_back(p);
  for (const clang::ParmVarDecl *p : params) {
    std::string name = p->getNameAsString();
    if (name.empty())
      continue;
    std::string why = reservedParameterName(name, tensors);
    if (!why.empty())
      throw SourceError(sm.getFileLoc(p->getLocation()),
                        "parameter name '" + name + "' is reserved (" + why + ")");
  }

  // The names of nt::Constexpr parameters.
  std::vector<const clang::CallExpr *> constexprs;
  for (unsigned i = 3; i < call->getNumArgs(); ++i)
    findConstexprCalls(call->getArg(i), constexprs);
  for (const clang::CallExpr *c : constexprs) {
    const clang::StringLiteral *s = firstStringArg(c);
    if (!s || !s->isOrdinary())
      continue;
    std::string name = s->getString().str();
    if (!isIdentifier(name))
      throw SourceError(fileRange(sm, s->getSourceRange()),
                        "nt::Constexpr name '" + name + "' is not a C identifier");
    std::string why = reservedSymbolName(name, tensors);
    if (!why.empty())
      throw SourceError(fileRange(sm, s->getSourceRange()),
                        "nt::Constexpr name '" + name + "' is reserved (" + why + ")");
  }

  // Meta-parameters (tuned nt::block_size): reported at the string that names them.
  for (const MetaParam &m : spec.metas) {
    std::string message;
    const clang::ParmVarDecl *sameName = nullptr;
    if (!isIdentifier(m.name)) {
      message = "meta-parameter name '" + m.name + "' is not a C identifier";
    } else if (std::string why = reservedSymbolName(m.name, tensors); !why.empty()) {
      message = "meta-parameter name '" + m.name + "' is reserved (" + why + ")";
    } else {
      for (const clang::ParmVarDecl *p : params)
        if (p->getName() == m.name) {
          sameName = p;
          break;
        }
      if (!sameName)
        continue;
      message = "meta-parameter name '" + m.name + "' is also the name of a parameter of kernel '" +
                spec.name + "'";
    }
    BlockSizeFinder finder(sm, m.name);
    finder.TraverseDecl(ctx.getTranslationUnitDecl());
    SourceError error(finder.found ? fileRange(sm, finder.found->getSourceRange())
                                   : kernelRange(kernel, sm),
                      message);
    if (finder.found)
      error.note(kernelRange(kernel, sm), "used by kernel '" + spec.name + "' here");
    if (sameName)
      error.note(sm.getFileLoc(sameName->getLocation()),
                 "parameter '" + m.name + "' declared here");
    throw error;
  }
}

} // namespace ntc

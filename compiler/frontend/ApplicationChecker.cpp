//===- ApplicationChecker.cpp - reject unsupported application code -------===//
#include "frontend/ApplicationChecker.h"

#include "frontend/DslNames.h"

#include "support/Diagnostics.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>
#include <clang/AST/StmtCXX.h>

#include <set>

namespace ntc {

using clang::dyn_cast;
using clang::isa;

namespace {

class Checker {
public:
  explicit Checker(clang::ASTContext &ctx) : ctx_(ctx) {}

  void checkFunction(const clang::FunctionDecl *fn, clang::SourceRange callSite) {
    const clang::FunctionDecl *def = nullptr;
    if (!fn->getBody(def)) {
      SourceError err(callSite,
                      "'" + fn->getNameAsString() +
                          "' has no body; an application can only call ntl:: functions and "
                          "functions defined in the kernel source");
      throw err.note(fn->getSourceRange(), "declared here");
    }
    if (!visited_.insert(def).second)
      return;
    checkStmt(def->getBody());
  }

private:
  [[noreturn]] void unsupported(const clang::Stmt *s, const std::string &what,
                                const std::string &hint = "") {
    throw SourceError(s->getSourceRange(), what + " not supported in an application function" +
                                               (hint.empty() ? "" : "; " + hint));
  }

  void checkStmt(const clang::Stmt *s) {
    if (!s)
      return;
    if (isa<clang::WhileStmt>(s) || isa<clang::DoStmt>(s))
      unsupported(s, "'while' loops are", "use a 'for' loop over a tile dimension");
    if (isa<clang::SwitchStmt>(s))
      unsupported(s, "'switch' statements are", "use 'if' on a compile-time scalar");
    if (isa<clang::GotoStmt>(s) || isa<clang::LabelStmt>(s))
      unsupported(s, "'goto' is");
    if (isa<clang::BreakStmt>(s) || isa<clang::ContinueStmt>(s))
      unsupported(s, std::string("'") + (isa<clang::BreakStmt>(s) ? "break" : "continue") + "' is",
                  "loops always run over a whole tile dimension");
    if (isa<clang::CXXTryStmt>(s) || isa<clang::CXXThrowExpr>(s))
      unsupported(s, "exceptions are");
    if (isa<clang::AsmStmt>(s))
      unsupported(s, "inline assembly is");
    if (isa<clang::CXXForRangeStmt>(s))
      unsupported(s, "range-based 'for' loops are", "write 'for (int i = 0; i < x.shape(0); ++i)'");
    if (isa<clang::CXXNewExpr>(s) || isa<clang::CXXDeleteExpr>(s))
      unsupported(s, "dynamic allocation is");
    if (isa<clang::StmtExpr>(s))
      unsupported(s, "statement expressions are");
    if (const auto *u = dyn_cast<clang::UnaryOperator>(s))
      if (u->getOpcode() == clang::UO_AddrOf || u->getOpcode() == clang::UO_Deref)
        unsupported(s, "pointers are", "tiles are values; use them directly");
    if (isa<clang::ArraySubscriptExpr>(s))
      unsupported(s, "built-in arrays and pointers are", "index tiles with x[k]");
    if (const auto *d = dyn_cast<clang::DeclStmt>(s))
      for (const clang::Decl *decl : d->decls())
        if (const auto *var = dyn_cast<clang::VarDecl>(decl)) {
          if (var->isStaticLocal())
            unsupported(s, "static variables are");
          if (var->getType()->isPointerType() || var->getType()->isArrayType())
            unsupported(s, "pointer and array variables are", "use tiles");
        }
    if (const auto *call = dyn_cast<clang::CallExpr>(s))
      if (checkCall(call))
        return;
    for (const clang::Stmt *child : s->children())
      checkStmt(child);
  }

  /// Returns true when the call is a constant whose operands need no check.
  bool checkCall(const clang::CallExpr *call) {
    clang::Expr::EvalResult constant;
    if (!call->isValueDependent() && call->getType()->isScalarType() &&
        call->EvaluateAsRValue(constant, ctx_))
      return true; // a constant such as std::numeric_limits<float>::infinity()
    const clang::FunctionDecl *fn = call->getDirectCallee();
    if (!fn) {
      if (isa<clang::CXXOperatorCallExpr>(call))
        return false; // lambdas are checked through their bodies below
      unsupported(call, "calls through function pointers are");
    }
    if (declaredInDsl(fn))
      return false;
    if (const auto *m = dyn_cast<clang::CXXMethodDecl>(fn))
      if (m->getParent()->isLambda()) {
        checkFunction(fn, call->getSourceRange());
        return false;
      }
    if (fn->isInStdNamespace())
      unsupported(call, "'std::" + fn->getNameAsString() + "' is",
                  "use the ntl:: functions on tiles");
    if (isa<clang::CXXOperatorCallExpr>(call) || isa<clang::CXXMemberCallExpr>(call))
      unsupported(call, "calls of '" + fn->getNameAsString() + "' are");
    checkFunction(fn, call->getSourceRange());
    return false;
  }

  clang::ASTContext &ctx_;
  std::set<const clang::FunctionDecl *> visited_;
};

} // namespace

void checkApplication(const clang::FunctionDecl *application) {
  Checker checker(application->getASTContext());
  checker.checkFunction(application, application->getSourceRange());
}

} // namespace ntc

//===- Frontend.cpp - the LibTooling action -------------------------------===//
#include "frontend/Frontend.h"

#include "frontend/ApplicationChecker.h"
#include "frontend/ApplicationTranslator.h"
#include "frontend/ArrangementEvaluator.h"
#include "frontend/ComposeKernels.h"
#include "frontend/NameChecks.h"
#include "frontend/WrittenParams.h"
#include "passes/Passes.h"
#include "support/Diagnostics.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>
#include <clang/Basic/FileManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <cstdlib>
#include <map>

namespace ntc {

namespace {

/// Collects the NT_KERNEL declarations of the main file and reads each one.
class KernelConsumer : public clang::ASTConsumer {
public:
  explicit KernelConsumer(FrontendResult &result) : result_(result) {}

  void HandleTranslationUnit(clang::ASTContext &ctx) override {
    clang::DiagnosticsEngine &diags = ctx.getDiagnostics();
    std::vector<const clang::FunctionDecl *> kernels;
    collect(ctx.getTranslationUnitDecl(), ctx.getSourceManager(), kernels);
    result_.declared = static_cast<int>(kernels.size());
    if (diags.hasErrorOccurred())
      return; // Clang already reported the problem; the AST may be incomplete.
    const clang::SourceManager &sm = ctx.getSourceManager();
    ArrangementEvaluator evaluator(ctx);
    std::map<std::string, const clang::FunctionDecl *> names; // the first definition of each
    for (const clang::FunctionDecl *k : kernels) {
      try {
        std::string name = kernelName(k);
        if (!name.empty()) {
          auto [first, inserted] = names.emplace(name, k);
          if (!inserted)
            throw SourceError(kernelRange(k, sm), "kernel '" + name + "' is defined twice")
                .note(kernelRange(first->second, sm), "first defined here");
          checkKernelName(k, name, sm);
        }
        const clang::FunctionDecl *application = nullptr;
        KernelSpec spec = evaluator.evaluateKernel(k, application);
        checkParameterNames(ctx, k, spec, application);
        applyNamedAxes(spec, k, application);
        composeKernels(spec, evaluator, application);
        for (const passes::VerifyError &e : passes::verifyLaunchGrid(spec))
          throw SourceError(k->getSourceRange(), e.message)
              .note(application->getSourceRange(),
                    "the application's parameters are the arranged tensors in this order");
        std::vector<passes::VerifyError> jagged;
        passes::resolveJagged(spec, &jagged);
        for (const passes::VerifyError &e : jagged)
          throw SourceError(k->getSourceRange(), e.message);
        checkApplication(application);
        result_.kernels.push_back(translateApplication(application, spec));
        clang::PresumedLoc where = sm.getPresumedLoc(kernelRange(k, sm).getBegin());
        result_.kernelLocations.push_back(where.isValid()
                                              ? std::string(where.getFilename()) + ":" +
                                                    std::to_string(where.getLine()) + ":" +
                                                    std::to_string(where.getColumn())
                                              : std::string());
      } catch (const SourceError &error) {
        report(diags, error);
      }
    }
  }

private:
  static void collect(const clang::DeclContext *dc, const clang::SourceManager &sm,
                      std::vector<const clang::FunctionDecl *> &out) {
    for (const clang::Decl *d : dc->decls()) {
      if (const auto *ns = clang::dyn_cast<clang::NamespaceDecl>(d))
        collect(ns, sm, out);
      else if (const auto *ls = clang::dyn_cast<clang::LinkageSpecDecl>(d))
        collect(ls, sm, out);
      else if (const auto *fn = clang::dyn_cast<clang::FunctionDecl>(d))
        if (fn->doesThisDeclarationHaveABody() && hasAnnotation(fn, "nt::kernel") &&
            sm.isInMainFile(sm.getExpansionLoc(fn->getLocation())))
          out.push_back(fn);
    }
  }

  FrontendResult &result_;
};

class KernelAction : public clang::ASTFrontendAction {
public:
  explicit KernelAction(FrontendResult &result) : result_(result) {}
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &,
                                                        llvm::StringRef) override {
    return std::make_unique<KernelConsumer>(result_);
  }

private:
  FrontendResult &result_;
};

std::vector<std::string> compileArgs(const FrontendOptions &options) {
  // `-x c++`: every input is a C++ kernel source, whatever its extension (`.cu`, none,
  // /dev/null); the tool appends the input after these arguments and the user's.
  std::vector<std::string> args = {
      "-x", "c++", "-std=c++20", "-fsyntax-only", "-D__NTC__", "-I" + dslIncludeDir()};
  args.push_back("-resource-dir=" +
                 (options.resourceDir.empty() ? defaultResourceDir() : options.resourceDir));
  args.insert(args.end(), options.clangArgs.begin(), options.clangArgs.end());
  return args;
}

} // namespace

std::string defaultResourceDir() {
  if (const char *env = std::getenv("NTC_CLANG_RESOURCE_DIR"))
    return env;
  return NTC_DEFAULT_RESOURCE_DIR;
}

std::string dslIncludeDir() {
  // An installed ntc finds the header beside itself: <prefix>/bin/ntc, <prefix>/include.
  static int anchor;
  std::string exe = llvm::sys::fs::getMainExecutable("ntc", &anchor);
  if (!exe.empty()) {
    llvm::SmallString<256> dir(llvm::sys::path::parent_path(llvm::sys::path::parent_path(exe)));
    llvm::sys::path::append(dir, "include");
    llvm::SmallString<256> header(dir);
    llvm::sys::path::append(header, "ntc", "dsl.hpp");
    if (llvm::sys::fs::exists(header))
      return std::string(dir);
  }
  return NTC_DSL_INCLUDE_DIR;
}

FrontendResult runFrontend(const std::string &file, const FrontendOptions &options) {
  // One ToolInvocation rather than a ClangTool: the input keeps the spelling it was given, so
  // diagnostics read `kernels/x.cpp:3:1: error: ...` as with any compiler.
  FrontendResult result;
  // argv[0] is this executable, as ClangTool has it: Clang looks for the GCC installation (the
  // C++ standard library) beside it, then in /usr.
  static int anchor;
  std::vector<std::string> args = {llvm::sys::fs::getMainExecutable("ntc", &anchor)};
  std::vector<std::string> compile = compileArgs(options);
  args.insert(args.end(), compile.begin(), compile.end());
  if (!options.depfile.empty())
    args.insert(args.end(), {"-MD", "-MF", options.depfile, "-MT",
                             options.depTarget.empty() ? file : options.depTarget});
  args.push_back(file);
  llvm::IntrusiveRefCntPtr<clang::FileManager> files(
      new clang::FileManager(clang::FileSystemOptions(), llvm::vfs::getRealFileSystem()));
  clang::tooling::ToolInvocation invocation(args, std::make_unique<KernelAction>(result),
                                            files.get());
  result.ok = invocation.run();
  return result;
}

FrontendResult runFrontendOnCode(const std::string &code, const FrontendOptions &options,
                                 const std::string &fileName) {
  // What clang::tooling::runToolOnCodeWithArgs does (the code as an in-memory file over the
  // real file system), with a choice of diagnostic consumer.
  FrontendResult result;
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> overlay(
      new llvm::vfs::OverlayFileSystem(llvm::vfs::getRealFileSystem()));
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> memory(new llvm::vfs::InMemoryFileSystem);
  overlay->pushOverlay(memory);
  memory->addFile(fileName, 0, llvm::MemoryBuffer::getMemBufferCopy(code, fileName));
  llvm::IntrusiveRefCntPtr<clang::FileManager> files(
      new clang::FileManager(clang::FileSystemOptions(), overlay));
  std::vector<std::string> args = {"ntc"};
  std::vector<std::string> compile = compileArgs(options);
  args.insert(args.end(), compile.begin(), compile.end());
  args.push_back(fileName);
  clang::tooling::ToolInvocation invocation(args, std::make_unique<KernelAction>(result),
                                            files.get());
  clang::DiagnosticConsumer silent; // counts the errors (for `ok`), prints nothing
  if (options.quiet)
    invocation.setDiagnosticConsumer(&silent);
  result.ok = invocation.run();
  return result;
}

} // namespace ntc

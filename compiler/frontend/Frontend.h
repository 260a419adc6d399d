//===- Frontend.h - reading kernel sources --------------------------------===//
//
// The only interface between Clang and the rest of the compiler: parse a kernel source
// with Clang, find its NT_KERNEL declarations, evaluate their arrangements and check
// their applications. Diagnostics go through Clang's engine (to stderr).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/KernelIR.h"

#include <string>
#include <vector>

namespace ntc {

/// How to run Clang on a kernel source.
struct FrontendOptions {
  std::vector<std::string> clangArgs; ///< extra arguments (everything after `--`)
  std::string resourceDir;            ///< Clang's builtin headers; empty = the baked-in one
  std::string depfile;                ///< write a Make depfile here when non-empty
  std::string depTarget;              ///< the target named in the depfile
  bool quiet = false;                 ///< discard Clang's diagnostics (runFrontendOnCode only)
};

/// What the front end produced.
struct FrontendResult {
  bool ok = false; ///< false when Clang or ntc reported an error
  /// Kernels declared in the main file, in source order (spec + application in kernel IR).
  std::vector<kir::Function> kernels;
  /// How many NT_KERNEL declarations the main file has, including those with errors.
  int declared = 0;
  /// Where each kernel's NT_KERNEL is, "file:line:col" (parallel to `kernels`).
  std::vector<std::string> kernelLocations;
};

/// Parse `file` and read its kernels.
FrontendResult runFrontend(const std::string &file, const FrontendOptions &options);
/// The same on in-memory source text (for tests and fuzzers); `fileName` names it in
/// diagnostics, which `options.quiet` discards.
FrontendResult runFrontendOnCode(const std::string &code, const FrontendOptions &options,
                                 const std::string &fileName = "input.cpp");

/// The Clang resource directory used when FrontendOptions::resourceDir is empty.
std::string defaultResourceDir();
/// The folder holding <ntc/dsl.hpp>.
std::string dslIncludeDir();

} // namespace ntc

//===- Diagnostics.h - user errors reported through Clang -----------------===//
//
// Front-end code raises SourceError for a user mistake; the consumer reports it with
// Clang's engine, so it prints as `file:line:col: error: ...` with caret and notes and
// works with `-Xclang -verify`.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/SourceLocation.h>

#include <string>
#include <utility>
#include <vector>

namespace ntc {

/// A user error at a location in the kernel source, with optional notes elsewhere.
struct SourceError {
  clang::SourceRange range;
  std::string message;
  std::vector<std::pair<clang::SourceRange, std::string>> notes;

  SourceError(clang::SourceRange r, std::string m) : range(r), message(std::move(m)) {}
  /// Attach a note at another location.
  SourceError &note(clang::SourceRange r, std::string m) {
    notes.emplace_back(r, std::move(m));
    return *this;
  }
};

/// Report an error (and its notes) through the engine.
void report(clang::DiagnosticsEngine &diags, const SourceError &error);
/// Report a warning.
void reportWarning(clang::DiagnosticsEngine &diags, clang::SourceRange range,
                   const std::string &message);

} // namespace ntc

//===- Diagnostics.cpp - user errors reported through Clang ---------------===//
#include "support/Diagnostics.h"

namespace ntc {

void report(clang::DiagnosticsEngine &diags, const SourceError &error) {
  unsigned errorId = diags.getCustomDiagID(clang::DiagnosticsEngine::Error, "%0");
  unsigned noteId = diags.getCustomDiagID(clang::DiagnosticsEngine::Note, "%0");
  diags.Report(error.range.getBegin(), errorId) << error.message << error.range;
  for (const auto &[range, text] : error.notes)
    diags.Report(range.getBegin(), noteId) << text << range;
}

void reportWarning(clang::DiagnosticsEngine &diags, clang::SourceRange range,
                   const std::string &message) {
  unsigned id = diags.getCustomDiagID(clang::DiagnosticsEngine::Warning, "%0");
  diags.Report(range.getBegin(), id) << message << range;
}

} // namespace ntc

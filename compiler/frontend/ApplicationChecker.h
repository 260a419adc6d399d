//===- ApplicationChecker.h - reject unsupported application code ---------===//
#pragma once

namespace clang {
class FunctionDecl;
} // namespace clang

namespace ntc {

/// Check that an application function (and every helper it calls) uses only the
/// supported subset of C++: locals, `for`, `if`, assignments, calls of `ntl::` functions,
/// tile members and other application/helper functions. Throws SourceError at the first
/// unsupported construct.
void checkApplication(const clang::FunctionDecl *application);

} // namespace ntc

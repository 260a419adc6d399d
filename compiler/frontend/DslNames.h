//===- DslNames.h - recognising declarations of <ntc/dsl.hpp> -------------===//
#pragma once

#include <clang/AST/Decl.h>
#include <clang/AST/DeclBase.h>

namespace ntc {

/// True when `d` is declared in namespace `nt` (or a scope inside it, such as nt::lang or
/// a class of the DSL): the names the front end interprets or translates itself.
inline bool declaredInDsl(const clang::Decl *d) {
  for (const clang::DeclContext *c = d->getDeclContext(); c; c = c->getParent())
    if (const auto *ns = clang::dyn_cast<clang::NamespaceDecl>(c))
      if (ns->getName() == "nt" && clang::isa<clang::TranslationUnitDecl>(ns->getParent()))
        return true;
  return false;
}

} // namespace ntc

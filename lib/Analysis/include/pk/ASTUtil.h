//===- ASTUtil.h - small AST queries shared by the analyses and targets ---===//
#ifndef PK_ANALYSIS_ASTUTIL_H
#define PK_ANALYSIS_ASTUTIL_H

#include "llvm/ADT/StringRef.h"

namespace clang {
class CallExpr;
}

namespace pk {

/// The name of the function a call calls, as written: the direct callee, an
/// unresolved name in a template, a function reference or a member; empty
/// when the callee has no name (a call through a pointer expression).
llvm::StringRef calleeName(const clang::CallExpr *CE);

} // namespace pk
#endif

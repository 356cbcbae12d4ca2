//===- ASTUtil.h - small AST queries shared by the analyses and targets ---===//
// Rules: none (shared infrastructure)
#ifndef PK_ANALYSIS_ASTUTIL_H
#define PK_ANALYSIS_ASTUTIL_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Type.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <vector>

namespace clang {
class CallExpr;
class Expr;
class VarDecl;
} // namespace clang

namespace pk {

/// The name of the function a call calls, as written: the direct callee, an
/// unresolved name in a template, a function reference or a member; empty
/// when the callee has no name (a call through a pointer expression).
llvm::StringRef calleeName(const clang::CallExpr *CE);

/// The extents of a constant-size array type, outermost first (empty for
/// anything else); \p Elem, when given, receives the element type.
std::vector<uint64_t> constantArrayDims(clang::QualType T,
                                        clang::QualType *Elem = nullptr);

/// The variable that `V[i]..[k]` (any number of subscripts, parentheses and
/// implicit casts) indexes, or null; \p Depth, when given, receives the
/// number of subscripts.
const clang::VarDecl *subscriptBase(const clang::Expr *E,
                                    unsigned *Depth = nullptr);

/// While alive, traversals of \p Ctx (RecursiveASTVisitor, AST matchers)
/// walk the whole translation unit, headers included, instead of the user's
/// top-level declarations that parseFile() restricts them to.  For the few
/// analyses that read declarations of the toolkit's headers; with a
/// precompiled prelude the walk loads all of them.
class WholeTranslationUnit {
public:
  explicit WholeTranslationUnit(clang::ASTContext &Ctx)
      : Ctx(Ctx), Saved(Ctx.getTraversalScope()) {
    Ctx.setTraversalScope({Ctx.getTranslationUnitDecl()});
  }
  ~WholeTranslationUnit() { Ctx.setTraversalScope(Saved); }
  WholeTranslationUnit(const WholeTranslationUnit &) = delete;
  WholeTranslationUnit &operator=(const WholeTranslationUnit &) = delete;

private:
  clang::ASTContext &Ctx;
  std::vector<clang::Decl *> Saved;
};

} // namespace pk
#endif

//===- ASTUtil.cpp - small AST queries shared by the analyses and targets -===//
// Rules: none (shared infrastructure)
#include "pk/ASTUtil.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

llvm::StringRef pk::calleeName(const CallExpr *CE) {
  if (const FunctionDecl *FD = CE->getDirectCallee())
    if (FD->getIdentifier())
      return FD->getName();
  const Expr *C = CE->getCallee()->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnresolvedLookupExpr>(C))
    if (U->getName().isIdentifier())
      return U->getName().getAsIdentifierInfo()->getName();
  if (const auto *D = dyn_cast<DeclRefExpr>(C))
    if (D->getDecl()->getIdentifier())
      return D->getDecl()->getName();
  if (const auto *M = dyn_cast<MemberExpr>(C))
    if (M->getMemberDecl()->getIdentifier())
      return M->getMemberDecl()->getName();
  if (const auto *M = dyn_cast<UnresolvedMemberExpr>(C))
    if (M->getMemberName().isIdentifier())
      return M->getMemberName().getAsIdentifierInfo()->getName();
  if (const auto *M = dyn_cast<CXXDependentScopeMemberExpr>(C))
    if (M->getMember().isIdentifier())
      return M->getMember().getAsIdentifierInfo()->getName();
  // Cls<W>::fn(...) in a template, Cls<W> depending on its parameters.
  if (const auto *D = dyn_cast<DependentScopeDeclRefExpr>(C))
    if (D->getDeclName().isIdentifier())
      return D->getDeclName().getAsIdentifierInfo()->getName();
  return "";
}

std::vector<uint64_t> pk::constantArrayDims(QualType T, QualType *Elem) {
  std::vector<uint64_t> D;
  T = T.getCanonicalType();
  while (const auto *AT = dyn_cast<ConstantArrayType>(T.getTypePtr())) {
    D.push_back(AT->getSize().getZExtValue());
    T = AT->getElementType().getCanonicalType();
  }
  if (Elem)
    *Elem = T;
  return D;
}

const VarDecl *pk::subscriptBase(const Expr *E, unsigned *Depth) {
  unsigned N = 0;
  E = E->IgnoreParenImpCasts();
  while (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    ++N;
    E = AS->getBase()->IgnoreParenImpCasts();
  }
  if (Depth)
    *Depth = N;
  const auto *DR = dyn_cast<DeclRefExpr>(E);
  return DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
}

//===- BuiltinVars.cpp - threadIdx.x and the other launch coordinates -----===//
// Rules: none (shared infrastructure)
#include "pk/BuiltinVars.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

std::optional<pk::BuiltinMember> pk::builtinMember(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *P = dyn_cast<PseudoObjectExpr>(E))
    E = P->getSyntacticForm()->IgnoreParenImpCasts();
  const Expr *Base = nullptr;
  const NamedDecl *Member = nullptr;
  if (const auto *M = dyn_cast<MSPropertyRefExpr>(E)) {
    Base = M->getBaseExpr();
    Member = M->getPropertyDecl();
  } else if (const auto *M = dyn_cast<MemberExpr>(E)) {
    Base = M->getBase();
    Member = M->getMemberDecl();
  } else {
    return std::nullopt;
  }
  // A property's base is the opaque value of the variable.
  Base = Base->IgnoreParenImpCasts();
  if (const auto *O = dyn_cast<OpaqueValueExpr>(Base))
    if (O->getSourceExpr())
      Base = O->getSourceExpr()->IgnoreParenImpCasts();
  const auto *D = dyn_cast<DeclRefExpr>(Base);
  if (!D || !D->getDecl()->getIdentifier())
    return std::nullopt;
  llvm::StringRef Var = D->getDecl()->getName();
  if (Var != "threadIdx" && Var != "blockIdx" && Var != "blockDim" &&
      Var != "gridDim")
    return std::nullopt;
  return BuiltinMember{Var, Member->getIdentifier() ? Member->getName()
                                                    : llvm::StringRef()};
}

std::optional<pk::BuiltinIndex> pk::builtinIndex(const Expr *E) {
  std::optional<BuiltinMember> M = builtinMember(E);
  if (!M || M->Field.size() != 1 || M->Field[0] < 'x' || M->Field[0] > 'z')
    return std::nullopt;
  return BuiltinIndex{M->Var, unsigned(M->Field[0] - 'x')};
}

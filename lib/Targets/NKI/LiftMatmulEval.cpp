//===- LiftMatmulEval.cpp - AST helpers and conditions of GEMM proofs -----===//
// Rules: none (AST helpers of the GEMM lifter)
//
// Helpers on the AST (casts, builtin indices, callees, barriers) and the
// conditions of guards and early exits as polynomial inequalities.
//===----------------------------------------------------------------------===//
#include "LiftMatmulImpl.h"
#include "pk/BuiltinVars.h"

using namespace clang;

namespace pk {
namespace nki {
namespace gemm {

const Expr *stripCastsAndSubst(const Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    if (auto *C = dyn_cast<ExplicitCastExpr>(E)) {
      if (C->getType()->isIntegerType() &&
          C->getSubExpr()->getType()->isIntegerType()) {
        E = C->getSubExpr();
        continue;
      }
    }
    if (auto *S = dyn_cast<SubstNonTypeTemplateParmExpr>(E)) {
      E = S->getReplacement();
      continue;
    }
    return E;
  }
}

/// threadIdx.x -> "tid_x", blockIdx.y -> "bid_y", blockDim.x -> "block_x",
/// gridDim.y -> "grid_y".
std::optional<std::string> builtinAtom(const Expr *E) {
  std::optional<BuiltinIndex> BI = builtinIndex(E);
  if (!BI)
    return std::nullopt;
  const char *P = BI->Var == "threadIdx"  ? "tid_"
                  : BI->Var == "blockIdx" ? "bid_"
                  : BI->Var == "blockDim" ? "block_"
                                          : "grid_";
  return std::string(P) + BI->axis();
}

/// The callee's name of a (possibly dependent or overloaded) call.
std::string calleeName(const CallExpr *C) {
  if (const FunctionDecl *F = C->getDirectCallee())
    return F->getNameAsString();
  const Expr *E = C->getCallee()->IgnoreParenImpCasts();
  if (auto *U = dyn_cast<UnresolvedLookupExpr>(E))
    return U->getName().getAsString();
  if (auto *D = dyn_cast<DeclRefExpr>(E))
    return D->getDecl()->getNameAsString();
  return "";
}

bool isBarrier(const clang::Stmt *S) {
  auto *C = dyn_cast<CallExpr>(S);
  return C && calleeName(C) == "__syncthreads";
}

/// A statement without its implicit wrappers (cleanups of temporaries).
const clang::Stmt *unwrap(const clang::Stmt *S) {
  if (auto *E = dyn_cast_or_null<Expr>(S))
    return E->IgnoreImplicit();
  return S;
}

bool isZeroLiteral(const Expr *E) {
  E = E->IgnoreImplicit()->IgnoreParenImpCasts();
  if (auto *F = dyn_cast<FloatingLiteral>(E))
    return F->getValue().isZero();
  if (auto *I = dyn_cast<IntegerLiteral>(E))
    return I->getValue() == 0;
  if (auto *C = dyn_cast<CallExpr>(E)) {
    std::string N = calleeName(C);
    if ((N == "__float2half" || N == "__float2bfloat16" ||
         N == "__float2half_rn" || N == "__float2bfloat16_rn") &&
        C->getNumArgs() == 1)
      return isZeroLiteral(C->getArg(0));
  }
  if (auto *C = dyn_cast<CXXFunctionalCastExpr>(E))
    return isZeroLiteral(C->getSubExpr());
  if (auto *C = dyn_cast<CXXConstructExpr>(E))
    return C->getNumArgs() == 1 && isZeroLiteral(C->getArg(0));
  return false;
}

bool condsOf(IntEval &IE, const Expr *E, Conds &Out, bool Negated) {
  E = stripCastsAndSubst(E);
  if (auto *U = dyn_cast<UnaryOperator>(E))
    if (U->getOpcode() == UO_LNot)
      return condsOf(IE, U->getSubExpr(), Out, !Negated);
  auto *B = dyn_cast<BinaryOperator>(E);
  if (!B)
    return false;
  BinaryOperatorKind Op = B->getOpcode();
  if ((Op == BO_LAnd && !Negated) || (Op == BO_LOr && Negated))
    return condsOf(IE, B->getLHS(), Out, Negated) &&
           condsOf(IE, B->getRHS(), Out, Negated);
  if (Negated) {
    // !(a >= b) is a < b, !(a > b) is a <= b, i.e. a < b + 1.
    if (Op == BO_GE)
      Op = BO_LT;
    else if (Op == BO_GT)
      Op = BO_LE;
    else
      return false;
  }
  auto L = IE.eval(B->getLHS()), R = IE.eval(B->getRHS());
  if (!L || !R)
    return false;
  switch (Op) {
  case BO_LT:
    Out.push_back({*L, *R});
    return true;
  case BO_GT:
    Out.push_back({*R, *L});
    return true;
  case BO_LE:
    Out.push_back({*L, *R + Poly::c(1)});
    return true;
  case BO_GE:
    Out.push_back({*R, *L + Poly::c(1)});
    return true;
  default:
    return false;
  }
}

} // namespace gemm
} // namespace nki
} // namespace pk

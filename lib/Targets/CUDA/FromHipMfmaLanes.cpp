//===- FromHipMfmaLanes.cpp - MFMA index expressions as lane polynomials --===//
// Rules: PK6043
//
// The index expressions of an MFMA kernel's loads and stores as polynomials
// over the lane's digits (threadIdx.x = R + 16 * Q + 64 * W), the element or
// register number E and the values that are the same in every lane of the
// wave; FromHipMfmaMatch.cpp reads the MFMA layout off their coefficients.
//
//===----------------------------------------------------------------------===//
#include "FromHipMfmaGemm.h"

namespace pk::cuda::mfmagemm {

bool hasDigit(const Poly &P, std::initializer_list<int> Ds) {
  for (auto &[M, C] : P)
    for (int A : M)
      for (int D : Ds)
        if (A == D)
          return true;
  return false;
}

/// True when \p V is assigned, incremented or has its address taken in
/// the function body.
bool Recogniser::modified(const VarDecl *V) const {
  struct W : DynamicASTVisitor {
    const VarDecl *V;
    bool Hit = false;
    static const VarDecl *ref(const Expr *E) {
      if (const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
        return dyn_cast<VarDecl>(D->getDecl());
      return nullptr;
    }
    bool VisitBinaryOperator(BinaryOperator *B) override {
      if (B->isAssignmentOp() && ref(B->getLHS()) == V)
        Hit = true;
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *U) override {
      if ((U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) &&
          ref(U->getSubExpr()) == V)
        Hit = true;
      return true;
    }
  } Wk;
  Wk.V = V;
  Wk.TraverseStmt(FD->getBody());
  return Wk.Hit;
}

/// True when \p E is spelled with a wave-width macro (WARP_SIZE,
/// WAVE_SIZE, ...), whose 64 PK6033 narrows to 32 in the output.
bool Recogniser::waveWidthMacro(const Expr *E) const {
  SourceLocation L = E->getBeginLoc();
  while (L.isMacroID()) {
    std::string Up = Lexer::getImmediateMacroName(L, SM(), LO()).upper();
    llvm::StringRef U = Up;
    if ((U.contains("WARP") || U.contains("WAVE")) &&
        (U.ends_with("SIZE") || U.ends_with("WIDTH") || U.ends_with("LANES")))
      return true;
    L = SM().getImmediateMacroCallerLoc(L);
  }
  return false;
}

/// The value of \p E as a polynomial, or nullopt (Err says why).
std::optional<Poly> Recogniser::eval(const Expr *E0) {
  const Expr *E = strip(E0);
  if (const auto *IL = dyn_cast<IntegerLiteral>(E))
    return constant((int64_t)IL->getValue().getZExtValue());
  if (!E->isValueDependent() && E->getType()->isIntegerType()) {
    Expr::EvalResult R;
    if (E->EvaluateAsInt(R, TC.Ctx()))
      return constant(R.Val.getInt().getSExtValue());
  }
  std::string S = squeeze(text(E));
  if (isThreadX(S))
    return add(add(atom(DR), scale(atom(DQ), 16)), scale(atom(DW), 64));
  if (auto B = uniformBuiltin(S))
    return atom(atomId(*B, *B));
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *F = CE->getDirectCallee();
    if (F && F->getIdentifier() && F->getName() == "__lane_id" &&
        CE->getNumArgs() == 0)
      return add(atom(DR), scale(atom(DQ), 16));
    fail(E, "'" + S + "': a call in an index");
    return std::nullopt;
  }
  if (const auto *DR_ = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *EC = dyn_cast<EnumConstantDecl>(DR_->getDecl()))
      return constant(EC->getInitVal().getSExtValue());
    const auto *V = dyn_cast<VarDecl>(DR_->getDecl());
    if (!V || !V->getType()->isIntegerType()) {
      fail(E, "'" + S + "' is not an integer variable");
      return std::nullopt;
    }
    if (V == Digit)
      return atom(DE);
    if (V == K0)
      return atom(
          atomId("v" + std::to_string((uintptr_t)V), V->getName().str()));
    auto It = VarPoly.find(V);
    if (It != VarPoly.end())
      return It->second;
    if (modified(V)) {
      fail(E, "'" + V->getName().str() + "' is assigned in the kernel");
      return std::nullopt;
    }
    if (isa<ParmVarDecl>(V)) {
      Poly P = atom(
          atomId("v" + std::to_string((uintptr_t)V), V->getName().str()));
      VarPoly[V] = P;
      return P;
    }
    if (!V->hasInit() || !V->isLocalVarDecl()) {
      fail(E,
           "'" + V->getName().str() + "' has no value the pattern follows");
      return std::nullopt;
    }
    std::optional<Poly> P = eval(V->getInit());
    if (!P)
      return std::nullopt;
    // A value that is the same in every lane of a wave stays a name.
    if (!hasDigit(*P, {DR, DQ, DE}))
      P = atom(
          atomId("v" + std::to_string((uintptr_t)V), V->getName().str()));
    VarPoly[V] = *P;
    return P;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    BinaryOperatorKind Op = BO->getOpcode();
    std::optional<Poly> L = eval(BO->getLHS());
    if (!L)
      return std::nullopt;
    std::optional<Poly> R = eval(BO->getRHS());
    if (!R)
      return std::nullopt;
    switch (Op) {
    case BO_Add:
    case BO_Sub:
    case BO_Mul: {
      Poly P = Op == BO_Add ? *L + *R : Op == BO_Sub ? *L - *R : *L * *R;
      if (P.overflowed()) {
        fail(E, "'" + S + "': integers beyond 64 bits");
        return std::nullopt;
      }
      return P;
    }
    case BO_Div:
    case BO_Rem:
    case BO_And:
    case BO_Shr: {
      std::optional<int64_t> C = asConstant(*R);
      if (!hasDigit(*L, {DR, DQ, DE})) {
        if (auto LC = asConstant(*L); LC && C && *C > 0 && *LC >= 0) {
          int64_t V = Op == BO_Div   ? *LC / *C
                      : Op == BO_Rem ? *LC % *C
                      : Op == BO_And ? (*LC & *C)
                                     : (*LC >> *C);
          return constant(V);
        }
        // The same in every lane of the wave: an opaque value.
        std::string T = "(" + text(E) + ")";
        return atom(atomId("x" + squeeze(T), T));
      }
      if (!C || *C <= 0) {
        fail(E, "'" + S +
                    "': lane arithmetic by a value that is not a "
                    "constant");
        return std::nullopt;
      }
      if (hasDigit(*L, {DW, DR, DQ}) && waveWidthMacro(BO->getRHS())) {
        fail(E, "'" + S +
                    "': lane arithmetic with a wave-width macro (PK6033 "
                    "narrows it to 32)");
        return std::nullopt;
      }
      int64_t D = *C;
      bool Mod = Op == BO_Rem || Op == BO_And;
      if (Op == BO_And) {
        if ((D & (D + 1)) != 0) {
          fail(E, "'" + S + "': a mask that is not 2^n - 1");
          return std::nullopt;
        }
        D = D + 1;
      } else if (Op == BO_Shr) {
        if (D > 30) {
          fail(E, "'" + S + "': a shift out of range");
          return std::nullopt;
        }
        D = int64_t(1) << D;
      }
      // L must be a sum of lane digits with non-negative coefficients;
      // its part below D must stay below D.
      Poly Low, High;
      int64_t MaxLow = 0;
      for (auto &[M, Co] : *L) {
        if (M.size() != 1 || M[0] >= 0 || M[0] == DE || Co <= 0) {
          fail(E, "'" + S + "': lane arithmetic the pattern does not follow");
          return std::nullopt;
        }
        if (Co % D == 0) {
          High.add(M, Co / D);
          continue;
        }
        if (M[0] == DW) {
          fail(E, "'" + S + "': lane arithmetic the pattern does not follow");
          return std::nullopt;
        }
        Low.add(M, Co);
        int64_t Span;
        if (__builtin_mul_overflow(Co, (M[0] == DR ? 16 : 4) - 1, &Span) ||
            __builtin_add_overflow(MaxLow, Span, &MaxLow)) {
          fail(E, "'" + S + "': integers beyond 64 bits");
          return std::nullopt;
        }
      }
      if (MaxLow >= D) {
        fail(E, "'" + S + "': lane arithmetic the pattern does not follow");
        return std::nullopt;
      }
      return Mod ? Low : High;
    }
    default:
      fail(E, "'" + S + "': an operator the pattern does not follow");
      return std::nullopt;
    }
  }
  if (S.find("threadIdx") != std::string::npos ||
      S.find("ThreadIdx") != std::string::npos) {
    fail(E, "'" + S + "': only the x thread index is followed");
    return std::nullopt;
  }
  fail(E, "'" + S + "': an expression the pattern does not follow");
  return std::nullopt;
}

/// Printed form of a lane-independent polynomial.
std::string Recogniser::print(const Poly &P) const {
  std::string R;
  for (auto &[M, C] : P) {
    std::string T;
    int64_t Co = C;
    if (!R.empty()) {
      R += Co < 0 ? " - " : " + ";
      Co = Co < 0 ? -Co : Co;
    } else if (Co < 0) {
      R += "-";
      Co = -Co;
    }
    std::vector<std::string> F;
    if (Co != 1 || M.empty())
      F.push_back(std::to_string(Co));
    for (int A : M)
      F.push_back(A == DW ? "(threadIdx.x / 64)" : AtomText[A]);
    R += llvm::join(F, " * ");
  }
  return R.empty() ? "0" : R;
}

/// Splits \p P into its lane-independent part and the coefficients of the
/// digits R, Q and E.
bool Recogniser::split(const Expr *E, const Poly &P, Poly &Base, Poly &CR,
                       Poly &CQ, Poly &CE) {
  for (auto &[M, C] : P) {
    int Found = 0, N = 0;
    Mono Rest;
    for (int A : M)
      if (A == DR || A == DQ || A == DE) {
        Found = A;
        ++N;
      } else {
        Rest.push_back(A);
      }
    if (N > 1)
      return fail(E, "an index with a product of lane digits");
    if (N == 0) {
      Base.add(M, C);
      continue;
    }
    if (hasDigit(Poly{{Rest, 1}}, {DW}))
      return fail(E, "an index whose lane stride depends on the wave");
    (Found == DR ? CR : Found == DQ ? CQ : CE).add(Rest, C);
  }
  return true;
}

} // namespace pk::cuda::mfmagemm

//===- LegacyConvergence.cpp - which lanes of a warp run a statement ------===//
// Rules: PK6001, PK6002, PK6003
//
// Legacy warp code relied on the lanes of a warp running together; the
// `_sync` forms that replace it name the lanes that take part.  This file
// works out those lanes for a statement of a function body:
//   - a value is uniform (the same in every lane of a warp) when it is built
//     from constants, blockIdx/blockDim/gridDim, kernel parameters and
//     local variables that are only ever given uniform values under uniform
//     control; threadIdx.x, calls and addresses of locals are not;
//   - a condition on threadIdx.x alone (through local variables given once)
//     is evaluated for each lane of each of the 32 warps a block can have:
//     when the lanes that pass are the same in every warp that has any, the
//     statement runs on that constant mask;
//   - a kernel starts with every lane; lanes that return from a kernel have
//     exited and do not count; a device function starts converged when every
//     call of it in the translation unit is converged.
// Anything else is unknown (the caller uses __activemask()).
//
//===----------------------------------------------------------------------===//
#include "LegacyPasses.h"
#include "pk/BuiltinVars.h"

#include "pk/DynamicVisitor.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include <algorithm>
#include <functional>

using namespace pk;
using namespace pk::cudaleg;
using namespace clang;

namespace {

constexpr unsigned MaxDepth = 64;

/// The local variable (or parameter) an lvalue names, through subscripts,
/// members and parentheses.
const VarDecl *localRoot(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
      E = A->getBase();
    else if (const auto *M = dyn_cast<MemberExpr>(E))
      E = M->isArrow() ? nullptr : M->getBase();
    else if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(D->getDecl());
      return VD && VD->isLocalVarDeclOrParm() ? VD : nullptr;
    } else
      return nullptr;
  }
  return nullptr;
}

bool isLoop(const Stmt *S) {
  return isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
}

const Expr *loopCond(const Stmt *S) {
  if (const auto *F = dyn_cast<ForStmt>(S))
    return F->getCond();
  if (const auto *W = dyn_cast<WhileStmt>(S))
    return W->getCond();
  if (const auto *D = dyn_cast<DoStmt>(S))
    return D->getCond();
  if (const auto *R = dyn_cast<CXXForRangeStmt>(S))
    return R->getRangeInit();
  return nullptr;
}

int64_t truncTo(int64_t V, QualType T, ASTContext &Ctx) {
  if (!T->isIntegerType())
    return V;
  if (T->isBooleanType())
    return V != 0;
  uint64_t Bits = Ctx.getTypeSize(T);
  if (Bits >= 64)
    return V;
  uint64_t M = (1ull << Bits) - 1;
  uint64_t U = static_cast<uint64_t>(V) & M;
  if (T->isSignedIntegerOrEnumerationType() && (U >> (Bits - 1)))
    U |= ~M;
  return static_cast<int64_t>(U);
}

} // namespace

const FunctionDecl *Convergence::functionOf(const Stmt *S) {
  DynTypedNode N = DynTypedNode::create(*S);
  for (unsigned I = 0; I < 10000; ++I) {
    auto Ps = TC.parents(N);
    if (Ps.empty())
      return nullptr;
    N = Ps[0];
    if (N.get<LambdaExpr>())
      return nullptr;
    if (const auto *FD = N.get<FunctionDecl>())
      return FD;
  }
  return nullptr;
}

/// Calls \p Visit(parent, child) for each statement enclosing \p S, innermost
/// first, up to the function body; stops early when Visit returns false.
template <class F>
static void walkUp(const UserSource &Src, const Stmt *S, F Visit) {
  DynTypedNode N = DynTypedNode::create(*S);
  const Stmt *Child = S;
  for (unsigned I = 0; I < 10000; ++I) {
    auto Ps = Src.parents(N);
    if (Ps.empty())
      return;
    N = Ps[0];
    if (const Stmt *P = N.get<Stmt>()) {
      if (isa<LambdaExpr>(P))
        return;
      if (!Visit(P, Child))
        return;
      Child = P;
      continue;
    }
    if (N.get<VarDecl>())
      continue;
    return;
  }
}

Convergence::FnInfo &Convergence::info(const FunctionDecl *FD) {
  FnInfo &I = Fns[FD];
  if (I.Done || !FD->hasBody())
    return I;
  I.Done = true;
  bool Kernel = FD->hasAttr<CUDAGlobalAttr>();
  if (!Kernel)
    for (const ParmVarDecl *P : FD->parameters())
      I.Varying.insert(P);
  // Writes and escapes of locals.
  struct Collect : DynamicASTVisitor {
    FnInfo &I;
    explicit Collect(FnInfo &I) : I(I) { ShouldVisitLambdaBody = false; }
    bool VisitDeclStmt(DeclStmt *DS) override {
      for (Decl *D : DS->decls())
        if (auto *VD = dyn_cast<VarDecl>(D))
          if (VD->hasInit())
            I.Writes[VD].push_back({VD->getInit(), DS});
      return true;
    }
    bool VisitBinaryOperator(BinaryOperator *BO) override {
      if (BO->isAssignmentOp())
        if (const VarDecl *VD = localRoot(BO->getLHS()))
          I.Writes[VD].push_back({BO, BO});
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *UO) override {
      if (UO->isIncrementDecrementOp())
        if (const VarDecl *VD = localRoot(UO->getSubExpr()))
          I.Writes[VD].push_back({UO, UO});
      if (UO->getOpcode() == UO_AddrOf)
        if (const VarDecl *VD = localRoot(UO->getSubExpr()))
          I.Escaped.insert(VD);
      return true;
    }
    bool VisitCallExpr(CallExpr *CE) override {
      for (const Expr *A : CE->arguments())
        if (A->isGLValue())
          if (const VarDecl *VD = localRoot(A))
            I.Escaped.insert(VD);
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
        if (const VarDecl *VD = localRoot(MC->getImplicitObjectArgument()))
          I.Escaped.insert(VD);
      return true;
    }
    bool VisitCXXConstructExpr(CXXConstructExpr *CE) override {
      for (const Expr *A : CE->arguments())
        if (A->isGLValue())
          if (const VarDecl *VD = localRoot(A))
            I.Escaped.insert(VD);
      return true;
    }
    bool VisitGotoStmt(GotoStmt *) override {
      I.HasGoto = true;
      return true;
    }
    bool VisitIndirectGotoStmt(IndirectGotoStmt *) override {
      I.HasGoto = true;
      return true;
    }
  } C(I);
  C.TraverseStmt(FD->getBody());
  for (const VarDecl *VD : I.Escaped)
    I.Varying.insert(VD);
  // Optimistic start, then every variable given a non-uniform value or
  // written under non-uniform control becomes varying, until nothing
  // changes.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (auto &[VD, Ws] : I.Writes) {
      if (I.Varying.count(VD))
        continue;
      for (auto &[Val, At] : Ws)
        if (!uniformIn(Val, I, Kernel, 0) || !controlUniform(At, FD)) {
          I.Varying.insert(VD);
          Changed = true;
          break;
        }
    }
  }
  return I;
}

bool Convergence::uniform(const Expr *E) {
  const FunctionDecl *FD = functionOf(E);
  if (!FD)
    return false;
  return uniformIn(E, info(FD), FD->hasAttr<CUDAGlobalAttr>(), 0);
}

bool Convergence::uniformIn(const Expr *E, FnInfo &I, bool Kernel, unsigned D) {
  if (!E || D > MaxDepth)
    return false;
  E = E->IgnoreParens();
  if (isa<IntegerLiteral, FloatingLiteral, CharacterLiteral, CXXBoolLiteralExpr,
          StringLiteral, CXXNullPtrLiteralExpr, UnaryExprOrTypeTraitExpr,
          CXXDefaultArgExpr>(E))
    return true;
  if (std::optional<BuiltinMember> BM = builtinMember(E))
    return BM->Var != "threadIdx";
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *VD = DRE->getDecl();
    if (VD->getIdentifier() && VD->getName() == "warpSize")
      return true;
    if (const auto *V = dyn_cast<VarDecl>(VD)) {
      if (V->isLocalVarDeclOrParm())
        return !I.Varying.count(V);
      return true; // globals, __shared__ and __constant__ variables
    }
    return true; // enumerators, functions
  }
  if (isa<CallExpr, LambdaExpr, BlockExpr, AsmStmt>(E))
    return false;
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_AddrOf && localRoot(UO->getSubExpr()))
      return false;
  if (const auto *O = dyn_cast<OpaqueValueExpr>(E))
    return uniformIn(O->getSourceExpr(), I, Kernel, D + 1);
  if (const auto *P = dyn_cast<PseudoObjectExpr>(E))
    return uniformIn(P->getSyntacticForm(), I, Kernel, D + 1);
  for (const Stmt *C : E->children()) {
    const auto *CE = dyn_cast_or_null<Expr>(C);
    if (C && (!CE || !uniformIn(CE, I, Kernel, D + 1)))
      return false;
  }
  return true;
}

/// True when every condition that decides whether \p S runs (up to the
/// function body) is uniform.
bool Convergence::controlUniform(const Stmt *S, const FunctionDecl *FD) {
  bool OK = true;
  walkUp(TC, S, [&](const Stmt *P, const Stmt *C) {
    if (const auto *If = dyn_cast<IfStmt>(P)) {
      if ((C == If->getThen() || C == If->getElse()) && !uniform(If->getCond()))
        OK = false;
    } else if (isLoop(P)) {
      if (C != (isa<ForStmt>(P) ? cast<ForStmt>(P)->getInit() : nullptr) &&
          loopDivergent(P, FD))
        OK = false;
    } else if (const auto *Sw = dyn_cast<SwitchStmt>(P)) {
      if (C == Sw->getBody() && !uniform(Sw->getCond()))
        OK = false;
    } else if (const auto *CO = dyn_cast<AbstractConditionalOperator>(P)) {
      if (C != CO->getCond() && !uniform(CO->getCond()))
        OK = false;
    } else if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->isLogicalOp() && C == BO->getRHS() && !uniform(BO->getLHS()))
        OK = false;
    }
    return OK;
  });
  return OK;
}

/// A loop whose lanes may run different numbers of iterations: its condition
/// is not uniform, or a break/continue (or, in a device function, a return)
/// in it is taken under a condition that is not.
bool Convergence::loopDivergent(const Stmt *Loop, const FunctionDecl *FD) {
  if (const Expr *C = loopCond(Loop))
    if (!uniform(C))
      return true;
  bool Kernel = FD->hasAttr<CUDAGlobalAttr>();
  bool Div = false;
  std::function<void(const Stmt *, bool, bool)> Scan =
      [&](const Stmt *S, bool OwnBreak, bool OwnContinue) {
        if (!S || Div)
          return;
        if ((isa<BreakStmt>(S) && OwnBreak) ||
            (isa<ContinueStmt>(S) && OwnContinue) ||
            (isa<ReturnStmt>(S) && !Kernel) || isa<GotoStmt>(S)) {
          // Under a non-uniform condition inside the loop?
          walkUp(TC, S, [&](const Stmt *P, const Stmt *C) {
            if (P == Loop)
              return false;
            if (const auto *If = dyn_cast<IfStmt>(P))
              if (C != If->getCond() && !uniform(If->getCond()))
                Div = true;
            if (const auto *Sw = dyn_cast<SwitchStmt>(P))
              if (C == Sw->getBody() && !uniform(Sw->getCond()))
                Div = true;
            if (isLoop(P) && P != Loop && loopDivergent(P, FD))
              Div = true;
            return !Div;
          });
          return;
        }
        if (isa<LambdaExpr>(S))
          return;
        bool Inner = isLoop(S);
        bool Sw = isa<SwitchStmt>(S);
        for (const Stmt *C : S->children())
          Scan(C, OwnBreak && !Inner && !Sw, OwnContinue && !Inner);
      };
  if (const auto *F = dyn_cast<ForStmt>(Loop))
    Scan(F->getBody(), true, true);
  else if (const auto *W = dyn_cast<WhileStmt>(Loop))
    Scan(W->getBody(), true, true);
  else if (const auto *Do = dyn_cast<DoStmt>(Loop))
    Scan(Do->getBody(), true, true);
  else if (const auto *R = dyn_cast<CXXForRangeStmt>(Loop))
    Scan(R->getBody(), true, true);
  return Div;
}

std::optional<int64_t> Convergence::evalAt(const Expr *E, int64_t Tid,
                                           unsigned D) {
  if (!E || D > MaxDepth || E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  E = E->IgnoreParens();
  ASTContext &Ctx = TC.Ctx();
  if (std::optional<BuiltinMember> BM = builtinMember(E)) {
    if (BM->Var == "threadIdx" && BM->Field == "x")
      return Tid;
    return std::nullopt;
  }
  if (!E->getType()->isIntegralOrEnumerationType() &&
      !E->getType()->isBooleanType())
    return std::nullopt;
  Expr::EvalResult R;
  if (E->EvaluateAsInt(R, Ctx))
    return R.Val.getInt().getExtValue();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return std::nullopt;
    if (VD->getIdentifier() && VD->getName() == "warpSize")
      return 32;
    if (!VD->isLocalVarDeclOrParm() || isa<ParmVarDecl>(VD) || !CurFn)
      return std::nullopt;
    FnInfo &I = info(CurFn);
    auto It = I.Writes.find(VD);
    if (I.Escaped.count(VD) || It == I.Writes.end() || It->second.size() != 1 ||
        It->second[0].first != VD->getInit())
      return std::nullopt;
    auto V = evalAt(VD->getInit(), Tid, D + 1);
    if (!V)
      return std::nullopt;
    return truncTo(*V, VD->getType(), Ctx);
  }
  if (const auto *CE = dyn_cast<CastExpr>(E)) {
    auto V = evalAt(CE->getSubExpr(), Tid, D + 1);
    if (!V)
      return std::nullopt;
    return truncTo(*V, CE->getType(), Ctx);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    auto V = evalAt(UO->getSubExpr(), Tid, D + 1);
    if (!V)
      return std::nullopt;
    switch (UO->getOpcode()) {
    case UO_Minus:
      return truncTo(-*V, UO->getType(), Ctx);
    case UO_Plus:
      return *V;
    case UO_Not:
      return truncTo(~*V, UO->getType(), Ctx);
    case UO_LNot:
      return *V == 0;
    default:
      return std::nullopt;
    }
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    auto C = evalAt(CO->getCond(), Tid, D + 1);
    if (!C)
      return std::nullopt;
    return evalAt(*C ? CO->getTrueExpr() : CO->getFalseExpr(), Tid, D + 1);
  }
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO)
    return std::nullopt;
  auto L = evalAt(BO->getLHS(), Tid, D + 1);
  if (!L)
    return std::nullopt;
  if (BO->getOpcode() == BO_LAnd && !*L)
    return 0;
  if (BO->getOpcode() == BO_LOr && *L)
    return 1;
  auto Rv = evalAt(BO->getRHS(), Tid, D + 1);
  if (!Rv)
    return std::nullopt;
  int64_t A = *L, B = *Rv;
  // Comparisons and divisions of unsigned operands compare unsigned values.
  QualType OT = BO->getLHS()->IgnoreParens()->getType();
  bool Unsigned = OT->isUnsignedIntegerOrEnumerationType();
  auto UA = static_cast<uint64_t>(A), UB = static_cast<uint64_t>(B);
  int64_t V;
  switch (BO->getOpcode()) {
  case BO_Add:
    V = A + B;
    break;
  case BO_Sub:
    V = A - B;
    break;
  case BO_Mul:
    V = A * B;
    break;
  case BO_Div:
    if (!B)
      return std::nullopt;
    V = Unsigned ? static_cast<int64_t>(UA / UB) : A / B;
    break;
  case BO_Rem:
    if (!B)
      return std::nullopt;
    V = Unsigned ? static_cast<int64_t>(UA % UB) : A % B;
    break;
  case BO_Shl:
    if (B < 0 || B > 63)
      return std::nullopt;
    V = static_cast<int64_t>(UA << B);
    break;
  case BO_Shr:
    if (B < 0 || B > 63)
      return std::nullopt;
    V = Unsigned ? static_cast<int64_t>(UA >> B) : A >> B;
    break;
  case BO_And:
    V = A & B;
    break;
  case BO_Or:
    V = A | B;
    break;
  case BO_Xor:
    V = A ^ B;
    break;
  case BO_LT:
    V = Unsigned ? UA < UB : A < B;
    break;
  case BO_GT:
    V = Unsigned ? UA > UB : A > B;
    break;
  case BO_LE:
    V = Unsigned ? UA <= UB : A <= B;
    break;
  case BO_GE:
    V = Unsigned ? UA >= UB : A >= B;
    break;
  case BO_EQ:
    V = A == B;
    break;
  case BO_NE:
    V = A != B;
    break;
  case BO_LAnd:
  case BO_LOr:
    V = B != 0;
    break;
  default:
    return std::nullopt;
  }
  return truncTo(V, BO->getType(), Ctx);
}

std::optional<std::array<int64_t, 32>> Convergence::perLane(const Expr *E,
                                                            unsigned W) {
  const FunctionDecl *Saved = CurFn;
  CurFn = functionOf(E);
  std::array<int64_t, 32> Out{};
  bool OK = true;
  for (unsigned L = 0; L < 32 && OK; ++L) {
    auto V = evalAt(E, 32 * W + L, 0);
    if (V)
      Out[L] = *V;
    else
      OK = false;
  }
  CurFn = Saved;
  if (!OK)
    return std::nullopt;
  return Out;
}

std::optional<std::array<uint32_t, 32>> Convergence::condMasks(const Expr *Cond,
                                                               bool Neg) {
  std::array<uint32_t, 32> M{};
  for (unsigned W = 0; W < 32; ++W) {
    auto V = perLane(Cond, W);
    if (!V)
      return std::nullopt;
    for (unsigned L = 0; L < 32; ++L)
      if (((*V)[L] != 0) != Neg)
        M[W] |= 1u << L;
  }
  return M;
}

std::optional<uint32_t> Convergence::entryMask(const FunctionDecl *FD) {
  if (FD->hasAttr<CUDAGlobalAttr>())
    return 0xffffffffu;
  const FunctionDecl *Key = FD->getCanonicalDecl();
  auto It = Entry.find(Key);
  if (It != Entry.end())
    return It->second;
  Entry[Key] = std::nullopt; // recursion: unknown
  // Every call of it in the user's code.
  struct Calls : DynamicASTVisitor {
    const FunctionDecl *Key;
    TargetContext &TC;
    std::vector<const CallExpr *> Sites;
    Calls(const FunctionDecl *K, TargetContext &TC) : Key(K), TC(TC) {
      ShouldVisitTemplateInstantiations = true;
    }
    bool VisitCallExpr(CallExpr *CE) override {
      const FunctionDecl *C = CE->getDirectCallee();
      if (!C || !TC.isUserLoc(CE->getBeginLoc()))
        return true;
      if (const FunctionDecl *P = C->getTemplateInstantiationPattern())
        C = P;
      if (C->getCanonicalDecl() == Key)
        Sites.push_back(CE);
      return true;
    }
  } V(Key, TC);
  V.TraverseDecl(TC.Ctx().getTranslationUnitDecl());
  std::optional<uint32_t> M;
  for (const CallExpr *CE : V.Sites) {
    Lanes L = lanesAt(CE);
    std::optional<uint32_t> Here;
    if (L.Kind == Lanes::All)
      Here = 0xffffffffu;
    else if (L.Kind == Lanes::Constant)
      Here = L.Mask;
    if (!Here || (M && *M != *Here)) {
      M = std::nullopt;
      break;
    }
    M = Here;
  }
  Entry[Key] = M;
  return M;
}

Lanes Convergence::lanesAt(const Stmt *S) {
  Lanes Out;
  const FunctionDecl *FD = functionOf(S);
  if (!FD) {
    Out.Why = "it is not in a function body";
    return Out;
  }
  // Template instantiations: the pattern holds the code as written.
  bool Kernel = FD->hasAttr<CUDAGlobalAttr>();
  FnInfo &I = info(FD);
  if (I.HasGoto) {
    Out.Why = "the function uses goto";
    return Out;
  }
  struct Level {
    const Expr *Cond;
    bool Neg;
    const IfStmt *If; ///< the if of an if/else level
  };
  std::vector<Level> Levels;
  std::string Fail;
  walkUp(TC, S, [&](const Stmt *P, const Stmt *C) {
    if (const auto *If = dyn_cast<IfStmt>(P)) {
      if (C == If->getThen())
        Levels.push_back({If->getCond(), false, If});
      else if (C == If->getElse())
        Levels.push_back({If->getCond(), true, If});
    } else if (isLoop(P)) {
      bool InInit = isa<ForStmt>(P) && C == cast<ForStmt>(P)->getInit();
      if (!InInit && loopDivergent(P, FD))
        Fail = "the enclosing loop runs a different number of iterations "
               "in different lanes";
    } else if (const auto *Sw = dyn_cast<SwitchStmt>(P)) {
      if (C == Sw->getBody() && !uniform(Sw->getCond()))
        Fail = "the enclosing switch depends on the lane";
    } else if (const auto *CO = dyn_cast<ConditionalOperator>(P)) {
      if (C == CO->getTrueExpr())
        Levels.push_back({CO->getCond(), false, nullptr});
      else if (C == CO->getFalseExpr())
        Levels.push_back({CO->getCond(), true, nullptr});
    } else if (isa<BinaryConditionalOperator>(P)) {
      Fail = "it is an operand of ?:";
    } else if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->getOpcode() == BO_LAnd && C == BO->getRHS())
        Levels.push_back({BO->getLHS(), false, nullptr});
      else if (BO->getOpcode() == BO_LOr && C == BO->getRHS())
        Levels.push_back({BO->getLHS(), true, nullptr});
    } else if (const auto *CS = dyn_cast<CompoundStmt>(P)) {
      // In a device function, lanes that returned earlier are back in the
      // caller, not exited.
      if (!Kernel)
        for (const Stmt *Prev : CS->body()) {
          if (Prev == C)
            break;
          std::function<bool(const Stmt *)> Ret = [&](const Stmt *X) {
            if (!X || isa<LambdaExpr>(X))
              return false;
            if (isa<ReturnStmt>(X))
              return !controlUniform(X, FD);
            for (const Stmt *K : X->children())
              if (Ret(K))
                return true;
            return false;
          };
          if (Ret(Prev))
            Fail = "some lanes may have returned from the function before it";
        }
    }
    return Fail.empty();
  });
  if (!Fail.empty()) {
    Out.Why = Fail;
    return Out;
  }
  std::optional<uint32_t> EntryM = entryMask(FD);
  if (!EntryM) {
    Out.Why = "the lanes that call '" + FD->getNameAsString() +
              "' are not the same known lanes at every call in this file";
    return Out;
  }
  std::reverse(Levels.begin(), Levels.end()); // outermost first
  // Per-warp masks of each divergent level; -1 = not computable.
  std::vector<std::optional<std::array<uint32_t, 32>>> Masks;
  std::vector<size_t> Div;
  for (size_t K = 0; K < Levels.size(); ++K) {
    if (uniform(Levels[K].Cond))
      continue;
    Div.push_back(K);
    Masks.push_back(condMasks(Levels[K].Cond, Levels[K].Neg));
  }
  if (Div.empty()) {
    Out.Kind = *EntryM == 0xffffffffu ? Lanes::All : Lanes::Constant;
    Out.Mask = *EntryM;
    return Out;
  }
  // One constant for all warps that run it (warps where no lane does are
  // left out), over the levels [From, To) of Div.
  auto Combine = [&](size_t From, size_t To) -> std::optional<uint32_t> {
    std::array<uint32_t, 32> M;
    M.fill(*EntryM);
    for (size_t K = From; K < To; ++K) {
      if (!Masks[K])
        return std::nullopt;
      for (unsigned W = 0; W < 32; ++W)
        M[W] &= (*Masks[K])[W];
    }
    std::optional<uint32_t> One;
    for (unsigned W = 0; W < 32; ++W) {
      if (!M[W])
        continue;
      if (One && *One != M[W])
        return std::nullopt;
      One = M[W];
    }
    return One ? One : std::optional<uint32_t>(0);
  };
  if (auto M = Combine(0, Div.size())) {
    if (*M) {
      Out.Kind = Lanes::Constant;
      Out.Mask = *M;
      return Out;
    }
  }
  // A ballot of one if's condition, computed just before the if by the
  // lanes that reach it (a constant set), with constant conditions inside.
  for (size_t J = Div.size(); J-- > 0;) {
    const Level &L = Levels[Div[J]];
    if (!L.If || L.If->getInit() || L.If->getConditionVariable() ||
        L.Cond->HasSideEffects(TC.Ctx()) || !L.If->getBeginLoc().isFileID() ||
        !L.Cond->getBeginLoc().isFileID() || !L.Cond->getEndLoc().isFileID())
      continue;
    auto Ps = TC.parents(*L.If);
    if (Ps.empty() || !Ps[0].get<CompoundStmt>())
      continue;
    auto Outer = Combine(0, J);
    auto Inner = Combine(J + 1, Div.size());
    if (!Outer || !Inner || !*Outer || !*Inner)
      continue;
    Out.Kind = Lanes::Ballot;
    Out.If = L.If;
    Out.Else = L.Neg;
    Out.Outer = *Outer;
    Out.Inner = J + 1 < Div.size() ? *Inner : 0xffffffffu;
    return Out;
  }
  Out.Why = "the condition that decides which lanes run it cannot be "
            "computed before the branch";
  return Out;
}

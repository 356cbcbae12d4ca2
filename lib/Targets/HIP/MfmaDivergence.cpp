//===- MfmaDivergence.cpp - wave-wide operations under divergent control --===//
// Rules: PK3004
//
// The MFMA port runs two 32-lane logical warps per 64-lane wave, and every
// wave-wide operation (fragment operations, element-wise loops over x[],
// ported PTX mma, calls of functions that have them) needs both warps.
// PK3004 flags such operations under control flow that depends on the warp
// and exits under such conditions before them.  A warp-dependent early
// return at the top of a function is made wave-uniform instead where
// possible (PK3003, MfmaEarlyExit.cpp).
//
//===----------------------------------------------------------------------===//
#include "MfmaRules.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace pk::mfma;
using namespace clang;

namespace {

/// Variables of a function whose values may differ between the two logical
/// warps of a wave: computed from threadIdx (or __lane_id) directly or
/// through other such variables.
class Taint {
public:
  explicit Taint(const Stmt *Body) {
    if (!Body)
      return;
    for (bool Changed = true; Changed;) {
      Changed = false;
      scan(Body, Changed);
    }
  }
  bool tainted(const Stmt *S) const {
    if (!S)
      return false;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        if (Vars.count(VD->getCanonicalDecl()) ||
            (VD->getIdentifier() && VD->getName() == "threadIdx"))
          return true;
    }
    if (const auto *CE = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *FD = CE->getDirectCallee())
        if (FD->getIdentifier() && FD->getName() == "__lane_id")
          return true;
    if (const auto *OVE = dyn_cast<OpaqueValueExpr>(S))
      return tainted(OVE->getSourceExpr());
    for (const Stmt *C : S->children())
      if (tainted(C))
        return true;
    return false;
  }

private:
  llvm::DenseSet<const VarDecl *> Vars;
  void add(const VarDecl *VD, bool &Changed) {
    if (Vars.insert(VD->getCanonicalDecl()).second)
      Changed = true;
  }
  void scan(const Stmt *S, bool &Changed) {
    if (!S)
      return;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D))
          if (VD->hasInit() && tainted(VD->getInit()))
            add(VD, Changed);
    if (const auto *BO = dyn_cast<BinaryOperator>(S))
      if (BO->isAssignmentOp())
        if (const auto *DRE =
                dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
          if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
            if (tainted(BO->getRHS()))
              add(VD, Changed);
    for (const Stmt *C : S->children())
      scan(C, Changed);
  }
};

/// The condition of a control statement \p Ctl that decides whether \p
/// Child runs (nullptr when Child is the condition itself or Ctl does not
/// branch).
const Expr *guardOf(const Stmt *Ctl, const Stmt *Child) {
  if (const auto *I = dyn_cast<IfStmt>(Ctl))
    return Child == I->getCond() ? nullptr : I->getCond();
  if (const auto *F = dyn_cast<ForStmt>(Ctl))
    return Child == F->getBody() || Child == F->getInc() ? F->getCond()
                                                         : nullptr;
  if (const auto *W = dyn_cast<WhileStmt>(Ctl))
    return Child == W->getBody() ? W->getCond() : nullptr;
  if (const auto *D = dyn_cast<DoStmt>(Ctl))
    return Child == D->getBody() ? D->getCond() : nullptr;
  if (const auto *S = dyn_cast<SwitchStmt>(Ctl))
    return Child == S->getBody() ? S->getCond() : nullptr;
  if (const auto *C = dyn_cast<AbstractConditionalOperator>(Ctl))
    return Child == C->getCond() ? nullptr : C->getCond();
  if (const auto *B = dyn_cast<BinaryOperator>(Ctl))
    return B->isLogicalOp() && Child == B->getRHS() ? B->getLHS() : nullptr;
  return nullptr;
}

/// `if (C) return;` or `if (C) { return; }` in a void function.
bool isBareReturn(const IfStmt *I) {
  if (I->getElse() || I->hasInitStorage() || I->hasVarStorage() ||
      I->isConstexpr())
    return false;
  const Stmt *Then = I->getThen();
  if (const auto *CS = dyn_cast<CompoundStmt>(Then)) {
    if (CS->size() != 1)
      return false;
    Then = *CS->body_begin();
  }
  const auto *R = dyn_cast<ReturnStmt>(Then);
  return R && !R->getRetValue();
}

void collectExits(const Stmt *S, std::vector<const Stmt *> &Out) {
  if (!S)
    return;
  if (isa<ReturnStmt, BreakStmt, ContinueStmt, GotoStmt>(S))
    Out.push_back(S);
  if (isa<LambdaExpr>(S))
    return;
  for (const Stmt *C : S->children())
    collectExits(C, Out);
}

/// The innermost warp-dependent condition that decides whether \p S runs.
const Expr *divergentGuard(TargetContext &TC, const Stmt *S, const Taint &T) {
  const Stmt *Child = S;
  DynTypedNode N = DynTypedNode::create(*S);
  for (int Guard = 0; Guard < 256; ++Guard) {
    auto Ps = TC.parents(N);
    if (Ps.empty())
      return nullptr;
    N = Ps[0];
    const Stmt *Ctl = N.get<Stmt>();
    if (!Ctl)
      return nullptr; // reached a declaration (the function)
    if (const Expr *C = guardOf(Ctl, Child))
      if (T.tainted(C))
        return C;
    Child = Ctl;
  }
  return nullptr;
}

/// \p E is the return of \p Guard (`if (C) return;` or `if (C) { return; }`).
bool isReturnOf(const Stmt *E, const IfStmt *Guard) {
  return E == Guard->getThen() ||
         (isa<CompoundStmt>(Guard->getThen()) &&
          E == *cast<CompoundStmt>(Guard->getThen())->body_begin());
}

void checkFunction(TargetContext &TC, const FragmentPlan &P,
                   const FunctionDecl *FD,
                   const std::vector<const Stmt *> &Ops) {
  SourceManager &SM = TC.SM();
  const auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
  if (!Body)
    return;
  Taint T(Body);
  unsigned LastOp = 0;
  for (const Stmt *S : Ops)
    LastOp = std::max(LastOp,
                      SM.getFileOffset(SM.getExpansionLoc(S->getBeginLoc())));

  // The guard `if (warp-dependent) return;` at the top level of the body.
  const IfStmt *Guard = nullptr;
  for (const Stmt *S : Body->body()) {
    const auto *I = dyn_cast<IfStmt>(S);
    if (!I || !isBareReturn(I) || !T.tainted(I->getCond()))
      continue;
    if (SM.getFileOffset(SM.getExpansionLoc(I->getEndLoc())) > LastOp)
      continue;
    Guard = I;
    break;
  }
  bool Masked = false;
  if (Guard) {
    std::string Why;
    Masked = maskEarlyReturn(TC, P, FD, Body, Guard, Ops, Why);
    if (!Masked)
      TC.finding(Guard->getBeginLoc(), RuleId::PK3004, Severity::Warning,
                 llvm::formatv("this early return depends on the warp ('{0}') "
                               "and comes before fragment operations; it could "
                               "not be made wave-uniform ({1}): on a 64-lane "
                               "wave the two logical warps must reach every "
                               "fragment operation together",
                               TC.text(Guard->getCond()), Why)
                     .str());
  }

  // Any other exit under a warp-dependent condition before a fragment
  // operation, and fragment operations under such conditions.
  std::vector<const Stmt *> Exits;
  collectExits(Body, Exits);
  for (const Stmt *E : Exits) {
    if (Masked && isReturnOf(E, Guard))
      continue;
    if (SM.getFileOffset(SM.getExpansionLoc(E->getBeginLoc())) > LastOp)
      continue;
    const Expr *C = divergentGuard(TC, E, T);
    if (!C)
      continue;
    if (Guard && !Masked && isReturnOf(E, Guard))
      continue; // reported above
    TC.finding(E->getBeginLoc(), RuleId::PK3004, Severity::Warning,
               llvm::formatv("this exit depends on the warp ('{0}') and "
                             "comes before fragment operations: on a "
                             "64-lane wave the two logical warps must reach "
                             "every fragment operation together",
                             TC.text(C))
                   .str());
  }
  for (const Stmt *S : Ops) {
    const Expr *C = divergentGuard(TC, S, T);
    if (!C)
      continue;
    bool Loop = isa<ForStmt>(S);
    TC.finding(S->getBeginLoc(), RuleId::PK3004, Severity::Warning,
               llvm::formatv("{0} runs under '{1}', which depends on the "
                             "warp; the MFMA port needs both logical warps "
                             "of a wave (warps 2w and 2w+1) to take the "
                             "same branch{2}",
                             Loop ? "this element-wise loop over x[]"
                                  : "this fragment operation",
                             TC.text(C),
                             Loop ? ", because each lane holds elements of "
                                    "both warps' tiles"
                                  : "")
                   .str());
  }
}

} // namespace

void mfma::checkDivergence(TargetContext &TC, const FragmentPlan &P,
                           const WaveUse &Uses) {
  for (const auto &[FD, Ops] : Uses.ByFunction)
    checkFunction(TC, P, FD, Ops);
}

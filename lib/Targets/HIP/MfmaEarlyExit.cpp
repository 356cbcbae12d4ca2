//===- MfmaEarlyExit.cpp - wave-uniform warp-dependent early returns ------===//
// Rules: PK3003
//
// `if (warp-dependent) return;` before fragment operations would leave half
// of a wave's lanes out of the wave-wide MFMA operations.  It becomes
//   const bool __pk_mfma_live = !(C);
//   if (!__any(__pk_mfma_live)) return;
// and everything after it must be safe for a finished logical warp: the
// fragment loads and stores take `__pk_mfma_live` as a mask, other memory
// traffic is wrapped in `if (__pk_mfma_live)`, scalar initializers that
// read memory become `live ? (E) : 0`.  Anything else (stores next to a
// barrier, calls of user functions, inline asm, ...) keeps the return as
// written, and PK3004 reports it.
//
//===----------------------------------------------------------------------===//
#include "MfmaRules.h"
#include "pk/ASTUtil.h"

#include "pk/DynamicVisitor.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace pk::mfma;
using namespace clang;

namespace {

constexpr const char *LiveVar = "__pk_mfma_live";

/// Checks that statements have no effect outside the thread except through
/// fragment operations (whose loads and stores get masked) and barriers:
/// no stores to memory, no reads of memory (a finished warp's indices may be
/// out of bounds), no calls of user functions, no inline asm.
class MaskCheck : public DynamicASTVisitor {
public:
  explicit MaskCheck(TargetContext &TC) : TC(TC) {}
  const Stmt *Bad = nullptr;
  std::string Why;

  bool fail(const Stmt *S, llvm::StringRef W) {
    if (!Bad) {
      Bad = S;
      Why = W.str();
    }
    return false;
  }

  bool VisitCallExpr(CallExpr *CE) override {
    llvm::StringRef Name;
    if (wmmaCallee(CE, Name))
      return true;
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD)
      return fail(CE, "an indirect or unresolved call");
    llvm::StringRef N = FD->getIdentifier() ? FD->getName() : "";
    if (N == "__syncthreads" || N == "__syncwarp")
      return true;
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE))
      if (OC->isAssignmentOp() && OC->getNumArgs() > 0 &&
          !isLocal(OC->getArg(0)))
        return fail(CE, "a store to memory");
    bool System = TC.SM().isInSystemHeader(FD->getLocation());
    if (!System)
      return fail(CE, "a call of '" + FD->getNameAsString() + "'");
    if (N.starts_with("atomic") || N.starts_with("mem") || N == "printf")
      return fail(CE, "a call of '" + N.str() + "'");
    for (const ParmVarDecl *P : FD->parameters()) {
      QualType T = P->getType();
      if (T->isPointerType() ||
          (T->isReferenceType() && !T->getPointeeType().isConstQualified()))
        return fail(CE, "a call of '" + FD->getNameAsString() +
                            "' that may write memory");
    }
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) override {
    if (BO->isAssignmentOp() && !isLocal(BO->getLHS()))
      return fail(BO, "a store to memory");
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) override {
    if (UO->isIncrementDecrementOp() && !isLocal(UO->getSubExpr()))
      return fail(UO, "a store to memory");
    return true;
  }
  bool VisitImplicitCastExpr(ImplicitCastExpr *ICE) override {
    if (ICE->getCastKind() == CK_LValueToRValue && !isLocal(ICE->getSubExpr()))
      return fail(ICE, "a read of memory");
    return true;
  }
  bool VisitGCCAsmStmt(GCCAsmStmt *S) override {
    return fail(S, "inline assembly");
  }
  bool VisitCXXNewExpr(CXXNewExpr *E) override { return fail(E, "'new'"); }
  bool VisitCXXDeleteExpr(CXXDeleteExpr *E) override {
    return fail(E, "'delete'");
  }

  /// An lvalue that names thread-private storage (a local variable or
  /// parameter, a member or array element of one, a constant).
  static bool isLocal(const Expr *E) {
    E = E->IgnoreParens();
    if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E))
      if (ICE->getCastKind() == CK_DerivedToBase ||
          ICE->getCastKind() == CK_UncheckedDerivedToBase ||
          ICE->getCastKind() == CK_NoOp)
        return isLocal(ICE->getSubExpr());
    if (isa<MSPropertyRefExpr, PseudoObjectExpr>(E))
      return true;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const ValueDecl *D = DRE->getDecl();
      if (isa<EnumConstantDecl, FunctionDecl>(D))
        return true;
      if (const auto *VD = dyn_cast<VarDecl>(D)) {
        if (VD->hasAttr<CUDASharedAttr>())
          return false;
        return VD->hasLocalStorage() || VD->isConstexpr() ||
               VD->getType().isConstQualified();
      }
      return false;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (isa<EnumConstantDecl, VarDecl>(ME->getMemberDecl()))
        return true; // enumerator or static member
      return !ME->isArrow() && isLocal(ME->getBase());
    }
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
      const Expr *B = ASE->getBase()->IgnoreParenImpCasts();
      return B->getType()->isArrayType() && isLocal(B);
    }
    if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
      return isLocal(MT->getSubExpr());
    return isa<CompoundLiteralExpr, StringLiteral>(E);
  }

private:
  TargetContext &TC;
};

/// How the statements after a masked early return are made safe for a
/// finished logical warp.
struct MaskPlan {
  std::set<const Stmt *> Ops;         ///< wave-wide operations of the function
  std::vector<const Stmt *> Wrap;     ///< -> if (live) S
  std::vector<const VarDecl *> Inits; ///< T v = E; -> T v = live ? (E) : 0;
  std::string Why;                    ///< when it cannot be done
};

bool containsAny(const Stmt *S, const std::set<const Stmt *> &Set) {
  if (!S)
    return false;
  if (Set.count(S))
    return true;
  for (const Stmt *C : S->children())
    if (containsAny(C, Set))
      return true;
  return false;
}

bool containsBarrier(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *CE = dyn_cast<CallExpr>(S)) {
    llvm::StringRef N = calleeName(CE);
    if (N.starts_with("__syncthreads") || N == "__syncwarp" ||
        N == "__threadfence_block")
      return true;
  }
  for (const Stmt *C : S->children())
    if (containsBarrier(C))
      return true;
  return false;
}

/// Plans \p S: safe as it is, masked whole (no wave-wide operation
/// inside), a scalar declaration with a masked initializer, or a block or
/// loop whose parts are planned one by one.
bool planMask(TargetContext &TC, const Stmt *S, MaskPlan &Plan) {
  auto Unsafe = [&](const Stmt *X) -> const Stmt * {
    MaskCheck MC(TC);
    MC.TraverseStmt(const_cast<Stmt *>(X));
    if (MC.Bad && Plan.Why.empty())
      Plan.Why = llvm::formatv("'{0}' after it is {1}",
                               brief(TC.text(MC.Bad->getSourceRange())), MC.Why)
                     .str();
    return MC.Bad;
  };
  if (!S)
    return true;
  MaskCheck Probe(TC);
  Probe.TraverseStmt(const_cast<Stmt *>(S));
  if (!Probe.Bad)
    return true;
  bool Wave = containsAny(S, Plan.Ops);
  if (S->getBeginLoc().isMacroID() || S->getEndLoc().isMacroID()) {
    Unsafe(S);
    Plan.Why += " (written in a macro)";
    return false;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls()) {
      const auto *V = dyn_cast<VarDecl>(D);
      if (!V || !V->getInit())
        continue;
      MaskCheck MC(TC);
      MC.TraverseStmt(const_cast<Expr *>(V->getInit()));
      if (!MC.Bad)
        continue;
      QualType T = V->getType();
      if (Wave || V->getInitStyle() != VarDecl::CInit || T->isReferenceType() ||
          !(T->isArithmeticType() || T->isPointerType()) ||
          T->isEnumeralType() || V->getInit()->getBeginLoc().isMacroID() ||
          V->getInit()->getEndLoc().isMacroID()) {
        Unsafe(V->getInit());
        return false;
      }
      Plan.Inits.push_back(V);
    }
    return true;
  }
  if (!Wave) {
    if (containsBarrier(S)) {
      Unsafe(S);
      Plan.Why += " next to a barrier";
      return false;
    }
    Plan.Wrap.push_back(S);
    return true;
  }
  // Wave-wide operations inside: their control must be safe, their other
  // statements are planned one by one.
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *C : CS->body())
      if (!planMask(TC, C, Plan))
        return false;
    return true;
  }
  if (const auto *F = dyn_cast<ForStmt>(S)) {
    if (Unsafe(F->getInit()) || Unsafe(F->getCond()) || Unsafe(F->getInc()))
      return false;
    return planMask(TC, F->getBody(), Plan);
  }
  if (const auto *W = dyn_cast<WhileStmt>(S)) {
    if (Unsafe(W->getCond()))
      return false;
    return planMask(TC, W->getBody(), Plan);
  }
  if (const auto *I = dyn_cast<IfStmt>(S)) {
    if (I->getInit() || I->getConditionVariable() || Unsafe(I->getCond()))
      return false;
    return planMask(TC, I->getThen(), Plan) && planMask(TC, I->getElse(), Plan);
  }
  Unsafe(S);
  return false;
}

/// The last token of \p S, its ';' included.
SourceLocation stmtEnd(TargetContext &TC, const Stmt *S) {
  SourceManager &SM = TC.SM();
  const LangOptions &LO = TC.Ctx().getLangOpts();
  SourceLocation E = S->getEndLoc();
  Token T;
  if (!Lexer::getRawToken(SM.getSpellingLoc(E), T, SM, LO) &&
      T.is(tok::r_brace))
    return E;
  SourceLocation Semi =
      Lexer::findLocationAfterToken(E, tok::semi, SM, LO, false);
  return Semi.isValid() ? Semi.getLocWithOffset(-1) : E;
}

bool isAfter(TargetContext &TC, const Stmt *S, const Stmt *Ref) {
  return TC.SM().isBeforeInTranslationUnit(Ref->getEndLoc(), S->getBeginLoc());
}

/// A fragment load or store of \p FD after \p Guard.
bool isStagingAfter(TargetContext &TC, const FragCall &C,
                    const FunctionDecl *FD, const IfStmt *Guard) {
  return C.Fn == FD && isAfter(TC, C.CE, Guard) &&
         (C.Name == "load_matrix_sync" || C.Name == "store_matrix_sync");
}

} // namespace

bool mfma::maskEarlyReturn(TargetContext &TC, const FragmentPlan &P,
                           const FunctionDecl *FD, const CompoundStmt *Body,
                           const IfStmt *Guard,
                           const std::vector<const Stmt *> &Ops,
                           std::string &Why) {
  SourceManager &SM = TC.SM();
  const LangOptions &LO = TC.Ctx().getLangOpts();
  if (Guard->getBeginLoc().isMacroID() || Guard->getEndLoc().isMacroID() ||
      Guard->getRParenLoc().isMacroID()) {
    Why = "it is written in a macro";
    return false;
  }
  // Everything after the guard must be safe to run for a finished warp,
  // or be masked for it.
  MaskPlan Plan;
  Plan.Ops.insert(Ops.begin(), Ops.end());
  bool After = false;
  for (const Stmt *S : Body->body()) {
    if (S == Guard) {
      After = true;
      continue;
    }
    if (After && !planMask(TC, S, Plan)) {
      Why = Plan.Why;
      return false;
    }
  }
  for (const FragCall &C : P.Calls)
    if (isStagingAfter(TC, C, FD, Guard) && C.CE->getRParenLoc().isMacroID()) {
      Why = "a fragment load or store after it is written in a macro";
      return false;
    }

  std::string File = TC.fileOf(Guard->getBeginLoc());
  llvm::StringRef Buf = TC.contents(File);
  unsigned IfOff = SM.getFileOffset(Guard->getBeginLoc());
  size_t LS = Buf.take_front(IfOff).rfind('\n');
  LS = LS == llvm::StringRef::npos ? 0 : LS + 1;
  std::string Indent =
      Buf.slice(LS, IfOff)
          .take_while([](char C) { return C == ' ' || C == '\t'; })
          .str();
  const char *GuardWhy =
      "a logical warp that returns early would leave half of the wave's "
      "lanes out of the wave-wide MFMA operations: the wave keeps running "
      "while either warp has work, and the finished warp's fragment loads "
      "and stores are masked";
  // `if (` -> `const bool __pk_mfma_live = !(`
  TC.replace(
      CharSourceRange::getCharRange(Guard->getBeginLoc(),
                                    Guard->getLParenLoc().getLocWithOffset(1)),
      llvm::formatv("const bool {0} = !(", LiveVar).str(), RuleId::PK3003,
      GuardWhy);
  // `) return` / `) { return; }` -> `);\n if (!__any(live)) return`
  const Stmt *Then = Guard->getThen();
  bool Compound = isa<CompoundStmt>(Then);
  TC.replace(
      CharSourceRange::getTokenRange(Guard->getRParenLoc(), Then->getEndLoc()),
      llvm::formatv(");\n{0}if (!__any({1}))\n{0}  return{2}", Indent, LiveVar,
                    Compound ? ";" : "")
          .str(),
      RuleId::PK3003, GuardWhy);
  for (const FragCall &C : P.Calls)
    if (isStagingAfter(TC, C, FD, Guard))
      TC.insert(C.CE->getRParenLoc(), llvm::formatv(", {0}", LiveVar).str(),
                RuleId::PK3003,
                "masked when this lane's logical warp has returned early");
  const char *MaskWhy = "memory traffic after the early return runs only "
                        "for the lanes of a logical warp that has not "
                        "returned";
  for (const Stmt *S : Plan.Wrap) {
    bool Braces = isa<IfStmt>(S);
    TC.insert(S->getBeginLoc(),
              llvm::formatv("if ({0}) {1}", LiveVar, Braces ? "{ " : "").str(),
              RuleId::PK3003, MaskWhy);
    if (Braces)
      TC.insert(Lexer::getLocForEndOfToken(stmtEnd(TC, S), 0, SM, LO), " }",
                RuleId::PK3003, MaskWhy);
  }
  for (const VarDecl *V : Plan.Inits) {
    const Expr *I = V->getInit();
    TC.insert(I->getBeginLoc(), llvm::formatv("{0} ? (", LiveVar).str(),
              RuleId::PK3003, MaskWhy);
    TC.insert(Lexer::getLocForEndOfToken(I->getEndLoc(), 0, SM, LO), ") : 0",
              RuleId::PK3003, MaskWhy);
  }
  return true;
}

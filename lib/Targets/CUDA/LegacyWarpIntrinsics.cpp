//===- LegacyWarpIntrinsics.cpp - mask-less warp intrinsics -> *_sync -----===//
// Rules: PK6001, PK6002, PK6003
//
// __shfl, __shfl_up, __shfl_down, __shfl_xor, __ballot, __any and __all
// have no mask: they assumed that the lanes of a warp run together.  From
// Volta on (independent thread scheduling) they are gone for sm_70+, and
// the `_sync` forms take the lanes that must meet there.  Each call of the
// CUDA declaration (not a user function, method or macro that happens to
// have the name) gets the mask of the lanes that run it
// (LegacyConvergence.cpp):
//   PK6001  every lane that has not exited: 0xffffffffu;
//   PK6002  a lane condition: its constant mask, or a ballot of the
//           condition taken just before the if;
//   PK6003  unknown: __activemask() (the lanes that happen to be there, as
//           the legacy form did), with a warning.
//
//===----------------------------------------------------------------------===//
#include "LegacyPasses.h"

#include "pk/ASTUtil.h"

#include "pk/DynamicVisitor.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"
#include <map>

using namespace pk;
using namespace pk::cudaleg;
using namespace clang;

namespace {

bool legacyName(llvm::StringRef N) {
  return N == "__shfl" || N == "__shfl_up" || N == "__shfl_down" ||
         N == "__shfl_xor" || N == "__ballot" || N == "__any" || N == "__all";
}

/// Calls of the toolkit's (or clang's) legacy intrinsics in user code.
struct Finder : DynamicASTVisitor {
  TargetContext &TC;
  std::vector<const CallExpr *> Calls;
  explicit Finder(TargetContext &TC) : TC(TC) {}
  bool declaredBySystem(const NamedDecl *D) {
    return D && !TC.isUserLoc(D->getLocation()) && !isa<CXXMethodDecl>(D);
  }
  bool VisitCallExpr(CallExpr *CE) override {
    if (!TC.isUserLoc(CE->getBeginLoc()) || isa<CXXMemberCallExpr>(CE))
      return true;
    const Expr *C = CE->getCallee()->IgnoreParenImpCasts();
    bool Ok = false;
    if (const auto *D = dyn_cast<DeclRefExpr>(C))
      Ok = D->getDecl()->getIdentifier() &&
           legacyName(D->getDecl()->getName()) &&
           declaredBySystem(D->getDecl()) && !D->getQualifier();
    else if (const auto *U = dyn_cast<UnresolvedLookupExpr>(C)) {
      Ok = U->getName().isIdentifier() &&
           legacyName(U->getName().getAsString()) && !U->getQualifier() &&
           U->getNumDecls() > 0;
      for (const NamedDecl *D : U->decls())
        Ok = Ok && declaredBySystem(D->getUnderlyingDecl());
    }
    if (Ok)
      Calls.push_back(CE);
    return true;
  }
};

struct Plan {
  const CallExpr *CE;
  std::string Name;
  Lanes L;
  std::string Mask; ///< the mask argument's text
  RuleId Rule;
  std::string Why;
};

std::string hexMask(uint32_t M) { return llvm::formatv("{0:x8}u", M).str(); }

std::vector<Plan> plan(TargetContext &TC, Convergence &Conv,
                       std::map<const IfStmt *, std::string> &BallotVars) {
  Finder F(TC);
  for (Decl *D : TC.userTopLevelDecls()) // user calls only
    F.TraverseDecl(D);
  std::vector<Plan> Plans;
  std::map<std::string, unsigned> VarNames;
  for (const CallExpr *CE : F.Calls) {
    Plan P{CE, calleeName(CE).str(), Conv.lanesAt(CE), "", RuleId::PK6001, ""};
    std::string New = P.Name + "_sync";
    switch (P.L.Kind) {
    case Lanes::All:
      P.Mask = "0xffffffffu";
      P.Why = llvm::formatv("{0} -> {1} with the full mask: every lane of "
                            "the warp that has not exited runs it (the "
                            "mask-less forms are gone for sm_70+)",
                            P.Name, New);
      break;
    case Lanes::Constant:
      P.Rule = RuleId::PK6002;
      P.Mask = hexMask(P.L.Mask);
      P.Why = llvm::formatv("{0} -> {1} with the mask of the lanes that run "
                            "it ({2}, from the enclosing lane condition)",
                            P.Name, New, P.Mask);
      break;
    case Lanes::Ballot: {
      P.Rule = RuleId::PK6002;
      std::string &Var = BallotVars[P.L.If];
      if (Var.empty()) {
        unsigned Line = TC.SM().getSpellingLineNumber(P.L.If->getBeginLoc());
        Var = "__pk_lanes_" + std::to_string(Line);
        if (unsigned N = VarNames[Var]++)
          Var += "_" + std::to_string(N);
      }
      std::string M =
          P.L.Else ? "(" + hexMask(P.L.Outer) + " & ~" + Var + ")" : Var;
      if (P.L.Inner != 0xffffffffu)
        M = "(" + M + " & " + hexMask(P.L.Inner) + ")";
      P.Mask = M;
      P.Why = llvm::formatv("{0} -> {1} with the lanes of the enclosing "
                            "condition, balloted before the if",
                            P.Name, New);
      break;
    }
    case Lanes::Unknown:
      P.Rule = RuleId::PK6003;
      P.Mask = "__activemask()";
      P.Why = llvm::formatv("{0} -> {1} with __activemask(): the lanes that "
                            "run it are not known ({2})",
                            P.Name, New, P.L.Why);
      break;
    }
    Plans.push_back(std::move(P));
  }
  // Calls written once in a macro body and expanded in several places get
  // one edit: when their masks differ, all of them use __activemask().
  std::map<std::pair<FileID, unsigned>, std::vector<Plan *>> BySpelling;
  for (Plan &P : Plans) {
    SourceLocation Sp = TC.SM().getSpellingLoc(
        P.CE->getCallee()->IgnoreParenImpCasts()->getBeginLoc());
    auto D = TC.SM().getDecomposedLoc(Sp);
    BySpelling[{D.first, D.second}].push_back(&P);
  }
  for (auto &[K, Group] : BySpelling) {
    bool Same = true;
    for (Plan *P : Group)
      Same = Same && P->Mask == Group[0]->Mask;
    if (Same)
      continue;
    for (Plan *P : Group) {
      P->Rule = RuleId::PK6003;
      P->Mask = "__activemask()";
      P->L.Kind = Lanes::Unknown;
      P->L.Why = "it is written once in a macro whose expansions run on "
                 "different lanes";
      P->Why = llvm::formatv("{0} -> {0}_sync with __activemask(): it is "
                             "written once in a macro whose expansions run "
                             "on different lanes",
                             P->Name);
    }
  }
  return Plans;
}

std::string indentOf(TargetContext &TC, SourceLocation Loc) {
  std::string File = TC.fileOf(Loc);
  llvm::StringRef Buf = TC.contents(File);
  unsigned Off = TC.SM().getFileOffset(TC.SM().getFileLoc(Loc));
  size_t LS = Buf.take_front(Off).rfind('\n');
  LS = LS == llvm::StringRef::npos ? 0 : LS + 1;
  llvm::StringRef Indent = Buf.slice(LS, Off);
  return Indent.trim().empty() ? Indent.str() : " ";
}

bool cudaInput(const TargetContext &TC) { return TC.PF.Language == Lang::CUDA; }

} // namespace

void pk::cudaleg::portWarpIntrinsics(TargetContext &TC) {
  if (!cudaInput(TC))
    return;
  Convergence Conv(TC);
  std::map<const IfStmt *, std::string> BallotVars;
  std::vector<Plan> Plans = plan(TC, Conv, BallotVars);
  std::map<const IfStmt *, bool> Inserted;
  for (const Plan &P : Plans) {
    const CallExpr *CE = P.CE;
    if (CE->getNumArgs() == 0)
      continue;
    if (P.L.Kind == Lanes::Ballot && !Inserted[P.L.If]) {
      const IfStmt *If = P.L.If;
      std::string Decl =
          llvm::formatv("const unsigned {0} = __ballot_sync({1}, {2});\n{3}",
                        BallotVars[If], hexMask(P.L.Outer),
                        TC.text(If->getCond()->getSourceRange()),
                        indentOf(TC, If->getBeginLoc()))
              .str();
      if (!TC.insert(If->getBeginLoc(), Decl, RuleId::PK6002,
                     "the lanes that take the branch, balloted by the lanes "
                     "that reach it, for the *_sync calls inside"))
        continue;
      Inserted[If] = true;
    }
    // `name(` where it is written (in a macro body too) -> `name_sync(mask, `
    SourceLocation Sp = TC.SM().getSpellingLoc(
        CE->getCallee()->IgnoreParenImpCasts()->getBeginLoc());
    std::string File = TC.fileOf(Sp);
    std::optional<Token> Paren =
        Lexer::findNextToken(Sp, TC.SM(), TC.Ctx().getLangOpts());
    if (File.empty() || !TC.isUserFile(File) || !Paren ||
        !Paren->is(tok::l_paren))
      continue;
    unsigned Off = TC.SM().getFileOffset(Sp);
    unsigned End = TC.SM().getFileOffset(Paren->getLocation()) + 1;
    TC.edit(File, Off, End - Off, P.Name + "_sync(" + P.Mask + ", ", P.Rule,
            P.Why);
    if (P.L.Kind == Lanes::Unknown)
      TC.finding(CE->getBeginLoc(), P.Rule, Severity::Warning,
                 llvm::formatv("{0} became {0}_sync(__activemask(), ...): {1}; "
                               "__activemask() is whichever lanes happen to "
                               "be converged here on Volta and newer, not "
                               "necessarily all that the code expects: check "
                               "it and pass the intended mask",
                               P.Name, P.L.Why)
                     .str());
  }
}

void pk::cudaleg::checkWarpIntrinsics(TargetContext &TC) {
  if (!cudaInput(TC))
    return;
  Convergence Conv(TC);
  std::map<const IfStmt *, std::string> BallotVars;
  for (const Plan &P : plan(TC, Conv, BallotVars))
    TC.finding(P.CE->getBeginLoc(), P.Rule, Severity::Warning,
               llvm::formatv("{0} has no mask and does not compile for sm_70 "
                             "and newer (CUDA 9+): port gives {0}_sync({1}, "
                             "...)",
                             P.Name, P.Mask)
                   .str());
}

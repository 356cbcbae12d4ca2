//===- DeadCaseLabels.cpp - case labels of enumerators HIP lacks ----------===//
// Rules: PK1034
//
// Error-string helpers switch over every status a CUDA library returns
// (helper_cuda.h's `case CUBLAS_STATUS_LICENSE_ERROR: return "...";`). Where
// the rename tables say HIP has no counterpart of such an enumerator
// (unsupported: PK1010), the label kept the port from compiling, although
// the HIP library can never return that status: its case is unreachable.
// The label alone becomes a comment; the statements after it stay, since
// the case before may fall through into them (they were reachable that way
// only, and still are). The switch must be over an enumeration (the
// library's status type): an integer switch could hold the value anyway.
//
//===----------------------------------------------------------------------===//
#include "HipPasses.h"

#include "pk/DynamicVisitor.h"
#include "clang/AST/Stmt.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace clang;

namespace {

class DeadCaseLabelFinder : public DynamicASTVisitor {
public:
  explicit DeadCaseLabelFinder(TargetContext &TC) : TC(TC) {}

  bool VisitSwitchStmt(SwitchStmt *S) override {
    const Expr *Cond = S->getCond();
    if (!Cond)
      return true;
    QualType T = Cond->IgnoreParenImpCasts()->getType();
    if (!T->isEnumeralType())
      return true;
    for (SwitchCase *SC = S->getSwitchCaseList(); SC;
         SC = SC->getNextSwitchCase()) {
      auto *CS = dyn_cast<CaseStmt>(SC);
      if (!CS || CS->caseStmtIsGNURange())
        continue;
      const auto *DRE =
          dyn_cast<DeclRefExpr>(CS->getLHS()->IgnoreParenImpCasts());
      const auto *ECD =
          DRE ? dyn_cast<EnumConstantDecl>(DRE->getDecl()) : nullptr;
      if (!ECD || TC.isUserLoc(ECD->getLocation()))
        continue;
      const RenameEntry *E = TC.DB.lookup(ECD->getName(), /*ToHip=*/true);
      if (!E || E->Unsupported.empty())
        continue;
      SourceLocation B = CS->getKeywordLoc(), Colon = CS->getColonLoc();
      if (B.isMacroID() || Colon.isMacroID() ||
          !TC.isUserLoc(TC.SM().getFileLoc(B)))
        continue; // a label a macro writes: PK1010 reports it
      CharSourceRange R = CharSourceRange::getTokenRange(B, Colon);
      llvm::StringRef Label =
          Lexer::getSourceText(R, TC.SM(), TC.Ctx().getLangOpts());
      if (Label.contains("*/") || Label.contains('\n'))
        continue;
      TC.replace(R.getAsRange(),
                 llvm::formatv("/* {0} (no HIP counterpart) */", Label).str(),
                 RuleId::PK1034,
                 llvm::formatv("the label of {0}, which HIP has no counterpart "
                               "of ({1}), is unreachable in the port: it "
                               "becomes a comment (the statements after it "
                               "stay)",
                               ECD->getName(), E->Unsupported)
                     .str());
    }
    return true;
  }

private:
  TargetContext &TC;
};

} // namespace

void pk::hip::commentDeadCaseLabels(TargetContext &TC) {
  if (TC.PF.Language == Lang::HIP)
    return;
  DeadCaseLabelFinder V(TC);
  for (Decl *D : TC.userTopLevelDecls())
    V.TraverseDecl(D);
}

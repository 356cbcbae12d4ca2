//===- Bfloat16.cpp - bfloat16 conversions for ROCm 5 ---------------------===//
// Rules: PK1016
//
// CUDA's __nv_bfloat16 converts implicitly from float, double and the
// integer types (constructors and operator=), and so does ROCm 6's
// __hip_bfloat16.  ROCm 5's hip_bfloat16 has only an explicit float
// constructor and no operator=(float): under --rocm-version=5 every place
// where CUDA converts implicitly gets the conversion written out,
// hip_bfloat16(...) around the converted expression.  The type and header
// renames of both versions are in TargetCommon.cpp (versionedSpelling).
//
//===----------------------------------------------------------------------===//
#include "HipPasses.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include <set>

using namespace pk;
using namespace clang;

namespace {

bool isBf16(QualType T) {
  if (T.isNull())
    return false;
  const auto *RD =
      T.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl();
  return RD && RD->getIdentifier() && RD->getName() == "__nv_bfloat16";
}

bool isArithmetic(QualType T) {
  return !T.isNull() && T.getNonReferenceType()->isArithmeticType();
}

class ImplicitBf16 : public RecursiveASTVisitor<ImplicitBf16> {
public:
  explicit ImplicitBf16(TargetContext &TC) : TC(TC) {}
  bool shouldVisitTemplateInstantiations() const { return false; }

  bool VisitImplicitCastExpr(ImplicitCastExpr *IC) {
    if (IC->getCastKind() != CK_ConstructorConversion &&
        IC->getCastKind() != CK_UserDefinedConversion)
      return true;
    if (!isBf16(IC->getType()))
      return true;
    const Expr *Sub = IC->getSubExpr()->IgnoreImplicit();
    if (const auto *CE = dyn_cast<CXXConstructExpr>(Sub))
      if (CE->getNumArgs() == 1)
        Sub = CE->getArg(0);
    if (!isArithmetic(Sub->IgnoreImpCasts()->getType()) &&
        !isArithmetic(Sub->getType()))
      return true;
    wrap(Sub->IgnoreImpCasts());
    return true;
  }

  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
    if (OC->getOperator() != OO_Equal || OC->getNumArgs() != 2)
      return true;
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(OC->getDirectCallee());
    if (!MD || MD->getNumParams() != 1 || !isBf16(OC->getArg(0)->getType()))
      return true;
    if (!isArithmetic(MD->getParamDecl(0)->getType()))
      return true;
    wrap(OC->getArg(1)->IgnoreImpCasts());
    return true;
  }

private:
  TargetContext &TC;
  std::set<const Expr *> Done;

  void wrap(const Expr *E) {
    if (!Done.insert(E).second)
      return;
    SourceLocation B = E->getBeginLoc(), End = E->getEndLoc();
    if (!TC.isUserLoc(TC.SM().getFileLoc(B)))
      return;
    const char *Why = "ROCm 5's hip_bfloat16 converts from arithmetic types "
                      "only explicitly (CUDA's __nv_bfloat16 implicitly)";
    SourceLocation After =
        Lexer::getLocForEndOfToken(End, 0, TC.SM(), TC.Ctx().getLangOpts());
    if (After.isInvalid())
      return;
    if (TC.insert(B, "hip_bfloat16(", RuleId::PK1016, Why))
      TC.insert(After, ")", RuleId::PK1016, Why);
  }
};

} // namespace

void pk::hip::rocm5Bfloat16(TargetContext &TC) {
  if (TC.PF.Language == Lang::HIP || TC.Opts.RocmMajor >= 6)
    return;
  ImplicitBf16 V(TC);
  V.TraverseAST(TC.Ctx());
}

//===- MfmaElementAccess.cpp - fragment elements accessed by position -----===//
// Rules: PK3010
//
// Which elements of a fragment a lane holds differs between NVIDIA and the
// MFMA layout.  `frag.x[i]` is layout-independent only inside
// `for (i = 0; i < f.num_elements; ++i)` over a fragment of the same type,
// with i used for nothing else; any other access is flagged.  The
// element-wise loops found are wave-wide operations (each lane holds
// elements of both logical warps' tiles), checked by PK3004.
//
//===----------------------------------------------------------------------===//
#include "MfmaRules.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace pk::mfma;
using namespace clang;

namespace {

class ElementAccess {
public:
  explicit ElementAccess(TargetContext &TC) : TC(TC) {}

  bool elementWise(const ArraySubscriptExpr *ASE, const MemberExpr *ME,
                   std::string &Reason, const ForStmt *&Loop);

private:
  TargetContext &TC;
  const Stmt *otherUseOf(const Stmt *S, const VarDecl *IV, QualType FragT);
};

/// True when \p ASE (\p ME [i]) is inside an element-wise loop, returned in
/// \p Loop; otherwise \p Reason says why not.
bool ElementAccess::elementWise(const ArraySubscriptExpr *ASE,
                                const MemberExpr *ME, std::string &Reason,
                                const ForStmt *&Loop) {
  const Expr *Idx = ASE->getIdx()->IgnoreParenImpCasts();
  Expr::EvalResult R;
  if (!Idx->isValueDependent() && Idx->EvaluateAsInt(R, TC.Ctx())) {
    Reason = "a constant index";
    return false;
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(Idx);
  const auto *IV = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!IV) {
    Reason = "the index is not a loop variable";
    return false;
  }
  // The for statement that declares IV.
  const Stmt *S = ASE;
  const ForStmt *FS = nullptr;
  while ((S = parentStmt(TC, S))) {
    if (const auto *F = dyn_cast<ForStmt>(S))
      if (const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit()))
        if (DS->isSingleDecl() && DS->getSingleDecl() == IV) {
          FS = F;
          break;
        }
  }
  if (!FS) {
    Reason = "the index is not the variable of an enclosing for loop";
    return false;
  }
  // Starts at 0, steps by 1, bounded by num_elements of a fragment of the
  // same type.
  bool Step = fromZeroByOne(TC, FS, IV);
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      FS->getCond() ? FS->getCond()->IgnoreParenImpCasts() : nullptr);
  bool Bound = false;
  if (Cond && (Cond->getOpcode() == BO_LT || Cond->getOpcode() == BO_NE) &&
      refersTo(Cond->getLHS(), IV)) {
    const Expr *RHS = Cond->getRHS()->IgnoreParenImpCasts();
    if (const auto *BM = dyn_cast<MemberExpr>(RHS))
      if (BM->getMemberDecl()->getIdentifier() &&
          BM->getMemberDecl()->getName() == "num_elements") {
        QualType BT = BM->getBase()->IgnoreParenImpCasts()->getType();
        if (BM->isArrow())
          BT = BT->getPointeeType();
        QualType ET = ME->getBase()->IgnoreParenImpCasts()->getType();
        if (ME->isArrow())
          ET = ET->getPointeeType();
        Bound = TC.Ctx().hasSameUnqualifiedType(BT.getNonReferenceType(),
                                                ET.getNonReferenceType());
      }
  }
  if (!Step || !Bound) {
    Reason = "the loop is not `for (i = 0; i < frag.num_elements; ++i)` "
             "over a fragment of this type";
    return false;
  }
  // The index must not select anything else (bias[i], i * 2, ...): only
  // x[i] of fragments of this type is layout-independent.
  if (const Stmt *Other = otherUseOf(
          FS->getBody(), IV, ME->getBase()->IgnoreParenImpCasts()->getType())) {
    Reason = "the loop variable is also used in '" +
             brief(TC.text(Other->getSourceRange())) + "'";
    return false;
  }
  Loop = FS;
  return true;
}

/// A use of \p IV in \p S other than as the index of x[] of a fragment of
/// type \p FragT.
const Stmt *ElementAccess::otherUseOf(const Stmt *S, const VarDecl *IV,
                                      QualType FragT) {
  if (!S)
    return nullptr;
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(S)) {
    if (const auto *ME =
            dyn_cast<MemberExpr>(ASE->getBase()->IgnoreParenImpCasts()))
      if (ME->getMemberDecl()->getIdentifier() &&
          ME->getMemberDecl()->getName() == "x" &&
          inWmma(ME->getMemberDecl()) && refersTo(ASE->getIdx(), IV) &&
          TC.Ctx().hasSameUnqualifiedType(ME->getBase()
                                              ->IgnoreParenImpCasts()
                                              ->getType()
                                              .getNonReferenceType(),
                                          FragT.getNonReferenceType()))
        return otherUseOf(ME->getBase(), IV, FragT);
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (DRE->getDecl() == IV) {
      // The expression the variable is used in (bias[i], 2 * i, ...).
      const Stmt *U = parentStmt(TC, DRE);
      while (U && isa<ImplicitCastExpr, ParenExpr>(U))
        U = parentStmt(TC, U);
      return U ? U : DRE;
    }
  for (const Stmt *C : S->children())
    if (const Stmt *U = otherUseOf(C, IV, FragT))
      return U;
  return nullptr;
}

} // namespace

std::vector<const ForStmt *> mfma::checkElementAccess(TargetContext &TC,
                                                      const FragmentPlan &P) {
  ElementAccess EA(TC);
  llvm::SmallPtrSet<const ForStmt *, 8> ElementLoops;
  for (const MemberExpr *ME : P.ElemRefs) {
    const Stmt *Parent = parentStmt(TC, ME);
    // Skip implicit casts (array-to-pointer decay) between x and [].
    while (Parent && isa<ImplicitCastExpr>(Parent))
      Parent = parentStmt(TC, Parent);
    const auto *ASE = dyn_cast_or_null<ArraySubscriptExpr>(Parent);
    std::string Frag = TC.text(ME->getBase());
    if (!ASE || ASE->getBase()->IgnoreParenImpCasts() != ME) {
      TC.finding(ME->getMemberLoc(), RuleId::PK3010, Severity::Warning,
                 llvm::formatv("'{0}.x' is used other than as x[i] in a "
                               "loop over {0}.num_elements; which elements "
                               "a lane holds differs between NVIDIA and "
                               "the MFMA layout (docs/mfma.md)",
                               Frag)
                     .str());
      continue;
    }
    std::string Reason;
    const ForStmt *Loop = nullptr;
    if (!EA.elementWise(ASE, ME, Reason, Loop))
      TC.finding(ASE->getBeginLoc(), RuleId::PK3010, Severity::Warning,
                 llvm::formatv("'{0}' reads or writes a fragment element by "
                               "position ({1}); the element-to-lane mapping "
                               "of the MFMA port differs from NVIDIA's, so "
                               "this element is a different matrix entry "
                               "(only loops over num_elements are "
                               "layout-independent)",
                               TC.text(ASE), Reason)
                     .str());
    else
      ElementLoops.insert(Loop);
  }
  for (const CXXDependentScopeMemberExpr *ME : P.DependentElemRefs)
    TC.finding(ME->getMemberLoc(), RuleId::PK3010, Severity::Warning,
               "fragment element access in a template: only loops over "
               "num_elements are layout-independent; check that this one "
               "is such a loop");
  // In the set's order (the order the wave-wide operations are checked in).
  return std::vector<const ForStmt *>(ElementLoops.begin(), ElementLoops.end());
}

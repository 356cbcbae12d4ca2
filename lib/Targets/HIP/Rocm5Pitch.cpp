//===- Rocm5Pitch.cpp - typed cudaMallocPitch under --rocm-version=5 ------===//
// Rules: PK1031
//
// CUDA's runtime has a template cudaMallocPitch(T **, size_t *, size_t,
// size_t); so has ROCm 6's hipMallocPitch, but ROCm 5's has only the void **
// declaration, so `hipMallocPitch(&floatPtr, ...)` does not compile there.
// Under --rocm-version=5 the first argument of a call whose pointer is not
// void ** gets the cast the template would make: `(void **)&floatPtr`.
// (hipMalloc, hipHostMalloc, hipMallocManaged and hipMallocAsync have their
// templates in ROCm 5 already.)
//
//===----------------------------------------------------------------------===//
#include "HipPasses.h"

#include "pk/DynamicVisitor.h"
#include "clang/AST/ASTContext.h"
#include <string>

using namespace pk;
using namespace clang;

namespace {

class PitchCasts : public DynamicASTVisitor {
public:
  explicit PitchCasts(TargetContext &TC) : TC(TC) {}
  bool VisitCallExpr(CallExpr *CE) override {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD || FD->getName() != "cudaMallocPitch" || CE->getNumArgs() != 4 ||
        !TC.isUserLoc(CE->getBeginLoc()))
      return true;
    const Expr *A = CE->getArg(0)->IgnoreParenImpCasts();
    QualType T = A->getType();
    const auto *PP = T->getAs<PointerType>();
    const auto *P = PP ? PP->getPointeeType()->getAs<PointerType>() : nullptr;
    if (!P || P->getPointeeType()->isVoidType())
      return true;
    // A macro argument (checkCudaErrors(cudaMallocPitch(&p, ...))) is
    // edited where it is written; a range inside a macro body is refused
    // and reported by replace.
    SourceRange R = A->getSourceRange();
    std::string Text = TC.text(A);
    bool Simple = isa<UnaryOperator>(A) || isa<DeclRefExpr>(A) ||
                  isa<ParenExpr>(A) || isa<MemberExpr>(A);
    TC.replace(R, "(void **)" + (Simple ? Text : "(" + Text + ")"),
               RuleId::PK1031,
               "ROCm 5's hipMallocPitch takes void ** only (its typed "
               "template arrived in ROCm 6): the cast CUDA's template makes");
    return true;
  }

private:
  TargetContext &TC;
};

} // namespace

void pk::hip::rocm5PitchCasts(TargetContext &TC) {
  if (TC.Opts.RocmMajor >= 6)
    return;
  PitchCasts V(TC);
  for (Decl *D : TC.userTopLevelDecls())
    V.TraverseDecl(D);
}

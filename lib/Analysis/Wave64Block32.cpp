//===- Wave64Block32.cpp - blocks of fewer than 64 threads ----------------===//
// Rules: PK2107
//
// Class 7: a kernel launched with blocks whose x size is not a multiple of
// 64 threads (at launch sites, or bounded below 64 by __launch_bounds__)
// leaves part of a 64-lane wave empty: ballots see zeros in the empty lanes.
// The launch shape blocks native warps before any line of the kernel does.
//
//===----------------------------------------------------------------------===//
#include "Wave64Internal.h"
#include "pk/ASTUtil.h"

#include "pk/DynamicVisitor.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace pk::w64;
using namespace clang;

namespace {

/// The x extent of a block size: an integer, a dim3(x, ...) or a dim3
/// variable initialised with one.
bool dimX(ASTContext &Ctx, const Expr *E, int64_t &X, int Depth = 0) {
  if (!E || Depth > 4)
    return false;
  E = E->IgnoreParenImpCasts();
  if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
    return dimX(Ctx, M->getSubExpr(), X, Depth + 1);
  if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
    return dimX(Ctx, B->getSubExpr(), X, Depth + 1);
  if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(E))
    return dimX(Ctx, F->getSubExpr(), X, Depth + 1);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    if (CE->getNumArgs() >= 1 && !CE->getArg(0)->getType()->isRecordType())
      return dimX(Ctx, CE->getArg(0), X, Depth + 1);
    if (CE->getNumArgs() == 1)
      return dimX(Ctx, CE->getArg(0), X, Depth + 1);
    return false;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (VD->getType()->isRecordType() && VD->getInit())
        return dimX(Ctx, VD->getInit(), X, Depth + 1);
  Expr::EvalResult R;
  if (!E->isValueDependent() && E->EvaluateAsInt(R, Ctx)) {
    X = R.Val.getInt().getExtValue();
    return true;
  }
  return false;
}

/// Block sizes at the launch sites of the user's kernels.
class LaunchVisitor : public DynamicASTVisitor {
public:
  explicit LaunchVisitor(Wave64Analysis::Impl &I) : I(I) {}

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *KC) override {
    if (!I.Src.isUserLoc(KC->getBeginLoc()))
      return true;
    const FunctionDecl *K = canonFn(KC->getDirectCallee());
    if (!K) {
      // template kernels: by name
      llvm::StringRef N = calleeName(KC);
      auto It = I.ByName.find(N.str());
      if (It != I.ByName.end() && !It->second.empty())
        K = It->second.front();
    }
    if (!K || !I.Fns.count(K))
      return true;
    const CallExpr *Cfg = KC->getConfig();
    if (!Cfg || Cfg->getNumArgs() < 2)
      return true;
    int64_t X;
    if (!dimX(I.Ctx, Cfg->getArg(1), X) || X % 64 == 0)
      return true;
    FnInfo &F = I.Fns[K];
    if (!F.Relevant)
      return true;
    std::string Msg =
        llvm::formatv("kernel {0} is launched with blocks of {1} threads in "
                      "x: {2}",
                      K->getName(), X,
                      X < 64 ? "half of a 64-lane wave stays empty, and "
                               "ballots see zeros in lanes 32-63"
                             : "the last wave of each block is partly empty")
            .str();
    I.hazard(W64Class::Block32, Cfg->getArg(1)->getBeginLoc(), Msg);
    I.blocker(F.Entity, Cfg->getArg(1)->getBeginLoc(),
              llvm::formatv("it is launched with blocks {0} threads wide in x "
                            "(a row of the block is not whole 64-lane waves)",
                            X)
                  .str(),
              /*Launch=*/true);
    return true;
  }

private:
  Wave64Analysis::Impl &I;
};

} // namespace

void Wave64Analysis::Impl::launchChecks() {
  LaunchVisitor Vis(*this);
  for (Decl *D : Src.userTopLevelDecls()) // user launches only
    Vis.TraverseDecl(D);
  // __launch_bounds__ below one wave.
  for (const FunctionDecl *FD : FnOrder) {
    FnInfo &F = Fns[FD];
    if (!F.Relevant)
      continue;
    const auto *LB = FD->getAttr<CUDALaunchBoundsAttr>();
    if (!LB)
      continue;
    Expr::EvalResult R;
    const Expr *M = LB->getMaxThreads();
    if (!M || M->isValueDependent() || !M->EvaluateAsInt(R, Ctx))
      continue;
    int64_t N = R.Val.getInt().getExtValue();
    if (N >= 64)
      continue;
    hazard(W64Class::Block32, M->getBeginLoc(),
           llvm::formatv("__launch_bounds__({0}): blocks of at most {0} "
                         "threads fill half a 64-lane wave",
                         N)
               .str());
    blocker(F.Entity, M->getBeginLoc(),
            llvm::formatv("__launch_bounds__({0}) allows less than one "
                          "64-lane wave per block",
                          N)
                .str(),
            /*Launch=*/true);
  }
}

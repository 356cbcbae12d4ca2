//===- MfmaLaunch.cpp - block sizes and warp strategy of MFMA kernels -----===//
// Rules: PK3013, PK3014
//
// The matrix-core port runs two 32-lane logical warps per 64-lane wave, so a
// kernel that uses matrix cores (WaveUse::Kernels) needs blocks of a
// multiple of 64 threads (PK3013: __launch_bounds__ and launch
// configurations with constant block sizes) and the logical-warp strategy
// of the wave-64 rules (PK3014, from TargetFacts::KernelStrategy).
//
//===----------------------------------------------------------------------===//
#include "MfmaRules.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace pk::mfma;
using namespace clang;

/// The number of threads of a block-size expression (an integer or a dim3
/// of constants).
static bool blockThreads(const Expr *E, ASTContext &Ctx, uint64_t &N) {
  E = E->IgnoreImplicit();
  if (const auto *T = dyn_cast<CXXFunctionalCastExpr>(E))
    E = T->getSubExpr()->IgnoreImplicit();
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    if (CE->getNumArgs() == 1 &&
        CE->getConstructor()->isCopyOrMoveConstructor())
      return blockThreads(CE->getArg(0), Ctx, N);
    N = 1;
    for (const Expr *A : CE->arguments()) {
      if (isa<CXXDefaultArgExpr>(A))
        continue;
      Expr::EvalResult R;
      if (A->isValueDependent() || !A->EvaluateAsInt(R, Ctx))
        return false;
      N *= R.Val.getInt().getZExtValue();
    }
    return true;
  }
  Expr::EvalResult R;
  if (E->isValueDependent() || !E->EvaluateAsInt(R, Ctx))
    return false;
  N = R.Val.getInt().getZExtValue();
  return true;
}

static std::string oddWarps(uint64_t N) {
  return llvm::formatv("blocks of {0} threads are {1} 32-lane warps: "
                       "the matrix-core port runs two logical warps per "
                       "64-lane wave and needs an even number of warps "
                       "(a multiple of 64 threads)",
                       N, (N + 31) / 32)
      .str();
}

void mfma::checkLaunches(TargetContext &TC, const FragmentPlan &P,
                         const WaveUse &Uses) {
  for (const FunctionDecl *K : P.Kernels) {
    if (!Uses.Kernels.count(K->getCanonicalDecl()))
      continue;
    // The wave-64 strategy of the kernel (PK2000) must be logical warps.
    auto St = TC.Facts.KernelStrategy.find(K->getCanonicalDecl());
    if (St != TC.Facts.KernelStrategy.end() &&
        St->second == Wave64Strategy::Native)
      TC.finding(K->getLocation(), RuleId::PK3014, Severity::Warning,
                 "this kernel's warp code was ported to native 64-lane "
                 "warps, but its matrix-core code keeps one set of tiles "
                 "per 32-lane logical warp (two per wave): port it with "
                 "--wave64=logical32");
    if (const auto *LB = K->getAttr<CUDALaunchBoundsAttr>()) {
      Expr::EvalResult R;
      const Expr *M = LB->getMaxThreads();
      if (M && !M->isValueDependent() && M->EvaluateAsInt(R, TC.Ctx())) {
        uint64_t N = R.Val.getInt().getZExtValue();
        if (N % 64)
          TC.finding(TC.SM().getExpansionLoc(LB->getLocation()), RuleId::PK3013,
                     Severity::Warning, oddWarps(N));
      }
    }
  }
  for (const CUDAKernelCallExpr *L : P.Launches) {
    const FunctionDecl *K = L->getDirectCallee();
    if (!K || !Uses.Kernels.count(K->getCanonicalDecl()))
      continue;
    const CallExpr *Cfg = L->getConfig();
    uint64_t N;
    if (Cfg && Cfg->getNumArgs() >= 2 &&
        blockThreads(Cfg->getArg(1), TC.Ctx(), N) && N % 64)
      TC.finding(Cfg->getArg(1)->getBeginLoc(), RuleId::PK3013,
                 Severity::Warning, oddWarps(N));
  }
}

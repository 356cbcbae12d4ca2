//===- HIPTarget.cpp - CUDA -> HIP ----------------------------------------===//
//
// API renames and includes come from the YAML tables (TargetCommon.cpp).
// This file holds the semantic rewrites a rename cannot express:
//   PK1005  cudaLaunchKernel -> hipLaunchKernel with the kernel address cast
//   PK20xx  warp-32 code on 64-lane waves: HIP/Wave64Rewrite.cpp, driven by
//           the analysis of lib/Analysis/Wave64Analysis.cpp (logical32 and
//           native strategies, chosen per kernel by --wave64)
//
//===----------------------------------------------------------------------===//
#include "pk/ASTUtil.h"
#include "pk/TargetContext.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"
#include <set>

using namespace pk;
using namespace clang;


namespace {

class HipRewriter : public RecursiveASTVisitor<HipRewriter> {
public:
  explicit HipRewriter(TargetContext &TC) : TC(TC) {}

  bool VisitCallExpr(CallExpr *CE) {
    if (!TC.isUserLoc(CE->getBeginLoc()))
      return true;
    llvm::StringRef Name = calleeName(CE);
    if (Name.empty())
      return true;
    if (Name == "cudaLaunchKernel" || Name == "cudaLaunchCooperativeKernel" ||
        Name == "cudaFuncSetAttribute" || Name == "cudaFuncSetCacheConfig" ||
        Name == "cudaFuncSetSharedMemConfig")
      launchKernel(CE, Name, 0);
    else if (Name == "cudaFuncGetAttributes")
      launchKernel(CE, Name, 1);
    return true;
  }

private:
  TargetContext &TC;

  void launchKernel(const CallExpr *CE, llvm::StringRef Name, unsigned I) {
    if (CE->getNumArgs() <= I)
      return;
    const Expr *Arg = CE->getArg(I);
    const Expr *F = Arg->IgnoreParenImpCasts();
    if (F->getType()->isVoidPointerType())
      return;
    std::string Text = TC.text(Arg);
    if (llvm::StringRef(Text).starts_with("(const void") ||
        llvm::StringRef(Text).starts_with("reinterpret_cast"))
      return;
    TC.replace(Arg->getSourceRange(),
               "reinterpret_cast<const void *>(" + Text + ")", RuleId::PK1005,
               llvm::formatv("{0} takes the kernel as a template; its HIP "
                             "counterpart takes the kernel's address as "
                             "const void *",
                             Name)
                   .str());
  }
};

} // namespace

llvm::Error pk::runHipTarget(TargetContext &TC) {
  runIncludePass(TC, /*ToHip=*/true);
  runRenamePass(TC, /*ToHip=*/true);
  bool CudaInput = TC.PF.Language != Lang::HIP;
  if (TC.Opts.CheckOnly) {
    // `check`: the hazards of the CUDA source, no rewrites.
    if (CudaInput)
      runWave64Check(TC);
    reportUnportedIncludes(TC);
    return TC.takeError();
  }
  HipRewriter V(TC);
  V.TraverseDecl(TC.Ctx().getTranslationUnitDecl());
  // Warp-32 code on 64-lane waves: shuffles, votes, lane/warp arithmetic,
  // masks, warpSize, tiles (both strategies, per kernel).
  if (CudaInput)
    runWave64Rewrites(TC);
  if (llvm::Error E = runMfmaRules(TC))
    return E;
  reportUnportedIncludes(TC);
  insertHelpers(TC);
  return TC.takeError();
}

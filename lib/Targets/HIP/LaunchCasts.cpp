//===- LaunchCasts.cpp - kernel addresses for HIP's launch APIs -----------===//
// Rules: PK1005
//
// cudaLaunchKernel, cudaFuncSetAttribute, ... take the kernel as a template
// argument in CUDA; their HIP counterparts take `const void *`.
//
//===----------------------------------------------------------------------===//
#include "HipPasses.h"
#include "pk/ASTUtil.h"

#include "pk/DynamicVisitor.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace clang;

namespace {

class HipRewriter : public DynamicASTVisitor {
public:
  explicit HipRewriter(TargetContext &TC) : TC(TC) {}

  bool VisitCallExpr(CallExpr *CE) override {
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

void pk::hip::runLaunchCasts(TargetContext &TC) {
  HipRewriter V(TC);
  for (Decl *D : TC.userTopLevelDecls()) // rewrites user calls only
    V.TraverseDecl(D);
}

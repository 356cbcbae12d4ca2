//===- Wave64Prescan.cpp - user functions, call edges, warp code ----------===//
// Rules: none (shared infrastructure)
//
// Before any value is evaluated: the user functions with bodies (kernels,
// device functions, host functions with launches; template patterns, not
// instantiations), their call edges (unresolved template calls by name),
// whether each contains warp code, and which functions are relevant: warp
// code in them, or in a kernel's call closure that holds warp code.
//
//===----------------------------------------------------------------------===//
#include "Wave64Internal.h"
#include "pk/ASTUtil.h"

#include "pk/DynamicVisitor.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"

using namespace pk;
using namespace pk::w64;
using namespace clang;

namespace {

/// Collects user functions with bodies.
class Collector : public DynamicASTVisitor {
public:
  Collector(Wave64Analysis::Impl &I) : I(I) {}
  bool VisitFunctionDecl(FunctionDecl *FD) override {
    if (!FD->doesThisDeclarationHaveABody() || FD->isImplicit())
      return true;
    if (!I.Src.isUserLoc(FD->getLocation()))
      return true;
    if (FD->isTemplateInstantiation())
      return true;
    if (I.Fns.count(FD))
      return true;
    FnInfo &F = I.Fns[FD];
    F.FD = FD;
    std::string Name = FD->getNameAsString();
    F.Entity = I.newEntity(Name);
    I.Ents[F.Entity].FD = FD;
    I.Ents[F.Entity].IsKernel = FD->hasAttr<CUDAGlobalAttr>();
    I.FnOrder.push_back(FD);
    if (FD->getIdentifier())
      I.ByName[FD->getName()].push_back(FD);
    SourceRange R = FD->getSourceRange();
    SourceLocation B = I.SM.getExpansionLoc(R.getBegin());
    SourceLocation E = I.SM.getExpansionLoc(R.getEnd());
    F.File = IStr(I.Src.fileOf(B));
    F.Begin = I.SM.getFileOffset(B);
    F.End = I.SM.getFileOffset(E) + 1;
    return true;
  }

private:
  Wave64Analysis::Impl &I;
};

/// A call: its callees among the user functions, and whether it is warp
/// code itself.
void scanCall(Wave64Analysis::Impl &I, FnInfo &F, const CallExpr *CE) {
  llvm::StringRef N = calleeName(CE);
  if (isShuffleName(N) || isVoteName(N) || N == "__syncwarp" ||
      isUnsupportedWarpName(N) || N == "tiled_partition" || isWmmaCall(CE))
    F.Direct = true;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
    unsigned TN;
    if (tileOf(MC->getImplicitObjectArgument(), TN))
      F.Direct = true;
  }
  const FunctionDecl *Callee = canonFn(CE->getDirectCallee());
  if (Callee && I.Fns.count(Callee))
    F.Callees.insert(Callee);
  else if (!Callee && !N.empty()) {
    auto It = I.ByName.find(N.str());
    if (It != I.ByName.end())
      for (const FunctionDecl *G : It->second)
        F.Callees.insert(G);
  }
}

/// Call edges and direct warp code of statement \p S; its children go to
/// \p Work.
void scanOne(Wave64Analysis::Impl &I, FnInfo &F, const Stmt *S,
             llvm::SmallVectorImpl<const Stmt *> &Work) {
  if (const auto *CE = dyn_cast<CallExpr>(S))
    scanCall(I, F, CE);
  if (const auto *AS = dyn_cast<GCCAsmStmt>(S)) {
    llvm::StringRef T = AS->getAsmString()->getString();
    if (T.contains("%laneid") || T.contains("%lanemask") ||
        T.contains("%warpid") || T.contains("shfl.sync") || T.contains("vote."))
      F.Direct = true;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (DRE->getDecl()->getName() == "warpSize")
      F.Direct = true;
  if (const auto *IL = dyn_cast<IntegerLiteral>(S))
    if (IL->getValue() == 32 && I.inWarpMacro(IL))
      F.Direct = true;
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(S))
    if (ASE->getType().isVolatileQualified())
      F.Direct = true; // warp-synchronous volatile code
  for (const Stmt *C : S->children())
    Work.push_back(C);
}

/// Call edges and direct warp code of the statements under \p Body.
void scan(Wave64Analysis::Impl &I, FnInfo &F, const Stmt *Body) {
  // An explicit stack, not recursion: bodies may nest arbitrarily deep.
  llvm::SmallVector<const Stmt *, 64> Work{Body};
  while (!Work.empty())
    if (const Stmt *S = Work.pop_back_val())
      scanOne(I, F, S, Work);
}

} // namespace

void Wave64Analysis::Impl::collect() {
  Collector C(*this);
  for (Decl *D : Src.userTopLevelDecls()) // records user functions only
    C.TraverseDecl(D);
  for (const FunctionDecl *FD : FnOrder)
    scan(*this, Fns[FD], FD->getBody());
}

void Wave64Analysis::Impl::computeRelevance() {
  // Closure of each kernel; relevant when the closure holds warp code.
  for (const FunctionDecl *FD : FnOrder) {
    FnInfo &F = Fns[FD];
    std::set<const FunctionDecl *> S = callClosure(FD);
    bool Any = false;
    for (const FunctionDecl *G : S)
      Any |= Fns[G].Direct;
    if (F.FD->hasAttr<CUDAGlobalAttr>() && Any)
      for (const FunctionDecl *G : S)
        Fns[G].Relevant = true;
    if (Any)
      F.Relevant = true;
  }
}

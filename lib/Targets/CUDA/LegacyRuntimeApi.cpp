//===- LegacyRuntimeApi.cpp - removed CUDA runtime functions --------------===//
// Rules: PK6010
//
// cudaThreadSynchronize, cudaThreadSetLimit, ... were deprecated in CUDA 4.0
// and are no longer declared by the toolkit.  Their replacements take the
// same parameters and mean the same thing; the pairs are data
// (rules/cuda-legacy/runtime.yaml, read with the rename-table loader).  A
// reference to the toolkit's function (not to a user declaration of the
// same name) is renamed where it is written; a function removed with no
// replacement is flagged.
//
//===----------------------------------------------------------------------===//
#include "LegacyPasses.h"

#include "pk/DataDir.h"
#include "pk/DynamicVisitor.h"
#include "clang/AST/ASTContext.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace pk::cudaleg;
using namespace clang;

namespace {

struct Table {
  RenameDB DB;
  std::string Err;
};

const Table &table() {
  static const Table T = [] {
    Table T;
    if (llvm::Error E =
            T.DB.loadFile(pk::dataPath("rules/cuda-legacy/runtime.yaml"),
                          /*BuiltIn=*/true))
      T.Err = llvm::toString(std::move(E));
    return T;
  }();
  return T;
}

struct Refs : DynamicASTVisitor {
  TargetContext &TC;
  const RenameDB &DB;
  std::vector<std::pair<const DeclRefExpr *, const RenameEntry *>> Found;
  Refs(TargetContext &TC, const RenameDB &DB) : TC(TC), DB(DB) {}
  bool VisitDeclRefExpr(DeclRefExpr *D) override {
    const auto *FD = dyn_cast<FunctionDecl>(D->getDecl());
    if (!FD || !FD->getIdentifier() || D->getQualifier() ||
        !TC.isUserLoc(D->getLocation()) || TC.isUserLoc(FD->getLocation()))
      return true;
    if (const RenameEntry *E = DB.lookup(FD->getName(), /*ToHip=*/true))
      Found.push_back({D, E});
    return true;
  }
};

llvm::Error run(TargetContext &TC, bool Port) {
  if (TC.PF.Language != Lang::CUDA)
    return llvm::Error::success();
  const Table &T = table();
  if (!T.Err.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), T.Err);
  Refs R(TC, T.DB);
  for (Decl *D : TC.userTopLevelDecls()) // user references only
    R.TraverseDecl(D);
  for (auto [D, E] : R.Found) {
    if (!E->Unsupported.empty()) {
      TC.finding(D->getLocation(), RuleId::PK6010, Severity::Warning,
                 llvm::formatv("{0} is no longer declared by the CUDA "
                               "toolkit: {1}",
                               E->Cuda, E->Unsupported)
                     .str());
      continue;
    }
    std::string Why =
        llvm::formatv("{0} was removed from the CUDA runtime; {1} takes the "
                      "same parameters and does the same{2}",
                      E->Cuda, E->Hip,
                      E->Note.empty() ? "" : " (" + E->Note + ")")
            .str();
    if (Port)
      TC.replace(SourceRange(D->getLocation()), E->Hip, RuleId::PK6010, Why);
    else
      TC.finding(D->getLocation(), RuleId::PK6010, Severity::Warning,
                 llvm::formatv("{0} is no longer declared by the CUDA toolkit "
                               "(nvcc rejects it): port gives {1}",
                               E->Cuda, E->Hip)
                     .str());
  }
  return llvm::Error::success();
}

} // namespace

llvm::Error pk::cudaleg::portRuntimeApi(TargetContext &TC) {
  return run(TC, true);
}
llvm::Error pk::cudaleg::checkRuntimeApi(TargetContext &TC) {
  return run(TC, false);
}

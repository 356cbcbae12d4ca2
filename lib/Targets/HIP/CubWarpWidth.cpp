//===- CubWarpWidth.cpp - CUB warp primitives keep 32 logical lanes
//--------===//
// Rules: PK1024
//
// cub::WarpReduce<T> and cub::WarpScan<T> without a second template argument
// operate on CUB's logical warp of 32 threads.  hipCUB declares the same
// templates (PK1023 renames the namespace), but its default logical warp is
// the hardware wave: 64 lanes on CDNA.  Left alone, a reduction written for 32
// lanes would combine two warps' values on AMD GPUs, and per-warp temporary
// storage indexed by threadIdx.x / 32 would be shared by two waves' halves.
// The width CUB used is written out: cub::WarpReduce<float> becomes
// cub::WarpReduce<float, 32> (hipcub::WarpReduce<float, 32> after the rename),
// which hipCUB runs as 32-lane logical warps inside each wave.  A width that
// is written already is left as it is.
//
//===----------------------------------------------------------------------===//
#include "HipPasses.h"

#include "pk/DynamicVisitor.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/TypeLoc.h"
#include "llvm/Support/FormatVariadic.h"
#include <set>

using namespace pk;
using namespace clang;

namespace pk_cubwarp {

/// True for cub::WarpReduce and cub::WarpScan (CCCL puts them in an inline
/// namespace inside cub).
bool isCubWarpTemplate(const TemplateDecl *TD) {
  if (!TD || !TD->getIdentifier())
    return false;
  llvm::StringRef N = TD->getName();
  if (N != "WarpReduce" && N != "WarpScan")
    return false;
  const DeclContext *DC = TD->getDeclContext();
  while (DC && DC->isInlineNamespace())
    DC = DC->getParent();
  const auto *NS = dyn_cast_or_null<NamespaceDecl>(DC);
  return NS && NS->getIdentifier() && NS->getName() == "cub" &&
         NS->getParent()->getRedeclContext()->isTranslationUnit();
}

class Visitor : public DynamicASTVisitor {
public:
  explicit Visitor(TargetContext &TC) : TC(TC) {}
  bool VisitTemplateSpecializationTypeLoc(
      TemplateSpecializationTypeLoc TL) override {
    const auto *T = TL.getTypePtr();
    if (!isCubWarpTemplate(T->getTemplateName().getAsTemplateDecl()))
      return true;
    if (TL.getNumArgs() != 1 || !TC.isUserLoc(TL.getBeginLoc()))
      return true;
    SourceLocation R = TL.getRAngleLoc();
    if (R.isInvalid() || !Seen.insert(R.getRawEncoding()).second)
      return true;
    std::string Name =
        T->getTemplateName().getAsTemplateDecl()->getName().str();
    TC.insert(R, ", 32", RuleId::PK1024,
              llvm::formatv("cub::{0} defaults to CUB's 32-lane logical warp; "
                            "hipCUB's default is the 64-lane wave, so the "
                            "width is written out",
                            Name)
                  .str());
    return true;
  }

private:
  TargetContext &TC;
  std::set<unsigned> Seen;
};

} // namespace pk_cubwarp

void pk::hip::keepCubWarpWidth(TargetContext &TC) {
  if (TC.PF.Language == Lang::HIP)
    return;
  pk_cubwarp::Visitor V(TC);
  V.TraverseDecl(TC.Ctx().getTranslationUnitDecl());
}

//===- TextureFetches.cpp - texture fetches on MI300-class GPUs ----------===//
// Rules: PK1036
//
// HIP keeps CUDA's texture-object API (hipCreateTextureObject, tex2D<T>,
// ...), and the rename tables port it. But the MI300 series (gfx940, gfx941,
// gfx942) has no texture units: ROCm 6 declares the fetch and surface
// functions unavailable in device code compiled for those architectures
// ("The image/texture API not supported on the device"), so such a port
// compiles and runs on gfx90a (MI200) and fails to compile for MI300. Each
// call of a fetch or surface function in the user's files (a name the
// program does not declare itself) is flagged, so the report says it before
// a build for MI300 does.
//
//===----------------------------------------------------------------------===//
#include "HipPasses.h"

#include "pk/DynamicVisitor.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include <set>

using namespace pk;
using namespace clang;

namespace {
const llvm::StringSet<> &fetchNames() {
  static const llvm::StringSet<> S = {"tex1Dfetch",
                                      "tex1D",
                                      "tex2D",
                                      "tex3D",
                                      "tex1DLayered",
                                      "tex2DLayered",
                                      "texCubemap",
                                      "texCubemapLayered",
                                      "tex2Dgather",
                                      "tex1DLod",
                                      "tex2DLod",
                                      "tex3DLod",
                                      "tex1DGrad",
                                      "tex2DGrad",
                                      "tex3DGrad",
                                      "surf1Dread",
                                      "surf1Dwrite",
                                      "surf2Dread",
                                      "surf2Dwrite",
                                      "surf3Dread",
                                      "surf3Dwrite",
                                      "surf1DLayeredread",
                                      "surf1DLayeredwrite",
                                      "surf2DLayeredread",
                                      "surf2DLayeredwrite"};
  return S;
}
} // namespace

namespace {
/// Calls of the fetch and surface functions the headers declare.
class FetchCalls : public DynamicASTVisitor {
public:
  explicit FetchCalls(TargetContext &TC) : TC(TC) {}
  bool VisitCallExpr(CallExpr *CE) override {
    llvm::StringRef Name;
    const Expr *Callee = CE->getCallee()->IgnoreParenImpCasts();
    if (const FunctionDecl *FD = CE->getDirectCallee()) {
      if (!FD->getIdentifier() || TC.isUserLoc(FD->getLocation()))
        return true;
      Name = FD->getName();
    } else if (const auto *UL = dyn_cast<UnresolvedLookupExpr>(Callee)) {
      // A call in a template that depends on its arguments: the headers'
      // functions of that name are its candidates.
      if (!UL->getName().isIdentifier())
        return true;
      for (const NamedDecl *D : UL->decls())
        if (TC.isUserLoc(D->getLocation()))
          return true;
      Name = UL->getName().getAsIdentifierInfo()->getName();
    } else {
      return true;
    }
    if (!fetchNames().contains(Name))
      return true;
    SourceLocation L = TC.SM().getFileLoc(CE->getBeginLoc());
    if (!TC.isUserLoc(L) || !Seen.insert(L.getRawEncoding()).second)
      return true;
    TC.finding(
        L, RuleId::PK1036, Severity::Warning,
        llvm::formatv(
            "{0}: MI300-class GPUs (gfx940, gfx941, gfx942) have no texture "
            "units, and ROCm 6 declares the texture and surface functions "
            "unavailable in their device code: this port builds and runs on "
            "gfx90a (MI200); for MI300 read the memory directly",
            Name)
            .str());
    return true;
  }

private:
  TargetContext &TC;
  std::set<unsigned> Seen; // a template's call once, not per instantiation
};
} // namespace

void pk::hip::flagTextureFetches(TargetContext &TC) {
  FetchCalls V(TC);
  V.TraverseAST(TC.Ctx());
}

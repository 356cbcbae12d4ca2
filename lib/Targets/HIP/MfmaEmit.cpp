//===- MfmaEmit.cpp - which generated helpers each ported file gets -------===//
// Rules: PK3001, PK3002, PK3005
//
// The helper texts are in MfmaHelpers.cpp; this file decides which blocks a
// file gets (TargetContext::Helpers) and the matrix-core features its output
// needs (TargetContext::Needs, listed in the report with the GPUs that have
// them).
//
//===----------------------------------------------------------------------===//
#include "MfmaHelpers.h"
#include "MfmaRules.h"

using namespace pk;
using namespace pk::mfma;

/// True when \p File includes hip/hip_runtime.h once ported (directly or as
/// the translation of a CUDA header); the helpers need its __shfl.
static bool includesHipRuntime(TargetContext &TC, const std::string &File) {
  bool Found = false;
  forEachDirective(TC.contents(File), [&](const Directive &D) {
    if (D.Header == "hip/hip_runtime.h")
      Found = true;
    else if (!D.Header.empty())
      if (const RenameEntry *E = TC.DB.lookupHeader(D.Header, true))
        if (E->Unsupported.empty() && E->Hip == "hip/hip_runtime.h")
          Found = true;
  });
  return Found;
}

/// \p Text without its own #include <hip/hip_runtime.h> when \p File has
/// one already.
static std::string forFile(TargetContext &TC, const std::string &File,
                           std::string Text) {
  if (!includesHipRuntime(TC, File))
    return Text;
  const std::string Inc = "#include <hip/hip_runtime.h>\n";
  size_t At = Text.find(Inc);
  if (At != std::string::npos)
    Text.erase(At, Inc.size());
  return Text;
}

void mfma::emitWmmaHelpers(TargetContext &TC, const FragmentPlan &P,
                           const InstantiatedFragments &Inst,
                           const std::set<std::string> &Files,
                           const std::set<std::string> &TileFiles,
                           MfmaShape Shape) {
  // The element types of the TU, for files that declare no operand
  // fragments themselves (f16 when nothing says otherwise).
  std::set<Elem> Elems = P.AllElems;
  Elems.insert(Inst.Elems.begin(), Inst.Elems.end());
  if (Elems.empty())
    Elems.insert(Elem::F16);
  for (const std::string &F : Files) {
    if (!TC.isUserFile(F))
      continue;
    auto It = P.FileElems.find(F);
    std::set<Elem> FE =
        It != P.FileElems.end() && !It->second.empty() ? It->second : Elems;
    auto &H = TC.Helpers[F];
    H[KeyWmmaCore] = forFile(TC, F, wmmaCoreHelpers(Shape));
    if (FE.count(Elem::F16)) {
      H[KeyWmmaF16] = wmmaF16Helpers();
      TC.Needs[F].insert(NeedMfmaF16);
    }
    if (FE.count(Elem::BF16)) {
      H[KeyWmmaBF16] = wmmaBF16Helpers(TC.Opts.RocmMajor >= 6);
      TC.Needs[F].insert(NeedMfmaBF16);
    }
    H[KeyWmmaOps] = wmmaOpsHelpers(Shape);
    if (TileFiles.count(F))
      H[KeyWarpTiles] = warpTileHelpers();
  }
}

void mfma::emitPtxHelpers(TargetContext &TC,
                          const std::set<std::string> &Files) {
  for (const std::string &F : Files) {
    TC.Helpers[F][KeyPtxMma] = forFile(TC, F, ptxMmaHelpers());
    TC.Needs[F].insert(NeedMfmaF16);
  }
}

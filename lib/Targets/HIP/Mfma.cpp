//===- Mfma.cpp - tensor cores -> AMD MFMA: the rules in order ------------===//
// Rules: none (the order of the rules; they live in the files it names)
//
// Rules of the HIP target for tensor-core code (docs/mfma.md):
//   PK3001  nvcuda::wmma m16n16k16 (half/bf16 in, float accumulate) -> the
//           generated pk_mfma helpers on v_mfma_f32_16x16x16 / 32x32x8
//           (MfmaWmma.cpp; helper blocks: MfmaEmit.cpp, MfmaHelpers.cpp)
//   PK3002  inline PTX mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 ->
//           a generated helper on v_mfma_f32_16x16x16f16 (MfmaPtx.cpp)
//   PK3003  a warp-dependent early return before fragment operations -> the
//           wave runs on; the finished logical warp's loads/stores are masked
//           (MfmaEarlyExit.cpp)
//   PK3004  fragment operations under control flow that may split a wave
//           (MfmaDivergence.cpp)
//   PK3005  a logical warp's 2x2 groups of 16x16 fragments (arrays a[R],
//           b[C], acc[R][C] multiplied in one loop nest) -> 32x32 tiles on
//           v_mfma_f32_32x32x8 (--mfma-shape=auto and 32x32x8)
//           (MfmaWarpTiles.cpp)
//   PK3010  fragment element accessed by position (MfmaElementAccess.cpp)
//   PK3011  inline PTX that is not ported (MfmaPtx.cpp)
//   PK3012  bf16 matrix cores: supported targets (MfmaWmma.cpp)
//   PK3013  block size that is not a whole number of 64-lane waves
//           (MfmaLaunch.cpp)
//   PK3014  a kernel with fragment operations got native 64-lane warps
//           (MfmaLaunch.cpp)
//   PK3015  WMMA configuration that is not ported (MfmaWmma.cpp)
//   PK3016  fragments that are not held as 32x32 tiles: what they use
//           (MfmaWarpTiles.cpp)
//   PK3017  shared-memory row padding re-planned for the LDS banks
//           (MfmaPadding.cpp, LdsBanks.cpp)
// All of them read one FragmentPlan (MfmaPlan.h); what one computes for
// another is passed as a value (MfmaRules.h).
//
//===----------------------------------------------------------------------===//
#include "MfmaRules.h"

#include "clang/AST/Attr.h"
#include "llvm/ADT/STLExtras.h"

using namespace pk;
using namespace pk::mfma;

/// The WMMA rules, in order; false when the WMMA code is left unchanged.
/// Appends the statements that need the whole wave to \p Ops.
static bool portWmma(TargetContext &TC, const FragmentPlan &P, MfmaShape Shape,
                     WaveOps &Ops) {
  reportSatf(TC, P);
  InstantiatedFragments Inst = scanInstantiations(TC);
  if (reportUnsupported(TC, P, Inst))
    return false;
  // Nothing but a using directive or an alias: leave the file alone.
  if (P.Quals.empty() && P.Calls.empty() && P.FileElems.empty())
    return false;

  WarpTiles Tiles = planWarpTiles(TC, P);
  std::set<std::string> TileFiles = rewriteWarpTiles(TC, Tiles);
  std::set<std::string> Files = rewriteWmmaNames(TC, P, Tiles, Shape);
  for (const FragCall &C : P.Calls)
    Ops.push_back(C.CE);
  for (const auto &[F, E] : P.FileElems)
    Files.insert(F);
  emitWmmaHelpers(TC, P, Inst, Files, TileFiles, Shape);
  reportUnfused(TC, P, Tiles);
  if (TC.Opts.Padding != LdsPadding::Keep)
    planStagingPadding(TC, P, Tiles, Shape);
  removeMmaIncludes(TC);
  noteBF16(TC, P, Tiles, Shape);
  for (const clang::ForStmt *Loop : checkElementAccess(TC, P))
    Ops.push_back(Loop);
  return true;
}

WaveUse mfma::findWaveUse(TargetContext &TC, const FragmentPlan &P,
                          const WaveOps &Ops) {
  WaveUse U;
  WaveOps All = Ops;
  for (const clang::Stmt *S : Ops)
    if (const clang::FunctionDecl *FD = enclosingFunction(TC, S))
      U.ByFunction[FD].push_back(S);
  // A call of a function that uses fragments is a wave-wide operation of
  // its caller too (transitively).
  std::set<const clang::FunctionDecl *> WaveFns;
  for (const auto &[FD, FnOps] : U.ByFunction)
    WaveFns.insert(FD->getCanonicalDecl());
  std::vector<std::pair<const clang::CallExpr *, const clang::FunctionDecl *>>
      UserCalls;
  for (const clang::CallExpr *CE : P.UserCalls)
    UserCalls.push_back({CE, enclosingFunction(TC, CE)});
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const auto &[CE, Caller] : UserCalls) {
      const clang::FunctionDecl *Callee = CE->getDirectCallee();
      if (!Callee || !Caller || !WaveFns.count(Callee->getCanonicalDecl()))
        continue;
      auto &FnOps = U.ByFunction[Caller];
      if (llvm::is_contained(FnOps, CE))
        continue;
      FnOps.push_back(CE);
      WaveFns.insert(Caller->getCanonicalDecl());
      All.push_back(CE);
      Changed = true;
    }
  }
  for (const clang::Stmt *S : All)
    if (const clang::FunctionDecl *FD = enclosingFunction(TC, S))
      if (FD->hasAttr<clang::CUDAGlobalAttr>())
        U.Kernels.insert(FD->getCanonicalDecl());
  return U;
}

llvm::Error pk::runMfmaRules(TargetContext &TC) {
  FragmentPlan P = scanFragments(TC);
  MfmaShape Shape =
      TC.Opts.Mfma == MfmaShape::Auto ? MfmaShape::M16N16K16 : TC.Opts.Mfma;
  WaveOps Ops;
  bool Ported = P.AnyWmma && portWmma(TC, P, Shape, Ops);
  std::vector<const clang::GCCAsmStmt *> Ptx = portInlinePtx(TC, P);
  Ops.insert(Ops.end(), Ptx.begin(), Ptx.end());
  if (Ported || !Ptx.empty()) {
    WaveUse Uses = findWaveUse(TC, P, Ops);
    checkDivergence(TC, P, Uses);
    checkLaunches(TC, P, Uses);
  }
  return llvm::Error::success();
}

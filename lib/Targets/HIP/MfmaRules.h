//===- MfmaRules.h - the tensor-core rules and what they pass on ----------===//
// Rules: none (declarations)
//
// runMfmaRules (Mfma.cpp) runs the rules below in a fixed order over one
// FragmentPlan (MfmaPlan.h).  What one rule computes for another is a
// value declared here (the warp tiles, the statements that need the whole
// wave, the functions and kernels that use matrix cores), never state
// shared behind the rules' backs.
//
//===----------------------------------------------------------------------===//
#ifndef PK_TARGETS_HIP_MFMARULES_H
#define PK_TARGETS_HIP_MFMARULES_H

#include "MfmaPlan.h"

#include "llvm/ADT/SetVector.h"
#include <map>
#include <set>
#include <string>
#include <vector>

namespace pk {
namespace mfma {

/// Statements that need the whole wave (fragment operations, element-wise
/// loops over x[], ported PTX mma), in the order the rules found them.
using WaveOps = std::vector<const clang::Stmt *>;

// ---- PK3015 (MfmaWmma.cpp) --------------------------------------------------

/// mma_sync saturation arguments (the MFMA port does not clamp).
void reportSatf(TargetContext &TC, const FragmentPlan &P);
/// WMMA types and functions that are not ported; true when there are any
/// (the WMMA code of the TU is then left unchanged).
bool reportUnsupported(TargetContext &TC, const FragmentPlan &P,
                       const InstantiatedFragments &Inst);

// ---- PK3005, PK3016 (MfmaWarpTiles.cpp) -------------------------------------

/// A loop nest `for (i < R) for (j < C) mma_sync(acc[i][j], a[i], b[j],
/// acc[i][j]);` over a logical warp's fragment arrays.
struct TileNest {
  const clang::CallExpr *Call = nullptr;
  const clang::ForStmt *Outer = nullptr;
  const clang::VarDecl *Acc = nullptr, *A = nullptr, *B = nullptr;
  std::string File;
  unsigned Begin = 0, End = 0; ///< replaced bytes (with leading #pragma lines)
  bool Braced = false;         ///< the text ends with '}' (else ';' follows)
  bool Pragmas = false;        ///< Begin is the start of a #pragma line
  std::string Indent;          ///< of the outer loop
};

/// The fragment arrays held as 32x32 tiles (PK3005) and their loop nests.
struct WarpTiles {
  std::vector<TileNest> Nests;
  llvm::SetVector<const clang::VarDecl *> Fused;
  /// Why the other fragment arrays are not tiles.
  std::map<const clang::VarDecl *, std::string> NotFused;

  /// \p L lies in a loop nest that is replaced.
  bool inRewrittenNest(TargetContext &TC, clang::SourceLocation L) const;
};

/// Chooses the arrays that become 32x32 tiles (--mfma-shape auto and
/// 32x32x8; none for 16x16x16).
WarpTiles planWarpTiles(TargetContext &TC, const FragmentPlan &P);
/// The PK3005 edits (declarations and loop nests); returns the files that
/// declare tiles.
std::set<std::string> rewriteWarpTiles(TargetContext &TC,
                                       const WarpTiles &Tiles);
/// PK3016: what fragments that are not tiles use; one note per function.
void reportUnfused(TargetContext &TC, const FragmentPlan &P,
                   const WarpTiles &Tiles);

// ---- PK3001, PK3012 (MfmaWmma.cpp) ------------------------------------------

/// nvcuda::wmma qualifiers, using directives and aliases -> pk_mfma;
/// returns the files edited.
std::set<std::string> rewriteWmmaNames(TargetContext &TC, const FragmentPlan &P,
                                       const WarpTiles &Tiles, MfmaShape Shape);
/// Deletes #include <mma.h> in every user file of the TU and marks the
/// include handled (TargetFacts::UnportedIncludes), so it is not reported
/// as unported (PK1010).
void removeMmaIncludes(TargetContext &TC);
/// PK3012: the GPUs that run bf16 fragments.
void noteBF16(TargetContext &TC, const FragmentPlan &P, const WarpTiles &Tiles,
              MfmaShape Shape);

// ---- helper emission (MfmaEmit.cpp) -----------------------------------------

/// The pk_mfma helper blocks (PK3001; fragment_array, PK3005, for
/// \p TileFiles) of each user file in \p Files, and the features the file
/// needs.
void emitWmmaHelpers(TargetContext &TC, const FragmentPlan &P,
                     const InstantiatedFragments &Inst,
                     const std::set<std::string> &Files,
                     const std::set<std::string> &TileFiles, MfmaShape Shape);
/// The mma.sync replacement (PK3002) for each of \p Files.
void emitPtxHelpers(TargetContext &TC, const std::set<std::string> &Files);

// ---- PK3017 (MfmaPadding.cpp) -----------------------------------------------

/// The fragment loads and stores with the lanes the helpers give them,
/// re-planned by planLdsPadding.
void planStagingPadding(TargetContext &TC, const FragmentPlan &P,
                        const WarpTiles &Tiles, MfmaShape Shape);

// ---- PK3010 (MfmaElementAccess.cpp) -----------------------------------------

/// Flags fragment elements accessed by position; returns the element-wise
/// loops (`for (i = 0; i < f.num_elements; ++i) f.x[i] ...`), which need
/// the whole wave.
std::vector<const clang::ForStmt *> checkElementAccess(TargetContext &TC,
                                                       const FragmentPlan &P);

// ---- PK3002, PK3011 (MfmaPtx.cpp) -------------------------------------------

/// Ports inline-PTX mma.sync and flags other inline PTX; returns the ported
/// statements.
std::vector<const clang::GCCAsmStmt *> portInlinePtx(TargetContext &TC,
                                                     const FragmentPlan &P);

// ---- which functions use matrix cores (Mfma.cpp) ----------------------------

struct WaveUse {
  /// The wave-wide operations of each function; a call of a function that
  /// has some is one of its caller's (transitively).
  std::map<const clang::FunctionDecl *, std::vector<const clang::Stmt *>>
      ByFunction;
  /// Kernels (canonical declarations) with wave-wide operations.
  std::set<const clang::FunctionDecl *> Kernels;
};
WaveUse findWaveUse(TargetContext &TC, const FragmentPlan &P,
                    const WaveOps &Ops);

// ---- PK3004 (MfmaDivergence.cpp), PK3003 (MfmaEarlyExit.cpp) ----------------

/// Wave-wide operations under warp-dependent control flow, and exits before
/// them; a warp-dependent early return is masked (PK3003) where it can be.
void checkDivergence(TargetContext &TC, const FragmentPlan &P,
                     const WaveUse &Uses);
/// PK3003: `if (C) return;` at the top of \p Body -> `const bool live =
/// !(C); if (!__any(live)) return;`, and the loads, stores and memory
/// traffic after it are masked with `live`.  Returns false (nothing edited)
/// with \p Why when the rest of the function cannot be made safe for a
/// finished logical warp.
bool maskEarlyReturn(TargetContext &TC, const FragmentPlan &P,
                     const clang::FunctionDecl *FD,
                     const clang::CompoundStmt *Body,
                     const clang::IfStmt *Guard,
                     const std::vector<const clang::Stmt *> &Ops,
                     std::string &Why);

// ---- PK3013, PK3014 (MfmaLaunch.cpp) ----------------------------------------

/// Block sizes of kernels that use matrix cores (whole 64-lane waves) and
/// their wave-64 strategy (logical warps).
void checkLaunches(TargetContext &TC, const FragmentPlan &P,
                   const WaveUse &Uses);

} // namespace mfma
} // namespace pk
#endif

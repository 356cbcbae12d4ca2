//===- Wave64ShuffleChecks.cpp - shuffles on 64-lane waves ----------------===//
// Rules: PK2001, PK2020, PK2104
//
// Every shuffle is a site (PK2001 under logical warps, PK2020 under native
// warps).  A shuffle without a width relies on the default, which is the
// 64-lane wave in HIP (class 4, PK2104).  Native warps keep a shuffle's
// meaning only for the patterns that do not depend on the 32-lane layout:
// full-warp reductions and scans, xor offsets below 32, sub-warp segments,
// broadcasts from lane 0, the last lane or a mask's first lane.
//
//===----------------------------------------------------------------------===//
#include "Wave64Internal.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace pk::w64;
using namespace clang;

Val Walker::shuffle(const CallExpr *CE, llvm::StringRef Name,
                    const std::vector<Val> &Args) {
  bool Sync = Name.ends_with("_sync");
  unsigned B = Sync ? 1 : 0;
  unsigned NArgs = 0;
  for (const Expr *A : CE->arguments())
    NArgs += !isa<CXXDefaultArgExpr>(A);
  if (NArgs < B + 2)
    return {};
  collectiveSite(W64Site::Shuffle, CE, Name);
  if (Sync)
    checkMaskArg(CE, Name, Args[0]);
  llvm::StringRef Op = Name.drop_front(2); // shfl_xor_sync
  if (Sync)
    Op = Op.drop_back(5);
  bool HasWidth = NArgs >= B + 3;
  bool SubWarp = HasWidth && shuffleWidth(CE, Name, Args[B + 2], B + 2);
  shuffleOperand(CE, Name, Op, B + 1, Args[B + 1], HasWidth, SubWarp);
  // A step of a full-warp reduction or scan combines the warp's lanes: how
  // many depends on the warp width.  Data read from shared memory may
  // already cover every warp of the block (per-warp slots, a tree).
  Val V;
  const Val &O = Args[B + 1];
  if (!SubWarp && ((O.Kind & (K_RED | K_SCAN)) || I.ChainOK.count(CE)))
    V.Dep = D_WAGG | (Args[B].Dep & D_SHARED);
  return V;
}

bool Walker::shuffleWidth(const CallExpr *CE, llvm::StringRef Name,
                          const Val &W, unsigned Arg) {
  if (is32(W)) {
    claim(W, 64, "shuffle width");
    return false;
  }
  if (W.HasC && W.C > 0 && W.C < 32 && !(W.C & (W.C - 1)))
    return true;
  block(CE->getArg(Arg)->getBeginLoc(),
        llvm::formatv("{0}: width '{1}' is not the warp width or a "
                      "power of two below 32",
                      Name, text(CE->getArg(Arg)))
            .str());
  return false;
}

void Walker::shuffleOperand(const CallExpr *CE, llvm::StringRef Name,
                            llvm::StringRef Op, unsigned Arg, const Val &O,
                            bool HasWidth, bool SubWarp) {
  const Expr *OE = CE->getArg(Arg);
  auto Bad = [&](llvm::StringRef What) {
    block(OE->getBeginLoc(),
          llvm::formatv("{0}({1}): {2}", Name, text(OE), What).str());
  };
  bool InChain = I.ChainOK.count(CE);
  if (Op == "shfl_xor") {
    // Lane masks of a butterfly, descending (K_RED) or ascending (K_SCAN:
    // 1, 2, .. 16), stay below 32.
    if (!((O.HasC && O.C >= 0 && O.C < 32) ||
          (O.Kind & (K_RED | K_SUBRED | K_SCAN)) || SubWarp || InChain))
      Bad("a lane-mask operand that is not a reduction offset changes "
          "partners under 64-lane warps");
    if (!HasWidth && !(O.HasC && O.C < 32) &&
        !(O.Kind & (K_RED | K_SUBRED | K_SCAN)))
      hazard(W64Class::ShflWidth, CE->getBeginLoc(),
             llvm::formatv("{0}: the default width is the 64-lane wave in HIP; "
                           "a lane mask of 32 or more reads the other half",
                           Name)
                 .str());
  } else if (Op == "shfl_down") {
    if (!((O.Kind & K_RED) || SubWarp || InChain))
      Bad("outside a full-warp reduction, lanes near the end of a 32-lane "
          "warp read the next warp under 64-lane warps");
    if (!HasWidth)
      hazard(W64Class::ShflWidth, CE->getBeginLoc(),
             llvm::formatv("{0}: the default width is the 64-lane wave in HIP: "
                           "lanes 32-d..31 read the upper half instead of "
                           "keeping their own value",
                           Name)
                 .str());
  } else if (Op == "shfl_up") {
    if (!((O.Kind & K_SCAN) || SubWarp))
      Bad("outside a full-warp scan, lanes 32..31+d read the lower half "
          "under 64-lane warps");
    if (!HasWidth)
      hazard(W64Class::ShflWidth, CE->getBeginLoc(),
             llvm::formatv("{0}: the default width is the 64-lane wave in HIP: "
                           "lanes 32..31+d read the lower half",
                           Name)
                 .str());
  } else if (Op == "shfl") {
    if (O.Kind & K_ZERO) {
      // a broadcast from lane 0
    } else if (is31(O)) {
      claim(O, 63, "source lane (the last lane)");
    } else if ((O.Kind & K_LANE) && !(O.Dep & ~(D_LANE | D_MASK))) {
      // __ffs(mask) - 1: the first lane of a mask
    } else if (!SubWarp)
      Bad("a source lane computed for 32-lane warps");
    if (!HasWidth)
      hazard(W64Class::ShflWidth, CE->getBeginLoc(),
             llvm::formatv("{0}: the default width is the 64-lane wave in HIP: "
                           "the broadcast reaches lanes 32-63 too",
                           Name)
                 .str());
  }
}

void Walker::tileShuffle(const CallExpr *CE, llvm::StringRef Name, unsigned N,
                         const std::vector<Val> &Args) {
  // Same checks as the intrinsic with an explicit width of N.
  if (Args.size() < 2 || N != 32)
    return;
  const Val &O = Args[1];
  if ((Name == "shfl_down" && !(O.Kind & K_RED)) ||
      (Name == "shfl_up" && !(O.Kind & K_SCAN)) ||
      (Name == "shfl_xor" &&
       !((O.HasC && O.C < 32) || (O.Kind & (K_RED | K_SUBRED | K_SCAN)))) ||
      (Name == "shfl" && !(O.Kind & K_ZERO) && !is31(O)))
    block(CE->getBeginLoc(),
          llvm::formatv("'{0}' exchanges values in a pattern laid out "
                        "for 32-lane tiles",
                        text(CE))
              .str());
  if (Name == "shfl" && is31(O))
    claim(O, 63, "source lane (the last lane)");
}

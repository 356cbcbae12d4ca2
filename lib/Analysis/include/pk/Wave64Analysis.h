//===- Wave64Analysis.h - warp-32 assumptions in CUDA device code ---------===//
// Rules: none (the analysis interface; see lib/Analysis/Wave64Analysis.cpp)
//
// One pass over the AST of a translation unit finds every construct that
// assumes 32-lane warps (the hazard classes 1-11 of docs/wave64.md), tracks
// lane ids, warp ids, lane masks and ballot results through local variables,
// parameters and return values, and decides per kernel whether the code can
// be widened to native 64-lane warps or must keep 32-lane logical warps.
//
// The result is used by `check` (hazard findings PK2101-PK2111) and by the
// HIP target (the rewrites of both strategies, lib/Targets/HIP/Wave64*.cpp).
// It reads the parsed file only (pk/UserSource.h) and depends on no target.
//
//===----------------------------------------------------------------------===//
#ifndef PK_WAVE64ANALYSIS_H
#define PK_WAVE64ANALYSIS_H

#include "pk/Rules.h"
#include "pk/UserSource.h"
#include "pk/Wave64Strategy.h"
#include "clang/Basic/SourceLocation.h"
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace clang {
class Decl;
class FunctionDecl;
class Stmt;
} // namespace clang

namespace pk {

/// The hazard classes of docs/wave64.md.
enum class W64Class : unsigned {
  Mask = 1,      ///< 32-bit masks passed to *_sync intrinsics
  Ballot,        ///< ballot results in 32-bit types, __popc/__ffs/__clz
  LaneArith,     ///< lane/warp arithmetic with 32
  ShflWidth,     ///< shuffles relying on the default width
  PerWarpArray,  ///< per-warp shared arrays sized/indexed by 32
  LoopBound,     ///< reduction/scan loops bounded by 32 lanes
  Block32,       ///< blocks of 32 threads
  LaneBits,      ///< 1u << lane, lane masks, __ffs(mask) - 1
  WarpSync,      ///< implicit warp-synchronous (volatile) shared memory
  TensorFrag,    ///< tensor-core fragment layouts
  WarpSizeConst, ///< warpSize as a constant expression
};

/// The check rule of a hazard class (PK2101 ... PK2111).
RuleId w64CheckID(W64Class C);

struct W64Hazard {
  W64Class Class;
  clang::SourceLocation Loc;
  std::string Msg;
};

/// One construct whose HIP spelling depends on the strategy.
struct W64Site {
  enum KindT {
    Shuffle,      ///< *_sync (or legacy) shuffle call; S = CallExpr
    Vote,         ///< ballot/any/all/activemask; S = CallExpr
    SyncWarp,     ///< __syncwarp; S = CallExpr
    Token,        ///< one token; Logical / Native replacement text
    MaskType,     ///< 32-bit type of a declaration holding a lane mask
    PtxAsm,       ///< inline PTX reading %laneid / %lanemask_*; S = AsmStmt
    CgTile,       ///< thread_block_tile<32> / tiled_partition<32>; Loc..End
    CgReduce,     ///< cg::reduce(tile, v, op); S = CallExpr
    VolatileStep, ///< warp-synchronous volatile step; S = BinaryOperator
    UnrolledShfl, ///< first step of an unrolled 16..1 chain; S = Stmt
    Unsupported,  ///< no strategy can express it (finding only)
  } Kind;
  RuleId Rule = RuleId::PK2021; ///< Token: rule and reason when edited
  /// Spelling locations (Token, MaskType, CgTile).
  clang::SourceLocation Loc, End;
  unsigned Len = 0; ///< Token/MaskType: characters replaced
  int Entity = -1;
  const clang::Stmt *S = nullptr;
  std::string Logical, Native; ///< replacement text ("" = unchanged)
  std::string Why;
  std::string Name; ///< callee / intrinsic / PTX register
};

/// A kernel and the strategy its warp code gets.
struct W64Kernel {
  const clang::FunctionDecl *FD = nullptr;
  std::string Name;
  bool HasWarpCode = false; ///< collectives, lane/warp ids or warp constants
  Wave64Strategy Strategy = Wave64Strategy::Logical32;
  bool Forced = false; ///< chosen by --wave64, not by the analysis
  std::string Reason;  ///< why not native (empty when native is safe)
  clang::SourceLocation ReasonLoc;
};

/// A reason why native 64-lane warps would change what the code computes.
struct W64Blocker {
  clang::SourceLocation Loc;
  std::string Msg;
  int Ent = -1; ///< the function or macro it was found in
  /// Set by the launch shape (block size, __launch_bounds__), which decides
  /// before any line of the kernel.
  bool Launch = false;
};

/// An expression or statement nested too deeply to analyse (more than
/// Wave64Analysis::MaxDepth levels): the code in it is not checked, and the
/// function containing it keeps logical 32-lane warps (PK9003).
struct W64Unanalysed {
  clang::SourceLocation Loc;
  std::string Msg;
  /// A warp collective is called inside it: its port is not checked.
  bool HasWarpCode = false;
};

class Wave64Analysis {
public:
  /// How deep the walk follows nested expressions and statements.
  static constexpr unsigned MaxDepth = 1000;

  explicit Wave64Analysis(const UserSource &Src);
  ~Wave64Analysis();

  /// Runs the analysis and decides strategies for \p Requested
  /// (Auto decides per kernel; Logical32 / Native force one).
  void run(Wave64Strategy Requested);

  /// In the order found. Kept in deques: a large file has a hundred
  /// thousand sites, and a vector held the old and the new copy while it
  /// grew (the analysis's peak); a deque grows in place.
  const std::deque<W64Hazard> &hazards() const { return Hazards; }
  const std::deque<W64Site> &sites() const { return Sites; }
  const std::vector<W64Kernel> &kernels() const { return Kernels; }
  /// Code nested too deeply to analyse (PK9003).
  const std::vector<W64Unanalysed> &unanalysed() const { return Unanalysed; }

  /// Strategy of the code that site \p S belongs to.
  Wave64Strategy strategyOf(const W64Site &S) const;
  /// Strategy of an entity (function or macro); Logical32 when unknown.
  Wave64Strategy strategyOfEntity(int E) const;
  /// Strategy of the code spelled at \p Spelling (a warpSize token):
  /// entity of the function or macro containing it.
  Wave64Strategy strategyAtOffset(llvm::StringRef File, unsigned Offset) const;
  /// Blockers of the group of \p E (used to warn when native is forced).
  std::vector<W64Blocker> blockersOf(int E) const;
  /// True when any kernel (or unreached warp code) keeps logical warps /
  /// goes native.
  bool anyLogical() const;
  bool anyNative() const;

  struct Impl;

private:
  std::unique_ptr<Impl> P;
  std::deque<W64Hazard> Hazards;
  std::deque<W64Site> Sites;
  std::vector<W64Kernel> Kernels;
  std::vector<W64Unanalysed> Unanalysed;
};

} // namespace pk
#endif

//===- LegacyPasses.h - legacy CUDA -> modern CUDA ------------------------===//
// Rules: PK6001, PK6002, PK6003, PK6004, PK6005, PK6006, PK6010
//
// The passes of the CUDA target for CUDA input written before Volta's
// independent thread scheduling (CUDA 9): mask-less warp intrinsics,
// implicit warp-synchronous shared memory, and runtime functions the toolkit
// removed.  Each has a port form (edits) and a check form (findings only).
//
//===----------------------------------------------------------------------===//
#ifndef PK_TARGETS_CUDA_LEGACYPASSES_H
#define PK_TARGETS_CUDA_LEGACYPASSES_H

#include "pk/TargetContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Error.h"
#include <array>
#include <optional>

namespace clang {
class FunctionDecl;
class Stmt;
} // namespace clang

namespace pk::cudaleg {

/// PK6001-PK6003 (LegacyWarpIntrinsics.cpp).
void portWarpIntrinsics(TargetContext &TC);
void checkWarpIntrinsics(TargetContext &TC);
/// PK6004-PK6006 (LegacyWarpSync.cpp).
void portWarpSync(TargetContext &TC);
void checkWarpSync(TargetContext &TC);
/// PK6010 (LegacyRuntimeApi.cpp): fails when the table does not load.
llvm::Error portRuntimeApi(TargetContext &TC);
llvm::Error checkRuntimeApi(TargetContext &TC);

/// Which lanes of a warp execute a statement (LegacyConvergence.cpp).
struct Lanes {
  enum KindT {
    All,      ///< every lane that has not exited
    Constant, ///< the lanes of Mask, the same in every warp that gets there
    Ballot,   ///< the lanes of a condition, computed with a ballot before an if
    Unknown,  ///< not computable
  } Kind = Unknown;
  uint32_t Mask = 0xffffffffu;
  /// Ballot: the if whose condition is balloted, the lanes that reach the if
  /// (a constant), whether the statement is in its else branch, and the
  /// lanes the statement's own conditions inside the branch keep.
  const clang::IfStmt *If = nullptr;
  uint32_t Outer = 0xffffffffu;
  bool Else = false;
  uint32_t Inner = 0xffffffffu;
  std::string Why; ///< Unknown: the construct that decides it
};

/// Per translation unit: whether values are the same in every lane of a
/// warp (uniform) and which lanes execute a statement.  Assumes what legacy
/// warp code assumes: lane = threadIdx.x % 32 (blocks whose x extent is a
/// multiple of 32).
class Convergence {
public:
  explicit Convergence(TargetContext &TC) : TC(TC) {}
  /// The lanes that execute \p S (an expression or statement of a function
  /// body).
  Lanes lanesAt(const clang::Stmt *S);
  /// True when \p E has the same value in every lane of a warp.
  bool uniform(const clang::Expr *E);
  /// The value of \p E in each of the 32 lanes of warp \p W (threadIdx.x =
  /// 32 W + lane), when it depends on nothing else.
  std::optional<std::array<int64_t, 32>> perLane(const clang::Expr *E,
                                                 unsigned W);
  /// The enclosing function of \p S.
  const clang::FunctionDecl *functionOf(const clang::Stmt *S);

private:
  TargetContext &TC;
  struct FnInfo {
    bool Done = false;
    llvm::DenseSet<const clang::VarDecl *> Varying;
    /// Writes of each local variable (and parameter): the value written (or
    /// null when unknown) and the statement.
    llvm::DenseMap<
        const clang::VarDecl *,
        std::vector<std::pair<const clang::Expr *, const clang::Stmt *>>>
        Writes;
    llvm::DenseSet<const clang::VarDecl *> Escaped;
    bool HasGoto = false;
  };
  std::map<const clang::FunctionDecl *, FnInfo> Fns;
  /// The lanes that enter non-kernel functions (the same constant at every
  /// call in the file), or none; being computed: none.
  std::map<const clang::FunctionDecl *, std::optional<uint32_t>> Entry;
  const clang::FunctionDecl *CurFn = nullptr;

  FnInfo &info(const clang::FunctionDecl *FD);
  bool uniformIn(const clang::Expr *E, FnInfo &I, bool Kernel, unsigned D);
  bool controlUniform(const clang::Stmt *S, const clang::FunctionDecl *FD);
  bool loopDivergent(const clang::Stmt *Loop, const clang::FunctionDecl *FD);
  std::optional<uint32_t> entryMask(const clang::FunctionDecl *FD);
  std::optional<int64_t> evalAt(const clang::Expr *E, int64_t Tid, unsigned D);
  /// Masks of lanes of warp W for which \p Cond (negated if \p Neg) holds.
  std::optional<std::array<uint32_t, 32>> condMasks(const clang::Expr *Cond,
                                                    bool Neg);
};

} // namespace pk::cudaleg
#endif

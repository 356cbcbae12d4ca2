//===- Wave64Rewrite.h - the wave-64 rewrites of the HIP target -----------===//
// Rules: none (declarations)
//
// Wave64Rewriter applies the rewrites of the two wave-64 strategies to the
// sites found by the analysis (pk/Wave64Analysis.h), each with the strategy
// of the kernel group it belongs to.  Its members live in one file per rule
// or small family of rules (HIP/Wave64*.cpp); the helper blocks they insert
// are defined next to the rule that owns them.
//
//===----------------------------------------------------------------------===//
#ifndef PK_TARGETS_HIP_WAVE64REWRITE_H
#define PK_TARGETS_HIP_WAVE64REWRITE_H

#include "pk/TargetContext.h"
#include "pk/Wave64Analysis.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceLocation.h"
#include <string>

namespace clang {
class CallExpr;
class Expr;
class FunctionDecl;
class SourceManager;
} // namespace clang

namespace pk::hip {

/// Where the PK2000 note of a kernel goes: the template, if any.
clang::SourceLocation kernelNoteLoc(const clang::FunctionDecl *FD);

class Wave64Rewriter {
public:
  Wave64Rewriter(TargetContext &TC, const Wave64Analysis &A) : TC(TC), A(A) {}

  /// Every site, the warpSize rewrite, the kernel notes.
  void run();

  // Helper blocks (TargetContext::Helpers), keyed by the rule that owns them.
  static const char *const Logical32Helpers; ///< PK2002 (Wave64Votes.cpp)
  /// PK2002: match and reduce collectives of 32-lane logical warps.
  static const char *const Logical32Collectives;
  static const char *const SyncwarpHelper;   ///< PK2003 (Wave64SyncWarp.cpp)
  static const char *const NativeHelpers;    ///< PK2020 (Wave64WarpSize.cpp)
  static const char *const TileHelpers;      ///< PK2005 (Wave64CoopGroups.cpp)
  static const char *const LaneHelpers;      ///< PK2006 (Wave64LaneRegs.cpp)

private:
  TargetContext &TC;
  const Wave64Analysis &A;
  bool ReducesLowered = false;

  // ---- shared (Wave64Rewrite.cpp) ----
  void site(const W64Site &S);
  clang::SourceManager &SM() { return TC.SM(); }
  const clang::LangOptions &LO();
  std::string fileAt(clang::SourceLocation L);
  /// Inserts helper block \p Text once in the user file of \p L.
  void need(clang::SourceLocation L, const HelperKey &Key, const char *Text);
  void needLogical(clang::SourceLocation L);
  void needSync(clang::SourceLocation L);
  clang::SourceRange calleeRange(const clang::CallExpr *CE);
  static unsigned explicitArgs(const clang::CallExpr *CE);
  /// Removes the first argument of a call (the mask of a *_sync form).
  bool removeLeadingArg(const clang::CallExpr *CE, RuleRef Rule,
                        llvm::StringRef Why);
  clang::SourceLocation endOfToken(const clang::Expr *E);

  // ---- PK2001, PK2020 (Wave64Shuffles.cpp) ----
  void shuffle(const W64Site &S, bool Logical);
  /// Native warps: the unrolled 16..1 chain gains the offset-32 step.
  void unrolled(const W64Site &S);

  // ---- PK2002, PK2023 (Wave64Votes.cpp) ----
  void vote(const W64Site &S, bool Logical);
  /// __match_*_sync and __reduce_*_sync in a logical warp: helpers over
  /// shuffles of the caller's 32-lane half; false when not one of them.
  bool matchReduce(const W64Site &S);

  // ---- PK2003 (Wave64SyncWarp.cpp) ----
  void syncwarp(const W64Site &S);

  // ---- PK2004, PK2011 (Wave64WarpSize.cpp) ----
  void warpSizePass();

  // ---- PK2005 (Wave64CoopGroups.cpp) ----
  void tile(const W64Site &S, bool Logical);
  void reduce(const W64Site &S);
  void dropReduceInclude();

  // ---- PK2006 (Wave64LaneRegs.cpp) ----
  void ptx(const W64Site &S, bool Logical);

  // ---- PK2007 (Wave64Volatile.cpp) ----
  void volatileStep(const W64Site &S);

  // ---- PK2021, PK2022 (Wave64LaneMasks.cpp) ----
  void token(const W64Site &S, bool Logical);
  void maskType(const W64Site &S);

  // ---- PK2000, PK2010, PK2012, PK2013 (Wave64Notes.cpp) ----
  /// PK2010: the mask is not the full 32-lane warp.
  void checkMask(const clang::CallExpr *CE, llvm::StringRef Name);
  void unsupported(const W64Site &S);
  void kernelNotes();
  void forcedNativeWarnings();
};

/// Findings for the code the analysis could not follow (PK9003).
void reportUnanalysed(TargetContext &TC, const Wave64Analysis &A);
/// The analysis in TC.Facts.Wave64, run now if no earlier pass ran it.
const Wave64Analysis &wave64Of(TargetContext &TC);

} // namespace pk::hip
#endif

//===- Wave64Rewrite.cpp - warp-32 code on 64-lane waves ------------------===//
// Rules: PK9003 (the wave-64 pass; the other rules live in the files it
// names)
//
// Applies the rewrites of the two wave-64 strategies to the sites found by
// the analysis (lib/Analysis/Wave64Analysis.cpp), each with the strategy of
// the kernel group it belongs to, and reports the strategy of every kernel:
//
//   logical32  32-lane logical warps inside the 64-lane wave
//     PK2001  *_sync shuffles -> HIP shuffles with width 32   Wave64Shuffles
//     PK2002  ballot/any/all/activemask -> the caller's       Wave64Votes
//             32-lane half
//   native     64-lane warps where the data layout allows
//     PK2020  *_sync shuffles -> HIP shuffles over the wave   Wave64Shuffles
//     PK2021  warp-width constants: lane/warp ids, loop       Wave64LaneMasks
//             bounds, array sizes
//     PK2022  lane masks: 64-bit types, __popcll/__ffsll/     Wave64LaneMasks
//             __clzll, 1ull << lane
//     PK2023  ballot/any/all/activemask -> whole-wave votes   Wave64Votes
//   both
//     PK2003  __syncwarp -> wave barrier                      Wave64SyncWarp
//     PK2004  warpSize -> the strategy's constant             Wave64WarpSize
//     PK2005  cooperative-groups tiles -> the tile helper     Wave64CoopGroups
//     PK2006  inline PTX lane registers -> HIP lane queries   Wave64LaneRegs
//     PK2007  volatile warp-synchronous steps -> split by     Wave64Volatile
//             wave barriers
//   findings
//     PK2000  which strategy each kernel got, and why         Wave64Notes
//     PK2010  a mask that is not the full warp                Wave64Notes
//     PK2011  the device property warpSize                    Wave64WarpSize
//     PK2012  native forced where the analysis cannot prove   Wave64Notes
//             it safe
//     PK2013  a warp construct neither strategy expresses     Wave64Notes
//   check (PK2101-PK2111, the hazard classes)                 Wave64Check
//
//===----------------------------------------------------------------------===//
#include "Wave64Rewrite.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace pk;
using namespace pk::hip;
using namespace clang;

void pk::runWave64Analysis(TargetContext &TC) {
  const UserSource &Src = TC;
  auto A = std::make_shared<Wave64Analysis>(Src);
  A->run(TC.Opts.Wave64);
  TC.Facts.Wave64 = std::move(A);
}

const Wave64Analysis &pk::hip::wave64Of(TargetContext &TC) {
  if (!TC.Facts.Wave64)
    runWave64Analysis(TC);
  return *TC.Facts.Wave64;
}

void pk::runWave64Rewrites(TargetContext &TC) {
  const Wave64Analysis &A = wave64Of(TC);
  reportUnanalysed(TC, A);
  Wave64Rewriter R(TC, A);
  R.run();
  TC.Facts.Wave64.reset(); // its last reader: freed before the later passes
}

void pk::hip::reportUnanalysed(TargetContext &TC, const Wave64Analysis &A) {
  // Code too deep to analyse: a warning, an error when warp collectives in
  // it go unchecked (PK9003).
  for (const W64Unanalysed &U : A.unanalysed())
    TC.finding(U.Loc, RuleId::PK9003,
               U.HasWarpCode ? Severity::Error : Severity::Warning, U.Msg);
}

void Wave64Rewriter::run() {
  for (const W64Site &S : A.sites())
    site(S);
  warpSizePass();
  kernelNotes();
  forcedNativeWarnings();
  if (ReducesLowered)
    dropReduceInclude();
}

void Wave64Rewriter::site(const W64Site &S) {
  bool Logical = A.strategyOf(S) != Wave64Strategy::Native;
  switch (S.Kind) {
  case W64Site::Shuffle:
    return shuffle(S, Logical);
  case W64Site::Vote:
    return vote(S, Logical);
  case W64Site::SyncWarp:
    return syncwarp(S);
  case W64Site::Token:
    return token(S, Logical);
  case W64Site::MaskType:
    if (!Logical)
      maskType(S);
    return;
  case W64Site::PtxAsm:
    return ptx(S, Logical);
  case W64Site::CgTile:
    return tile(S, Logical);
  case W64Site::CgReduce:
    return reduce(S);
  case W64Site::VolatileStep:
    return volatileStep(S);
  case W64Site::UnrolledShfl:
    if (!Logical)
      unrolled(S);
    return;
  case W64Site::Unsupported:
    if (Logical && matchReduce(S))
      return;
    return unsupported(S);
  }
}

// ---- shared -----------------------------------------------------------------

const LangOptions &Wave64Rewriter::LO() { return TC.Ctx().getLangOpts(); }

std::string Wave64Rewriter::fileAt(SourceLocation L) {
  return TC.fileOf(SM().getSpellingLoc(L));
}

void Wave64Rewriter::need(SourceLocation L, const HelperKey &Key,
                          const char *Text) {
  std::string F = fileAt(L);
  if (TC.isUserFile(F))
    TC.Helpers[F][Key] = Text;
}

void Wave64Rewriter::needLogical(SourceLocation L) {
  need(L, HelperKey{RuleId::PK2002, "logical32"}, Logical32Helpers);
}

void Wave64Rewriter::needSync(SourceLocation L) {
  need(L, HelperKey{RuleId::PK2003, "syncwarp"}, SyncwarpHelper);
}

SourceRange Wave64Rewriter::calleeRange(const CallExpr *CE) {
  const Expr *C = CE->getCallee()->IgnoreParenImpCasts();
  return SourceRange(C->getBeginLoc(), C->getEndLoc());
}

unsigned Wave64Rewriter::explicitArgs(const CallExpr *CE) {
  unsigned N = 0;
  for (const Expr *A : CE->arguments())
    N += !isa<CXXDefaultArgExpr>(A);
  return N;
}

bool Wave64Rewriter::removeLeadingArg(const CallExpr *CE, RuleRef Rule,
                                      llvm::StringRef Why) {
  if (CE->getNumArgs() < 2)
    return false;
  SourceLocation B = CE->getArg(0)->getBeginLoc();
  SourceLocation E = CE->getArg(1)->getBeginLoc();
  return TC.replace(CharSourceRange::getCharRange(B, E), "", Rule, Why);
}

SourceLocation Wave64Rewriter::endOfToken(const Expr *E) {
  SourceLocation End = Lexer::getLocForEndOfToken(
      SM().getSpellingLoc(E->getEndLoc()), 0, SM(), LO());
  if (E->getEndLoc().isFileID())
    End = Lexer::getLocForEndOfToken(E->getEndLoc(), 0, SM(), LO());
  return End;
}

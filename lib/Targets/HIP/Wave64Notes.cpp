//===- Wave64Notes.cpp - strategy notes and warnings ----------------------===//
// Rules: PK2000, PK2010, PK2012, PK2013
//
// The findings of the wave-64 pass: the strategy each kernel got and why
// (PK2000, a note), masks that are not the full warp (PK2010), native warps
// forced where the analysis found blockers (PK2012), and warp constructs no
// strategy expresses (PK2013).
//
//===----------------------------------------------------------------------===//
#include "Wave64Rewrite.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FormatVariadic.h"
#include <set>

using namespace pk;
using namespace pk::hip;
using namespace clang;

SourceLocation pk::hip::kernelNoteLoc(const FunctionDecl *FD) {
  if (const FunctionTemplateDecl *T = FD->getDescribedFunctionTemplate())
    return T->getBeginLoc();
  return FD->getBeginLoc();
}

void Wave64Rewriter::kernelNotes() {
  for (const W64Kernel &K : A.kernels()) {
    if (!K.HasWarpCode)
      continue;
    TC.Facts.KernelStrategy[K.FD->getCanonicalDecl()] = K.Strategy;
    std::string Msg;
    if (K.Strategy == Wave64Strategy::Native) {
      Msg = K.Forced ? llvm::formatv("kernel {0}: native 64-lane warps "
                                     "(--wave64=native)",
                                     K.Name)
                           .str()
                     : llvm::formatv("kernel {0}: native 64-lane warps (its "
                                     "warp code does not depend on the data "
                                     "layout of 32-lane warps)",
                                     K.Name)
                           .str();
    } else {
      Msg = K.Forced || K.Reason.empty()
                ? llvm::formatv("kernel {0}: logical 32-lane warps inside "
                                "64-lane waves (--wave64=logical32)",
                                K.Name)
                      .str()
                : llvm::formatv(
                      "kernel {0}: logical 32-lane warps inside "
                      "64-lane waves because {1} (line {2})",
                      K.Name, K.Reason,
                      SM().getPresumedLineNumber(SM().getFileLoc(K.ReasonLoc)))
                      .str();
    }
    TC.finding(kernelNoteLoc(K.FD), RuleId::PK2000, Severity::Note, Msg);
  }
}

void Wave64Rewriter::forcedNativeWarnings() {
  // Forced native over blockers: say where it may be wrong.
  std::set<std::pair<unsigned, std::string>> Seen;
  if (TC.Opts.Wave64 == Wave64Strategy::Native)
    for (const W64Site &S : A.sites()) {
      for (const W64Blocker &B : A.blockersOf(S.Entity))
        if (Seen.insert({B.Loc.getRawEncoding(), B.Msg}).second)
          TC.finding(B.Loc, RuleId::PK2012, Severity::Warning,
                     "--wave64=native: " + B.Msg +
                         "; the widened code may compute something else");
    }
}

void Wave64Rewriter::checkMask(const CallExpr *CE, llvm::StringRef Name) {
  const Expr *M = CE->getArg(0);
  Expr::EvalResult R;
  if (!M->isValueDependent() && M->EvaluateAsInt(R, TC.Ctx())) {
    llvm::APSInt V = R.Val.getInt();
    if ((V.getZExtValue() & 0xffffffffull) == 0xffffffffull)
      return;
    TC.finding(M->getBeginLoc(), RuleId::PK2010, Severity::Warning,
               llvm::formatv("{0}: mask {1} is not the full warp; the HIP "
                             "form has no mask, so this is correct only if "
                             "exactly these lanes reach the call",
                             Name, TC.text(M))
                   .str());
    return;
  }
  TC.finding(M->getBeginLoc(), RuleId::PK2010, Severity::Warning,
             llvm::formatv("{0}: mask '{1}' is not a constant; the HIP form "
                           "has no mask, so this is correct only if the "
                           "mask names exactly the lanes that reach the call",
                           Name, TC.text(M))
                 .str());
}

void Wave64Rewriter::unsupported(const W64Site &S) {
  if (!S.S)
    return;
  TC.finding(
      S.S->getBeginLoc(), RuleId::PK2013, Severity::Warning,
      llvm::formatv("{0}: no HIP form {1}and no rewrite for 64-lane "
                    "waves; left as is",
                    S.Name,
                    S.Name == "__uni_sync" ? "" : "on ROCm 5.x through 6.1 ")
          .str());
}

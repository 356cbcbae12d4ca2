//===- HIPTarget.cpp - CUDA -> HIP ----------------------------------------===//
//
// API renames and includes come from the YAML tables (TargetCommon.cpp).
// This file holds the semantic rewrites a rename cannot express:
//   PK1005  cudaLaunchKernel -> hipLaunchKernel with the kernel address cast
//   PK2001  *_sync shuffles -> HIP shuffles with an explicit 32-lane width
//   PK2002  ballot/any/all/activemask -> 32-lane logical-warp helpers
//   PK2003  __syncwarp -> wave barrier helper
//   PK2004  warpSize -> pk_warpSize (the logical warp width, a constant)
//   PK2010  non-full *_sync masks (finding)
//
//===----------------------------------------------------------------------===//
#include "pk/TargetContext.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace clang;

static RegisterRule R1005("PK1005", "cudaLaunchKernel -> hipLaunchKernel with the kernel address cast", "rewrite");
static RegisterRule R1006("PK1006", "includes of translated local headers point at the translated names", "rewrite");
static RegisterRule R1010("PK1010", "CUDA API with no HIP counterpart (left in place)", "diagnostic");
static RegisterRule R1011("PK1011", "user declaration shadows an API name (left in place)", "diagnostic");
static RegisterRule R2001("PK2001", "warp shuffles keep 32-lane logical warps on 64-lane waves", "rewrite");
static RegisterRule R2002("PK2002", "warp votes keep 32-lane logical warps on 64-lane waves", "rewrite");
static RegisterRule R2003("PK2003", "__syncwarp -> wave barrier", "rewrite");
static RegisterRule R2004("PK2004", "warpSize -> the logical warp width constant", "rewrite");
static RegisterRule R2011("PK2011", "device property warpSize differs from the logical warp width", "diagnostic");
static RegisterRule R2010("PK2010", "warp intrinsic mask is not the full warp", "diagnostic");

namespace {

const char *Logical32Helpers = R"pk(
#ifndef PK_LOGICAL_WARP32_HELPERS
#define PK_LOGICAL_WARP32_HELPERS
// port-kernel: 32-lane logical warps inside 64-lane waves [PK2002, PK2003, PK2004]
static constexpr int pk_warpSize = 32;
__device__ static inline unsigned __pk_ballot32(int pred) {
  return (unsigned)(__ballot(pred) >> (__lane_id() & 32u));
}
__device__ static inline unsigned __pk_activemask32() { return __pk_ballot32(1); }
__device__ static inline bool __pk_any32(int pred) { return __pk_ballot32(pred) != 0u; }
__device__ static inline bool __pk_all32(int pred) {
  return __pk_ballot32(pred) == __pk_ballot32(1);
}
__device__ static inline void __pk_syncwarp() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
}
#endif // PK_LOGICAL_WARP32_HELPERS
)pk";

llvm::StringRef calleeName(const CallExpr *CE) {
  if (const FunctionDecl *FD = CE->getDirectCallee())
    if (FD->getIdentifier())
      return FD->getName();
  const Expr *C = CE->getCallee()->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnresolvedLookupExpr>(C))
    if (U->getName().isIdentifier())
      return U->getName().getAsIdentifierInfo()->getName();
  if (const auto *D = dyn_cast<DeclRefExpr>(C))
    if (D->getDecl()->getIdentifier())
      return D->getDecl()->getName();
  return "";
}

class HipRewriter : public RecursiveASTVisitor<HipRewriter> {
public:
  explicit HipRewriter(TargetContext &TC) : TC(TC) {}

  bool VisitCallExpr(CallExpr *CE) {
    if (!TC.isUserLoc(CE->getBeginLoc()))
      return true;
    llvm::StringRef Name = calleeName(CE);
    if (Name.empty())
      return true;
    if (Name == "cudaLaunchKernel" || Name == "cudaLaunchCooperativeKernel" ||
        Name == "cudaFuncSetAttribute" || Name == "cudaFuncSetCacheConfig" ||
        Name == "cudaFuncSetSharedMemConfig")
      launchKernel(CE, Name, 0);
    else if (Name == "cudaFuncGetAttributes")
      launchKernel(CE, Name, 1);
    else if (Name == "__shfl_sync" || Name == "__shfl_up_sync" ||
             Name == "__shfl_down_sync" || Name == "__shfl_xor_sync")
      shuffle(CE, Name);
    else if (Name == "__ballot_sync" || Name == "__any_sync" ||
             Name == "__all_sync")
      vote(CE, Name);
    else if (Name == "__activemask")
      renameCallee(CE, "__pk_activemask32", "PK2002",
                   "__activemask() -> the caller's 32-lane half of the wave");
    else if (Name == "__syncwarp")
      syncwarp(CE);
    return true;
  }

private:
  TargetContext &TC;

  void needHelpers(const CallExpr *CE) {
    std::string F = TC.fileOf(TC.SM().getSpellingLoc(CE->getBeginLoc()));
    if (TC.isUserFile(F))
      TC.Helpers[F]["PK2002-logical32"] = Logical32Helpers;
  }

  /// The callee token (the name as written).
  SourceRange calleeRange(const CallExpr *CE) {
    const Expr *C = CE->getCallee()->IgnoreParenImpCasts();
    return SourceRange(C->getBeginLoc(), C->getEndLoc());
  }

  bool renameCallee(const CallExpr *CE, llvm::StringRef New,
                    llvm::StringRef Rule, llvm::StringRef Why,
                    bool UsesHelpers = true) {
    if (!TC.replace(calleeRange(CE), New, Rule, Why))
      return false;
    if (UsesHelpers)
      needHelpers(CE);
    return true;
  }

  static unsigned explicitArgs(const CallExpr *CE) {
    unsigned N = 0;
    for (const Expr *A : CE->arguments())
      N += !isa<CXXDefaultArgExpr>(A);
    return N;
  }

  /// Removes argument \p I (0-based) together with the comma after it.
  bool removeLeadingArg(const CallExpr *CE, llvm::StringRef Rule,
                        llvm::StringRef Why) {
    if (CE->getNumArgs() < 2)
      return false;
    SourceLocation B = CE->getArg(0)->getBeginLoc();
    SourceLocation E = CE->getArg(1)->getBeginLoc();
    return TC.replace(CharSourceRange::getCharRange(B, E), "", Rule, Why);
  }

  /// Checks that a mask argument is the full 32-lane warp.
  void checkMask(const CallExpr *CE, llvm::StringRef Name) {
    const Expr *M = CE->getArg(0);
    Expr::EvalResult R;
    if (!M->isValueDependent() && M->EvaluateAsInt(R, TC.Ctx())) {
      llvm::APSInt V = R.Val.getInt();
      if ((V.getZExtValue() & 0xffffffffull) == 0xffffffffull)
        return;
      TC.finding(M->getBeginLoc(), "PK2010", Severity::Warning,
                 llvm::formatv("{0}: mask {1} is not the full warp; the HIP "
                               "form has no mask, so this is correct only if "
                               "exactly these lanes reach the call",
                               Name, TC.text(M))
                     .str());
      return;
    }
    TC.finding(M->getBeginLoc(), "PK2010", Severity::Warning,
               llvm::formatv("{0}: mask '{1}' is not a constant; the HIP form "
                             "has no mask, so this is correct only if the "
                             "mask names exactly the lanes that reach the call",
                             Name, TC.text(M))
                   .str());
  }

  void shuffle(const CallExpr *CE, llvm::StringRef Name) {
    if (explicitArgs(CE) < 3)
      return;
    checkMask(CE, Name);
    std::string New = Name.drop_back(5).str(); // strip "_sync"
    std::string Why =
        llvm::formatv("{0}(mask, v, x[, w]) -> {1}(v, x, w): HIP shuffles have "
                      "no mask and default to the 64-lane wave; an explicit "
                      "width keeps 32-lane segments",
                      Name, New)
            .str();
    if (!renameCallee(CE, New, "PK2001", Why, /*UsesHelpers=*/false))
      return;
    unsigned NArgs = explicitArgs(CE);
    removeLeadingArg(CE, "PK2001", Why);
    // __shfl: HIP before ROCm 5.7 does not wrap the source lane into the
    // segment; CUDA does.  Wrap it unless it is a constant inside [0, w).
    unsigned Width = 32;
    bool WidthKnown = true;
    if (NArgs >= 4) {
      Expr::EvalResult R;
      const Expr *W = CE->getArg(3);
      if (!W->isValueDependent() && W->EvaluateAsInt(R, TC.Ctx()))
        Width = R.Val.getInt().getZExtValue();
      else
        WidthKnown = false;
    }
    if (Name == "__shfl_sync") {
      const Expr *Src = CE->getArg(2);
      Expr::EvalResult R;
      bool ConstInRange =
          WidthKnown && !Src->isValueDependent() &&
          Src->EvaluateAsInt(R, TC.Ctx()) && R.Val.getInt().isNonNegative() &&
          R.Val.getInt().getZExtValue() < Width;
      if (!ConstInRange) {
        std::string Wrap =
            WidthKnown ? llvm::formatv(" & {0}", Width - 1).str()
                       : " % (" + TC.text(CE->getArg(3)) + ")";
        TC.insert(Src->getBeginLoc(), "(", "PK2001",
                  "source lane wrapped into the segment as CUDA does");
        SourceLocation End = Lexer::getLocForEndOfToken(
            TC.SM().getSpellingLoc(Src->getEndLoc()), 0, TC.SM(),
            TC.Ctx().getLangOpts());
        if (Src->getEndLoc().isFileID())
          End = Lexer::getLocForEndOfToken(Src->getEndLoc(), 0, TC.SM(),
                                           TC.Ctx().getLangOpts());
        TC.insert(End, ")" + Wrap, "PK2001",
                  "source lane wrapped into the segment as CUDA does");
      }
    }
    if (NArgs == 3) {
      SourceLocation RParen = CE->getRParenLoc();
      TC.insert(RParen, ", 32", "PK2001",
                "explicit 32-lane width: HIP's default width is the 64-lane "
                "wave");
    }
  }

  void vote(const CallExpr *CE, llvm::StringRef Name) {
    if (CE->getNumArgs() != 2)
      return;
    checkMask(CE, Name);
    llvm::StringRef New = Name == "__ballot_sync" ? "__pk_ballot32"
                          : Name == "__any_sync"  ? "__pk_any32"
                                                  : "__pk_all32";
    std::string Why =
        llvm::formatv("{0}(mask, p) -> {1}(p): HIP votes cover the 64-lane "
                      "wave; the helper returns the caller's 32-lane half, "
                      "as a 32-bit mask",
                      Name, New)
            .str();
    if (renameCallee(CE, New, "PK2002", Why))
      removeLeadingArg(CE, "PK2002", Why);
  }

  void syncwarp(const CallExpr *CE) {
    std::string Why = "__syncwarp -> wave barrier with wavefront-scope fences "
                      "(HIP has no __syncwarp; a wave executes in lockstep)";
    if (!renameCallee(CE, "__pk_syncwarp", "PK2003", Why))
      return;
    if (CE->getNumArgs() == 1) {
      const Expr *M = CE->getArg(0);
      if (!isa<CXXDefaultArgExpr>(M))
        TC.replace(M->getSourceRange(), "", "PK2003", Why);
    }
  }

  void launchKernel(const CallExpr *CE, llvm::StringRef Name, unsigned I) {
    if (CE->getNumArgs() <= I)
      return;
    const Expr *Arg = CE->getArg(I);
    const Expr *F = Arg->IgnoreParenImpCasts();
    if (F->getType()->isVoidPointerType())
      return;
    std::string Text = TC.text(Arg);
    if (llvm::StringRef(Text).starts_with("(const void") ||
        llvm::StringRef(Text).starts_with("reinterpret_cast"))
      return;
    TC.replace(Arg->getSourceRange(),
               "reinterpret_cast<const void *>(" + Text + ")", "PK1005",
               llvm::formatv("{0} takes the kernel as a template; its HIP "
                             "counterpart takes the kernel's address as "
                             "const void *",
                             Name)
                   .str());
  }
};

} // namespace

llvm::Error pk::runHipTarget(TargetContext &TC) {
  runIncludePass(TC, /*ToHip=*/true);
  runRenamePass(TC, /*ToHip=*/true);
  HipRewriter V(TC);
  V.TraverseDecl(TC.Ctx().getTranslationUnitDecl());
  // warpSize -> pk_warpSize (logical 32-lane warps); lexer-level so macro
  // bodies are covered.
  const LangOptions &LO = TC.Ctx().getLangOpts();
  for (const std::string &File : TC.PF.UserFiles) {
    llvm::StringRef Buf = TC.contents(File);
    Lexer L(SourceLocation::getFromRawEncoding(1), LO, Buf.begin(), Buf.begin(),
            Buf.end());
    Token Tok;
    bool AfterMember = false;
    while (!L.LexFromRawLexer(Tok)) {
      bool Member = AfterMember;
      AfterMember = Tok.isOneOf(tok::period, tok::arrow);
      if (Member && Tok.is(tok::raw_identifier) &&
          Tok.getRawIdentifier() == "warpSize") {
        TC.finding(File, Tok.getLocation().getRawEncoding() - 1, "PK2011",
                   Severity::Warning,
                   "the device property warpSize is 64 on CDNA GPUs, while "
                   "the kernels of this port keep 32-lane logical warps; "
                   "host code that sizes work by it must use 32");
        continue;
      }
      if (Tok.is(tok::raw_identifier) && Tok.getRawIdentifier() == "warpSize") {
        TC.edit(File, Tok.getLocation().getRawEncoding() - 1, 8, "pk_warpSize",
                "PK2004",
                "warpSize is 64 on CDNA and not a constant expression from "
                "ROCm 7; the logical warp width is the constant 32");
        TC.Helpers[File]["PK2002-logical32"] = Logical32Helpers;
      }
    }
  }
  if (llvm::Error E = runMfmaRules(TC))
    return E;
  insertHelpers(TC);
  return TC.takeError();
}

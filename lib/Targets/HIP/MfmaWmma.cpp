//===- MfmaWmma.cpp - nvcuda::wmma -> the generated pk_mfma helpers -------===//
// Rules: PK3001, PK3012, PK3015
//
// PK3001: nvcuda::wmma m16n16k16 (half/bf16 in, float accumulate) becomes
// the pk_mfma namespace generated into each ported file (MfmaEmit.cpp,
// MfmaHelpers.cpp): qualifiers, using directives and aliases are renamed,
// `using namespace nvcuda;` and #include <mma.h> go away.  PK3015 reports
// the WMMA configurations that are not ported; PK3012 says which GPUs run
// bf16 fragments.
//
//===----------------------------------------------------------------------===//
#include "MfmaRules.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace pk::mfma;
using namespace clang;

void mfma::reportSatf(TargetContext &TC, const FragmentPlan &P) {
  for (const Expr *Satf : P.Satf)
    TC.finding(Satf->getBeginLoc(), RuleId::PK3015, Severity::Warning,
               "mma_sync saturation (satf) is not applied by the MFMA "
               "port: results are not clamped to finite values");
}

bool mfma::reportUnsupported(TargetContext &TC, const FragmentPlan &P,
                             const InstantiatedFragments &Inst) {
  const char *Supported = " (supported: m16n16k16 with half or "
                          "__nv_bfloat16 inputs and float accumulators); "
                          "the WMMA code of this file is left unchanged";
  if (P.Unsupported.empty() && Inst.Bad.empty())
    return false;
  for (const auto &U : P.Unsupported)
    TC.finding(U.Loc, RuleId::PK3015, Severity::Warning, U.What + Supported);
  for (const auto &[L, What] : Inst.Bad)
    TC.finding(L, RuleId::PK3015, Severity::Warning,
               What + " is not ported" + Supported);
  return true;
}

/// using namespace [nvcuda::]wmma -> pk_mfma; using namespace nvcuda ->
/// removed.
static void rewriteUsing(TargetContext &TC, const UsingDirectiveDecl *U,
                         llvm::StringRef Why, std::set<std::string> &Files) {
  SourceManager &SM = TC.SM();
  const LangOptions &LO = TC.Ctx().getLangOpts();
  SourceLocation NameLoc = U->getIdentLocation();
  if (NameLoc.isMacroID())
    return;
  std::string F = TC.fileOf(NameLoc);
  if (isWmmaNS(U->getNominatedNamespace())) {
    // using namespace [nvcuda::]wmma;  ->  using namespace pk_mfma;
    SourceLocation B =
        U->getQualifierLoc() ? U->getQualifierLoc().getBeginLoc() : NameLoc;
    if (TC.replace(CharSourceRange::getTokenRange(B, NameLoc), "pk_mfma",
                   RuleId::PK3001, Why))
      Files.insert(F);
    return;
  }
  // using namespace nvcuda;  -> removed (the line, when it is alone on it).
  SourceLocation B = U->getBeginLoc();
  SourceLocation Semi =
      Lexer::findLocationAfterToken(U->getEndLoc(), tok::semi, SM, LO, false);
  if (B.isMacroID() || Semi.isInvalid())
    return;
  unsigned BO = SM.getFileOffset(B), EO = SM.getFileOffset(Semi);
  llvm::StringRef Buf = TC.contents(F);
  size_t LS = Buf.take_front(BO).rfind('\n');
  LS = LS == llvm::StringRef::npos ? 0 : LS + 1;
  size_t LE = Buf.find('\n', EO);
  if (Buf.slice(LS, BO).trim().empty() &&
      (LE == llvm::StringRef::npos || Buf.slice(EO, LE).trim().empty())) {
    BO = LS;
    EO = LE == llvm::StringRef::npos ? Buf.size() : LE + 1;
  }
  TC.edit(F, BO, EO - BO, "", RuleId::PK3001,
          "namespace nvcuda only holds wmma, which pk_mfma replaces");
  Files.insert(F);
}

std::set<std::string> mfma::rewriteWmmaNames(TargetContext &TC,
                                             const FragmentPlan &P,
                                             const WarpTiles &Tiles,
                                             MfmaShape Shape) {
  std::string Why =
      llvm::formatv("nvcuda::wmma -> pk_mfma, generated into this file: "
                    "each 64-lane wave holds the 16x16 tiles of its two "
                    "32-lane logical warps and multiplies them with {0}",
                    Shape == MfmaShape::M32N32K8 ? "v_mfma_f32_32x32x8"
                                                 : "v_mfma_f32_16x16x16")
          .str();
  std::set<std::string> Files;
  for (NestedNameSpecifierLoc Q : P.Quals) {
    SourceRange R = Q.getSourceRange();
    if (Tiles.inRewrittenNest(TC, R.getBegin()))
      continue;
    if (TC.replace(CharSourceRange::getTokenRange(R),
                   "pk_mfma::", RuleId::PK3001, Why))
      Files.insert(TC.fileOf(TC.SM().getSpellingLoc(R.getBegin())));
  }
  for (const UsingDirectiveDecl *U : P.Usings)
    rewriteUsing(TC, U, Why, Files);
  for (const NamespaceAliasDecl *A : P.Aliases) {
    SourceRange R(A->getQualifierLoc() ? A->getQualifierLoc().getBeginLoc()
                                       : A->getTargetNameLoc(),
                  A->getTargetNameLoc());
    if (TC.replace(CharSourceRange::getTokenRange(R), "pk_mfma", RuleId::PK3001,
                   Why))
      Files.insert(TC.fileOf(A->getLocation()));
  }
  return Files;
}

void mfma::removeMmaIncludes(TargetContext &TC) {
  for (const std::string &File : TC.PF.UserFiles)
    forEachDirective(TC.contents(File), [&](const Directive &D) {
      if (D.Header != "mma.h")
        return;
      TC.edit(File, D.Begin, D.End - D.Begin, "", RuleId::PK3001,
              "<mma.h> declares nvcuda::wmma; the pk_mfma helpers "
              "generated into the ported files replace it");
      for (UnportedInclude &U : TC.Facts.UnportedIncludes)
        if (U.File == File && U.Begin == D.Begin)
          U.Handled = true;
    });
}

void mfma::noteBF16(TargetContext &TC, const FragmentPlan &P,
                    const WarpTiles &Tiles, MfmaShape Shape) {
  if (P.FirstBF16.isInvalid())
    return;
  // The instructions bf16 fragments use: the single-fragment shape, and
  // 32x32x8 for tiles when there are any.
  const char *Instructions = Shape == MfmaShape::M32N32K8 || Tiles.Fused.empty()
                                 ? (Shape == MfmaShape::M32N32K8
                                        ? "__builtin_amdgcn_mfma_f32_32x32x8"
                                        : "__builtin_amdgcn_mfma_f32_16x16x16")
                                 : "__builtin_amdgcn_mfma_f32_16x16x16bf16_1k "
                                   "and __builtin_amdgcn_mfma_f32_32x32x8";
  TC.finding(P.FirstBF16, RuleId::PK3012, Severity::Note,
             llvm::formatv("bf16 fragments use {0}bf16_1k: the output "
                           "runs on gfx90a (MI200), gfx940/941/942 "
                           "(MI300) and newer CDNA GPUs, not on gfx908 "
                           "(MI100), which has no bf16_1k matrix "
                           "instructions",
                           Instructions)
                 .str());
}

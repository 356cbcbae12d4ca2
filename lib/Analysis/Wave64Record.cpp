//===- Wave64Record.cpp - what the record phase produces ------------------===//
// Rules: PK2021
//
// The record phase (the last walk) produces hazards (the findings of
// `check`, PK2101-PK2111), blockers (reasons a group cannot go native),
// sites (constructs whose HIP spelling depends on the strategy) and claims:
// warp-width constants an accepted idiom consumes, widened by the native
// strategy (PK2021).
//
//===----------------------------------------------------------------------===//
#include "Wave64Internal.h"

#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace pk::w64;
using namespace clang;

void Wave64Analysis::Impl::hazard(W64Class C, SourceLocation Loc,
                                  std::string Msg) {
  if (!Record || Loc.isInvalid())
    return;
  SourceLocation F = SM.getFileLoc(Loc);
  if (Loc.isMacroID() && SM.isMacroArgExpansion(Loc))
    F = SM.getSpellingLoc(Loc);
  if (!Src.isUserLoc(F))
    return;
  if (!HazardAt.insert({F.getRawEncoding(), (unsigned)C}).second)
    return;
  A.Hazards.push_back({C, Loc, std::move(Msg)});
}

void Wave64Analysis::Impl::blocker(int Ent, SourceLocation Loc, std::string Msg,
                                   bool Launch) {
  if (!Record || Ent < 0)
    return;
  for (const W64Blocker &B : Ents[Ent].Blockers)
    if (B.Loc == Loc && B.Msg == Msg)
      return;
  Ents[Ent].Blockers.push_back({Loc, std::move(Msg), Ent, Launch});
}

W64Site &Wave64Analysis::Impl::site(W64Site::KindT K, const Stmt *S, int Ent) {
  A.Sites.push_back({});
  W64Site &X = A.Sites.back();
  X.Kind = K;
  X.S = S;
  X.Entity = Ent;
  if (Ent >= 0)
    Ents[Ent].HasSites = true;
  return X;
}

void Wave64Analysis::Impl::tokenSite(const Expr *Tok, int FnEnt,
                                     std::string Native, RuleId Rule,
                                     llvm::StringRef Why, std::string Logical) {
  if (!Record || !Tok)
    return;
  SourceLocation L = SM.getSpellingLoc(Tok->getBeginLoc());
  if (!Src.isUserLoc(L))
    return;
  std::string File = Src.fileOf(L);
  unsigned Off = SM.getFileOffset(L);
  int Ent = entityFor(L, FnEnt);
  if (!TokenAt.insert(tokKey(File, Off)).second) {
    // Edited already: every user of the token shares its strategy.
    auto It = TokenEnt.find(tokKey(File, Off));
    if (It != TokenEnt.end())
      unite(It->second, Ent);
    if (Ent >= 0)
      Ents[Ent].HasSites = true;
    return;
  }
  TokenEnt[tokKey(File, Off)] = Ent;
  unsigned Len = Lexer::MeasureTokenLength(L, SM, LO);
  W64Site &X = site(W64Site::Token, nullptr, Ent);
  X.Loc = L;
  X.Len = Len;
  X.Native = std::move(Native);
  X.Logical = std::move(Logical);
  X.Rule = Rule;
  X.Why = Why.str();
}

static std::string respell(llvm::StringRef S, uint64_t V) {
  // The literal keeps its base prefix (0x/0X/0b/0B/0), the case of its
  // digits and its suffix: 0x1f -> 0x3f, 0x1Fu -> 0x3Fu, 037 -> 077,
  // 0b11111 -> 0b111111, 31ul -> 63ul.  Digit separators are dropped.
  unsigned Radix = 10;
  llvm::StringRef Prefix;
  if (S.starts_with_insensitive("0x")) {
    Radix = 16;
    Prefix = S.take_front(2);
  } else if (S.starts_with_insensitive("0b")) {
    Radix = 2;
    Prefix = S.take_front(2);
  } else if (S.size() > 1 && S[0] == '0' && llvm::isDigit(S[1])) {
    Radix = 8;
    Prefix = S.take_front(1);
  }
  llvm::StringRef Body = S.drop_front(Prefix.size());
  size_t SufPos = Body.find_first_not_of(Radix == 16 ? "0123456789abcdefABCDEF'"
                                                     : "0123456789'");
  llvm::StringRef Digits = Body.take_front(SufPos);
  llvm::StringRef Suffix =
      SufPos == llvm::StringRef::npos ? "" : Body.drop_front(SufPos);
  std::string Num;
  if (V == 0)
    Num = "0";
  for (uint64_t X = V; X; X /= Radix)
    Num.insert(Num.begin(), "0123456789abcdef"[X % Radix]);
  if (Radix == 8 && Num != "0")
    Num.insert(Num.begin(), '0'), Prefix = "";
  if (Radix == 16 &&
      llvm::any_of(Digits, [](char C) { return C >= 'A' && C <= 'F'; }))
    Num = llvm::StringRef(Num).upper();
  return (Prefix + Num + Suffix).str();
}

std::string Wave64Analysis::Impl::relit(const Expr *Tok, uint64_t V) {
  return respell(tokText(SM.getSpellingLoc(Tok->getBeginLoc())), V);
}

void Wave64Analysis::Impl::claim(const Val &V, int FnEnt, uint64_t Native,
                                 llvm::StringRef What) {
  if (!Record || !V.Tok)
    return;
  const Expr *T = V.Tok->IgnoreParenImpCasts();
  Claimed.insert(T);
  // A warp width whose spelling is not in the user's files (a macro given
  // with -D on the command line or in the compilation database): there is
  // nothing to widen, so native warps would keep 32 here.
  SourceLocation Spell = SM.getSpellingLoc(T->getBeginLoc());
  if (isa<IntegerLiteral>(T) && !Src.isUserLoc(Spell)) {
    std::string Name;
    inWarpMacro(cast<IntegerLiteral>(T), &Name);
    blocker(FnEnt, T->getBeginLoc(),
            llvm::formatv("{0}: the warp width {1} comes from outside the "
                          "ported files (a -D option); native warps cannot "
                          "widen it",
                          What, Name.empty() ? "32" : Name)
                .str());
    return;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(T)) {
    if (const auto *EC = dyn_cast<EnumConstantDecl>(DRE->getDecl())) {
      // A named enumerator: widen its initialiser.
      const Expr *Init = EC->getInitExpr();
      const auto *L =
          Init ? dyn_cast<IntegerLiteral>(Init->IgnoreParenImpCasts())
               : nullptr;
      if (L && L->getValue() == 32)
        tokenSite(L, FnEnt, relit(L, 64), RuleId::PK2021,
                  llvm::formatv("{0}: the warp width constant 32 is the "
                                "64-lane wave under native warps",
                                EC->getName())
                      .str());
      else
        blocker(FnEnt, T->getBeginLoc(),
                llvm::formatv("{0}: the warp width {1} is not a literal the "
                              "port can widen",
                              What, EC->getName())
                    .str());
      return;
    }
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || VD->getName() == "warpSize")
      return; // the warpSize pass renames it
    // A named constant: widen its initialiser.
    if (const Expr *Init = VD->getAnyInitializer()) {
      const Expr *L = Init->IgnoreParenImpCasts();
      if (isa<IntegerLiteral>(L)) {
        uint64_t Old = cast<IntegerLiteral>(L)->getValue().getZExtValue();
        uint64_t New = Old == 32 ? 64 : Old == 31 ? 63 : Old;
        tokenSite(L, FnEnt, relit(L, New), RuleId::PK2021,
                  llvm::formatv("{0}: the warp width constant {1} is the "
                                "64-lane wave under native warps",
                                VD->getName(), Old)
                      .str());
      }
    }
    return;
  }
  if (isa<CallExpr>(T) || isa<CXXMemberCallExpr>(T))
    return; // tile.size(): the tile type is widened
  if (const auto *IL = dyn_cast<IntegerLiteral>(T)) {
    uint64_t Old = IL->getValue().getZExtValue();
    uint64_t New = Native;
    if (Old == 32 && Native == 63)
      New = 64; // W - 1 spelled as 32 - 1
    else if (Old == 32 && Native == 32)
      New = 64; // W / 2 spelled as 32 / 2
    tokenSite(IL, FnEnt, relit(IL, New), RuleId::PK2021,
              llvm::formatv("{0}: {1} -> {2} for 64-lane warps", What, Old, New)
                  .str());
  }
}

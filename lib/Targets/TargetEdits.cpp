//===- TargetEdits.cpp - where a rule's edit lands in the user's text -----===//
// Rules: none (shared infrastructure)
//
// TargetContext::replace/insert/edit turn the AST's locations into edits of
// the files the user wrote.  A range may lie in macro expansions; the text to
// edit is then chosen so that the edit changes this expansion and nothing
// else:
//
//  * a range that covers a whole macro expansion (FULL in
//    `__syncwarp(FULL)`, wherever FULL is used) is edited at that expansion's
//    invocation, one level up, never in FULL's definition: other uses of FULL
//    (`count_bits(FULL)`) must keep expanding to what they did;
//  * a range made of a macro argument's tokens is edited where the argument
//    is written;
//  * a range strictly inside one macro's body (the callee of a call that the
//    body makes) is edited in that body, where it is defined: every expansion
//    of that macro contains the same construct and needs the same edit;
//  * anything else (a range that starts or ends in the middle of a nested
//    expansion, tokens made by ## or #) is refused: replace returns false,
//    edits nothing and keeps the request (Facts.RefusedEdits), which is
//    reported at the macro's use unless the caller reports it
//    (reportRefusedEdits).
//
// Line and column numbers come from a per-file table of line starts built
// once, so recording n edits costs O(n log n) for any file size.
//
//===----------------------------------------------------------------------===//
#include "pk/TargetContext.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include <algorithm>

using namespace pk;
using namespace clang;

void TargetContext::lineCol(llvm::StringRef File, unsigned Offset,
                            unsigned &Line, unsigned &Col) const {
  llvm::StringRef C = contents(File);
  auto It = LineStarts.find(File);
  if (It == LineStarts.end()) {
    std::vector<unsigned> Starts{0};
    for (size_t I = C.find('\n'); I != llvm::StringRef::npos;
         I = C.find('\n', I + 1))
      Starts.push_back(I + 1);
    It = LineStarts.try_emplace(File, std::move(Starts)).first;
  }
  const std::vector<unsigned> &Starts = It->second;
  Offset = std::min<unsigned>(Offset, C.size());
  // The last line start at or before Offset.
  auto L = std::upper_bound(Starts.begin(), Starts.end(), Offset) - 1;
  Line = 1 + (L - Starts.begin());
  Col = Offset - *L + 1;
}

void TargetContext::edit(llvm::StringRef File, unsigned Offset, unsigned Length,
                         llvm::StringRef Text, RuleRef Rule,
                         llvm::StringRef Why) {
  Edit E;
  E.File = File.str();
  E.Offset = Offset;
  E.Length = Length;
  E.Replacement = Text.str();
  E.RuleID = Rule.name().str();
  E.Why = Why.str();
  lineCol(File, Offset, E.Line, E.Col);
  if (llvm::Error X = Edits.add(std::move(E))) {
    if (!Err)
      Err = std::move(X);
    else
      llvm::consumeError(std::move(X));
    return;
  }
  ++Counts[Rule.name()];
}

namespace {

/// Finds the file characters that stand for a range of the AST (see the
/// file comment).  Works one expansion level at a time.
class EditableRange {
public:
  EditableRange(const SourceManager &SM, const LangOptions &LO)
      : SM(SM), LO(LO) {}

  CharSourceRange resolve(CharSourceRange R) const {
    for (int Guard = 0; Guard < 128; ++Guard) {
      SourceLocation B = R.getBegin(), E = R.getEnd();
      bool Tok = R.isTokenRange();
      if (B.isInvalid() || E.isInvalid())
        return {};
      // A token made by ## or # (`__##op##_sync`) is spelled nowhere in the
      // user's text: the text it came from holds macro parameters, so an
      // edit there would change what every other use of the macro makes.
      if (made(B) || made(E))
        return {};
      // Ranges clang maps to one file range on its own: file locations, a
      // whole expansion up to the file, the tokens of one argument.
      CharSourceRange FR = Lexer::makeFileCharRange(R, SM, LO);
      if (FR.isValid())
        return FR;
      if (B.isFileID() && E.isFileID())
        return {};
      FileID FB = SM.getFileID(B), FE = SM.getFileID(E);
      if (FB == FE) {
        if (SM.getSLocEntry(FB).getExpansion().isMacroArgExpansion()) {
          // Tokens of one argument: where the argument is written.
          R = CharSourceRange(SourceRange(SM.getImmediateSpellingLoc(B),
                                          SM.getImmediateSpellingLoc(E)),
                              Tok);
          continue;
        }
        SourceLocation X;
        if (!Tok && B == E) {
          // An insertion point before the expansion's first token or after
          // its last one: the same point around its invocation.
          if (SM.isAtStartOfImmediateMacroExpansion(B, &X)) {
            R = CharSourceRange::getCharRange(X, X);
            continue;
          }
          if (SM.isAtEndOfImmediateMacroExpansion(B, &X)) {
            X = X.getLocWithOffset(
                Lexer::MeasureTokenLength(SM.getSpellingLoc(X), SM, LO));
            R = CharSourceRange::getCharRange(X, X);
            continue;
          }
        } else {
          SourceLocation NB = B, NE = E;
          bool NTok = Tok;
          if (liftBegin(NB) && liftEnd(NE, NTok)) {
            // The whole expansion: its invocation, one level up.
            R = CharSourceRange(SourceRange(NB, NE), NTok);
            continue;
          }
        }
        // Strictly inside one macro's body: the body as defined.
        SourceLocation SB = SM.getImmediateSpellingLoc(B);
        SourceLocation SE = SM.getImmediateSpellingLoc(E);
        if (!SB.isFileID() || !SE.isFileID() ||
            SM.getFileID(SB) != SM.getFileID(SE) ||
            SM.isWrittenInScratchSpace(SB))
          return {};
        return Lexer::makeFileCharRange(
            CharSourceRange(SourceRange(SB, SE), Tok), SM, LO);
      }
      // The ends lie in different expansions: lift the end that lies in a
      // nested expansion to that expansion's invocation, as long as the
      // range covers the nested expansion from its start (or to its end).
      FileID Common = commonLevel(B, E);
      if (Common.isInvalid())
        return {};
      if (FB != Common && !liftBegin(B))
        return {};
      if (FE != Common && !liftEnd(E, Tok))
        return {};
      R = CharSourceRange(SourceRange(B, E), Tok);
    }
    return {};
  }

private:
  const SourceManager &SM;
  const LangOptions &LO;

  /// True for a token of an expansion that ## or # made (spelled in the
  /// preprocessor's scratch buffer).
  bool made(SourceLocation L) const {
    return L.isMacroID() && SM.isWrittenInScratchSpace(SM.getSpellingLoc(L));
  }

  /// \p B starts its immediate expansion: B becomes the invocation's start.
  bool liftBegin(SourceLocation &B) const {
    SourceLocation X;
    if (!B.isMacroID() || !SM.isAtStartOfImmediateMacroExpansion(B, &X))
      return false;
    B = X;
    return true;
  }

  /// \p E ends its immediate expansion (its last token for a token range,
  /// the position after it for a character range): E becomes the
  /// invocation's end.  A character range that ends where an expansion
  /// starts ends before its invocation.
  bool liftEnd(SourceLocation &E, bool &Tok) const {
    if (!E.isMacroID())
      return false;
    SourceLocation X;
    if (Tok) {
      unsigned N = Lexer::MeasureTokenLength(SM.getSpellingLoc(E), SM, LO);
      if (N == 0 ||
          !SM.isAtEndOfImmediateMacroExpansion(E.getLocWithOffset(N), &X))
        return false;
      E = X;
      return true;
    }
    if (SM.isAtStartOfImmediateMacroExpansion(E, &X)) {
      E = X;
      return true;
    }
    if (!SM.isAtEndOfImmediateMacroExpansion(E, &X))
      return false;
    E = X; // the invocation's last token, now as the end of a token range
    Tok = true;
    return true;
  }

  /// The innermost expansion (or file) that contains both ends.
  FileID commonLevel(SourceLocation B, SourceLocation E) const {
    llvm::SmallVector<FileID, 8> CB = chain(B), CE = chain(E);
    for (FileID F : CB)
      if (llvm::is_contained(CE, F))
        return F;
    return FileID();
  }

  llvm::SmallVector<FileID, 8> chain(SourceLocation L) const {
    llvm::SmallVector<FileID, 8> V;
    for (int Guard = 0; Guard < 128; ++Guard) {
      V.push_back(SM.getFileID(L));
      if (!L.isMacroID())
        break;
      L = SM.getImmediateExpansionRange(L).getBegin();
    }
    return V;
  }
};

} // namespace

/// Keeps an edit that cannot be made (see RefusedEdit) when it was asked
/// for in the user's code: the place is where the macro is used.
static void refuse(TargetContext &TC, SourceLocation Loc, RuleRef Rule,
                   llvm::StringRef Why) {
  if (Loc.isInvalid())
    return;
  SourceLocation L = TC.SM().getExpansionLoc(Loc);
  if (!TC.isUserLoc(L))
    return;
  TC.Facts.RefusedEdits.push_back(
      {TC.fileOf(L), TC.SM().getFileOffset(L), Rule.name().str(), Why.str()});
}

bool TargetContext::replace(CharSourceRange R, llvm::StringRef Text,
                            RuleRef Rule, llvm::StringRef Why) {
  SourceManager &S = SM();
  CharSourceRange FR = EditableRange(S, Ctx().getLangOpts()).resolve(R);
  if (FR.isInvalid()) {
    refuse(*this, R.getBegin(), Rule, Why);
    return false;
  }
  if (!isUserLoc(FR.getBegin()))
    return false;
  std::string File = fileOf(FR.getBegin());
  unsigned B = S.getFileOffset(FR.getBegin());
  unsigned E = S.getFileOffset(FR.getEnd());
  if (E < B)
    return false;
  edit(File, B, E - B, Text, Rule, Why);
  return true;
}

bool TargetContext::insert(SourceLocation Loc, llvm::StringRef Text,
                           RuleRef Rule, llvm::StringRef Why) {
  SourceManager &S = SM();
  SourceLocation L = Loc;
  if (Loc.isMacroID()) {
    CharSourceRange FR = EditableRange(S, Ctx().getLangOpts())
                             .resolve(CharSourceRange::getCharRange(Loc, Loc));
    if (FR.isInvalid()) {
      refuse(*this, Loc, Rule, Why);
      return false;
    }
    L = FR.getBegin();
  }
  if (!isUserLoc(L))
    return false;
  edit(fileOf(L), S.getFileOffset(L), 0, Text, Rule, Why);
  return true;
}

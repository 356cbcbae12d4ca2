//===- Wave64Entities.cpp - functions, macros and their groups ------------===//
// Rules: none (shared infrastructure)
//
// Entities are the functions and macros that hold warp code; those whose
// edits must agree (a caller and its callee, a macro and every function that
// expands it) are unified (union-find) and get one strategy.  Also the
// source text helpers of the analysis: macro definitions around a location,
// text as written at a use, token text.
//
//===----------------------------------------------------------------------===//
#include "Wave64Internal.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"

using namespace pk;
using namespace pk::w64;
using namespace clang;

Wave64Analysis::Impl::Impl(const UserSource &Src, Wave64Analysis &A)
    : Src(Src), A(A), SM(Src.SM()), LO(Src.Ctx().getLangOpts()),
      Ctx(Src.Ctx()) {}

void Wave64Analysis::Impl::releaseWalkState() {
  // Swapped with empty containers: clear() may keep a vector's capacity.
  auto Free = [](auto &C) { std::decay_t<decltype(C)>().swap(C); };
  Free(Vars);
  Free(Rets);
  Free(Fns);
  Free(FnOrder);
  Free(ByName);
  Free(Claimed);
  Free(WUses);
  Free(TokenAt);
  Free(TokenEnt);
  Free(SiteStmts);
  Free(HazardAt);
  Free(ChainOK);
  Free(SharedHazard);
  Free(PerWarp);
}

std::string Wave64Analysis::Impl::exprText(SourceRange R) {
  CharSourceRange FR =
      Lexer::makeFileCharRange(CharSourceRange::getTokenRange(R), SM, LO);
  if (FR.isInvalid()) {
    // Climb both ends to the innermost expansion holding both.
    auto Chain = [&](SourceLocation L, bool Begin) {
      std::vector<std::pair<FileID, SourceLocation>> V;
      for (int G = 0; G < 32; ++G) {
        V.push_back({SM.getFileID(L), L});
        if (!L.isMacroID())
          break;
        CharSourceRange X = SM.getImmediateExpansionRange(L);
        L = Begin ? X.getBegin() : X.getEnd();
      }
      return V;
    };
    auto CB = Chain(R.getBegin(), true), CE = Chain(R.getEnd(), false);
    SourceLocation B, E;
    for (auto &[F, L] : CB) {
      for (auto &[F2, L2] : CE)
        if (F == F2) {
          B = L;
          E = L2;
          break;
        }
      if (B.isValid())
        break;
    }
    if (B.isValid()) {
      B = SM.getSpellingLoc(B);
      E = SM.getSpellingLoc(E);
    }
    if (B.isValid() && SM.getFileID(B) == SM.getFileID(E) &&
        !SM.isBeforeInTranslationUnit(E, B))
      FR = CharSourceRange::getTokenRange(B, E);
    else
      FR = CharSourceRange::getTokenRange(SM.getExpansionRange(R).getAsRange());
  }
  std::string T = Lexer::getSourceText(FR, SM, LO).str();
  if (T.find('\n') != std::string::npos && T.size() > 60) {
    // keep messages on one line
    T = T.substr(0, T.find('\n')) + " ...";
  }
  return T;
}

// ---- entities ---------------------------------------------------------------

int Wave64Analysis::Impl::newEntity(std::string Name) {
  Ents.push_back({});
  Ents.back().Name = std::move(Name);
  Ents.back().Parent = (int)Ents.size() - 1;
  return (int)Ents.size() - 1;
}

int Wave64Analysis::Impl::find(int E) {
  while (Ents[E].Parent != E) {
    Ents[E].Parent = Ents[Ents[E].Parent].Parent;
    E = Ents[E].Parent;
  }
  return E;
}

void Wave64Analysis::Impl::unite(int A1, int B1) {
  if (A1 < 0 || B1 < 0)
    return;
  A1 = find(A1);
  B1 = find(B1);
  if (A1 != B1)
    Ents[std::max(A1, B1)].Parent = std::min(A1, B1);
}

std::set<const FunctionDecl *>
Wave64Analysis::Impl::callClosure(const FunctionDecl *FD) {
  std::set<const FunctionDecl *> Out;
  std::vector<const FunctionDecl *> Work = {FD};
  while (!Work.empty()) {
    const FunctionDecl *G = Work.back();
    Work.pop_back();
    if (Out.insert(G).second)
      for (const FunctionDecl *H : Fns[G].Callees)
        Work.push_back(H);
  }
  return Out;
}

// ---- macros -----------------------------------------------------------------

bool Wave64Analysis::Impl::defineAt(SourceLocation L, std::string &File,
                                    unsigned &Off, std::string *Name) {
  if (L.isInvalid() || !L.isFileID())
    return false;
  File = Src.fileOf(L);
  if (File.empty())
    return false;
  llvm::StringRef Buf = Src.contents(File);
  unsigned O = SM.getFileOffset(L);
  if (O > Buf.size())
    return false;
  // Start of the logical line (continuations included).
  size_t LS = Buf.take_front(O).rfind('\n');
  LS = LS == llvm::StringRef::npos ? 0 : LS + 1;
  while (LS >= 2 && Buf[LS - 1] == '\n' &&
         (Buf[LS - 2] == '\\' ||
          (LS >= 3 && Buf[LS - 2] == '\r' && Buf[LS - 3] == '\\'))) {
    size_t P = Buf.take_front(LS - 1).rfind('\n');
    LS = P == llvm::StringRef::npos ? 0 : P + 1;
  }
  llvm::StringRef Line = Buf.drop_front(LS).ltrim(" \t");
  if (!Line.consume_front("#"))
    return false;
  Line = Line.ltrim(" \t");
  if (!Line.consume_front("define"))
    return false;
  Off = LS;
  if (Name) {
    Line = Line.ltrim(" \t");
    *Name = Line.take_while([](char C) { return llvm::isAlnum(C) || C == '_'; })
                .str();
  }
  return true;
}

int Wave64Analysis::Impl::macroEntity(const std::string &File, unsigned Off,
                                      const std::string &Name) {
  auto It = MacroEnts.find({File, Off});
  if (It != MacroEnts.end())
    return It->second;
  int E = newEntity("macro " + Name);
  Ents[E].IsMacro = true;
  Ents[E].File = File;
  Ents[E].DefOffset = Off;
  MacroEnts[{File, Off}] = E;
  return E;
}

int Wave64Analysis::Impl::entityFor(SourceLocation Spell, int FnEnt) {
  std::string File, Name;
  unsigned Off;
  if (defineAt(Spell, File, Off, &Name)) {
    int M = macroEntity(File, Off, Name);
    unite(M, FnEnt);
    return M;
  }
  return FnEnt;
}

bool Wave64Analysis::Impl::inWarpMacro(const IntegerLiteral *IL,
                                       std::string *MName) {
  SourceLocation L = IL->getLocation();
  if (!L.isMacroID() || !SM.isMacroBodyExpansion(L))
    return false;
  SourceLocation Spell = SM.getSpellingLoc(L);
  std::string File, Name;
  unsigned Off;
  if (!defineAt(Spell, File, Off, &Name) || !warpName(Name))
    return false;
  llvm::StringRef Buf = Src.contents(File);
  llvm::StringRef Line = Buf.drop_front(Off);
  Line = Line.take_until([](char C) { return C == '\n'; });
  // "#define NAME <ws> [(] literal [)]"
  size_t P = Line.find(Name);
  if (P == llvm::StringRef::npos)
    return false;
  llvm::StringRef Body = Line.drop_front(P + Name.size());
  if (Body.starts_with("("))
    return false; // function-like
  Body = Body.trim(" \t\r(").rtrim(" \t\r)");
  if (Body != tokText(Spell))
    return false;
  if (MName)
    *MName = Name;
  return true;
}

std::string Wave64Analysis::Impl::tokText(SourceLocation Spell) {
  unsigned Len = Lexer::MeasureTokenLength(Spell, SM, LO);
  bool Invalid = false;
  const char *P = SM.getCharacterData(Spell, &Invalid);
  if (Invalid)
    return "";
  return std::string(P, Len);
}

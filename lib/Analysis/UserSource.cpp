//===- UserSource.cpp - the user's files of a parsed translation unit -----===//
// Rules: none (shared infrastructure)
#include "pk/UserSource.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace pk;
using namespace clang;

UserSource::UserSource(const ParsedFile &PF) : PF(PF) {
  for (const auto &F : PF.UserFiles)
    UserFiles.insert(F);
}

SourceManager &UserSource::SM() const { return PF.AST->getSourceManager(); }
ASTContext &UserSource::Ctx() const { return PF.AST->getASTContext(); }

std::string UserSource::fileOf(SourceLocation Loc) const {
  SourceManager &S = SM();
  FileID FID = S.getFileID(S.getSpellingLoc(Loc));
  OptionalFileEntryRef FE = S.getFileEntryRefForID(FID);
  if (!FE)
    return "";
  llvm::SmallString<256> P(FE->getName());
  llvm::sys::fs::make_absolute(P);
  llvm::sys::path::remove_dots(P, true);
  return P.str().str();
}

const std::vector<clang::Decl *> &UserSource::userTopLevelDecls() const {
  if (!UserDecls) {
    UserDecls.emplace();
    // What is in memory: the user's declarations are never loaded from a
    // precompiled prelude (ParseCache.h).
    for (clang::Decl *D : Ctx().getTranslationUnitDecl()->noload_decls())
      if (isUserLoc(D->getLocation()))
        UserDecls->push_back(D);
  }
  return *UserDecls;
}

const ParentIndex &UserSource::parentIndex() const {
  if (!PF.Parents)
    PF.Parents = std::make_unique<ParentIndex>(Ctx(), PF.UserScope);
  return *PF.Parents;
}

bool UserSource::isUserLoc(SourceLocation Loc) const {
  if (Loc.isInvalid())
    return false;
  return isUserFile(fileOf(SM().getFileLoc(Loc)));
}

llvm::StringRef UserSource::contents(llvm::StringRef File) const {
  auto It = Cache.find(File);
  if (It != Cache.end())
    return It->second;
  // The buffer lives as long as the parsed file: no copy of the text.
  llvm::StringRef Text;
  auto FE = SM().getFileManager().getFileRef(File);
  if (FE) {
    if (auto Buf = SM().getMemoryBufferForFileOrNone(*FE))
      Text = Buf->getBuffer();
  }
  return Cache[File] = Text;
}

std::string UserSource::text(SourceRange R) const {
  SourceManager &S = SM();
  const LangOptions &LO = Ctx().getLangOpts();
  CharSourceRange FR =
      Lexer::makeFileCharRange(CharSourceRange::getTokenRange(R), S, LO);
  if (FR.isInvalid())
    FR = CharSourceRange::getTokenRange(S.getSpellingLoc(R.getBegin()),
                                        S.getSpellingLoc(R.getEnd()));
  return Lexer::getSourceText(FR, S, LO).str();
}

std::string UserSource::text(const Expr *E) const {
  return text(E->getSourceRange());
}

//===- UserSource.h - the user's files of a parsed translation unit -------===//
// Rules: none (shared infrastructure)
//
// What an analysis reads of a translation unit besides the AST: its
// SourceManager and ASTContext, which files are the user's (the main file and
// its local headers; system headers are never analysed or edited), and their
// text as written.
//
//===----------------------------------------------------------------------===//
#ifndef PK_USERSOURCE_H
#define PK_USERSOURCE_H

#include "pk/Frontend.h"
#include "pk/ParentIndex.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class Decl;
class Expr;
class SourceManager;
} // namespace clang

namespace pk {

class UserSource {
public:
  explicit UserSource(const ParsedFile &PF);

  clang::SourceManager &SM() const;
  clang::ASTContext &Ctx() const;

  /// True when \p Loc's spelling lies in one of the user's files (the
  /// expansion site for macros).
  bool isUserLoc(clang::SourceLocation Loc) const;
  bool isUserFile(llvm::StringRef AbsPath) const {
    return UserFiles.count(AbsPath);
  }
  /// Absolute path of the file \p Loc is spelled in ("" when none).
  std::string fileOf(clang::SourceLocation Loc) const;
  /// Original contents of a user file.
  llvm::StringRef contents(llvm::StringRef File) const;
  /// The top-level declarations of the translation unit that lie in the
  /// user's files (isUserLoc of their location), in order. A traversal
  /// whose findings all lie in the user's code (every Visit gated by
  /// isUserLoc of what it records, no template instantiations) walks these
  /// instead of the whole translation unit, the toolkit's headers included:
  /// the same findings, without the headers' declarations (most of a TU;
  /// docs/performance.md, "Where the time goes").
  const std::vector<clang::Decl *> &userTopLevelDecls() const;

  /// The parents of \p Node, as ASTContext::getParents gives them, for the
  /// statements and declarations of the user's code (pk/ParentIndex.h);
  /// clang's own parent map, which records every TypeLoc too, is never
  /// built.
  template <typename T> clang::DynTypedNodeList parents(const T &Node) const {
    return parentIndex().parents(Node);
  }
  const ParentIndex &parentIndex() const;

  /// Source text of a range or an expression as the user wrote it.
  std::string text(clang::SourceRange R) const;
  std::string text(const clang::Expr *E) const;

private:
  const ParsedFile &PF;
  llvm::StringSet<> UserFiles;
  /// The source manager's buffer of each file asked for (no copy).
  mutable llvm::StringMap<llvm::StringRef> Cache;
  mutable std::optional<std::vector<clang::Decl *>> UserDecls;
};

} // namespace pk
#endif

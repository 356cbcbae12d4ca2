//===- Edit.h - provenance-carrying source edits ---------------------------===//
#ifndef PK_EDIT_H
#define PK_EDIT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <map>
#include <string>
#include <vector>

namespace pk {

/// One replacement in one file.  Every edit names the rule that made it and
/// why, so diagnostics and reports never have to re-derive the reason.
struct Edit {
  std::string File;        ///< absolute path of the file edited
  unsigned Offset = 0;     ///< byte offset in the original text
  unsigned Length = 0;     ///< bytes replaced (0 = insertion)
  std::string Replacement;
  std::string RuleID;      ///< e.g. PK1001 (pk::ruleName)
  std::string Why;         ///< one-line explanation
  unsigned Line = 0, Col = 0; ///< 1-based position of Offset (for reports)

  bool operator==(const Edit &O) const {
    return File == O.File && Offset == O.Offset && Length == O.Length &&
           Replacement == O.Replacement && RuleID == O.RuleID;
  }
};

/// The edits of one file.  Overlapping edits that are not identical are a
/// conflict and an error -- never a silent overwrite.  Insertions at the same
/// offset are kept in the order they were added.
class FileEdits {
public:
  /// Adds \p E; returns an error naming both rules on conflict.
  llvm::Error add(Edit E);
  /// Applies the edits to \p Original.
  std::string apply(llvm::StringRef Original) const;
  const std::vector<Edit> &edits() const { return Edits; }
  bool empty() const { return Edits.empty(); }

private:
  std::vector<Edit> Edits; // kept sorted by (Offset, insertion order)
};

/// Edits across files.
class EditSet {
public:
  llvm::Error add(Edit E) { return Files[E.File].add(std::move(E)); }
  /// Merges another set (e.g. from another translation unit that saw the
  /// same header); identical edits merge, differing overlapping ones conflict.
  llvm::Error merge(const EditSet &Other);
  const std::map<std::string, FileEdits> &files() const { return Files; }
  FileEdits *find(llvm::StringRef File) {
    auto It = Files.find(File.str());
    return It == Files.end() ? nullptr : &It->second;
  }

private:
  std::map<std::string, FileEdits> Files;
};

} // namespace pk
#endif

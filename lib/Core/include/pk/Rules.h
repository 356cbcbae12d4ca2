//===- Rules.h - rule metadata, rename tables, findings --------------------===//
#ifndef PK_RULES_H
#define PK_RULES_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace pk {

enum class Severity { Note, Warning, Error };
llvm::StringRef severityName(Severity S);

/// A diagnostic the tool reports (clang style on stderr, as a comment in the
/// output at the affected line, and in reports).
struct Finding {
  std::string RuleID;
  Severity Sev = Severity::Warning;
  std::string File;
  unsigned Line = 0, Col = 0;
  unsigned Offset = 0; ///< byte offset in File (for placing the comment)
  std::string Message;
};

/// Metadata of one rule: every rewrite or finding has one.
struct RuleInfo {
  std::string ID;
  std::string Title;
  std::string Kind; ///< "rename" (YAML data), "rewrite" (C++), "diagnostic"
};

/// All rules known to the tool.  C++ rules register through registerRule();
/// YAML tables register their IDs when loaded.
class RuleRegistry {
public:
  static RuleRegistry &get();
  void add(RuleInfo R);
  const RuleInfo *find(llvm::StringRef ID) const;
  std::vector<RuleInfo> all() const; ///< sorted by ID
private:
  llvm::StringMap<RuleInfo> Rules;
};

/// Static registration helper for C++ rules:
///   static pk::RegisterRule X("PK2001", "title", "rewrite");
struct RegisterRule {
  RegisterRule(const char *ID, const char *Title, const char *Kind);
};

/// The documentation page of a rule (docs/rules/<ID>.md), embedded at build
/// time; empty when there is none.
llvm::StringRef ruleDoc(llvm::StringRef ID);
/// IDs that have a documentation page.
std::vector<std::string> documentedRuleIDs();

/// One row of a rename table (rules/cuda2hip/*.yaml).
struct RenameEntry {
  std::string Cuda, Hip;
  std::string Unsupported; ///< non-empty: no counterpart; reason
  std::string Note;
  std::string Kind;        ///< optional: function, type, enum, macro
  bool Reverse = true;     ///< usable for HIP -> CUDA
  std::string RuleID;      ///< filled from the table
  std::string File;        ///< table file (for error messages)
};

struct RenameTable {
  std::string Rule, Title, Kind; ///< Kind: "" (identifiers) or "header"
  std::vector<RenameEntry> Entries;
};

/// All loaded rename tables, indexed for both directions.
class RenameDB {
public:
  /// Loads every *.yaml file in \p Dir (sorted by name); errors carry
  /// file:line.
  llvm::Error loadDirectory(llvm::StringRef Dir);
  llvm::Error loadFile(llvm::StringRef Path);

  /// Identifier lookup. ToHip = CUDA -> HIP, else HIP -> CUDA.
  const RenameEntry *lookup(llvm::StringRef Name, bool ToHip) const;
  /// Header lookup by spelled name (e.g. "cuda_runtime.h").
  const RenameEntry *lookupHeader(llvm::StringRef Name, bool ToHip) const;
  size_t size() const { return NumEntries; }
  const std::vector<RenameTable> &tables() const { return Tables; }

private:
  std::vector<RenameTable> Tables;
  llvm::StringMap<RenameEntry> CudaToHip, HipToCuda, HdrToHip, HdrToCuda;
  size_t NumEntries = 0;
};

} // namespace pk
#endif

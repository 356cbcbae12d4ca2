//===- Rules.h - rule metadata, rename tables, findings
//--------------------===//
// Rules: none (rule metadata)
#ifndef PK_RULES_H
#define PK_RULES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"
#include <optional>
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

/// Every built-in rule, by its ID (lib/Core/include/pk/RuleTable.def).  Code
/// names a rule as RuleId::PK2001; a misspelt ID does not compile.
enum class RuleId : unsigned {
#define PK_RULE(ID, KIND, TARGETS, TITLE) ID,
#include "pk/RuleTable.def"
};

enum class RuleKind { Rename, Rewrite, Diagnostic };
llvm::StringRef ruleKindName(RuleKind K); ///< "rename", "rewrite", "diagnostic"

/// One row of the rule table.
struct RuleSpec {
  RuleId Id;
  const char *Name; ///< RuleId::PK2001
  RuleKind Kind;
  const char *Targets; ///< "hip,cuda", "all", "emu", ...
  const char *Title;
};
/// The rule table, in ID order.
llvm::ArrayRef<RuleSpec> ruleTable();
const RuleSpec &ruleSpec(RuleId Id);
/// RuleId::PK2001.
llvm::StringRef ruleName(RuleId Id);
/// The built-in rule named \p Name, if any.
std::optional<RuleId> findRuleId(llvm::StringRef Name);

/// The rule an edit or finding is attributed to: a built-in rule (implicit
/// from RuleId) or the ID of a user rename table (--rules), which the loader
/// has checked not to collide with a built-in one.  There is deliberately no
/// conversion from a string literal.
class RuleRef {
public:
  RuleRef(RuleId Id) : Name(ruleName(Id)) {}
  /// A rule ID read from a rename table (built-in or --rules).
  static RuleRef fromTable(llvm::StringRef ID) { return RuleRef(ID); }
  llvm::StringRef name() const { return Name; }
  bool operator==(RuleId Id) const { return Name == ruleName(Id); }

private:
  explicit RuleRef(llvm::StringRef N) : Name(N) {}
  llvm::StringRef Name;
};

/// Metadata of one rule as listed by `port-kernel rules`: the rule table's
/// rows and the tables loaded with --rules.
struct RuleInfo {
  std::string ID;
  std::string Title;
  std::string Kind; ///< "rename" (YAML data), "rewrite" (C++), "diagnostic"
};

/// All rules known to the tool: the rule table, plus user rename tables.
class RuleRegistry {
public:
  static RuleRegistry &get();
  /// Registers a user table's rule; the ID must not be a built-in one.
  void addUser(RuleInfo R);
  const RuleInfo *find(llvm::StringRef ID) const;
  std::vector<RuleInfo> all() const; ///< sorted by ID

private:
  RuleRegistry();
  llvm::StringMap<RuleInfo> Rules;
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
  std::string Kind;    ///< optional: function, type, enum, macro
  bool Reverse = true; ///< usable for HIP -> CUDA
  std::string RuleID;  ///< filled from the table
  std::string File;    ///< table file (for error messages)
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
  /// \p BuiltIn: a table of rules/ (its rule must be a Rename row of the rule
  /// table); otherwise a user table (--rules) whose ID must be new.
  llvm::Error loadFile(llvm::StringRef Path, bool BuiltIn = false);

  /// Identifier lookup. ToHip = CUDA -> HIP, else HIP -> CUDA.
  const RenameEntry *lookup(llvm::StringRef Name, bool ToHip) const;
  /// Header lookup by spelled name (e.g. "cuda_runtime.h").
  const RenameEntry *lookupHeader(llvm::StringRef Name, bool ToHip) const;
  size_t size() const { return NumEntries; }
  const std::vector<RenameTable> &tables() const { return Tables; }

private:
  std::vector<RenameTable> Tables;
  llvm::StringMap<RenameEntry> CudaToHip, HipToCuda, HdrToHip, HdrToCuda;
  llvm::StringSet<> LoadedRules;
  size_t NumEntries = 0;
};

} // namespace pk
#endif

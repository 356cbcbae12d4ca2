//===- Config.h - .port-kernel.yaml configuration files -------------------===//
// Rules: none (configuration; docs/configuration.md)
//
// As clang-tidy's .clang-tidy:
//   * the nearest .port-kernel.yaml above a file configures it;
//     `InheritParentConfig: true` merges it onto the next one up;
//   * --config-file FILE / --config 'YAML' replace the files found (or, with
//     InheritParentConfig, go on top of them); command-line options go on
//     top of everything;
//   * Checks and WarningsAsErrors are clang-tidy glob lists
//     ("-*,PK21*,-PK2104": comma separated, later wins, '-' negates, '*' the
//     only wildcard); merged lists are concatenated, so a nearer file or the
//     command line wins where they disagree.
// Checks and WarningsAsErrors are per file (a finding follows the
// configuration of the file it is in); the other keys configure the whole
// run, and the configurations of the inputs must agree on them.
//
//===----------------------------------------------------------------------===//
#ifndef PK_CONFIG_H
#define PK_CONFIG_H

#include "pk/Rules.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace pk {

/// The name of a configuration file.
constexpr const char *ConfigFileName = ".port-kernel.yaml";
/// The largest configuration file read: 1 MiB.
constexpr uint64_t MaxConfigBytes = uint64_t(1) << 20;

/// \p P made absolute against the current directory, "." and ".." removed
/// (links are not resolved).
std::string absPathOf(llvm::StringRef P);

/// '*' matches any run of characters; everything else matches itself
/// (case-sensitive, as rule IDs are upper case).
bool ruleGlobMatch(llvm::StringRef Glob, llvm::StringRef Rule);

/// One pattern of a glob list.
struct RulePattern {
  std::string Glob;   ///< without the leading '-'
  bool Positive = true;
  std::string Origin; ///< "FILE:LINE", "--checks", "default", ...
  bool hasWildcard() const { return Glob.find('*') != std::string::npos; }
  std::string spelling() const { return (Positive ? "" : "-") + Glob; }
};

/// A clang-tidy glob list.
class RuleGlobList {
public:
  /// Parses "A,-B,C*": items separated by commas or newlines, blanks
  /// around them dropped, empty items ignored (a trailing comma is fine).
  static RuleGlobList parse(llvm::StringRef Text, llvm::StringRef Origin);
  /// Adds \p Later's patterns after these (they win).
  void append(const RuleGlobList &Later);
  /// The last pattern that matches \p Rule, or null.
  const RulePattern *decide(llvm::StringRef Rule) const;
  /// Whether \p Rule is selected: the polarity of the last matching
  /// pattern, false when none matches.
  bool contains(llvm::StringRef Rule) const;
  const std::vector<RulePattern> &patterns() const { return Pats; }
  bool empty() const { return Pats.empty(); }
  /// The patterns joined by commas.
  std::string str() const;

private:
  std::vector<RulePattern> Pats;
};

/// The values each key accepts (the command-line options' values), given by
/// the caller so that the option definitions stay the one list.
struct ConfigSchema {
  std::vector<std::string> Targets, Wave64, MfmaShape, LdsPadding;
  std::vector<unsigned> RocmVersion;
  /// Key -> the value when nothing sets it ("To" -> "hip", ...).
  std::map<std::string, std::string> Defaults;
};

/// The name of the layer of command-line options: its values come from
/// "--checks", "--to", ...
constexpr const char *CommandLineName = "the command line";

/// One configuration: a file, --config text or the command line.  Paths are
/// absolute (a file's relative paths start at its directory).
struct ConfigLayer {
  std::string Name; ///< the file's path, "--config", "the command line"
  bool IsFile = false;
  std::optional<std::string> Checks, WarningsAsErrors, To, Wave64, MfmaShape,
      LdsPadding, Baseline, SrcRoot;
  std::optional<unsigned> RocmVersion;
  std::optional<std::vector<std::string>> Rules;
  bool InheritParentConfig = false;
  /// Key -> line of the key in the file (1-based), for messages.
  std::map<std::string, unsigned> KeyLine;
  /// Where \p Key was set: "FILE:LINE" for a file, else Name.
  std::string origin(llvm::StringRef Key) const;
};

/// Parses configuration text.  \p Name names it in errors ("NAME:LINE:COL:
/// error: what and why"), \p BaseDir resolves its relative paths.  Unknown
/// keys, values of the wrong kind, unknown values, more than one document,
/// invalid UTF-8 and nesting deeper than SafeIO's YAML limit are errors.
llvm::Expected<ConfigLayer> parseConfig(llvm::StringRef Text,
                                        llvm::StringRef Name,
                                        llvm::StringRef BaseDir,
                                        const ConfigSchema &Schema,
                                        bool IsFile = true);
/// Reads (registering it in the ReadSet) and parses a configuration file;
/// anything but a regular file (a directory, a link that cannot be
/// followed, a FIFO) is an error.
llvm::Expected<ConfigLayer> readConfigFile(llvm::StringRef Path,
                                           const ConfigSchema &Schema);

/// The configuration of one file: every key's value and where it came from.
struct EffectiveConfig {
  struct Value {
    std::string V;
    std::vector<std::string> From; ///< origins; empty: the default
  };
  RuleGlobList Checks, WarningsAsErrors;
  std::vector<std::string> ChecksFrom, WarningsAsErrorsFrom;
  Value To, Wave64, MfmaShape, LdsPadding, RocmVersion, Baseline, SrcRoot;
  std::vector<std::string> Rules; ///< absolute
  std::vector<std::string> RulesFrom;
  /// The configuration files used, farthest first.
  std::vector<std::string> Files;
  /// The layers merged, farthest first (for validation).
  std::vector<const ConfigLayer *> Layers;
  /// A key's value as text ("Rules": the paths joined by commas) and its
  /// origins.
  std::pair<std::string, std::vector<std::string>>
  get(llvm::StringRef Key) const;
};

/// The command-line option of a configuration key ("To" -> "--to").
llvm::StringRef optionOfKey(llvm::StringRef Key);

/// What a finding becomes under a configuration.
enum class FindingAction { Keep, Drop, Promote };

/// Decides, per file, which findings are reported and which are errors.
class FindingPolicy {
public:
  virtual ~FindingPolicy() = default;
  /// \p File: absolute path of the finding's file.
  virtual FindingAction decide(llvm::StringRef File, llvm::StringRef Rule,
                               Severity Sev) = 0;
  /// The first error met while deciding (a configuration file that cannot
  /// be read), or success.
  virtual llvm::Error takeError() = 0;
  /// Every configuration file read so far (absolute, sorted).
  virtual std::vector<std::string> files() const = 0;
  /// Checks the patterns of the configurations read so far (see
  /// ConfigResolver::validatePatterns).
  virtual llvm::Error validatePatterns(llvm::raw_ostream &Diag) = 0;
};

/// What the policy does with a finding of \p Rule (kind \p Kind: "rename",
/// "rewrite", "diagnostic") at severity \p Sev under \p C: a rule disabled
/// by Checks loses its notes and warnings, except the warnings of rewrite
/// and rename rules (an edit that could not be made); errors are never
/// dropped; a warning of a rule WarningsAsErrors selects becomes an error.
FindingAction decideFinding(const EffectiveConfig &C, llvm::StringRef Rule,
                            llvm::StringRef Kind, Severity Sev);

/// Finds, reads, merges and caches configurations.
class ConfigResolver : public FindingPolicy {
public:
  /// \p Explicit: --config or --config-file (replaces the files found,
  /// unless it inherits); \p CommandLine: the options given.
  ConfigResolver(ConfigSchema Schema, std::optional<ConfigLayer> Explicit,
                 ConfigLayer CommandLine);
  /// The effective configuration of the file (or directory) \p Path.
  llvm::Expected<const EffectiveConfig *> forPath(llvm::StringRef Path);

  /// Problems of the patterns of every layer read so far, against the
  /// rules the registry knows now (after --rules tables are loaded):
  /// errors (a rewrite or rename rule named in a negative Checks pattern)
  /// are returned; warnings (a pattern that matches no rule) are written
  /// to \p Diag, once each.
  llvm::Error validatePatterns(llvm::raw_ostream &Diag) override;

  FindingAction decide(llvm::StringRef File, llvm::StringRef Rule,
                       Severity Sev) override;
  llvm::Error takeError() override;
  std::vector<std::string> files() const override;

  const ConfigSchema &schema() const { return Schema; }

  /// The configuration of the whole run over \p Files (the inputs): their
  /// effective configurations must agree on each of \p Keys (the keys that
  /// configure the run, not a file); otherwise the error names the two
  /// files and where each got its value.  With no files: the current
  /// directory's.
  llvm::Expected<const EffectiveConfig *>
  runConfig(llvm::ArrayRef<std::string> Files,
            llvm::ArrayRef<llvm::StringRef> Keys);

private:
  /// The chain of files (farthest first) that configures directory \p Dir.
  llvm::Expected<std::vector<const ConfigLayer *>>
  chainFor(const std::string &Dir);
  llvm::Expected<const ConfigLayer *> layerIn(const std::string &Dir);

  ConfigSchema Schema;
  std::optional<ConfigLayer> Explicit;
  ConfigLayer CommandLine;
  std::map<std::string, std::unique_ptr<ConfigLayer>> FileLayers; ///< by path
  std::map<std::string, const ConfigLayer *> LayerInDir; ///< null: none
  std::map<std::string, std::unique_ptr<EffectiveConfig>> ByDir;
  std::vector<std::string> Warned;
  std::string FirstError;
  mutable std::recursive_mutex M;
};

/// The effective configuration as YAML that a .port-kernel.yaml may hold,
/// each value with where it came from as a comment.
void writeEffectiveConfig(llvm::raw_ostream &OS, const EffectiveConfig &C,
                          llvm::StringRef ForFile);

} // namespace pk
#endif

//===- Driver.h - files in, translated files out
//---------------------------===//
// Rules: PK9001, PK9002 (the driver reports them)
#ifndef PK_DRIVER_H
#define PK_DRIVER_H

#include "pk/Config.h"
#include "pk/Frontend.h"
#include "pk/PortService.h"
#include "pk/Rules.h"
#include "pk/Shard.h"
#include "pk/TargetContext.h"
#include "llvm/Support/raw_ostream.h"
#include <functional>
#include <map>
#include <set>

namespace pk {

struct DriverOptions {
  FrontendOptions FE;
  TargetOptions TO;
  std::vector<Target> Targets;
  std::string OutDir;
  bool InPlace = false;
  unsigned Jobs = 1;
  std::vector<std::string> RuleFiles; ///< extra user YAML tables
  std::string RulesDir;               ///< built-in tables (rules/cuda2hip)
  std::string ReportJson;             ///< write a JSON report here
  /// --depfile FILE: with the outputs, a Makefile-syntax depfile naming
  /// every file the run read (build-system actions, docs/ci.md).
  std::string DepFile;
  bool Quiet = false;
  /// --strict: one input that cannot be ported fails the whole run (nothing
  /// written).  Otherwise every file that parses is ported and each one that
  /// does not is reported (PK9100, exit 4).
  bool Strict = false;
  /// --shard K/N: only the translation units of shard K (pk/Shard.h).
  ShardSpec Shard;
  /// Called after each translation unit (or lone header) is done, with the
  /// number done, the number known so far and the file; calls are serialised.
  std::function<void(size_t Done, size_t Total, llvm::StringRef File)> Progress;
  /// Checks and WarningsAsErrors of each finding's file (pk/Config.h):
  /// translate() drops the findings it disables and, for `port`, makes the
  /// warnings it promotes errors; null: every finding as the rules report it.
  std::shared_ptr<FindingPolicy> Policy;
};

/// An input that could not be ported: its path and clang's reasons
/// (`file:line:col: error: ...` lines).
struct FileFailure {
  std::string Path;
  std::string Reason;
};

/// Result of porting a set of inputs to one target, in memory.
struct TargetOutput {
  Target T;
  /// output path (absolute) -> contents
  std::map<std::string, std::string> Files;
  /// input path -> output path
  std::map<std::string, std::string> OutputOf;
  std::vector<Finding> Findings;
  /// Findings the policy disabled (not reported; NOPK comments that name
  /// them are not stale).
  std::vector<Finding> Disabled;
  /// (file, offset, rule) of the findings WarningsAsErrors made errors.
  std::set<std::tuple<std::string, unsigned, std::string>> Promoted;
  std::vector<Edit> Edits; ///< every edit with its provenance
  std::map<std::string, unsigned> Counts;
  /// input path -> hardware features its output needs (TargetContext::Needs)
  std::map<std::string, std::set<std::string>> Needs;
  /// input path -> the origins of its generated output's lines
  /// (TargetContext::GenLines)
  std::map<std::string, std::vector<GeneratedLine>> GenLines;
};

class Driver : public PortService {
public:
  Driver(DriverOptions O, llvm::raw_ostream &Diag);
  llvm::Error init(); ///< loads the rule tables

  /// `port`: translate and write.  Returns the process exit code.
  int port(llvm::ArrayRef<std::string> Paths);
  /// `check`: findings only, nothing written.
  int check(llvm::ArrayRef<std::string> Paths);

  /// Which passes of the targets run: those of `port` or of `check`.
  enum class RunMode { Port, Check };
  /// Ports in memory (nothing written).  With \p Failed, an input that
  /// cannot be parsed or translated is left out (no output of its own) and
  /// listed there, and the rest is ported; without it, any failure fails the
  /// whole call.
  /// A C++ source without CUDA in it (a CPU reference's gold.cpp) is parsed
  /// as a unit, so that the local headers it includes come along, when it is
  /// named on the command line or \p SourcesAreUnits (the translation units
  /// of one program, as `validate --program` names them); found by walking a
  /// directory, it is copied as it is.
  llvm::Expected<std::vector<TargetOutput>>
  translate(llvm::ArrayRef<std::string> Paths, llvm::ArrayRef<Target> Targets,
            llvm::StringRef OutRoot, RunMode Mode = RunMode::Port,
            std::vector<FileFailure> *Failed = nullptr,
            bool SourcesAreUnits = false);

  // PortService
  llvm::Error portFiles(llvm::ArrayRef<std::string> Inputs, Target T,
                        llvm::StringRef OutDir,
                        std::vector<std::string> &OutPaths) override;
  /// One parse for every target (translate with all of them).
  llvm::Error
  portFilesToTargets(llvm::ArrayRef<std::string> Inputs,
                     llvm::ArrayRef<Target> Targets,
                     llvm::ArrayRef<std::string> OutDirs,
                     std::vector<std::vector<std::string>> &OutPaths) override;
  llvm::Expected<std::string> emuPrepare(llvm::StringRef MainFile, bool IsHip,
                                         llvm::StringRef OutDir) override;
  llvm::Expected<std::string>
  emuPrepareWithFlags(llvm::StringRef MainFile, bool IsHip,
                      llvm::StringRef OutDir,
                      llvm::ArrayRef<std::string> BuildFlags) override;
  bool isHipSource(llvm::StringRef File) const override;

  const RenameDB &renames() const { return DB; }
  /// Absolute paths of every file the last translate() read.
  const std::set<std::string> &readFiles() const { return ReadFiles; }
  /// What the last translate()'s results depend on, for a depfile: the
  /// files it read (inputs and the user headers they include), the rule
  /// tables (built-in and --rules) and the compilation database; absolute,
  /// sorted.
  std::vector<std::string> dependencies() const;

private:
  DriverOptions O;
  llvm::raw_ostream &Diag;
  RenameDB DB;
  /// Absolute paths of every file the last translate() read.
  std::set<std::string> ReadFiles;
  void printFindings(const TargetOutput &TO);
  /// emuPrepare's work, run by it under crash recovery (pk/CrashGuard.h);
  /// with \p BuildFlags, as emuPrepareWithFlags.
  llvm::Expected<std::string>
  emuPrepareUnguarded(llvm::StringRef MainFile, bool IsHip,
                      llvm::StringRef OutDir,
                      const std::vector<std::string> *BuildFlags = nullptr);
};

/// A Makefile-syntax depfile: "TARGET...: DEP..." with spaces, '#', ':' and
/// '$' escaped as make and ninja read them (pk::depfileEscape); a path no
/// depfile can hold is an error.
llvm::Expected<std::string> depfileText(llvm::ArrayRef<std::string> Targets,
                        llvm::ArrayRef<std::string> Deps);

/// Writes \p Contents to \p Path atomically (temporary file + rename).
llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Contents);

} // namespace pk
#endif

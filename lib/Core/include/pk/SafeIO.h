//===- SafeIO.h - the one I/O layer of every subcommand --------------------===//
// Rules: PK9001
//
// Two halves, one guarantee: no write lands on a file the run reads.
//
//  * Reads.  Every file a subcommand reads (sources and the headers they
//    include, rule files, compilation databases, baselines, merge inputs,
//    case files) is registered in the process's ReadSet with the role it
//    plays ("an input", "the --baseline file", ...).  readFile() and
//    readJsonFile() read and register in one call, with a size limit, and
//    readJsonFile() refuses nesting deeper than a limit before the
//    (recursive) JSON parser sees the text.
//
//  * Writes.  Every file a subcommand writes is declared in a WritePlan with
//    its role ("-o", "--depfile", "the merged report", ...).  check() refuses,
//    before anything is written, an output that would land on a file the run
//    read (compared by real path), two outputs on one path, an output that
//    is a symbolic link (the write would replace the link), and an output
//    that names a directory; each message names both roles.  write() then
//    stages every output and commits them all or none (OutputTransaction),
//    with interrupts deferred, so a failed or interrupted run leaves no
//    output and no temporary file.
//
// A subcommand that adds a flag naming a path only has to declare it: the
// checks come with the plan (docs/security.md).
//
//===----------------------------------------------------------------------===//
#ifndef PK_SAFEIO_H
#define PK_SAFEIO_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pk {

/// Where a write to \p P would land: the real path of its deepest existing
/// ancestor followed by the rest (symbolic links in the existing part
/// resolved; \p P itself resolved when it exists).
std::string landingPath(llvm::StringRef P);

/// The files this process has read, by landing path, with their roles.
/// Thread-safe.
class ReadSet {
public:
  static ReadSet &get();
  /// Registers \p Path (any spelling) as read in \p Role.  The first role
  /// registered for a file is kept.  An empty \p Role registers nothing (a
  /// file only looked at, e.g. an output's previous contents).
  void note(llvm::StringRef Path, llvm::StringRef Role);
  /// The role of the read file at landing path \p Landing, if any.
  std::optional<std::string> roleOf(llvm::StringRef Landing) const;
  /// The path the file was registered under.
  std::optional<std::string> pathOf(llvm::StringRef Landing) const;
  /// Forgets everything (tests, and a process that runs several commands).
  void clear();
};

inline void noteRead(llvm::StringRef Path, llvm::StringRef Role) {
  ReadSet::get().note(Path, Role);
}

/// The largest file read whole by readFile() unless the caller says
/// otherwise: 256 MiB.
constexpr uint64_t DefaultMaxReadBytes = uint64_t(256) << 20;
/// The largest JSON document readJsonFile() parses (llvm::json keeps about
/// 20 bytes of values per byte of text): 64 MiB.
constexpr uint64_t DefaultMaxJsonBytes = uint64_t(64) << 20;
/// The deepest JSON nesting readJsonFile() parses.
constexpr unsigned DefaultMaxJsonDepth = 512;

/// Reads \p Path whole and registers it as read in \p Role.  Errors are
/// "PATH: error: what" lines: missing, a directory, larger than \p MaxBytes,
/// unreadable.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readFile(llvm::StringRef Path, llvm::StringRef Role,
         uint64_t MaxBytes = DefaultMaxReadBytes);

/// Refuses JSON text nested deeper than \p MaxDepth (an iterative scan,
/// strings skipped): "NAME: error: line L: JSON nested deeper than N
/// levels; not read".
llvm::Error checkJsonNesting(llvm::StringRef Text, llvm::StringRef Name,
                             unsigned MaxDepth = DefaultMaxJsonDepth);

/// Parses JSON text from \p Name, refusing nesting deeper than \p MaxDepth
/// (with the line of the first level too deep) before parsing it.
llvm::Expected<llvm::json::Value>
parseJsonBounded(llvm::StringRef Text, llvm::StringRef Name,
                 unsigned MaxDepth = DefaultMaxJsonDepth);

/// readFile() + parseJsonBounded().
llvm::Expected<llvm::json::Value>
readJsonFile(llvm::StringRef Path, llvm::StringRef Role,
             uint64_t MaxBytes = DefaultMaxJsonBytes,
             unsigned MaxDepth = DefaultMaxJsonDepth);

/// The deepest YAML nesting a case file or rule table may have.
constexpr unsigned DefaultMaxYamlDepth = 256;

/// Refuses YAML text nested deeper than \p MaxDepth (LLVM's YAML reader
/// recurses once per level, so a deep document exhausts the stack): flow
/// brackets outside quotes and comments, block indentation levels and
/// compact "- - -" sequences are counted.  The error names \p Name and the
/// line: "NAME:LINE: error: YAML nested deeper than N levels; not read".
llvm::Error checkYamlNesting(llvm::StringRef Text, llvm::StringRef Name,
                             unsigned MaxDepth = DefaultMaxYamlDepth);

/// Every output of one subcommand's run.
class WritePlan {
public:
  struct Output {
    std::string Path; ///< absolute
    std::string Role; ///< the option or what it is: "-o", "--depfile", ...
    std::string Text;
    std::optional<unsigned> Mode;
    /// --in-place: the old contents stay at this path.
    std::string KeepBackupAs;
    /// --in-place: this output replaces a file the run read, on purpose.
    bool ReplacesInput = false;
  };

  /// Declares an output (made absolute); returns it so the text can be set
  /// once it is known.
  Output &add(llvm::StringRef Path, llvm::StringRef Role,
              std::string Text = "");
  std::vector<Output> &outputs() { return Outs; }
  const std::vector<Output> &outputs() const { return Outs; }
  bool empty() const { return Outs.empty(); }

  /// The checks (see the file comment), against every file read so far.
  /// The error is one "PATH: error: ... [PK9001]" line.
  llvm::Error check() const;

  /// check(), then every output or none.  Returns 0; 2 with the error and
  /// "port-kernel: no output written" on \p Diag; 130 when interrupted.
  int write(llvm::raw_ostream &Diag);

private:
  std::vector<Output> Outs;
};

} // namespace pk
#endif

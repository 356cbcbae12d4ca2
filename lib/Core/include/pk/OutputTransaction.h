//===- OutputTransaction.h - all of a run's outputs, or none --------------===//
// Rules: PK9001
//
// Every file a run writes (translated sources, copied files, the report, the
// in-place replacements of inputs) goes through one transaction:
//
//   stage()   writes the contents to a temporary file next to the
//             destination (same directory, so same filesystem), creating
//             missing directories, which are recorded;
//   commit()  moves existing destinations aside (backups in the same
//             directory), renames every staged file over its destination,
//             and on any failure puts every destination back as it was;
//   rollback  (on failure, interruption or destruction without commit)
//             removes staged files and the directories it created.
//
// Temporary files are registered with LLVM's RemoveFileOnSignal, so a crash
// during staging leaves none behind. SIGINT/SIGTERM/SIGHUP during staging or
// commit do not kill the process mid-write: they set a flag
// (InterruptGuard), the transaction rolls back, and the driver reports that
// no output was written.
//
//===----------------------------------------------------------------------===//
#ifndef PK_OUTPUTTRANSACTION_H
#define PK_OUTPUTTRANSACTION_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace pk {

/// While alive, interrupt signals (SIGINT, SIGTERM, SIGHUP) set a flag instead
/// of ending the process; interrupted() reads it.  One at a time.
class InterruptGuard {
public:
  InterruptGuard();
  ~InterruptGuard();
  static bool interrupted();
};

class OutputTransaction {
public:
  OutputTransaction() = default;
  OutputTransaction(const OutputTransaction &) = delete;
  OutputTransaction &operator=(const OutputTransaction &) = delete;
  ~OutputTransaction(); ///< rolls back unless committed

  /// Stages \p Contents for \p Path (absolute).  \p Mode: the permissions of
  /// the file to create (default: 0644 less the umask, or the existing
  /// destination's for a replacement).  \p KeepBackupAs: after a successful
  /// commit, the replaced destination's old contents stay at this path
  /// (--in-place's FILE.orig); must not exist.
  llvm::Error stage(llvm::StringRef Path, llvm::StringRef Contents,
                    std::optional<unsigned> Mode = std::nullopt,
                    llvm::StringRef KeepBackupAs = "");
  /// Makes every staged file visible at its destination, or none.
  llvm::Error commit();
  /// Removes what was staged or created; restores replaced destinations
  /// when called during a failed commit.
  void rollback();

  size_t size() const { return Staged.size(); }

  /// Destinations, in staging order.
  std::vector<std::string> destinations() const;

private:
  struct Entry {
    std::string Dest, Temp, Backup, KeepBackupAs;
    bool Committed = false;
  };
  std::vector<Entry> Staged;
  std::vector<std::string> CreatedDirs; ///< outermost first
  bool Done = false;

  llvm::Error makeParents(llvm::StringRef Dir);
};

} // namespace pk
#endif

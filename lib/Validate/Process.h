//===- Process.h - bounded child processes for validate ---------*- C++ -*-===//
// Rules: none (validation harness)
//
// `port-kernel validate` runs compilers and emulated programs it did not
// write. Each runs in a session of its own under a supervisor process (a
// child subreaper) and a wall-clock limit; when it ends, runs out of time or
// port-kernel is interrupted, the supervisor kills and reaps every process
// it started, daemons that left its session included. Its stdout and stderr
// are read
// through pipes and kept up to a bound (the first and last half of the bound;
// the middle is discarded and counted), so that a program printing 1 GB never
// makes port-kernel grow. An interrupt (SIGINT, SIGTERM, SIGHUP) kills every
// running child group and sets a flag that the harness polls.
//
//===----------------------------------------------------------------------===//
#ifndef PK_VALIDATE_PROCESS_H
#define PK_VALIDATE_PROCESS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>
#include <string>

namespace pk {
namespace validate {

/// What one stream of a child printed, bounded.
struct CapturedStream {
  std::string Text;          ///< head + note + tail when Dropped > 0
  std::uint64_t Total = 0;   ///< bytes the child wrote
  std::uint64_t Dropped = 0; ///< bytes discarded from the middle
};

struct BoundedResult {
  int Code = 0;             ///< exit status; -1 when killed by a signal
  int Signal = 0;           ///< the signal that ended it, if any
  bool TimedOut = false;    ///< killed at the time limit
  bool Interrupted = false; ///< killed because port-kernel was interrupted
  bool ExecFailed = false;  ///< could not be started
  /// Stopped because a line of its stdout satisfied the StopAtLine
  /// predicate (validate --stop-at); Code and Signal are the kill's.
  bool StoppedAtOutput = false;
  /// Processes the program left running when it ended (or was killed),
  /// which the supervisor then killed and reaped.
  unsigned Strays = 0;
  std::string ErrMsg;
  CapturedStream Out, Err;
};

/// Runs \p Program (a path: no search, no shell) with \p Args (argv[0] is
/// added) in a new session, in \p Cwd when given. \p TimeoutSec == 0: no
/// limit. \p Cap: bytes kept per stream. When \p MergeStderr, stderr goes
/// to the stdout pipe. \p StopAtLine, when set, sees each complete line of
/// stdout (without its newline; a line is cut at 64 KiB for it) as it
/// arrives; when it returns true the program is stopped as at the time limit
/// and StoppedAtOutput is set. Returns after the program and every process
/// it started are gone.
BoundedResult
runBounded(llvm::StringRef Program, llvm::ArrayRef<std::string> Args,
           std::optional<llvm::ArrayRef<llvm::StringRef>> Env,
           unsigned TimeoutSec, std::size_t Cap, bool MergeStderr = false,
           llvm::StringRef Cwd = "",
           llvm::function_ref<bool(llvm::StringRef)> StopAtLine = nullptr);

/// While alive, SIGINT/SIGTERM/SIGHUP make every running supervisor kill
/// its program and set interrupted(), and this process is a child subreaper;
/// at the end, any process reparented here is killed and reaped and the
/// previous behaviour is restored.
class ChildInterruptGuard {
public:
  ChildInterruptGuard();
  ~ChildInterruptGuard();
  static bool interrupted();

private:
  bool WasSubreaper = false;
};

} // namespace validate
} // namespace pk

#endif // PK_VALIDATE_PROCESS_H

//===- Validate.h - run kernels and programs under the SIMT emulator ------===//
// Rules: none (validation harness)
//
// `port-kernel validate`: ports corpus cases (kernel + spec + CPU reference)
// or whole programs to each target, builds them against the emulator, runs
// them and compares the results.  See docs/validate.md.
//
//===----------------------------------------------------------------------===//
#ifndef PK_VALIDATE_H
#define PK_VALIDATE_H

#include "pk/PortService.h"
#include "llvm/Support/raw_ostream.h"
#include <cstddef>
#include <string>
#include <vector>

namespace pk {

/// How emulator programs are compiled; filled by the CLI from CMake-configured
/// paths.
struct EmuToolchain {
  std::string ClangXX; ///< e.g. /usr/lib/llvm-19/bin/clang++
  std::vector<std::string>
      CompileFlags; ///< shim -I, -include prelude, sanitizer flags, ...
  std::vector<std::string>
      LinkFlags; ///< libpkemu.a -lboost_context -lpthread ...
};

/// An emulator check that --allow can relax (the emulator's PKEMU_ALLOW).
struct RelaxableCheck {
  const char *Name; ///< as --allow names it
  const char *What; ///< what its reports are about
};
inline constexpr RelaxableCheck RelaxableChecks[] = {
    {"race-shared", "data races on shared memory"},
    {"uninit-shared", "reads of shared memory that no thread has written"},
};

struct ValidateOptions {
  std::vector<Target>
      Targets; ///< targets to port to; the original always runs too
  std::vector<std::string>
      Paths; ///< case dirs, case.yaml files, or dirs searched recursively
  bool Json = false;   ///< print a JSON document instead of the table
  int Jobs = 1;        ///< builds/runs in parallel
  std::string WorkDir; ///< scratch dir; default: a fresh temp dir
  bool KeepWork =
      false; ///< keep the scratch dir (always kept when WorkDir is given)
  /// --cache-dir: compiled emulator objects are kept there and reused by
  /// builds of the same preprocessed source and flags; empty: no cache.
  std::string CacheDir;
  // Program-level mode.
  bool Program = false;
  std::string ProgramFile;
  int Lanes =
      0; ///< forces PKEMU_WARP_SIZE for every run; 0 = each variant's default
  /// --allow: emulator checks relaxed for every run (RelaxableChecks names;
  /// PKEMU_ALLOW). Their reports do not fail a run; a run that passed only
  /// because one fired is marked (PASS*, "relaxed" in the JSON) and listed
  /// with the reports.  PKEMU_ALLOW of the environment is not passed on.
  std::vector<std::string> Allow;
  std::vector<std::string> ProgramArgs;
  /// --expect-output REGEX: a program run passes only when it exits 0 and
  /// its standard output matches (POSIX extended, ^ and $ match at lines).
  std::string ExpectOutput;
  /// --fail-output REGEX: a program run fails when its output matches.
  std::string FailOutput;
  /// --stop-at REGEX: a program run is stopped once a line of its stdout
  /// matches (POSIX extended, per line) and judged as if it had exited 0
  /// there: --expect-output and --fail-output apply to what it printed up
  /// to and including that line.  Its stdout is line-buffered
  /// (PKEMU_LINE_BUFFERED=1).  The cell carries a note.
  std::string StopAt;
  /// What the emulator builds take from --extra-arg and, with -p, from the
  /// program's compile command (pk::buildFlags: include directories, forced
  /// includes, macros, a C++17-or-newer standard; absolute paths).  With
  /// --program, the include directories inside the program's tree are
  /// remapped to each variant's translated and prepared trees.
  std::vector<std::string> BuildFlags;
  /// ROCm major version of the HIP outputs (--rocm-version). With --program,
  /// every HIP source is also compiled -fsyntax-only (host side; device side
  /// for gfx90a and gfx942) against the real HIP headers of this version when
  /// they are found ($PK_HIP_INCLUDE, $HIP_PATH/include, $ROCM_PATH/include,
  /// hipconfig --path, /opt/rocm/include, /opt/rocm-*/include, /usr/include).
  unsigned RocmMajor = 6;
  // Limits (docs/reliability.md, "Validate bounds").
  /// Wall-clock limit of one case or program run: compiling, linking and
  /// running it together; 0 = none. The process group of the step that runs
  /// out is killed and the cell fails as a timeout.  Each run gets
  /// PKEMU_TIMEOUT_S a little below the time it has left, so that the
  /// emulator's hang report comes first.
  unsigned TimeoutSec = DefaultTimeoutSec;
  static constexpr unsigned DefaultTimeoutSec = 300;
  /// Bytes of stdout and of stderr kept from each compiler or program run
  /// (first and last half); the rest is discarded with a note.
  std::size_t OutputLimit = DefaultOutputLimit;
  static constexpr std::size_t DefaultOutputLimit = 4u << 20;
};

/// Runs the validation described by \p Opts.  Prints a table (or JSON) to
/// \p Out and progress/errors to \p Err.  Returns 0 when every cell passed,
/// 1 when something failed, 2 on usage errors (no cases, bad spec, ...),
/// 130 when interrupted (SIGINT, SIGTERM, SIGHUP: running children are
/// killed and the scratch directory is removed).
int runValidate(const ValidateOptions &Opts, const EmuToolchain &TC,
                PortService &PS, llvm::raw_ostream &Out,
                llvm::raw_ostream &Err);

} // namespace pk

#endif // PK_VALIDATE_H

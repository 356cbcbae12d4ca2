//===- ValidateInternal.h - the validate harness's shared parts -*- C++ -*-===//
// Rules: none (validation harness)
//
// What the files of `validate` share: a cell (one case or program in one
// variant) and a row of them, the path and HIP-header helpers
// (ValidateUtil.cpp), the table and JSON of the results
// (ValidateReport.cpp), and the Runner, which ports, prepares, builds
// (RunnerBuild.cpp) and runs (RunnerRun.cpp) one cell; runValidate
// (Validate.cpp) schedules the cells and prints what they found.
//
//===----------------------------------------------------------------------===//
#ifndef PK_VALIDATE_VALIDATEINTERNAL_H
#define PK_VALIDATE_VALIDATEINTERNAL_H

#include "CompileCache.h"
#include "Process.h"
#include "pk/NKIRun.h"
#include "pk/Validate.h"
#include "pk/ValidateCase.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <map>
#include <mutex>
#include <optional>
#include <tuple>

extern char **environ;

namespace pk::vrun {

using namespace llvm;
using namespace pk::validate;

using Clock = std::chrono::steady_clock;

/// Exit status with which the emulator reports a detected error.
constexpr int EmuErrorExit = 86;

/// Bounds of the copy of a program's directory into the working directory
/// of each of its runs (Runner::makeRunDir).
constexpr uint64_t RunDirCopyLimit = 256ull << 20;
constexpr uint64_t RunDirCopyFiles = 10000;

enum class CellStatus { Pass, Fail, Skip };

struct Cell {
  std::string Variant;
  CellStatus Status = CellStatus::Fail;
  std::string Kind;   ///< failure class: port, prepare, compile, emulator,
                      ///< mismatch, timeout, crash, run, spec
  std::string Reason; ///< one line
  std::string Detail; ///< further lines (diagnostics)
  bool HaveErrors = false;
  double MaxAbs = 0, MaxRel = 0;
  std::vector<OutputResult> Outputs;
  std::optional<uint64_t> NkiOps; ///< traced NKI operations (simulator)
  std::string Dir;
  /// The case's directory, or the program's: builds record it (and Dir)
  /// under fixed names (validate::PathMap), so that one object serves the
  /// same sources in another directory or variant.
  std::string SrcDir;
  /// The port's tree in Dir when every file of it is byte-identical to its
  /// source in SrcDir (the CUDA port of modern code): recorded as SrcDir
  /// is, so that the original's object serves this cell.
  std::string SrcCopy;
  double Seconds = 0;
  int ExitCode = 0;
  std::string Name;               ///< the case or program
  Clock::time_point Start;        ///< when this cell started (--timeout)
  std::vector<std::string> Notes; ///< e.g. output discarded at the bound
  /// A program's run as the emulator counted it (PKEMU_STATS_FILE): its
  /// kernel launches, their threads, the wall seconds in them, and the
  /// run's wall seconds in all.
  struct LaunchStats {
    uint64_t Launches = 0, Threads = 0; ///< finished launches
    /// Launches that repeated an earlier one exactly and were replayed
    /// (docs/emulator.md, "Replay of repeated launches").
    uint64_t Replayed = 0;
    /// Wall time in launches, the one in flight when the run ended
    /// (RunningSeconds) included.
    double KernelSeconds = 0, RunSeconds = 0, RunningSeconds = 0;
  };
  std::optional<LaunchStats> Launches;
  /// Reports of the checks that --allow relaxed, as the emulator printed
  /// them after "pkemu: " ("allowed (race-shared): data race: kernel ...
  /// at FILE:LINE: ..."): a pass with any is not a strict pass.
  std::vector<std::string> Relaxed;
  /// For HIP cells of --program: the real HIP headers the HIP source was
  /// compiled against (-fsyntax-only), or empty when none were found.
  std::string HipHeaders;
  /// The emulator build's flags when they are not ValidateOptions::BuildFlags
  /// (--program: include directories of the input tree remapped to the
  /// prepared tree of this variant).
  std::optional<std::vector<std::string>> BuildFlags;
};

struct Row {
  std::string Name;
  std::string Path; ///< case.yaml or program file
  /// --program: the program's translation units, Path first.
  std::vector<std::string> Sources;
  std::optional<CaseSpec> Spec;
  std::string SpecError;
  std::vector<Cell> Cells;
};

/// The GPUs (MI200, MI300) for whose device side --program's HIP sources are
/// compiled against the real HIP headers.
constexpr const char *HipArchs[] = {"gfx90a", "gfx942"};

inline std::string firstLine(StringRef S) {
  return S.trim().split('\n').first.str();
}

/// Real HIP headers of one ROCm major version (the emulator's stand-in
/// headers may accept what they refuse).
struct HipHeaderSet {
  std::string Include; ///< the directory holding hip/
  std::string Version; ///< "5.2"
};

/// --program: the build flags of one variant.
struct VariantFlags {
  /// For the variant's source tree: the original's flags, or the port's
  /// with the include directories of the input tree remapped to the
  /// translated tree (the HIP header check).
  std::vector<std::string> Source;
  /// For the emulator build of each translation unit's prepared tree.
  std::vector<std::vector<std::string>> Prepared;
};

/// One translation unit of an emulator build: the file compiled (a wrapper
/// that includes the prepared source) and its flags (null: the cell's).
struct BuildUnit {
  std::string Main;
  const std::vector<std::string> *Flags = nullptr;
};

/// Everything one run needs that is shared by all tasks.

StringRef variantName(std::optional<Target> T);
/// A cell of `--to nki` from what the NKI runner found (NKIRun.cpp).
void fillNkiCell(Cell &C, const NkiOutcome &N);
/// The traced operation counts of the NKI cells, after the table.
void printNkiOps(const std::vector<Row> &Rows, raw_ostream &Out);
std::string hipArchList();
/// Which real HIP headers the HIP cells of --program compiled against, after
/// the table.
void printHipHeaders(const std::vector<Row> &Rows, unsigned RocmMajor,
                     raw_ostream &Out);
std::string joinPath(StringRef A, StringRef B, StringRef C = "",
                     StringRef D = "");
std::string readFileOr(StringRef Path, StringRef Default = "");
Error writeFile(StringRef Path, StringRef Text);
std::string lastLines(StringRef Text, unsigned N);
std::string sizeText(std::uint64_t N);
/// Where HIP headers are looked for, in order: $PK_HIP_INCLUDE, the include
/// directories of $HIP_PATH, $ROCM_PATH and of what `hipconfig --path` prints,
/// /opt/rocm/include, /opt/rocm-X.Y.Z/include (newest first), /usr/include.
/// hipconfig's is an empty entry: it is asked only when the entries before
/// it do not have the headers (hipconfigInclude).
std::vector<std::string> hipHeaderCandidates();
/// The include directory of the HIP installation `hipconfig --path` names,
/// or "" when there is no hipconfig (or it says nothing usable).
std::string hipconfigInclude();
/// The first of hipHeaderCandidates() whose hip/hip_version.h is of ROCm
/// \p Major.
std::optional<HipHeaderSet> findHipHeaders(unsigned Major);
std::string cleanPath(StringRef P);
/// The directory of \p Orig's tree that the tree under \p CopyBase mirrors,
/// given \p Copy, the copy of \p Orig there (its name may differ:
/// main.cu -> main.hip); std::nullopt when they do not correspond.
std::optional<std::string> mirroredRoot(StringRef Orig, StringRef Copy,
                                        StringRef CopyBase);
/// \p Path under \p From as the same place under \p To; std::nullopt when
/// it is not under \p From.
std::optional<std::string> underOther(StringRef Path, StringRef From,
                                      StringRef To);
/// \p Flags (as buildFlags of pk/Frontend.h writes them) with each user
/// include directory (-I, -iquote) and forced include (-include, -imacros)
/// inside the tree \p From replaced by its counterpart in the tree \p To,
/// where that exists (a header the translation renamed, kern.cuh ->
/// kern.hpp, is found by its stem).  -isystem and -idirafter name system
/// headers, which are not translated: they stay, as does anything outside
/// \p From.
std::vector<std::string> remapTree(ArrayRef<std::string> Flags, StringRef From,
                                   StringRef To);
/// The emulator's own per-launch time limit (PKEMU_TIMEOUT_S) for a run
/// that --timeout gives \p Limit seconds: its deadlock and hang report comes
/// before the process group is killed.
double emulatorTimeout(unsigned Limit);

/// Everything one run needs that is shared by all tasks.
class Runner {
public:
  Runner(const ValidateOptions &Opts, const EmuToolchain &TC, PortService &PS,
         std::string Work)
      : Opts(Opts), TC(TC), PS(PS), Work(std::move(Work)) {
    SmallString<256> Here;
    if (!sys::fs::current_path(Here))
      Cwd = std::string(Here);
    if (Opts.Program)
      HipHdr = findHipHeaders(Opts.RocmMajor);
    // Environment for runs: the current one, PKEMU_WARP_SIZE replaced;
    // PKEMU_TIMEOUT_S is set per run (emuTimeoutVar).
    // The host heap of an emulated program (GLIBC_TUNABLES; the user's own
    // settings follow and win): no block comes from a fresh mapping
    // (mmap_max=0) and freed memory stays with the process (trim_threshold),
    // so that a program that frees and allocates buffers of gigabytes (a
    // check per block size) reuses their pages instead of faulting each one
    // in and zeroing it again; the heap is backed by huge pages
    // (hugetlb=1). docs/emulator.md, "Host memory".
    std::string Tunables = "GLIBC_TUNABLES=glibc.malloc.mmap_max=0:"
                           "glibc.malloc.trim_threshold=1099511627776:"
                           "glibc.malloc.hugetlb=1";
    for (char **E = environ; E && *E; ++E) {
      StringRef V = *E;
      if (V.consume_front("PKEMU_TIMEOUT_S="))
        UserEmuTimeout = std::atof(V.str().c_str());
      else if (V.consume_front("GLIBC_TUNABLES=")) {
        if (!V.empty())
          Tunables += (":" + V).str();
      } else if (!V.starts_with("PKEMU_WARP_SIZE=") &&
                 !V.starts_with("PKEMU_ALLOW="))
        EnvStore.push_back(*E);
    }
    EnvStore.push_back(Tunables);
    if (Opts.Lanes > 0)
      EnvStore.push_back("PKEMU_WARP_SIZE=" + std::to_string(Opts.Lanes));
    if (!Opts.Allow.empty())
      EnvStore.push_back("PKEMU_ALLOW=" + llvm::join(Opts.Allow, ","));
    if (!Opts.StopAt.empty())
      EnvStore.push_back("PKEMU_LINE_BUFFERED=1");
    for (const std::string &S : EnvStore)
      EnvRefs.push_back(S);
  }

  std::string runtimeHeaderPath() const { return joinPath(Work, "pkv_rt.h"); }

  /// Ports \p Source to \p T (outputs under Dir/src).  The first request of
  /// a case ports it to every target of the run from one parse
  /// (PortService::portFilesToTargets) into the sibling variant directories;
  /// the other cells of the case take their outputs from there.  When that
  /// fails, each target is ported on its own, so that its cell gets its own
  /// error.
  Error portOnce(ArrayRef<std::string> Sources, Target T, StringRef Dir,
                 std::vector<std::string> &Outs);

  /// Ports (targets) and prepares \p Source; returns the prepared main file.
  /// On failure fills \p C and returns std::nullopt.  With \p Flags (given
  /// with the original's build flags in Source), the include directories
  /// and forced includes inside the input tree are remapped to the
  /// translated tree (Source; the port is prepared with them) and then to
  /// the prepared tree (Prepared).
  std::optional<std::string>
  portAndPrepare(StringRef Source, std::optional<Target> T, StringRef Dir,
                 Cell &C, bool OriginalIsHip = false,
                 std::string *Ported = nullptr, VariantFlags *Flags = nullptr);
  /// The same for the translation units \p Sources of one program (ported
  /// together, from one parse): the prepared file of each, in order, and in
  /// \p Ported the port of each.
  std::optional<std::vector<std::string>>
  portAndPrepare(ArrayRef<std::string> Sources, std::optional<Target> T,
                 StringRef Dir, Cell &C, bool OriginalIsHip,
                 std::vector<std::string> *Ported, VariantFlags *Flags);

  /// Whether every file under \p Copy (the port's tree, holding \p Outs)
  /// has the same name and bytes as its counterpart under \p Root.
  static bool sameAsSources(ArrayRef<std::string> Outs, StringRef Copy,
                            StringRef Root);

  /// The directories builds of \p C record under fixed names: the scratch
  /// directory, the cell's directory and the sources' directory (and the
  /// port's copy of them, when it is byte-identical).
  validate::PathMap pathMap(const Cell &C) const;

  /// Compiles \p Main into \p Exe; on failure fills \p C.  Compiling and
  /// linking are separate steps: the compile flags carry sanitizer
  /// instrumentation whose callbacks the emulator runtime implements, so the
  /// sanitizer's own runtime must not be linked in.
  bool compile(StringRef Main, StringRef Exe, bool Hip, StringRef Dir,
               Cell &C) {
    return compile(ArrayRef<BuildUnit>{BuildUnit{Main.str()}}, Exe, Hip, Dir,
                   C);
  }
  /// Compiles each unit of \p Units into an object of its own (Exe.o for
  /// the first, Exe.2.o, ...) and links them into \p Exe.
  bool compile(ArrayRef<BuildUnit> Units, StringRef Exe, bool Hip,
               StringRef Dir, Cell &C);

  /// Replaces the forced include of the prelude in \p Args by its
  /// precompiled header in the cache, building it first when it is missing
  /// or stale. False (Args unchanged) when it cannot be built.
  bool usePrelude(const validate::PreludePlan &Plan, StringRef Dir,
                  std::vector<std::string> &Args);

  /// The --cache-dir key of compiling \p Main with \p Flags: the
  /// preprocessed source (clang -E) and the content of every file the build
  /// reads (its dependency output, -MD, and files named by flags, returned
  /// in \p Inputs) are part of it. No key, with the reason in \p Note, when
  /// the build reads what the key cannot cover (the assembler's .incbin).
  /// False (and \p C filled) when preprocessing fails.
  bool cacheKey(StringRef Main, StringRef Exe, ArrayRef<std::string> Flags,
                const validate::PathMap &Map, Cell &C, std::string &Key,
                std::string &Note,
                std::vector<std::pair<std::string, std::string>> &Inputs);

  /// PKEMU_TIMEOUT_S=S for a run that has \p Limit seconds of --timeout left
  /// (0: no limit): the emulator's hang and deadlock report then comes
  /// before the run is killed.  A smaller value in the environment is kept
  /// (0 there turns the emulator's limit off).  --timeout 0 turns it off
  /// too, unless the environment sets one: no launch is cut short at the
  /// emulator's default of 20 s when the user asked for no limit.
  std::string emuTimeoutVar(unsigned Limit) const;

  /// Seconds left of this cell's --timeout for the next step (0: no limit);
  /// false (and \p C filled) when none are left or the run was interrupted.
  bool timeLeft(Cell &C, StringRef Step, unsigned &Limit);

  /// Marks \p C as timed out while \p Step ran.
  void timedOut(Cell &C, StringRef Step);

  /// Marks \p C as interrupted (SIGINT or SIGTERM reached the run).
  void interrupted(Cell &C);

  /// A note when a stream of the program was cut to --output-limit.
  void noteDropped(Cell &C, StringRef Stream,
                   const validate::CapturedStream &S);

  /// Creates \p RunDir, the working directory of one run, and copies the
  /// tree under \p DataDir into it (when not empty): regular files, and
  /// what symbolic links to regular files point to, up to RunDirCopyLimit
  /// bytes and RunDirCopyFiles files; never the scratch directory itself.
  /// A copy, not links: a program that writes to one of its data files must
  /// not write to the user's. False (and \p C filled) when \p RunDir cannot
  /// be created.
  bool makeRunDir(StringRef RunDir, StringRef DataDir, Cell &C);

  /// Runs \p Exe in a fresh working directory, \p Dir/run, holding a copy
  /// of \p DataDir when given (--program: the program's directory), so that
  /// what the program writes to relative paths stays in the scratch
  /// directory and what it reads from them is what lies next to it.
  /// Returns false (and fills \p C) when it could not run to completion.
  /// \p Stdout receives its output.
  bool run(StringRef Exe, ArrayRef<std::string> Args, StringRef Dir,
           StringRef DataDir, Cell &C, std::string &Stdout);

  /// One cell of a case: port to \p T (none: the original), prepare,
  /// generate the driver, build, run and compare (or the NKI simulator).
  Cell runCase(const CaseSpec &Spec, std::optional<Target> T);

  /// Compiles the HIP source \p File with \p Flags -fsyntax-only against
  /// the real HIP headers when there are some: the host side once and the
  /// device side for each of HipArchs; false (and \p C filled) when it does
  /// not compile there.
  bool checkHipHeaders(StringRef File, ArrayRef<std::string> Flags, Cell &C);

  /// One cell of --program: port \p File to \p T (none: the original),
  /// check a HIP source against the real headers, build and run it.
  /// Validates the program of \p Files (its translation units; the first
  /// names it) in variant \p T.
  Cell runProgram(ArrayRef<std::string> Files, std::optional<Target> T);

  /// The progress line of a finished cell, in the order of the table.
  void progress(const Row &R, const Cell &C, unsigned Done, unsigned Total,
                raw_ostream &Err);

private:
  const ValidateOptions &Opts;
  const EmuToolchain &TC;
  PortService &PS;
  std::string Work;
  std::string Cwd; ///< what /@pk-cwd@ in a build stands for
  std::mutex ServiceMutex;
  validate::KeysInFlight InFlight;
  /// Hashes of the files builds read (the cache's direct lookups).
  validate::FileHashes Hashes{Work};
  /// Serialises building precompiled preludes.
  std::mutex PchMutex;
  struct PortedCase {
    bool Tried = false;
    std::map<int, std::vector<std::string>> Outs; ///< by target
  };
  std::map<std::string, PortedCase> Ported; ///< by case work directory
  std::mutex PrintMutex;
  std::optional<HipHeaderSet> HipHdr; ///< for --program's HIP cells
  std::vector<std::string> EnvStore;
  std::vector<StringRef> EnvRefs;
  /// PKEMU_TIMEOUT_S of the environment, if set.
  std::optional<double> UserEmuTimeout;
};

// The results (ValidateReport.cpp).
std::string errCell(const Cell &C);
void printTable(const std::vector<Row> &Rows, ArrayRef<std::string> Variants,
                bool Program, int Lanes, raw_ostream &Out);
json::Value cellJson(const Cell &C);

} // namespace pk::vrun

#endif

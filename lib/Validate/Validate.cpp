//===- Validate.cpp - port, build, run and compare ------------------------===//
// Rules: none (validation harness)

#include "pk/Validate.h"
#include "CompileCache.h"
#include "Process.h"
#include "pk/NKIRun.h"
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

using namespace llvm;
using namespace pk::validate;

namespace pk {
namespace {

using Clock = std::chrono::steady_clock;

/// Exit status with which the emulator reports a detected error.
constexpr int EmuErrorExit = 86;

/// Bounds of the copy of a program's directory into the working directory
/// of each of its runs (Runner::makeRunDir).
constexpr uint64_t RunDirCopyLimit = 256ull << 20;
constexpr uint64_t RunDirCopyFiles = 10000;

StringRef variantName(std::optional<Target> T) {
  return T ? targetName(*T) : StringRef("original");
}

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
  std::optional<CaseSpec> Spec;
  std::string SpecError;
  std::vector<Cell> Cells;
};

/// A cell of `--to nki` from what the NKI runner found (NKIRun.cpp).
void fillNkiCell(Cell &C, const NkiOutcome &N) {
  C.Status = N.Passed ? CellStatus::Pass : CellStatus::Fail;
  C.Kind = N.Passed ? "" : N.Kind;
  C.Reason = N.Passed ? "" : N.Reason;
  C.Detail = N.Passed ? "" : N.Detail;
  C.ExitCode = N.ExitCode;
  C.Outputs = N.Outputs;
  C.NkiOps = N.Ops;
  C.HaveErrors = !N.Outputs.empty();
  for (const OutputResult &O : N.Outputs) {
    C.MaxAbs = std::max(C.MaxAbs, O.MaxAbs);
    C.MaxRel = std::max(C.MaxRel, O.MaxRel);
  }
}

/// The traced operation counts of the NKI cells, after the table.
void printNkiOps(const std::vector<Row> &Rows, raw_ostream &Out) {
  std::string Line;
  for (const Row &R : Rows)
    for (const Cell &C : R.Cells)
      if (C.NkiOps)
        Line +=
            formatv("{0}{1} {2}", Line.empty() ? "" : ", ", R.Name, *C.NkiOps)
                .str();
  if (!Line.empty())
    Out << "(nki: traced operations per kernel: " << Line << ")\n";
}

/// The GPUs (MI200, MI300) for whose device side --program's HIP sources are
/// compiled against the real HIP headers.
constexpr const char *HipArchs[] = {"gfx90a", "gfx942"};

std::string hipArchList() {
  return join(
      std::vector<std::string>(std::begin(HipArchs), std::end(HipArchs)),
      " and ");
}

/// Which real HIP headers the HIP cells of --program compiled against, after
/// the table.
void printHipHeaders(const std::vector<Row> &Rows, unsigned RocmMajor,
                     raw_ostream &Out) {
  std::string Used;
  bool AnyHip = false;
  for (const Row &R : Rows)
    for (const Cell &C : R.Cells) {
      AnyHip |= C.Variant == "hip";
      if (!C.HipHeaders.empty())
        Used = C.HipHeaders;
    }
  if (!Used.empty())
    Out << "(hip: HIP sources also compiled -fsyntax-only, host side and "
           "device side for "
        << hipArchList() << ", against the " << Used << " headers)\n";
  else if (AnyHip)
    Out << "(hip: no ROCm " << RocmMajor
        << " headers found in $PK_HIP_INCLUDE, $HIP_PATH/include, "
           "$ROCM_PATH/include, hipconfig --path, /opt/rocm*/include or "
           "/usr/include: HIP sources were compiled against the emulator's "
           "stand-in headers only)\n";
}

std::string joinPath(StringRef A, StringRef B, StringRef C = "",
                     StringRef D = "") {
  SmallString<256> P(A);
  for (StringRef X : {B, C, D})
    if (!X.empty())
      sys::path::append(P, X);
  return std::string(P);
}

std::string readFileOr(StringRef Path, StringRef Default = "") {
  auto B = MemoryBuffer::getFile(Path);
  return B ? (*B)->getBuffer().str() : Default.str();
}

Error writeFile(StringRef Path, StringRef Text) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_Text);
  if (EC)
    return createStringError(EC, "cannot write " + Path + ": " + EC.message());
  OS << Text;
  return Error::success();
}

std::string lastLines(StringRef Text, unsigned N) {
  SmallVector<StringRef, 64> Lines;
  Text.rtrim().split(Lines, '\n');
  std::string R;
  for (size_t I = Lines.size() > N ? Lines.size() - N : 0; I < Lines.size();
       ++I)
    R += Lines[I].rtrim().str() + "\n";
  return StringRef(R).rtrim().str();
}

std::string firstLine(StringRef S) { return S.trim().split('\n').first.str(); }

std::string sizeText(std::uint64_t N) {
  if (N >= (10u << 20))
    return formatv("{0} MB", N >> 20).str();
  if (N >= (10u << 10))
    return formatv("{0} KB", N >> 10).str();
  return formatv("{0} bytes", N).str();
}

/// Real HIP headers of one ROCm major version (the emulator's stand-in
/// headers may accept what they refuse).
struct HipHeaderSet {
  std::string Include; ///< the directory holding hip/
  std::string Version; ///< "5.2"
};

/// Where HIP headers are looked for, in order: $PK_HIP_INCLUDE, the include
/// directories of $HIP_PATH, $ROCM_PATH and of what `hipconfig --path` prints,
/// /opt/rocm/include, /opt/rocm-X.Y.Z/include (newest first), /usr/include.
/// hipconfig's is an empty entry: it is asked only when the entries before
/// it do not have the headers (hipconfigInclude).
std::vector<std::string> hipHeaderCandidates() {
  std::vector<std::string> Dirs;
  if (const char *E = std::getenv("PK_HIP_INCLUDE"))
    if (*E)
      Dirs.push_back(E);
  for (const char *V : {"HIP_PATH", "ROCM_PATH"})
    if (const char *E = std::getenv(V))
      if (*E)
        Dirs.push_back(joinPath(E, "include"));
  Dirs.push_back("");
  Dirs.push_back("/opt/rocm/include");
  std::vector<std::pair<std::vector<unsigned>, std::string>> Versioned;
  std::error_code EC;
  for (sys::fs::directory_iterator I("/opt", EC), E; I != E && !EC;
       I.increment(EC)) {
    StringRef Name = sys::path::filename(I->path());
    if (!Name.consume_front("rocm-"))
      continue;
    SmallVector<StringRef, 4> Parts;
    Name.split(Parts, '.');
    std::vector<unsigned> V;
    for (StringRef X : Parts) {
      unsigned N = 0;
      if (X.getAsInteger(10, N))
        break;
      V.push_back(N);
    }
    Versioned.push_back({V, joinPath(I->path(), "include")});
  }
  llvm::sort(Versioned, [](const auto &A, const auto &B) {
    return std::tie(B.first, B.second) < std::tie(A.first, A.second);
  });
  for (auto &[V, D] : Versioned)
    Dirs.push_back(D);
  Dirs.push_back("/usr/include");
  return Dirs;
}

/// The include directory of the HIP installation `hipconfig --path` names,
/// or "" when there is no hipconfig (or it says nothing usable).
std::string hipconfigInclude() {
  ErrorOr<std::string> HC = sys::findProgramByName("hipconfig");
  if (!HC)
    return "";
  validate::BoundedResult R = validate::runBounded(
      *HC, {"--path"}, std::nullopt, 10, 1 << 16, /*MergeStderr=*/false);
  StringRef P = StringRef(R.Out.Text).trim();
  if (R.Code != 0 || R.TimedOut || P.empty() || P.contains('\n'))
    return "";
  return joinPath(P, "include");
}

/// The first of hipHeaderCandidates() whose hip/hip_version.h is of ROCm
/// \p Major.
std::optional<HipHeaderSet> findHipHeaders(unsigned Major) {
  for (std::string D : hipHeaderCandidates()) {
    if (D.empty() && (D = hipconfigInclude()).empty())
      continue;
    auto Buf = MemoryBuffer::getFile(joinPath(D, "hip", "hip_version.h"));
    if (!Buf)
      continue;
    unsigned Maj = 0, Min = 0;
    bool HaveMaj = false;
    SmallVector<StringRef, 64> Lines;
    (*Buf)->getBuffer().split(Lines, '\n');
    for (StringRef L : Lines) {
      SmallVector<StringRef, 4> W;
      L.split(W, ' ', -1, /*KeepEmpty=*/false);
      if (W.size() < 3 || W[0] != "#define")
        continue;
      if (W[1] == "HIP_VERSION_MAJOR")
        HaveMaj = !W[2].getAsInteger(10, Maj);
      else if (W[1] == "HIP_VERSION_MINOR")
        (void)W[2].getAsInteger(10, Min);
    }
    if (HaveMaj && Maj == Major) {
      SmallString<256> Abs(D);
      sys::fs::make_absolute(Abs);
      return HipHeaderSet{std::string(Abs), formatv("{0}.{1}", Maj, Min)};
    }
  }
  return std::nullopt;
}

std::string cleanPath(StringRef P) {
  SmallString<256> S(P);
  sys::fs::make_absolute(S);
  sys::path::remove_dots(S, true);
  return std::string(S);
}

/// The directory of \p Orig's tree that the tree under \p CopyBase mirrors,
/// given \p Copy, the copy of \p Orig there (its name may differ:
/// main.cu -> main.hip); std::nullopt when they do not correspond.
std::optional<std::string> mirroredRoot(StringRef Orig, StringRef Copy,
                                        StringRef CopyBase) {
  std::string Base = cleanPath(CopyBase),
              CopyDir = cleanPath(sys::path::parent_path(Copy)),
              OrigDir = cleanPath(sys::path::parent_path(Orig));
  StringRef Rel = CopyDir;
  if (!Rel.consume_front(Base) || (!Rel.empty() && !Rel.consume_front("/")))
    return std::nullopt;
  if (Rel.empty())
    return OrigDir;
  StringRef Root = OrigDir;
  if (!Root.consume_back(Rel) || !Root.consume_back("/"))
    return std::nullopt;
  return Root.empty() ? std::string("/") : Root.str();
}

/// \p Path under \p From as the same place under \p To; std::nullopt when
/// it is not under \p From.
std::optional<std::string> underOther(StringRef Path, StringRef From,
                                      StringRef To) {
  StringRef Rel = Path;
  if (!Rel.consume_front(From) ||
      (!Rel.empty() && From != "/" && !Rel.consume_front("/")))
    return std::nullopt;
  return joinPath(To, Rel);
}

/// \p Flags (as buildFlags of pk/Frontend.h writes them) with each user
/// include directory (-I, -iquote) and forced include (-include, -imacros)
/// inside the tree \p From replaced by its counterpart in the tree \p To,
/// where that exists (a header the translation renamed, kern.cuh ->
/// kern.hpp, is found by its stem).  -isystem and -idirafter name system
/// headers, which are not translated: they stay, as does anything outside
/// \p From.
std::vector<std::string> remapTree(ArrayRef<std::string> Flags, StringRef From,
                                   StringRef To) {
  auto Dir = [&](StringRef D) {
    std::optional<std::string> M = underOther(D, From, To);
    return M && sys::fs::is_directory(*M) ? *M : D.str();
  };
  auto File = [&](StringRef F) {
    std::optional<std::string> M = underOther(F, From, To);
    if (!M)
      return F.str();
    if (sys::fs::is_regular_file(*M))
      return *M;
    std::string Found;
    unsigned N = 0;
    std::error_code EC;
    for (sys::fs::directory_iterator I(sys::path::parent_path(*M), EC), E;
         I != E && !EC; I.increment(EC))
      if (sys::path::stem(I->path()) == sys::path::stem(F) &&
          sys::fs::is_regular_file(I->path())) {
        Found = I->path();
        ++N;
      }
    return N == 1 ? Found : F.str();
  };
  std::vector<std::string> Out;
  for (size_t I = 0; I < Flags.size(); ++I) {
    StringRef A = Flags[I];
    if (A.starts_with("-I") && A.size() > 2) {
      Out.push_back("-I" + Dir(A.drop_front(2)));
      continue;
    }
    Out.push_back(A.str());
    if (I + 1 >= Flags.size())
      continue;
    if (A == "-iquote")
      Out.push_back(Dir(Flags[++I]));
    else if (A == "-include" || A == "-imacros")
      Out.push_back(File(Flags[++I]));
    else if (A == "-isystem" || A == "-idirafter")
      Out.push_back(Flags[++I]);
  }
  return Out;
}

/// --program: the build flags of one variant.
struct VariantFlags {
  /// For the variant's source tree: the original's flags, or the port's
  /// with the include directories of the input tree remapped to the
  /// translated tree (the HIP header check).
  std::vector<std::string> Source;
  /// For the emulator build of the prepared tree.
  std::vector<std::string> Prepared;
};

/// The emulator's own per-launch time limit (PKEMU_TIMEOUT_S) for a run
/// that --timeout gives \p Limit seconds: its deadlock and hang report comes
/// before the process group is killed.
double emulatorTimeout(unsigned Limit) {
  // The margin covers the program's start before its launch and the
  // report (symbolized) on a loaded machine.
  double Margin = std::clamp(0.2 * Limit, 2.0, 10.0);
  return std::max(Limit - Margin, 0.5 * Limit);
}

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
    for (char **E = environ; E && *E; ++E) {
      StringRef V = *E;
      if (V.consume_front("PKEMU_TIMEOUT_S="))
        UserEmuTimeout = std::atof(V.str().c_str());
      else if (!V.starts_with("PKEMU_WARP_SIZE=") &&
               !V.starts_with("PKEMU_ALLOW="))
        EnvStore.push_back(*E);
    }
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
  Error portOnce(StringRef Source, Target T, StringRef Dir,
                 std::vector<std::string> &Outs) {
    std::lock_guard<std::mutex> L(ServiceMutex);
    StringRef CaseDir = sys::path::parent_path(Dir);
    PortedCase &P = Ported[CaseDir.str()];
    if (!P.Tried) {
      P.Tried = true;
      std::vector<Target> Ts;
      std::vector<std::string> Dirs;
      for (Target X : Opts.Targets)
        if (!llvm::is_contained(Ts, X)) {
          Ts.push_back(X);
          Dirs.push_back(joinPath(CaseDir, targetName(X), "src"));
        }
      std::vector<std::vector<std::string>> Paths;
      if (Error E = PS.portFilesToTargets({Source.str()}, Ts, Dirs, Paths))
        consumeError(std::move(E));
      else
        for (size_t I = 0; I < Ts.size() && I < Paths.size(); ++I)
          P.Outs[(int)Ts[I]] = Paths[I];
    }
    auto It = P.Outs.find((int)T);
    if (It != P.Outs.end()) {
      Outs = It->second;
      return Error::success();
    }
    return PS.portFiles({Source.str()}, T, joinPath(Dir, "src"), Outs);
  }

  /// Ports (targets) and prepares \p Source; returns the prepared main file.
  /// On failure fills \p C and returns std::nullopt.  With \p Flags (given
  /// with the original's build flags in Source), the include directories
  /// and forced includes inside the input tree are remapped to the
  /// translated tree (Source; the port is prepared with them) and then to
  /// the prepared tree (Prepared).
  std::optional<std::string>
  portAndPrepare(StringRef Source, std::optional<Target> T, StringRef Dir,
                 Cell &C, bool OriginalIsHip = false,
                 std::string *Ported = nullptr, VariantFlags *Flags = nullptr) {
    std::string Input = Source.str();
    if (T) {
      std::vector<std::string> Outs;
      Error E = Error::success();
      E = portOnce(Input, *T, Dir, Outs);
      if (E) {
        C.Kind = "port";
        std::string Msg = toString(std::move(E));
        C.Reason = "port failed: " + firstLine(Msg);
        C.Detail = StringRef(Msg).trim().str();
        return std::nullopt;
      }
      if (Outs.empty()) {
        C.Kind = "port";
        C.Reason = "port produced no output file";
        return std::nullopt;
      }
      Input = Outs.front();
      if (Ported)
        *Ported = Input;
      std::string Src = joinPath(Dir, "src");
      if (Flags)
        if (std::optional<std::string> R = mirroredRoot(Source, Input, Src))
          Flags->Source = remapTree(Flags->Source, *R, Src);
      if (std::optional<std::string> R = mirroredRoot(Source, Input, Src))
        if (!C.SrcDir.empty() && *R == cleanPath(C.SrcDir) &&
            sameAsSources(Outs, Src, *R))
          C.SrcCopy = Src;
      if (runsOnNkiSimulator(*T))
        return Input; // the NKI runner's input, not the emulator's
      if (targetEmuLanguage(*T) == EmuLanguage::None) {
        C.Status = CellStatus::Skip;
        C.Kind = "skip";
        C.Reason = "ported to " + Input + "; " + targetName(*T).str() +
                   " output is not run by the emulator";
        return std::nullopt;
      }
    }
    Expected<std::string> Prepared = [&] {
      std::lock_guard<std::mutex> L(ServiceMutex);
      bool Hip = T ? targetEmuLanguage(*T) == EmuLanguage::HIP : OriginalIsHip;
      if (T && Flags)
        return PS.emuPrepareWithFlags(Input, Hip, joinPath(Dir, "prep"),
                                      Flags->Source);
      return PS.emuPrepare(Input, Hip, joinPath(Dir, "prep"));
    }();
    if (!Prepared) {
      C.Kind = "prepare";
      std::string Msg = toString(Prepared.takeError());
      C.Reason = "emulator preparation failed: " + firstLine(Msg);
      C.Detail = StringRef(Msg).trim().str();
      return std::nullopt;
    }
    SmallString<256> Abs(*Prepared);
    sys::fs::make_absolute(Abs);
    if (Flags) {
      std::string Prep = joinPath(Dir, "prep");
      Flags->Prepared = Flags->Source;
      if (std::optional<std::string> R = mirroredRoot(Input, Abs, Prep))
        Flags->Prepared = remapTree(Flags->Source, *R, Prep);
    }
    return std::string(Abs);
  }

  /// Whether every file of \p Outs (under \p Copy) has the same name and
  /// bytes as its counterpart under \p Root.
  static bool sameAsSources(ArrayRef<std::string> Outs, StringRef Copy,
                            StringRef Root) {
    const std::string Base = cleanPath(Copy);
    for (const std::string &O : Outs) {
      std::optional<std::string> Orig = underOther(cleanPath(O), Base, Root);
      if (!Orig)
        return false;
      ErrorOr<std::unique_ptr<MemoryBuffer>> A = MemoryBuffer::getFile(
          O, /*IsText=*/false, /*RequiresNullTerminator=*/false);
      ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(
          *Orig, /*IsText=*/false, /*RequiresNullTerminator=*/false);
      if (!A || !B || (*A)->getBuffer() != (*B)->getBuffer())
        return false;
    }
    return !Outs.empty();
  }

  /// The directories builds of \p C record under fixed names: the scratch
  /// directory, the cell's directory and the sources' directory (and the
  /// port's copy of them, when it is byte-identical).
  validate::PathMap pathMap(const Cell &C) const {
    validate::PathMap M(Work);
    M.add(C.Dir, validate::MappedCell);
    M.add(C.SrcDir, validate::MappedSrc);
    M.add(C.SrcCopy, validate::MappedSrc);
    return M;
  }

  /// Compiles \p Main into \p Exe; on failure fills \p C.  Compiling and
  /// linking are separate steps: the compile flags carry sanitizer
  /// instrumentation whose callbacks the emulator runtime implements, so the
  /// sanitizer's own runtime must not be linked in.
  bool compile(StringRef Main, StringRef Exe, bool Hip, StringRef Dir,
               Cell &C) {
    std::vector<std::string> Args = TC.CompileFlags;
    bool HasOpt = false, HasStd = false;
    for (const std::string &F : Args) {
      HasOpt |= StringRef(F).starts_with("-O");
      HasStd |= StringRef(F).starts_with("-std=");
    }
    if (!HasStd)
      Args.push_back("-std=c++17");
    if (!HasOpt)
      Args.push_back("-O1");
    llvm::append_range(Args, C.BuildFlags ? *C.BuildFlags : Opts.BuildFlags);
    Args.push_back(Hip ? "-DPKEMU_DEFAULT_WARP=64" : "-DPKEMU_DEFAULT_WARP=32");
    Args.push_back(Hip ? "-DPKEMU_LANG_HIP" : "-DPKEMU_LANG_CUDA");
    if (Opts.InlineHooks)
      Args.push_back("-DPKEMU_INLINE_HOOKS");
    // The precompiled prelude (--cache-dir): planned from the flags before
    // the path maps, which name this run's scratch directory.
    std::optional<validate::PreludePlan> Pch;
    if (!Opts.CacheDir.empty())
      Pch = validate::planPrelude(TC.ClangXX, Args, Work);
    // The object records fixed names for the scratch directory, the cell's
    // and the sources' directories and the working directory (what the run
    // prints gets them back), so that it does not depend on where they are:
    // --cache-dir.
    const validate::PathMap Map = pathMap(C);
    llvm::append_range(Args, validate::pathMapFlags(Map));
    std::string Obj = (Exe + ".o").str();
    std::string Key, CacheNote, MKey;
    std::vector<std::pair<std::string, std::string>> Inputs;
    if (!Opts.CacheDir.empty()) {
      // Direct lookup first: the manifest of this command lists the files
      // earlier builds read; when all are unchanged, their object is used
      // without preprocessing.
      MKey = validate::manifestKey(TC.ClangXX, Args, Main, Map, Hashes);
      Key = validate::lookupManifest(Opts.CacheDir, MKey, Map, Hashes);
      if (Key.empty() &&
          !cacheKey(Main, Exe, Args, Map, C, Key, CacheNote, Inputs))
        return false;
    }
    std::vector<std::string> CompileArgs = Args;
    if (Pch && !usePrelude(*Pch, Dir, CompileArgs))
      Pch.reset();
    // --inline-hooks: clang stops at instrumented bitcode, opt inlines the
    // hooks' fast path and cleans up, llc generates the object.
    const std::string Bc = Obj + ".bc", InlinedBc = Obj + ".inl.bc";
    std::vector<std::vector<std::string>> Post;
    if (Opts.InlineHooks) {
      CompileArgs.push_back("-emit-llvm");
      Post.push_back({"-passes=always-inline,function(early-cse<memssa>,"
                      "instcombine,simplifycfg,loop-mssa(licm))",
                      Bc, "-o", InlinedBc});
      Post.push_back({"-O2", "-filetype=obj", "-relocation-model=pic",
                      InlinedBc, "-o", Obj});
    }
    CompileArgs.push_back("-c");
    CompileArgs.push_back("-o");
    CompileArgs.push_back(Opts.InlineHooks ? Bc : Obj);
    CompileArgs.push_back(Main.str());
    // opt and llc of the same LLVM: next to clang++ once symlinks
    // (/usr/bin/clang++-19) are resolved.
    SmallString<256> RealClang;
    if (sys::fs::real_path(TC.ClangXX, RealClang))
      RealClang = TC.ClangXX;
    const std::string LlvmBin = sys::path::parent_path(RealClang).str();
    const std::string OptTool = joinPath(LlvmBin, "opt"),
                      LlcTool = joinPath(LlvmBin, "llc");

    std::vector<std::string> LinkArgs{"-o", Exe.str(), Obj};
    llvm::append_range(LinkArgs, TC.LinkFlags);

    auto CmdLine = [&](ArrayRef<std::string> A) {
      std::string Cmd = TC.ClangXX;
      for (const std::string &X : A)
        Cmd += " " + X;
      return Cmd + "\n";
    };
    auto ToolLine = [&](const std::string &Tool, ArrayRef<std::string> A) {
      std::string Cmd = Tool;
      for (const std::string &X : A)
        Cmd += " " + X;
      return Cmd + "\n";
    };
    std::string Cmds = CmdLine(CompileArgs);
    for (std::size_t I = 0; I < Post.size(); ++I)
      Cmds += ToolLine(I == 0 ? OptTool : LlcTool, Post[I]);
    (void)writeFile(joinPath(Dir, "compile.cmd"), Cmds + CmdLine(LinkArgs));

    // Another cell of this run compiling the same object: wait for it, then
    // take what it stored.
    validate::KeysInFlight::Hold Flight = InFlight.acquire(Key);
    // The linked program of this object and these link flags.
    std::string PKey;
    if (!Key.empty())
      PKey = validate::programKey(Key, LinkArgs, Map, Hashes);
    if (!PKey.empty()) {
      validate::CacheFetch F =
          validate::fetchObject(Opts.CacheDir, PKey, Exe, ".exe");
      if (F && !sys::fs::setPermissions(Exe, sys::fs::perms(0755))) {
        (void)writeFile(joinPath(Dir, "compile.log"),
                        "program " + PKey + " reused from " + Opts.CacheDir +
                            " (object " + Key + ")\n");
        if (!Inputs.empty())
          validate::recordManifest(Opts.CacheDir, MKey, Map, Inputs, Key);
        return true;
      }
      if (F.K == validate::CacheFetch::Damaged)
        CacheNote += "cache entry " + PKey + " in " + Opts.CacheDir +
                     " was damaged (" + F.Why + "); linked again\n";
    }
    bool Cached = false;
    if (!Key.empty()) {
      validate::CacheFetch F = validate::fetchObject(Opts.CacheDir, Key, Obj);
      Cached = bool(F);
      if (F.K == validate::CacheFetch::Damaged)
        CacheNote += "cache entry " + Key + " in " + Opts.CacheDir +
                     " was damaged (" + F.Why + "); compiled again\n";
      if (!Cached && Inputs.empty()) {
        // Found through the manifest but gone or damaged: the inputs for
        // recording it again come from preprocessing.
        std::string Ignored;
        if (!cacheKey(Main, Exe, Args, Map, C, Ignored, CacheNote, Inputs))
          return false;
      }
    }
    if (Cached) {
      (void)writeFile(joinPath(Dir, "compile.log"),
                      "object " + Key + " reused from " + Opts.CacheDir + "\n");
      if (!Inputs.empty())
        validate::recordManifest(Opts.CacheDir, MKey, Map, Inputs, Key);
    }
    for (bool Link : {false, true}) {
      if (!Link && Cached)
        continue;
      std::string Log = joinPath(Dir, Link ? "link.log" : "compile.log");
      const char *Step = Link ? "linking" : "compiling";
      unsigned Limit = 0;
      if (!timeLeft(C, Step, Limit))
        return false;
      validate::BoundedResult R = validate::runBounded(
          TC.ClangXX, Link ? LinkArgs : CompileArgs, std::nullopt, Limit,
          Opts.OutputLimit, /*MergeStderr=*/true);
      if (!Link && Pch && R.Code != 0 && !R.ExecFailed && !R.TimedOut &&
          !R.Interrupted) {
        // A precompiled prelude clang refuses (it validates the files it
        // was built from too): compile as written instead.
        CompileArgs = Args;
        if (Opts.InlineHooks)
          CompileArgs.push_back("-emit-llvm");
        llvm::append_range(CompileArgs,
                           std::vector<std::string>{
                               "-c", "-o", Opts.InlineHooks ? Bc : Obj,
                               Main.str()});
        Pch.reset();
        if (!timeLeft(C, Step, Limit))
          return false;
        R = validate::runBounded(TC.ClangXX, CompileArgs, std::nullopt, Limit,
                                 Opts.OutputLimit, /*MergeStderr=*/true);
      }
      // --inline-hooks: the inlining and code generation steps.
      for (std::size_t I = 0; !Link && I < Post.size(); ++I) {
        if (R.Code != 0 || R.ExecFailed || R.TimedOut || R.Interrupted)
          break;
        std::string Text = std::move(R.Out.Text);
        if (!timeLeft(C, Step, Limit))
          return false;
        R = validate::runBounded(I == 0 ? OptTool : LlcTool, Post[I],
                                 std::nullopt, Limit, Opts.OutputLimit,
                                 /*MergeStderr=*/true);
        R.Out.Text = Text + R.Out.Text;
      }
      (void)writeFile(Log, (Link ? std::string() : CacheNote) + R.Out.Text);
      if (R.Code == 0 && !R.ExecFailed && !R.TimedOut && !R.Interrupted) {
        if (!Link && !Key.empty()) {
          validate::storeObject(Opts.CacheDir, Key, Obj);
          validate::recordManifest(Opts.CacheDir, MKey, Map, Inputs, Key);
        }
        if (Link && !PKey.empty())
          validate::storeObject(Opts.CacheDir, PKey, Exe, ".exe");
        continue;
      }
      C.Kind = Link ? "link" : "compile";
      if (R.ExecFailed)
        C.Reason = "cannot run " + TC.ClangXX + ": " + R.ErrMsg;
      else if (R.TimedOut)
        timedOut(C, Step);
      else if (R.Interrupted)
        interrupted(C);
      else {
        C.Detail = compileErrorSummary(R.Out.Text);
        C.Reason = C.Kind + " error: " + firstLine(C.Detail);
      }
      return false;
    }
    return true;
  }

  /// Replaces the forced include of the prelude in \p Args by its
  /// precompiled header in the cache, building it first when it is missing
  /// or stale. False (Args unchanged) when it cannot be built.
  bool usePrelude(const validate::PreludePlan &Plan, StringRef Dir,
                  std::vector<std::string> &Args) {
    std::string P = validate::preludePchPath(Opts.CacheDir, Plan.Key);
    {
      std::lock_guard<std::mutex> L(PchMutex);
      if (!validate::preludePchValid(Opts.CacheDir, Plan.Key, Hashes)) {
        std::string Built = joinPath(Dir, "prelude.pch");
        std::string Dep = Built + ".d";
        std::vector<std::string> B = Plan.BuildArgs;
        // Clang checks the PCH's inputs by size only; their content is
        // checked against the hashes of its .deps before each use.
        llvm::append_range(B, std::vector<std::string>{
                                  "-Xclang", "-fno-pch-timestamp", "-MD",
                                  "-MF", Dep, "-o", Built, Plan.Header});
        validate::BoundedResult R = validate::runBounded(
            TC.ClangXX, B, std::nullopt, 300, Opts.OutputLimit,
            /*MergeStderr=*/true);
        bool Ok = R.Code == 0 && !R.ExecFailed && !R.TimedOut &&
                  !R.Interrupted &&
                  validate::storePreludePch(Opts.CacheDir, Plan.Key, Built, Dep,
                                            Plan.BuildArgs);
        sys::fs::remove(Built);
        sys::fs::remove(Dep);
        if (!Ok)
          return false;
      }
    }
    Args[Plan.IncludeAt] = "-include-pch";
    Args[Plan.IncludeAt + 1] = P;
    return true;
  }

  /// The --cache-dir key of compiling \p Main with \p Flags: the
  /// preprocessed source (clang -E) and the content of every file the build
  /// reads (its dependency output, -MD, and files named by flags, returned
  /// in \p Inputs) are part of it. No key, with the reason in \p Note, when
  /// the build reads what the key cannot cover (the assembler's .incbin).
  /// False (and \p C filled) when preprocessing fails.
  bool cacheKey(StringRef Main, StringRef Exe, ArrayRef<std::string> Flags,
                const validate::PathMap &Map, Cell &C, std::string &Key,
                std::string &Note,
                std::vector<std::pair<std::string, std::string>> &Inputs) {
    std::vector<std::string> Args(Flags.begin(), Flags.end());
    std::string Pre = (Exe + ".ii").str(), Dep = (Exe + ".ii.d").str();
    llvm::append_range(Args, std::vector<std::string>{"-E", "-MD", "-MF", Dep,
                                                      "-o", Pre, Main.str()});
    unsigned Limit = 0;
    if (!timeLeft(C, "preprocessing", Limit))
      return false;
    validate::BoundedResult R =
        validate::runBounded(TC.ClangXX, Args, std::nullopt, Limit,
                             Opts.OutputLimit, /*MergeStderr=*/true);
    auto Remove = llvm::make_scope_exit([&] {
      sys::fs::remove(Pre);
      sys::fs::remove(Dep);
    });
    if (R.Code != 0 || R.ExecFailed || R.TimedOut || R.Interrupted)
      return true; // no key: the compile step reports what is wrong
    ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(Pre);
    if (!B)
      return true;
    std::string Why = validate::uncacheableReason((*B)->getBuffer());
    Inputs.clear();
    if (Why.empty() && !validate::readInputs(Dep, Flags, Map, Inputs))
      Why = "a file the build reads could not be read for the cache key";
    if (!Why.empty()) {
      Inputs.clear();
      Note = "not cached: " + Why + "\n";
      return true;
    }
    Key = validate::objectKey(TC.ClangXX, Flags, (*B)->getBuffer(), Map,
                              Inputs);
    return true;
  }

  /// PKEMU_TIMEOUT_S=S for a run that has \p Limit seconds of --timeout left
  /// (0: no limit): the emulator's hang and deadlock report then comes
  /// before the run is killed.  A smaller value in the environment is kept
  /// (0 there turns the emulator's limit off).  --timeout 0 turns it off
  /// too, unless the environment sets one: no launch is cut short at the
  /// emulator's default of 20 s when the user asked for no limit.
  std::string emuTimeoutVar(unsigned Limit) const {
    std::optional<double> S = UserEmuTimeout;
    if (Limit && !(S && *S <= 0))
      S = std::min(emulatorTimeout(Limit), S.value_or(Limit));
    if (!S)
      S = 0.0;
    return formatv("PKEMU_TIMEOUT_S={0}", format("%g", *S)).str();
  }

  /// Seconds left of this cell's --timeout for the next step (0: no limit);
  /// false (and \p C filled) when none are left or the run was interrupted.
  bool timeLeft(Cell &C, StringRef Step, unsigned &Limit) {
    if (validate::ChildInterruptGuard::interrupted()) {
      interrupted(C);
      return false;
    }
    Limit = 0;
    if (!Opts.TimeoutSec)
      return true;
    double Used = std::chrono::duration<double>(Clock::now() - C.Start).count();
    if (Used >= Opts.TimeoutSec) {
      timedOut(C, Step);
      return false;
    }
    Limit = std::max(1u, (unsigned)std::ceil(Opts.TimeoutSec - Used));
    return true;
  }

  void timedOut(Cell &C, StringRef Step) {
    C.Kind = "timeout";
    C.Reason = formatv("'{0}' ({1}) timed out while {2}: the limit is {3} s "
                       "per case (--timeout {3}); its process group was killed",
                       C.Name, C.Variant, Step, Opts.TimeoutSec)
                   .str();
  }

  void interrupted(Cell &C) {
    C.Kind = "interrupted";
    C.Reason = "interrupted";
  }

  /// A note when a stream of the program was cut to --output-limit.
  void noteDropped(Cell &C, StringRef Stream,
                   const validate::CapturedStream &S) {
    if (!S.Dropped)
      return;
    C.Notes.push_back(formatv("the program wrote {0} to {1}; kept the first "
                              "and last {2}, discarded {3}",
                              sizeText(S.Total), Stream,
                              sizeText(Opts.OutputLimit / 2),
                              sizeText(S.Dropped))
                          .str());
  }

  /// Creates \p RunDir, the working directory of one run, and copies the
  /// tree under \p DataDir into it (when not empty): regular files, and
  /// what symbolic links to regular files point to, up to RunDirCopyLimit
  /// bytes and RunDirCopyFiles files; never the scratch directory itself.
  /// A copy, not links: a program that writes to one of its data files must
  /// not write to the user's. False (and \p C filled) when \p RunDir cannot
  /// be created.
  bool makeRunDir(StringRef RunDir, StringRef DataDir, Cell &C) {
    sys::fs::remove_directories(RunDir);
    if (std::error_code EC = sys::fs::create_directories(RunDir)) {
      C.Kind = "run";
      C.Reason = "cannot create " + RunDir.str() + ": " + EC.message();
      return false;
    }
    if (DataDir.empty())
      return true;
    SmallString<256> RealWork;
    if (sys::fs::real_path(Work, RealWork))
      RealWork = Work;
    uint64_t Bytes = 0, Files = 0;
    bool Left = false;
    std::error_code EC;
    for (sys::fs::recursive_directory_iterator
             I(DataDir, EC, /*follow_symlinks=*/false),
         E;
         I != E && !EC; I.increment(EC)) {
      StringRef Path = I->path();
      SmallString<256> Rel(Path);
      sys::path::replace_path_prefix(Rel, DataDir, "");
      std::string To = joinPath(RunDir, sys::path::relative_path(Rel));
      ErrorOr<sys::fs::basic_file_status> St = I->status();
      if (!St)
        continue;
      if (St->type() == sys::fs::file_type::directory_file) {
        SmallString<256> Real;
        if (!sys::fs::real_path(Path, Real) &&
            (Real == RealWork ||
             StringRef(RealWork).starts_with((Real + "/").str()) ||
             StringRef(Real).starts_with((RealWork + "/").str()))) {
          I.no_push(); // the scratch directory, or one holding it
          continue;
        }
        (void)sys::fs::create_directories(To);
        continue;
      }
      // Links are followed to regular files only (a link to a directory
      // could lead anywhere, or in a circle).
      sys::fs::file_status Target;
      if (sys::fs::status(Path, Target) ||
          Target.type() != sys::fs::file_type::regular_file)
        continue;
      if (Files + 1 > RunDirCopyFiles ||
          Bytes + Target.getSize() > RunDirCopyLimit) {
        // The walk ends here too: a program kept in a huge tree must not
        // cost a walk over all of it.
        Left = true;
        break;
      }
      if (sys::fs::copy_file(Path, To))
        continue;
      (void)sys::fs::setPermissions(To, Target.permissions());
      ++Files;
      Bytes += Target.getSize();
    }
    if (Left)
      C.Notes.push_back(
          formatv("{0} was copied into the run's working directory only in "
                  "part ({1} files, {2}): the copy is limited to {3} files "
                  "and {4}",
                  DataDir, Files, sizeText(Bytes), RunDirCopyFiles,
                  sizeText(RunDirCopyLimit))
              .str());
    return true;
  }

  /// Runs \p Exe in a fresh working directory, \p Dir/run, holding a copy
  /// of \p DataDir when given (--program: the program's directory), so that
  /// what the program writes to relative paths stays in the scratch
  /// directory and what it reads from them is what lies next to it.
  /// Returns false (and fills \p C) when it could not run to completion.
  /// \p Stdout receives its output.
  bool run(StringRef Exe, ArrayRef<std::string> Args, StringRef Dir,
           StringRef DataDir, Cell &C, std::string &Stdout) {
    std::string OutP = joinPath(Dir, "run.out"),
                ErrP = joinPath(Dir, "run.err");
    std::string RunDir = joinPath(Dir, "run");
    if (!makeRunDir(RunDir, DataDir, C))
      return false;
    unsigned Limit = 0;
    if (!timeLeft(C, "running", Limit))
      return false;
    std::vector<StringRef> Env = EnvRefs;
    const std::string VariantVar = "PKV_VARIANT=" + C.Variant;
    Env.push_back(VariantVar);
    std::string EmuTimeout = emuTimeoutVar(Limit);
    if (!EmuTimeout.empty())
      Env.push_back(EmuTimeout);
    std::optional<Regex> StopRe;
    if (!Opts.StopAt.empty())
      StopRe.emplace(Opts.StopAt, Regex::Newline);
    auto StopAtLine = [&](StringRef Line) { return StopRe->match(Line); };
    validate::BoundedResult R = validate::runBounded(
        Exe, Args, ArrayRef<StringRef>(Env), Limit, Opts.OutputLimit,
        /*MergeStderr=*/false, RunDir,
        StopRe ? function_ref<bool(StringRef)>(StopAtLine) : nullptr);
    if (R.Strays)
      C.Notes.push_back(
          formatv("the program left {0} process{1} running (a daemon, a "
                  "child it did not wait for); killed when it ended",
                  R.Strays, R.Strays == 1 ? "" : "es")
              .str());
    const validate::PathMap Map = pathMap(C);
    R.Out.Text = validate::unmapBuildPaths(R.Out.Text, Map, Cwd);
    R.Err.Text = validate::unmapBuildPaths(R.Err.Text, Map, Cwd);
    (void)writeFile(OutP, R.Out.Text);
    (void)writeFile(ErrP, R.Err.Text);
    noteDropped(C, "stdout", R.Out);
    noteDropped(C, "stderr", R.Err);
    Stdout = std::move(R.Out.Text);
    std::string Stderr = std::move(R.Err.Text);
    C.ExitCode = R.Code;
    if (R.StoppedAtOutput) {
      // Judged as if it had exited 0 at the matching line.
      C.ExitCode = 0;
      C.Notes.push_back("stopped at the first output line matching --stop-at '" +
                        Opts.StopAt + "'; what follows that line did not run");
      return true;
    }
    if (!Opts.Allow.empty()) {
      SmallVector<StringRef, 16> Lines;
      StringRef(Stderr).split(Lines, '\n');
      for (StringRef L : Lines) {
        size_t P = L.find("pkemu: allowed (");
        if (P != StringRef::npos)
          C.Relaxed.push_back(L.drop_front(P + 7).rtrim().str());
      }
    }
    if (R.ExecFailed) {
      C.Kind = "run";
      C.Reason = "cannot run " + Exe.str() + ": " + R.ErrMsg;
      return false;
    }
    if (R.Interrupted) {
      interrupted(C);
      return false;
    }
    if (R.TimedOut) {
      timedOut(C, "running");
      Expected<DriverResult> Res = parseDriverResult(Stdout);
      if (Res)
        C.Reason += " (after printing its result: it hangs at exit)";
      else
        consumeError(Res.takeError());
      C.Detail = lastLines(Stderr, 8);
      return false;
    }
    if (R.Code == EmuErrorExit) {
      C.Kind = "emulator";
      C.Detail = emulatorReport(Stderr);
      if (C.Detail.empty())
        C.Detail = lastLines(Stderr, 8);
      std::string First = firstLine(C.Detail);
      StringRef F = First;
      size_t P = F.find("pkemu: error:");
      C.Reason = "emulator: " +
                 (P == StringRef::npos ? F : F.drop_front(P + 13).trim()).str();
      if (Limit && StringRef(C.Reason).contains("(PKEMU_TIMEOUT_S)"))
        C.Reason += formatv(" [{0}: the emulator's limit per launch, from "
                            "the {1} s that --timeout {2} left for the run]",
                            EmuTimeout, Limit, Opts.TimeoutSec)
                        .str();
      return false;
    }
    if (R.Signal) {
      C.Kind = "crash";
      C.Reason = "crashed: " + R.ErrMsg;
      C.Detail = lastLines(Stderr, 8);
      return false;
    }
    C.Detail = lastLines(Stderr, 8);
    return true;
  }

  Cell runCase(const CaseSpec &Spec, std::optional<Target> T) {
    Cell C;
    C.Variant = variantName(T).str();
    C.Dir = joinPath(Work, Spec.Name, C.Variant);
    C.SrcDir = Spec.Dir;
    C.Name = Spec.Name;
    auto Start = C.Start = Clock::now();
    auto Done = [&]() -> Cell {
      C.Seconds = std::chrono::duration<double>(
                      std::chrono::steady_clock::now() - Start)
                      .count();
      return C;
    };
    if (std::error_code EC = sys::fs::create_directories(C.Dir)) {
      C.Kind = "run";
      C.Reason = "cannot create " + C.Dir + ": " + EC.message();
      return Done();
    }
    // A HIP case's original runs as HIP at 64 lanes (its CUDA port at 32).
    const bool OrigHip = PS.isHipSource(Spec.sourcePath());
    const bool Hip = T ? targetEmuLanguage(*T) == EmuLanguage::HIP : OrigHip;
    std::optional<std::string> Prepared =
        portAndPrepare(Spec.sourcePath(), T, C.Dir, C, OrigHip);
    if (!Prepared)
      return Done();
    if (T && runsOnNkiSimulator(*T)) {
      NkiRunConfig NC = defaultNkiRunConfig();
      NC.ClangXX = TC.ClangXX;
      NC.RuntimeHeader = runtimeHeaderPath();
      NC.OutputLimit = Opts.OutputLimit;
      if (!timeLeft(C, "running the NKI output", NC.TimeoutSec))
        return Done();
      fillNkiCell(C, runNkiCase(Spec, *Prepared, C.Dir, NC));
      return Done();
    }

    DriverConfig DC;
    DC.Language = Hip ? Lang::HIP : Lang::CUDA;
    DC.PreparedSource = *Prepared;
    DC.ReferenceSource = Spec.referencePath();
    DC.RuntimeHeader = runtimeHeaderPath();
    // The variant comes from PKV_VARIANT (run): the driver's text, and so
    // its object, is then the same for the original and an identical port.
    DC.Variant.clear();
    std::string Driver = joinPath(C.Dir, "driver.cpp");
    if (Error E = writeFile(Driver, generateDriver(Spec, DC))) {
      C.Kind = "run";
      C.Reason = toString(std::move(E));
      return Done();
    }
    std::string Exe = joinPath(C.Dir, "driver");
    if (!compile(Driver, Exe, Hip, C.Dir, C))
      return Done();
    std::string Stdout;
    if (!run(Exe, {}, C.Dir, "", C, Stdout))
      return Done();

    Expected<DriverResult> R = parseDriverResult(Stdout);
    if (!R) {
      consumeError(R.takeError());
      C.Kind = C.ExitCode < 0 ? "crash" : "run";
      C.Reason = "no result (exit status " + std::to_string(C.ExitCode) + ")";
      return Done();
    }
    C.Outputs = R->Outputs;
    C.HaveErrors = !R->Outputs.empty();
    for (const OutputResult &O : R->Outputs) {
      C.MaxAbs = std::max(C.MaxAbs, O.MaxAbs);
      C.MaxRel = std::max(C.MaxRel, O.MaxRel);
    }
    if (R->Status == "error") {
      C.Kind = "run";
      C.Reason = "runtime error: " + R->Message;
      return Done();
    }
    if (R->Status == "mismatch") {
      C.Kind = "mismatch";
      std::string Parts;
      for (const OutputResult &O : R->Outputs) {
        if (!O.Mismatches)
          continue;
        if (!Parts.empty())
          Parts += "; ";
        Parts += formatv("{0}[{1}] = {2} (want {3}); {4} of {5} differ", O.Name,
                         O.FirstBad, format("%.7g", O.Got),
                         format("%.7g", O.Want), O.Mismatches, O.Count)
                     .str();
        if (O.NanMismatches)
          Parts += formatv(" ({0} NaN)", O.NanMismatches).str();
      }
      C.Reason = "mismatch: " + Parts;
      return Done();
    }
    if (C.ExitCode != 0) {
      C.Kind = "run";
      C.Reason = "exit status " + std::to_string(C.ExitCode) +
                 " after a passing comparison";
      return Done();
    }
    C.Status = CellStatus::Pass;
    C.Kind.clear();
    C.Detail.clear();
    return Done();
  }

  /// Compiles the HIP source \p File with \p Flags -fsyntax-only against
  /// the real HIP headers when there are some: the host side once and the
  /// device side for each of HipArchs; false (and \p C filled) when it does
  /// not compile there.
  bool checkHipHeaders(StringRef File, ArrayRef<std::string> Flags, Cell &C) {
    if (!HipHdr)
      return true;
    C.HipHeaders = "ROCm " + HipHdr->Version + " (" + HipHdr->Include + ")";
    std::vector<std::string> Archs(std::begin(HipArchs), std::end(HipArchs));
    std::vector<std::pair<std::string, std::vector<std::string>>> Steps;
    Steps.push_back({hipArchList() + ", host side", {"--offload-host-only"}});
    for (const std::string &A : Archs)
      Steps.push_back({A + ", device side",
                       {"--offload-device-only", "--offload-arch=" + A}});
    for (auto &[What, StepArgs] : Steps) {
      std::vector<std::string> Args{"-x", "hip", "-fsyntax-only", "-nogpulib",
                                    "-w"};
      if (StepArgs.size() == 1)
        for (const std::string &A : Archs)
          Args.push_back("--offload-arch=" + A);
      llvm::append_range(Args, StepArgs);
      if (HipHdr->Include == "/usr/include") {
        Args.push_back("--rocm-path=/usr");
      } else {
        for (const char *A : {"-nogpuinc", "-isystem"})
          Args.push_back(A);
        Args.push_back(HipHdr->Include);
        for (const char *A : {"-include", "__clang_hip_runtime_wrapper.h",
                              "-DHIP_ENABLE_WARP_SYNC_BUILTINS"})
          Args.push_back(A);
      }
      llvm::append_range(Args, Flags);
      Args.push_back(File.str());
      unsigned Limit = 0;
      if (!timeLeft(C, "compiling against the HIP headers", Limit))
        return false;
      validate::BoundedResult R =
          validate::runBounded(TC.ClangXX, Args, std::nullopt, Limit,
                               Opts.OutputLimit, /*MergeStderr=*/true);
      if (R.Code == 0 && !R.ExecFailed && !R.TimedOut && !R.Interrupted)
        continue;
      C.Kind = "hip-headers";
      if (R.ExecFailed)
        C.Reason = "cannot run " + TC.ClangXX + ": " + R.ErrMsg;
      else if (R.TimedOut)
        timedOut(C, "compiling against the HIP headers");
      else if (R.Interrupted)
        interrupted(C);
      else {
        C.Detail = compileErrorSummary(R.Out.Text);
        C.Reason = formatv("{0} does not compile against the ROCm {1} headers "
                           "({2}; {3}), which the emulator's stand-in headers "
                           "accept: {4}",
                           sys::path::filename(File), HipHdr->Version,
                           HipHdr->Include, What, firstLine(C.Detail))
                       .str();
      }
      return false;
    }
    return true;
  }

  Cell runProgram(StringRef File, std::optional<Target> T) {
    Cell C;
    C.Variant = variantName(T).str();
    C.Dir = joinPath(Work, sys::path::stem(File), C.Variant);
    C.SrcDir = std::string(sys::path::parent_path(cleanPath(File)));
    C.Name = sys::path::filename(File).str();
    auto Start = C.Start = Clock::now();
    auto Done = [&]() -> Cell {
      C.Seconds = std::chrono::duration<double>(
                      std::chrono::steady_clock::now() - Start)
                      .count();
      return C;
    };
    if (std::error_code EC = sys::fs::create_directories(C.Dir)) {
      C.Kind = "run";
      C.Reason = "cannot create " + C.Dir + ": " + EC.message();
      return Done();
    }
    // A HIP program's original runs as HIP at 64 lanes (its CUDA port at
    // 32); a CUDA program's at 32.
    const bool OrigHip = PS.isHipSource(File);
    const bool Hip = T ? targetEmuLanguage(*T) == EmuLanguage::HIP : OrigHip;
    std::string Ported;
    VariantFlags Flags{Opts.BuildFlags, Opts.BuildFlags};
    std::optional<std::string> Prepared =
        portAndPrepare(File, T, C.Dir, C, OrigHip, &Ported, &Flags);
    if (!Prepared)
      return Done();
    C.BuildFlags = Flags.Prepared;
    // A HIP source (the port, or a HIP original) must also compile against
    // the real HIP headers of the chosen ROCm version.
    if (Hip && !checkHipHeaders(T ? StringRef(Ported) : File, Flags.Source, C))
      return Done();
    if (T && runsOnNkiSimulator(*T)) {
      C.Status = CellStatus::Skip;
      C.Kind = "skip";
      C.Reason = "ported to " + *Prepared +
                 "; program mode does not run NKI outputs (they have no host "
                 "code)";
      return Done();
    }
    // A wrapper so that the prepared file compiles as C++ whatever its
    // extension.
    std::string Main = joinPath(C.Dir, "main.cpp");
    if (Error E = writeFile(Main, "#include \"" + *Prepared + "\"\n")) {
      C.Kind = "run";
      C.Reason = toString(std::move(E));
      return Done();
    }
    std::string Exe = joinPath(C.Dir, "program");
    if (!compile(Main, Exe, Hip, C.Dir, C))
      return Done();
    std::string Stdout;
    if (!run(Exe, Opts.ProgramArgs, C.Dir, sys::path::parent_path(File), C,
             Stdout))
      return Done();
    if (C.ExitCode != 0) {
      C.Kind = "run";
      C.Reason = "exit status " + std::to_string(C.ExitCode);
      std::string Tail = lastLines(Stdout, 6);
      if (!C.Detail.empty() && !Tail.empty())
        C.Detail = Tail + "\n" + C.Detail;
      else if (!Tail.empty())
        C.Detail = Tail;
      return Done();
    }
    // Programs that print their verdict and exit 0.
    SmallVector<StringRef, 1> M;
    if (!Opts.FailOutput.empty() &&
        Regex(Opts.FailOutput, Regex::Newline).match(Stdout, &M)) {
      C.Kind = "run";
      size_t At = M[0].data() - Stdout.data();
      size_t B = StringRef(Stdout).rfind('\n', At);
      B = B == StringRef::npos ? 0 : B + 1;
      C.Reason = "output matches --fail-output: " +
                 StringRef(Stdout).substr(B).split('\n').first.str();
      return Done();
    }
    if (!Opts.ExpectOutput.empty() &&
        !Regex(Opts.ExpectOutput, Regex::Newline).match(Stdout)) {
      C.Kind = "run";
      C.Reason =
          "output does not match --expect-output '" + Opts.ExpectOutput + "'";
      C.Detail = lastLines(Stdout, 6);
      return Done();
    }
    C.Status = CellStatus::Pass;
    C.Kind.clear();
    C.Detail.clear();
    return Done();
  }

  void progress(const Row &R, const Cell &C, unsigned Done, unsigned Total,
                raw_ostream &Err) {
    std::lock_guard<std::mutex> L(PrintMutex);
    Err << "[" << Done << "/" << Total << "] " << R.Name << " (" << C.Variant
        << "): "
        << (C.Status == CellStatus::Pass
                ? (C.Relaxed.empty() ? "PASS" : "PASS*")
            : C.Status == CellStatus::Skip ? "SKIP"
                                           : "FAIL")
        << format(" %.1fs", C.Seconds) << "\n";
    for (const std::string &N : C.Notes)
      Err << "  note: " << R.Name << " (" << C.Variant << "): " << N << "\n";
  }

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

std::string errCell(const Cell &C) {
  if (C.Status == CellStatus::Skip)
    return "SKIP";
  if (C.Status == CellStatus::Pass) {
    // PASS*: a check relaxed by --allow fired.
    const char *Pass = C.Relaxed.empty() ? "PASS" : "PASS*";
    if (!C.HaveErrors)
      return Pass;
    return formatv("{0} {1}/{2}", Pass, format("%.1e", C.MaxAbs),
                   format("%.1e", C.MaxRel))
        .str();
  }
  return "FAIL " + C.Kind;
}

void printTable(const std::vector<Row> &Rows, ArrayRef<std::string> Variants,
                bool Program, int Lanes, raw_ostream &Out) {
  size_t NameW = Program ? 7 : 4;
  for (const Row &R : Rows)
    NameW = std::max(NameW, R.Name.size());
  const size_t CellW = 22;
  Out << left_justify(Program ? "program" : "case", NameW + 2);
  for (const std::string &V : Variants) {
    std::string H = V;
    if (V == "original")
      H += Lanes ? " (" + std::to_string(Lanes) + ")" : " (32)";
    else if (Lanes)
      H += " (" + std::to_string(Lanes) + ")";
    else
      H += V == "hip" ? " (64)" : V == "cuda" ? " (32)" : "";
    Out << left_justify(H, CellW);
  }
  Out << "\n";
  for (const Row &R : Rows) {
    Out << left_justify(R.Name, NameW + 2);
    if (!R.SpecError.empty()) {
      Out << "FAIL spec\n";
      continue;
    }
    for (const std::string &V : Variants) {
      auto It =
          llvm::find_if(R.Cells, [&](const Cell &C) { return C.Variant == V; });
      Out << left_justify(It == R.Cells.end() ? "-" : errCell(*It), CellW);
    }
    Out << "\n";
  }
  if (!Program)
    Out << "(PASS a/r: largest absolute / relative error over the outputs)\n";
}

json::Value cellJson(const Cell &C) {
  json::Object O;
  O["variant"] = C.Variant;
  O["status"] = C.Status == CellStatus::Pass   ? "pass"
                : C.Status == CellStatus::Skip ? "skip"
                                               : "fail";
  if (!C.Kind.empty())
    O["kind"] = C.Kind;
  if (!C.Reason.empty())
    O["reason"] = C.Reason;
  if (!C.Detail.empty())
    O["detail"] = C.Detail;
  if (!C.HipHeaders.empty()) {
    O["hip_headers"] = C.HipHeaders;
    json::Array Archs;
    for (const char *A : HipArchs)
      Archs.push_back(A);
    O["hip_archs"] = std::move(Archs);
  }
  if (!C.Notes.empty()) {
    json::Array Notes;
    for (const std::string &N : C.Notes)
      Notes.push_back(N);
    O["notes"] = std::move(Notes);
  }
  if (!C.Relaxed.empty()) {
    json::Array Relaxed;
    for (const std::string &N : C.Relaxed)
      Relaxed.push_back(N);
    O["relaxed"] = std::move(Relaxed);
  }
  auto Num = [](double D) -> json::Value {
    if (std::isfinite(D))
      return D;
    return std::isnan(D) ? "nan" : D > 0 ? "inf" : "-inf";
  };
  if (C.HaveErrors) {
    O["max_abs"] = Num(C.MaxAbs);
    O["max_rel"] = Num(C.MaxRel);
  }
  json::Array Outs;
  for (const OutputResult &R : C.Outputs)
    Outs.push_back(json::Object{{"name", R.Name},
                                {"count", (int64_t)R.Count},
                                {"mismatches", (int64_t)R.Mismatches},
                                {"nan_mismatches", (int64_t)R.NanMismatches},
                                {"max_abs", Num(R.MaxAbs)},
                                {"max_rel", Num(R.MaxRel)},
                                {"first_bad", R.FirstBad}});
  if (!Outs.empty())
    O["outputs"] = std::move(Outs);
  if (C.NkiOps)
    O["nki_ops"] = (int64_t)*C.NkiOps;
  O["exit_code"] = C.ExitCode;
  O["seconds"] = std::round(C.Seconds * 1000) / 1000;
  return O;
}

} // namespace

int runValidate(const ValidateOptions &Opts, const EmuToolchain &TC,
                PortService &PS, raw_ostream &Out, raw_ostream &Err) {
  if (TC.ClangXX.empty()) {
    Err << "error: no C++ compiler configured for the emulator\n";
    return 2;
  }
  for (const std::string &A : Opts.Allow)
    if (llvm::none_of(RelaxableChecks,
                      [&](const RelaxableCheck &R) { return A == R.Name; })) {
      std::vector<std::string> Names;
      for (const RelaxableCheck &R : RelaxableChecks)
        Names.push_back(R.Name);
      Err << "error: --allow: unknown check '" << A
          << "' (checks that can be relaxed: " << llvm::join(Names, ", ")
          << ")\n";
      return 2;
    }
  std::vector<std::optional<Target>> Variants{std::nullopt};
  for (Target T : Opts.Targets)
    if (!llvm::is_contained(Variants, std::optional<Target>(T)))
      Variants.push_back(T);
  std::vector<std::string> VariantNames;
  for (auto &V : Variants)
    VariantNames.push_back(variantName(V).str());

  // Rows.
  std::vector<Row> Rows;
  if (Opts.Program) {
    if (Opts.ProgramFile.empty()) {
      Err << "error: no program file given\n";
      return 2;
    }
    SmallString<256> Abs(Opts.ProgramFile);
    sys::fs::make_absolute(Abs);
    sys::path::remove_dots(Abs, true);
    if (!sys::fs::is_regular_file(Abs)) {
      Err << Opts.ProgramFile << ": error: no such file\n";
      return 2;
    }
    Row R;
    R.Name = sys::path::filename(Abs).str();
    R.Path = std::string(Abs);
    Rows.push_back(std::move(R));
  } else {
    if (Opts.Paths.empty()) {
      Err << "error: no case directories given\n";
      return 2;
    }
    Expected<std::vector<std::string>> Specs = findCaseSpecs(Opts.Paths);
    if (!Specs) {
      Err << toString(Specs.takeError()) << "\n";
      return 2;
    }
    if (Specs->empty()) {
      Err << "error: no case.yaml found under the given paths\n";
      return 2;
    }
    llvm::StringSet<> Names;
    for (const std::string &P : *Specs) {
      Row R;
      R.Path = P;
      Expected<CaseSpec> S = parseCaseSpecFile(P);
      if (!S) {
        R.SpecError = toString(S.takeError());
        R.Name = sys::path::filename(sys::path::parent_path(P)).str();
      } else {
        R.Name = S->Name;
        if (!Names.insert(S->Name).second) {
          R.SpecError =
              P + ":1:1: error: case name '" + S->Name + "' is used twice";
        } else
          R.Spec = std::move(*S);
      }
      Rows.push_back(std::move(R));
    }
  }

  // Scratch directory. A fresh one is removed on every way out (success,
  // failure, interruption) unless --keep-work; one named by --work-dir is
  // the user's and is kept.
  validate::ChildInterruptGuard Guard;
  std::string Work = Opts.WorkDir;
  bool RemoveWork = false;
  if (Work.empty()) {
    SmallString<256> Tmp;
    if (std::error_code EC =
            sys::fs::createUniqueDirectory("pk-validate", Tmp)) {
      Err << "error: cannot create a scratch directory: " << EC.message()
          << "\n";
      return 2;
    }
    Work = std::string(Tmp);
    RemoveWork = !Opts.KeepWork;
  } else if (std::error_code EC = sys::fs::create_directories(Work)) {
    Err << "error: cannot create " << Work << ": " << EC.message() << "\n";
    return 2;
  }
  {
    SmallString<256> Abs(Work);
    sys::fs::make_absolute(Abs);
    Work = std::string(Abs);
  }
  auto RemoveScratch = llvm::make_scope_exit([&] {
    if (RemoveWork)
      sys::fs::remove_directories(Work);
  });

  Runner Run(Opts, TC, PS, Work);
  if (Error E = writeFile(Run.runtimeHeaderPath(), driverRuntimeHeader())) {
    Err << "error: " << toString(std::move(E)) << "\n";
    return 2;
  }

  // One task per (row, variant).
  struct Task {
    size_t Row, Variant;
  };
  std::vector<Task> Tasks;
  for (size_t R = 0; R < Rows.size(); ++R) {
    if (!Rows[R].SpecError.empty())
      continue;
    Rows[R].Cells.resize(Variants.size());
    for (size_t V = 0; V < Variants.size(); ++V)
      Tasks.push_back({R, V});
  }
  for (const Row &R : Rows)
    if (!R.SpecError.empty())
      Err << R.SpecError << "\n";

  // Fault injection for the reliability tests: a real SIGINT after N
  // finished runs (docs/reliability.md).
  long InterruptAfter = -1;
  if (const char *V = std::getenv("PK_TEST_INTERRUPT_AFTER"))
    InterruptAfter = std::atol(V);
  std::atomic<unsigned> Finished{0};
  {
    DefaultThreadPool Pool(hardware_concurrency(std::max(1, Opts.Jobs)));
    std::mutex ProgressMutex;
    std::vector<bool> TaskDone(Tasks.size(), false);
    size_t NextProgress = 0;
    for (size_t I = 0; I < Tasks.size(); ++I)
      Pool.async([&, I, T = Tasks[I]] {
        if (validate::ChildInterruptGuard::interrupted())
          return;
        Row &R = Rows[T.Row];
        Cell C = Opts.Program ? Run.runProgram(R.Path, Variants[T.Variant])
                              : Run.runCase(*R.Spec, Variants[T.Variant]);
        if (validate::ChildInterruptGuard::interrupted())
          return;
        unsigned N = ++Finished;
        R.Cells[T.Variant] = std::move(C);
        {
          // Progress lines in the order of the table, each as soon as its
          // run and every run before it have finished: the error stream is
          // the same whatever the schedule and -j.
          std::lock_guard<std::mutex> L(ProgressMutex);
          TaskDone[I] = true;
          for (; NextProgress < Tasks.size() && TaskDone[NextProgress];
               ++NextProgress) {
            const Task &P = Tasks[NextProgress];
            Run.progress(Rows[P.Row], Rows[P.Row].Cells[P.Variant],
                         NextProgress + 1, Tasks.size(), Err);
          }
        }
        if (InterruptAfter >= 0 && (long)N == InterruptAfter)
          std::raise(SIGINT);
      });
    Pool.wait();
  }
  if (validate::ChildInterruptGuard::interrupted()) {
    Err << "port-kernel: validate interrupted after " << Finished << " of "
        << Tasks.size() << " runs; running programs were killed"
        << (RemoveWork      ? "; scratch directory removed"
            : Opts.KeepWork ? "; scratch directory kept (--keep-work): " + Work
                            : "; work directory kept: " + Work)
        << "\n";
    return 130;
  }

  unsigned Passed = 0, Failed = 0, Skipped = 0;
  for (const Row &R : Rows) {
    if (!R.SpecError.empty())
      ++Failed;
    for (const Cell &C : R.Cells)
      (C.Status == CellStatus::Pass   ? Passed
       : C.Status == CellStatus::Skip ? Skipped
                                      : Failed)++;
  }
  // Passes that needed a check --allow relaxed.
  unsigned RelaxedPasses = 0;
  for (const Row &R : Rows)
    for (const Cell &C : R.Cells)
      RelaxedPasses += C.Status == CellStatus::Pass && !C.Relaxed.empty();
  const std::string AllowList = llvm::join(Opts.Allow, ",");

  if (Opts.Json) {
    json::Array JRows;
    for (const Row &R : Rows) {
      json::Object O{{"name", R.Name}, {"path", R.Path}};
      // The one kernel the case's driver launches, and where it is defined.
      if (R.Spec) {
        O["entry"] = R.Spec->Entry;
        O["source"] = R.Spec->sourcePath();
      }
      if (!R.SpecError.empty()) {
        O["status"] = "fail";
        O["error"] = R.SpecError;
      } else {
        bool AllOk = llvm::all_of(R.Cells, [](const Cell &C) {
          return C.Status != CellStatus::Fail;
        });
        O["status"] = AllOk ? "pass" : "fail";
      }
      json::Array Cells;
      for (const Cell &C : R.Cells) {
        json::Value V = cellJson(C);
        if (!RemoveWork)
          (*V.getAsObject())["work_dir"] = C.Dir;
        Cells.push_back(std::move(V));
      }
      O["results"] = std::move(Cells);
      JRows.push_back(std::move(O));
    }
    json::Array JVariants;
    for (const std::string &V : VariantNames)
      JVariants.push_back(V);
    json::Object Doc{{"mode", Opts.Program ? "program" : "kernel"},
                     {"lanes", Opts.Lanes},
                     {"variants", std::move(JVariants)},
                     {Opts.Program ? "programs" : "cases", std::move(JRows)},
                     {"summary", json::Object{{"passed", Passed},
                                              {"failed", Failed},
                                              {"skipped", Skipped}}},
                     {"ok", Failed == 0}};
    if (!Opts.Allow.empty()) {
      json::Array Allow;
      for (const std::string &A : Opts.Allow)
        Allow.push_back(A);
      Doc["allow"] = std::move(Allow);
      (*Doc.getObject("summary"))["passed_relaxed"] = RelaxedPasses;
    }
    if (!RemoveWork)
      Doc["work_dir"] = Work;
    Out << formatv("{0:2}", json::Value(std::move(Doc))) << "\n";
  } else {
    printTable(Rows, VariantNames, Opts.Program, Opts.Lanes, Out);
    if (!Opts.Allow.empty())
      Out << "(PASS*: passed only because --allow=" << AllowList
          << " relaxed a check that fired: not a strict pass)\n";
    printNkiOps(Rows, Out);
    if (Opts.Program)
      printHipHeaders(Rows, Opts.RocmMajor, Out);
    bool Header = false;
    for (const Row &R : Rows) {
      auto Section = [&] {
        if (!Header)
          Out << "\nFailures:\n";
        Header = true;
      };
      if (!R.SpecError.empty()) {
        Section();
        Out << "  " << R.Name << ": " << R.SpecError << "\n";
      }
      for (const Cell &C : R.Cells) {
        if (C.Status == CellStatus::Pass)
          continue;
        if (C.Status == CellStatus::Skip) {
          Section();
          Out << "  " << R.Name << " [" << C.Variant
              << "] skipped: " << C.Reason << "\n";
          continue;
        }
        Section();
        Out << "  " << R.Name << " [" << C.Variant << "]: " << C.Reason << "\n";
        if (!C.Detail.empty()) {
          SmallVector<StringRef, 16> Lines;
          StringRef(C.Detail).split(Lines, '\n');
          for (StringRef L : Lines) {
            StringRef Core = L.trim();
            size_t P = Core.find("pkemu: error:");
            if (P != StringRef::npos)
              Core = Core.drop_front(P + 13).trim();
            if (!StringRef(C.Reason).contains(Core))
              Out << "      " << L << "\n";
          }
        }
        if (!RemoveWork)
          Out << "      work: " << C.Dir << "\n";
      }
    }
    bool RelaxedHeader = false;
    for (const Row &R : Rows)
      for (const Cell &C : R.Cells) {
        if (C.Relaxed.empty())
          continue;
        if (!RelaxedHeader)
          Out << "\nRelaxed checks that fired (--allow=" << AllowList << "):\n";
        RelaxedHeader = true;
        for (const std::string &N : C.Relaxed)
          Out << "  " << R.Name << " [" << C.Variant << "]: " << N << "\n";
      }
    Out << "\n" << Passed << " passed";
    if (!Opts.Allow.empty())
      Out << " (" << RelaxedPasses << " only with --allow=" << AllowList << ")";
    Out << ", " << Failed << " failed";
    if (Skipped)
      Out << ", " << Skipped << " skipped";
    Out << " (" << Rows.size() << (Opts.Program ? " program" : " case")
        << (Rows.size() == 1 ? "" : "s") << " x " << Variants.size()
        << " variant" << (Variants.size() == 1 ? "" : "s") << ")\n";
    if (Failed && RemoveWork)
      Out << "(rerun with --keep-work to inspect the generated files)\n";
  }

  return Failed ? 1 : 0;
}

} // namespace pk

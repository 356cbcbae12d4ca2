//===- GpuRun.cpp - validate on a real NVIDIA GPU, or write a GPU bundle --===//
// Rules: none (validation harness)
//
// A bundle is a directory that needs only nvcc, bash and python3:
//   run.sh, run.py         the runner (lib/Validate/runtime/pkv_gpu_run.py)
//   manifest.json          the cases (or the program) and their variants
//   pkv_rt.h, pkv_gpu.h    the driver runtime and the timed launch
//   cases/<case>/<variant>.cu   the driver (DriverGen.cpp, as for the
//                               emulator) of the original or the CUDA port
//   cases/<case>/<variant>/...  that variant's sources, local headers kept
//   cases/<case>/ref/...        the CPU reference
//   cases/<case>/launch.h       the buffer sizes, then pkv_gpu.h
// `validate --gpu` writes one into its scratch directory and runs it.

#include "pk/GpuRun.h"
#include "pk/ValidateCase.h"
#include "pk/Escape.h"
#include "pk/OutputTransaction.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/xxhash.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"
#include <csignal>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>

using namespace llvm;
using namespace pk::validate;

#ifndef PK_PYTHON3
#define PK_PYTHON3 "/usr/bin/python3"
#endif

namespace pk {
namespace validate {

StringRef gpuRunnerScript() {
  static const char Text[] =
#include "PkvGpuRunText.inc"
      ;
  return StringRef(Text, sizeof(Text) - 1);
}

StringRef gpuLaunchHeader() {
  static const char Text[] =
#include "PkvGpuHeaderText.inc"
      ;
  return StringRef(Text, sizeof(Text) - 1);
}

std::vector<std::string> localIncludeClosure(StringRef Main) {
  std::vector<std::string> Files;
  StringSet<> Seen;
  SmallString<256> First(Main);
  sys::fs::make_absolute(First);
  sys::path::remove_dots(First, true);
  std::vector<std::string> Work{std::string(First)};
  Regex Include("^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\"");
  while (!Work.empty()) {
    std::string F = Work.back();
    Work.pop_back();
    if (!Seen.insert(F).second)
      continue;
    Files.push_back(F);
    auto B = MemoryBuffer::getFile(F);
    if (!B)
      continue;
    SmallVector<StringRef, 256> Lines;
    (*B)->getBuffer().split(Lines, '\n');
    for (StringRef L : Lines) {
      SmallVector<StringRef, 2> M;
      if (!Include.match(L, &M) || sys::path::is_absolute(M[1]))
        continue;
      SmallString<256> P(sys::path::parent_path(F));
      sys::path::append(P, M[1]);
      sys::path::remove_dots(P, true);
      if (sys::fs::is_regular_file(P))
        Work.push_back(std::string(P));
    }
  }
  return Files;
}

} // namespace validate

namespace {

std::string joinPath(StringRef A, StringRef B, StringRef C = "",
                     StringRef D = "") {
  SmallString<256> P(A);
  for (StringRef X : {B, C, D})
    if (!X.empty())
      sys::path::append(P, X);
  return std::string(P);
}

Error writeText(StringRef Path, StringRef Text) {
  if (std::error_code EC =
          sys::fs::create_directories(sys::path::parent_path(Path)))
    return createStringError(EC, "cannot create the directory of " + Path +
                                     ": " + EC.message());
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_Text);
  if (EC)
    return createStringError(EC, "cannot write " + Path + ": " + EC.message());
  OS << Text;
  OS.close();
  if (OS.has_error())
    return createStringError(OS.error(), "cannot write " + Path + ": " +
                                             OS.error().message());
  return Error::success();
}

std::string firstLine(StringRef S) { return S.trim().split('\n').first.str(); }

/// A name nvcc may put on a shell command line: nvcc runs its sub-tools
/// through a shell, so a bundled path holding '$(...)', quotes, spaces or
/// ';' would run what it says on the GPU machine.  Characters outside
/// [A-Za-z0-9._-] become '_', and a name that changed gets a hash of the
/// original, so two names never collide; manifest.json keeps the original.
std::string safeName(StringRef Name) {
  std::string S;
  for (char C : Name)
    S += (isAlnum(C) || C == '.' || C == '_' || C == '-') ? C : '_';
  if (S.empty() || S[0] == '-' || S[0] == '.')
    S.insert(S.begin(), 'x');
  if (S == Name)
    return S;
  // The hash goes before a (safe) extension: nvcc picks the language by it.
  std::string Hash =
      "-" + utohexstr(xxh3_64bits(Name) & 0xffffffff, /*LowerCase=*/true);
  size_t Dot = S.rfind('.');
  StringRef Ext = Dot == std::string::npos ? "" : StringRef(S).substr(Dot);
  if (Dot != std::string::npos && Dot > 0 && Name.ends_with(Ext))
    return S.substr(0, Dot) + Hash + Ext.str();
  return S + Hash;
}

/// Copies \p Main and its local includes under \p Dest, keeping their layout
/// relative to the deepest directory that holds them all; returns the path
/// of \p Main relative to \p Dest (with '/').  With \p SafeNames, every
/// component of that layout is a safeName() (a file that #includes a
/// renamed component by name cannot be bundled: an error says which).
Expected<std::string> copyClosure(StringRef Main, StringRef Dest,
                                  bool SafeNames = false) {
  std::vector<std::string> Files = localIncludeClosure(Main);
  std::string Root = sys::path::parent_path(Files.front()).str();
  for (const std::string &F : Files)
    while (!StringRef(F).starts_with(Root + "/") && !Root.empty() &&
           Root != "/")
      Root = sys::path::parent_path(Root).str();
  std::map<std::string, std::string> Renamed; // original component -> safe
  auto SafeRel = [&](StringRef Rel) {
    if (!SafeNames)
      return Rel.str();
    std::string Out;
    for (auto It = sys::path::begin(Rel), End = sys::path::end(Rel);
         It != End; ++It) {
      std::string Safe = safeName(*It);
      if (Safe != *It)
        Renamed[It->str()] = Safe;
      Out += (Out.empty() ? "" : "/") + Safe;
    }
    return Out;
  };
  std::vector<std::pair<std::string, std::string>> Copies; // from, rel
  for (const std::string &F : Files)
    Copies.push_back(
        {F, SafeRel(StringRef(F).drop_front(Root == "/" ? 1
                                                        : Root.size() + 1))});
  std::string MainRel;
  for (const auto &[F, Rel] : Copies) {
    auto B = MemoryBuffer::getFile(F);
    if (!B)
      return createStringError(B.getError(), "cannot read " + F + ": " +
                                                 B.getError().message());
    // A renamed directory or file that an #include names would not be
    // found under its new name.
    for (const auto &[Orig, Safe] : Renamed)
      for (StringRef Line : split((*B)->getBuffer(), '\n'))
        if (Line.ltrim().starts_with("#") && Line.contains("include") &&
            Line.contains(Orig))
          return createStringError(
              inconvertibleErrorCode(),
              F + ": error: its #include names '" + showControls(Orig) +
                  "', a name the GPU bundle cannot pass to nvcc (which runs "
                  "a shell): rename it to letters, digits, '.', '_' and '-'");
    if (Error E = writeText(joinPath(Dest, Rel), (*B)->getBuffer()))
      return std::move(E);
    if (MainRel.empty())
      MainRel = sys::path::convert_to_slash(Rel);
  }
  return MainRel;
}

/// A variant of one bundle entry, as manifest.json lists it.
json::Object variantJson(StringRef Variant, StringRef Status = "",
                         StringRef Kind = "", StringRef Reason = "",
                         StringRef Detail = "") {
  json::Object O{{"variant", Variant}};
  if (!Status.empty())
    O["status"] = Status;
  if (!Kind.empty())
    O["kind"] = Kind;
  if (!Reason.empty())
    O["reason"] = Reason;
  if (!Detail.empty())
    O["detail"] = Detail;
  return O;
}

struct Entry {
  std::string Name, Path;
  std::optional<CaseSpec> Spec;
  std::string SpecError;
};

class BundleWriter {
public:
  BundleWriter(const ValidateOptions &Opts, PortService &PS, StringRef Dir,
               StringRef Scratch)
      : Opts(Opts), PS(PS), Dir(Dir.str()), Scratch(Scratch.str()) {}

  unsigned Drivers = 0, Failures = 0;
  std::set<std::string> Ids;

  /// The runner and the runtime headers: enough for `run.py --probe`.
  Error writeRunner() {
    static const char RunSh[] =
        "#!/usr/bin/env bash\n"
        "# Builds every driver of this bundle with nvcc and runs it on the\n"
        "# NVIDIA GPU; prints a table and writes results.json (options:\n"
        "# run.sh --help). Needs nvcc, bash and python3.\n"
        "set -euo pipefail\n"
        "here=\"$(cd \"$(dirname \"${BASH_SOURCE[0]}\")\" && pwd)\"\n"
        "if ! command -v python3 >/dev/null 2>&1; then\n"
        "  echo \"run.sh: error: python3 not found\" >&2\n"
        "  exit 2\n"
        "fi\n"
        "exec python3 \"$here/run.py\" \"$@\"\n";
    for (auto [Name, Text] : {std::pair<StringRef, StringRef>{"run.sh", RunSh},
                              {"run.py", gpuRunnerScript()},
                              {"pkv_rt.h", driverRuntimeHeader()},
                              {"pkv_gpu.h", gpuLaunchHeader()}})
      if (Error E = writeText(joinPath(Dir, Name), Text))
        return E;
    for (StringRef X : {"run.sh", "run.py"})
      sys::fs::setPermissions(joinPath(Dir, X),
                              sys::fs::perms(0755)); // best effort
    return Error::success();
  }

  /// A directory name of its own for each entry (safeName, unique).
  std::string entryId(StringRef Name) {
    std::string Id = safeName(Name);
    for (unsigned N = 2; !Ids.insert(Id).second; ++N)
      Id = safeName(Name) + "-" + std::to_string(N);
    return Id;
  }

  json::Object caseEntry(const Entry &E, raw_ostream &Err) {
    std::string Id = entryId(E.Name);
    json::Object O{{"name", E.Name}, {"id", Id}, {"path", E.Path}};
    json::Array Vs;
    if (!E.Spec) {
      for (StringRef V : variants())
        Vs.push_back(variantJson(V, "fail", "spec", firstLine(E.SpecError),
                                 E.SpecError));
      Failures += variants().size();
      O["variants"] = std::move(Vs);
      return O;
    }
    const CaseSpec &S = *E.Spec;
    std::string CaseDir = joinPath(Dir, "cases", Id);
    // The reference and the buffer sizes, shared by the variants.
    Expected<std::string> Ref =
        copyClosure(S.referencePath(), joinPath(CaseDir, "ref"));
    std::string Launch = "// Buffer sizes of case '" + S.Name +
                         "' in argument order (0: a scalar).\n"
                         "#define PKV_GPU_ARG_BYTES {";
    for (size_t I = 0; I < S.Args.size(); ++I)
      Launch += formatv("{0}{1}", I ? ", " : "",
                        S.Args[I].isBuffer()
                            ? *S.Args[I].Count * elemTypeSize(S.Args[I].Type)
                            : 0)
                    .str();
    Launch += S.Args.empty() ? "0}\n" : "}\n";
    Launch += "#include \"../../pkv_gpu.h\"\n";
    Error LE = writeText(joinPath(CaseDir, "launch.h"), Launch);
    std::string Common;
    if (!Ref) {
      Common = toString(Ref.takeError());
      consumeError(std::move(LE));
    } else if (LE)
      Common = toString(std::move(LE));

    for (StringRef V : variants()) {
      auto Fail = [&](StringRef Kind, std::string Msg) {
        ++Failures;
        Err << "port-kernel: " << S.Name << " (" << V << "): " << firstLine(Msg)
            << "\n";
        Vs.push_back(variantJson(V, "fail", Kind, firstLine(Msg),
                                 StringRef(Msg).trim()));
      };
      if (!Common.empty()) {
        Fail("run", Common);
        continue;
      }
      std::string Main = S.sourcePath();
      if (V == "original") {
        if (PS.isHipSource(Main)) {
          Vs.push_back(variantJson(
              V, "skip", "n/a",
              "HIP source: the original does not run on NVIDIA GPUs (its "
              "CUDA port does)"));
          continue;
        }
      } else {
        std::vector<std::string> Outs;
        if (Error PE =
                PS.portFiles({Main}, Target::CUDA,
                             joinPath(Scratch, S.Name, "cuda", "src"), Outs)) {
          Fail("port", "port failed: " + toString(std::move(PE)));
          continue;
        }
        if (Outs.empty()) {
          Fail("port", "port produced no output file");
          continue;
        }
        Main = Outs.front();
      }
      Expected<std::string> Rel = copyClosure(Main, joinPath(CaseDir, V));
      if (!Rel) {
        Fail("run", toString(Rel.takeError()));
        continue;
      }
      DriverConfig DC;
      DC.Language = Lang::CUDA;
      DC.PreparedSource = (V + "/" + *Rel).str();
      DC.ReferenceSource = "ref/" + *Ref;
      DC.RuntimeHeader = "launch.h";
      DC.Variant = V.str();
      std::string DriverRel = ("cases/" + Id + "/" + V + ".cu").str();
      if (Error WE = writeText(joinPath(Dir, DriverRel),
                               "// nvcc -O3 -arch=sm_90 " + V.str() +
                                   ".cu (from the bundle's run.sh)\n" +
                                   generateDriver(S, DC))) {
        Fail("run", toString(std::move(WE)));
        continue;
      }
      ++Drivers;
      json::Object VO = variantJson(V);
      VO["driver"] = DriverRel;
      Vs.push_back(std::move(VO));
    }
    O["variants"] = std::move(Vs);
    return O;
  }

  json::Object programEntry(StringRef File, raw_ostream &Err) {
    std::string Name = sys::path::filename(File).str();
    std::string Id = entryId(Name);
    json::Object O{{"name", Name}, {"id", Id}, {"path", File}};
    json::Array Args;
    for (const std::string &A : Opts.ProgramArgs)
      Args.push_back(A);
    O["args"] = std::move(Args);
    if (!Opts.ExpectOutput.empty())
      O["expect_output"] = Opts.ExpectOutput;
    if (!Opts.FailOutput.empty())
      O["fail_output"] = Opts.FailOutput;
    // The program's -D/-U flags become a header that nvcc is told to
    // include: their values never reach nvcc's (shell) command line.
    std::string Defines = "// The -D and -U flags of the program's build.\n";
    for (const std::string &F : Opts.BuildFlags) {
      StringRef R = F;
      if (R.consume_front("-D")) {
        auto [Macro, Value] = R.split('=');
        Defines += "#define " + Macro.str() + " " +
                   (R.contains('=') ? Value.str() : std::string("1")) + "\n";
      } else if (R.consume_front("-U")) {
        Defines += "#undef " + R.str() + "\n";
      }
    }
    json::Array Vs;
    std::string Base = joinPath(Dir, "programs", Id);
    if (Error E = writeText(joinPath(Base, "defines.h"), Defines)) {
      for (StringRef V : variants())
        Vs.push_back(variantJson(V, "fail", "run", toString(std::move(E))));
      O["variants"] = std::move(Vs);
      return O;
    }
    json::Array Flags{"-x", "cu", "-include",
                      ("programs/" + Id + "/defines.h")};
    // OpenMP host code, as the emulator builds compile it.
    if (is_contained(Opts.BuildFlags, "-fopenmp")) {
      Flags.push_back("-Xcompiler");
      Flags.push_back("-fopenmp");
    }
    for (StringRef V : variants()) {
      auto Fail = [&](StringRef Kind, std::string Msg) {
        ++Failures;
        Err << "port-kernel: " << Name << " (" << V << "): " << firstLine(Msg)
            << "\n";
        Vs.push_back(variantJson(V, "fail", Kind, firstLine(Msg),
                                 StringRef(Msg).trim()));
      };
      std::string Main = File.str();
      if (V == "original") {
        if (PS.isHipSource(Main)) {
          Vs.push_back(variantJson(
              V, "skip", "n/a",
              "HIP source: the original does not run on NVIDIA GPUs (its "
              "CUDA port does)"));
          continue;
        }
      } else {
        std::vector<std::string> Outs;
        if (Error PE = PS.portFiles({Main}, Target::CUDA,
                                    joinPath(Scratch, "program", "cuda", "src"),
                                    Outs)) {
          Fail("port", "port failed: " + toString(std::move(PE)));
          continue;
        }
        if (Outs.empty()) {
          Fail("port", "port produced no output file");
          continue;
        }
        Main = Outs.front();
      }
      Expected<std::string> Rel =
          copyClosure(Main, joinPath(Base, V), /*SafeNames=*/true);
      if (!Rel) {
        Fail("run", toString(Rel.takeError()));
        continue;
      }
      ++Drivers;
      json::Object VO = variantJson(V);
      VO["driver"] = ("programs/" + Id + "/" + V + "/" + *Rel).str();
      VO["nvcc_flags"] = json::Array(Flags);
      Vs.push_back(std::move(VO));
    }
    O["variants"] = std::move(Vs);
    return O;
  }

  Error writeManifest(json::Array Entries) {
    json::Array Vs;
    for (StringRef V : variants())
      Vs.push_back(V);
    json::Object M{{"pk_gpu_bundle", 1},
                   {"mode", Opts.Program ? "program" : "kernel"},
                   {"variants", std::move(Vs)},
                   {"entries", std::move(Entries)}};
    return writeText(joinPath(Dir, "manifest.json"),
                     formatv("{0:2}", json::Value(std::move(M))).str() + "\n");
  }

  std::vector<StringRef> variants() const {
    std::vector<StringRef> V{"original"};
    if (llvm::is_contained(Opts.Targets, Target::CUDA))
      V.push_back("cuda");
    return V;
  }

private:
  const ValidateOptions &Opts;
  PortService &PS;
  std::string Dir, Scratch;
};

/// The rows of the run: case specs (parsed) or the program.
Expected<std::vector<Entry>> collectEntries(const ValidateOptions &Opts) {
  std::vector<Entry> Rows;
  if (Opts.Program) {
    SmallString<256> Abs(Opts.ProgramFile);
    sys::fs::make_absolute(Abs);
    sys::path::remove_dots(Abs, true);
    if (!sys::fs::is_regular_file(Abs))
      return createStringError(inconvertibleErrorCode(),
                               Opts.ProgramFile + ": error: no such file");
    Entry E;
    E.Name = sys::path::filename(Abs).str();
    E.Path = std::string(Abs);
    Rows.push_back(std::move(E));
    return Rows;
  }
  if (Opts.Paths.empty())
    return createStringError(inconvertibleErrorCode(),
                             "error: no case directories given");
  Expected<std::vector<std::string>> Specs = findCaseSpecs(Opts.Paths);
  if (!Specs)
    return Specs.takeError();
  if (Specs->empty())
    return createStringError(inconvertibleErrorCode(),
                             "error: no case.yaml found under the given paths");
  StringSet<> Names;
  for (const std::string &P : *Specs) {
    Entry E;
    E.Path = P;
    Expected<CaseSpec> S = parseCaseSpecFile(P);
    if (!S) {
      E.SpecError = toString(S.takeError());
      E.Name = sys::path::filename(sys::path::parent_path(P)).str();
    } else if (!Names.insert(S->Name).second) {
      E.Name = S->Name;
      E.SpecError =
          P + ":1:1: error: case name '" + S->Name + "' is used twice";
    } else {
      E.Name = S->Name;
      E.Spec = std::move(*S);
    }
    Rows.push_back(std::move(E));
  }
  return Rows;
}

/// Runs \p Args with \p Python; its standard output goes to \p OutFile, its
/// standard error to ours.  Returns the exit status (-1: not started).
int runPython(StringRef Python, ArrayRef<std::string> Args, StringRef OutFile,
              std::string &ErrMsg) {
  std::vector<StringRef> Argv{Python};
  for (const std::string &A : Args)
    Argv.push_back(A);
  std::optional<StringRef> Redirects[] = {std::nullopt, OutFile, std::nullopt};
  bool Failed = false;
  int RC = sys::ExecuteAndWait(Python, Argv, std::nullopt, Redirects, 0, 0,
                               &ErrMsg, &Failed);
  return Failed ? -1 : RC;
}

std::string readFileOr(StringRef Path) {
  auto B = MemoryBuffer::getFile(Path);
  return B ? (*B)->getBuffer().str() : std::string();
}

/// No nvcc or no GPU: every cell is skipped, with the reason.
int printSkipped(const ValidateOptions &Opts, const std::vector<Entry> &Rows,
                 ArrayRef<StringRef> Variants, StringRef Reason,
                 raw_ostream &Out, raw_ostream &Err) {
  Err << "port-kernel: validate --gpu: skipped: " << Reason << "\n";
  unsigned Failed = 0, Skipped = 0;
  for (const Entry &E : Rows) {
    if (E.Spec || Opts.Program)
      Skipped += Variants.size();
    else
      ++Failed;
  }
  if (Opts.Json) {
    json::Array JRows;
    for (const Entry &E : Rows) {
      json::Object O{{"name", E.Name}, {"path", E.Path}};
      if (!E.Spec && !Opts.Program) {
        O["status"] = "fail";
        O["error"] = E.SpecError;
      } else {
        O["status"] = "skip";
        json::Array Cells;
        for (StringRef V : Variants)
          Cells.push_back(json::Object{
              {"variant", V}, {"status", "skip"}, {"reason", Reason}});
        O["results"] = std::move(Cells);
      }
      JRows.push_back(std::move(O));
    }
    json::Array JV;
    for (StringRef V : Variants)
      JV.push_back(V);
    json::Object Doc{
        {"mode", Opts.Program ? "gpu-program" : "gpu"},
        {"skipped", true},
        {"reason", Reason},
        {"variants", std::move(JV)},
        {Opts.Program ? "programs" : "cases", std::move(JRows)},
        {"summary",
         json::Object{{"passed", 0}, {"failed", Failed}, {"skipped", Skipped}}},
        {"ok", Failed == 0}};
    Out << formatv("{0:2}", json::Value(std::move(Doc))) << "\n";
    return Failed ? 1 : 0;
  }
  Out << "GPU: skipped: " << Reason << "\n";
  size_t NameW = Opts.Program ? 7 : 4;
  for (const Entry &E : Rows)
    NameW = std::max(NameW, E.Name.size());
  Out << left_justify(Opts.Program ? "program" : "case", NameW + 2);
  for (StringRef V : Variants)
    Out << left_justify(V, 22);
  Out << "\n";
  for (const Entry &E : Rows) {
    Out << left_justify(E.Name, NameW + 2);
    if (!E.Spec && !Opts.Program) {
      Out << "FAIL spec\n";
      continue;
    }
    for (size_t I = 0; I < Variants.size(); ++I)
      Out << left_justify("SKIP", 22);
    Out << "\n";
  }
  for (const Entry &E : Rows)
    if (!E.Spec && !Opts.Program)
      Out << "  " << E.Name << ": " << E.SpecError << "\n";
  Out << "\n0 passed, " << Failed << " failed, " << Skipped << " skipped ("
      << Rows.size() << (Opts.Program ? " program" : " case")
      << (Rows.size() == 1 ? "" : "s") << " x " << Variants.size() << " variant"
      << (Variants.size() == 1 ? "" : "s") << ")\n";
  return Failed ? 1 : 0;
}

} // namespace

int runGpuValidate(const ValidateOptions &Opts, const GpuOptions &G,
                   PortService &PS, raw_ostream &Out, raw_ostream &Err) {
  for (Target T : Opts.Targets)
    if (T != Target::CUDA) {
      Err << "port-kernel: error: --gpu runs the original and its CUDA "
             "port: --to must be cuda or none (got "
          << targetName(T) << ")\n";
      return 2;
    }
  Expected<std::vector<Entry>> Rows = collectEntries(Opts);
  if (!Rows) {
    Err << toString(Rows.takeError()) << "\n";
    return 2;
  }
  const bool BundleOnly = !G.BundleDir.empty();

  // Scratch directory (ports), as runValidate keeps or removes it.
  std::string Work = Opts.WorkDir;
  bool RemoveWork = false;
  if (Work.empty()) {
    SmallString<256> Tmp;
    if (std::error_code EC = sys::fs::createUniqueDirectory("pk-gpu", Tmp)) {
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
  auto RemoveScratch = make_scope_exit([&] {
    if (RemoveWork)
      sys::fs::remove_directories(Work);
  });

  // The bundle: in the scratch directory for --gpu; for --gpu-bundle in a
  // staging directory next to DIR, renamed to DIR when complete.
  std::string Dir = joinPath(Work, "bundle");
  std::string Final;
  if (BundleOnly) {
    SmallString<256> Abs(G.BundleDir);
    sys::fs::make_absolute(Abs);
    sys::path::remove_dots(Abs, true);
    Final = std::string(Abs);
    if (sys::fs::exists(Final)) {
      std::error_code EC;
      bool Empty = sys::fs::directory_iterator(Final, EC) ==
                   sys::fs::directory_iterator();
      if (!sys::fs::is_directory(Final) ||
          (!Empty && !sys::fs::exists(joinPath(Final, "manifest.json")))) {
        Err << G.BundleDir
            << ": error: exists and is not a GPU bundle; give a new or an "
               "empty directory, or an earlier bundle to replace\n";
        return 2;
      }
    }
    SmallString<256> Stage;
    if (std::error_code EC =
            sys::fs::createUniqueDirectory(Final + ".tmp", Stage)) {
      Err << G.BundleDir
          << ": error: cannot create a staging directory: " << EC.message()
          << "\n";
      return 2;
    }
    Dir = std::string(Stage);
  }
  auto RemoveStage = make_scope_exit([&] {
    if (BundleOnly && sys::fs::exists(Dir))
      sys::fs::remove_directories(Dir);
  });

  BundleWriter W(Opts, PS, Dir, joinPath(Work, "ports"));
  if (Error E = W.writeRunner()) {
    Err << "error: " << toString(std::move(E)) << "\n";
    return 2;
  }
  std::vector<StringRef> Variants = W.variants();
  std::string Python = G.Python.empty() ? PK_PYTHON3 : G.Python;
  auto RunnerArgs = [&](std::vector<std::string> A) {
    A.insert(A.begin(), joinPath(Dir, "run.py"));
    if (!G.Nvcc.empty())
      A.insert(A.end(), {"--nvcc", G.Nvcc});
    if (!G.Arch.empty())
      A.insert(A.end(), {"--arch", G.Arch});
    return A;
  };

  if (!BundleOnly) {
    // Is there an nvcc and a GPU? (Before porting anything.)
    std::string ProbeOut = joinPath(Work, "probe.json"), Msg;
    int RC = runPython(Python, RunnerArgs({"--probe"}), ProbeOut, Msg);
    if (RC < 0) {
      Err << "port-kernel: error: cannot run " << Python << ": " << Msg << "\n";
      return 2;
    }
    std::string Line = firstLine(readFileOr(ProbeOut));
    Expected<json::Value> V = json::parse(Line);
    const json::Object *O = V ? V->getAsObject() : nullptr;
    if (!V)
      consumeError(V.takeError());
    if (!O || !O->getBoolean("ok").value_or(false)) {
      std::string Reason =
          O && O->getString("reason")
              ? O->getString("reason")->str()
              : formatv("the GPU probe failed (exit status {0})", RC).str();
      return printSkipped(Opts, *Rows, Variants, Reason, Out, Err);
    }
  }

  // An interrupt while the bundle is written ends the run after the entry
  // in progress, and the scope guards remove the staging and scratch
  // directories: a bundle is complete or absent (docs/security.md).
  std::optional<InterruptGuard> Guard;
  if (BundleOnly)
    Guard.emplace();
  long InterruptAfter = -1; // tests: a real SIGINT after N entries
  if (const char *V = std::getenv("PK_TEST_INTERRUPT_AFTER"))
    InterruptAfter = std::atol(V);
  json::Array Entries;
  for (const Entry &E : *Rows) {
    Entries.push_back(Opts.Program ? W.programEntry(E.Path, Err)
                                   : W.caseEntry(E, Err));
    if (BundleOnly && (long)Entries.size() == InterruptAfter)
      std::raise(SIGINT);
    if (BundleOnly && InterruptGuard::interrupted()) {
      Err << "port-kernel: interrupted; no bundle written\n";
      return 130;
    }
  }
  if (Error E = W.writeManifest(std::move(Entries))) {
    Err << "error: " << toString(std::move(E)) << "\n";
    return 2;
  }

  if (BundleOnly) {
    if (sys::fs::exists(Final))
      sys::fs::remove_directories(Final);
    if (std::error_code EC = sys::fs::rename(Dir, Final)) {
      Err << G.BundleDir
          << ": error: cannot move the bundle in place: " << EC.message()
          << "\n";
      return 2;
    }
    Out << formatv("wrote {0}: {1} {2}, {3} driver{4}", G.BundleDir,
                   Rows->size(), Opts.Program ? "program" : "cases", W.Drivers,
                   W.Drivers == 1 ? "" : "s");
    if (W.Failures)
      Out << formatv(", {0} variant{1} failed before the GPU (run.sh reports "
                     "them)",
                     W.Failures, W.Failures == 1 ? "" : "s");
    Out << "\non the GPU machine: bash " << G.BundleDir
        << "/run.sh   (needs nvcc, bash, python3; prints the table, writes "
           "results.json)\n";
    return W.Failures ? 1 : 0;
  }

  std::vector<std::string> A{
      "--warmup",  std::to_string(G.Warmup),
      "--repeats", std::to_string(G.Repeats),
      "--batch",   std::to_string(G.Batch),
      "--jobs",    std::to_string(std::max(1, Opts.Jobs)),
      "--timeout", std::to_string(Opts.TimeoutSec)};
  if (Opts.Json)
    A.push_back("--json");
  std::string RunOut = joinPath(Work, "run.out"), Msg;
  int RC = runPython(Python, RunnerArgs(A), RunOut, Msg);
  if (RC < 0) {
    Err << "port-kernel: error: cannot run " << Python << ": " << Msg << "\n";
    return 2;
  }
  std::string Text = readFileOr(RunOut);
  if (Opts.Json && !RemoveWork) {
    Expected<json::Value> V = json::parse(Text);
    if (V && V->getAsObject()) {
      (*V->getAsObject())["work_dir"] = Work;
      Text = formatv("{0:2}\n", *V).str();
    } else if (!V)
      consumeError(V.takeError());
  }
  if (!Opts.Json && RemoveWork) {
    // The results file goes with the scratch directory: do not name it.
    std::string Kept;
    for (StringRef Rest = Text; !Rest.empty();) {
      auto [Line, Tail] = Rest.split('\n');
      if (!Line.starts_with("results: "))
        Kept +=
            Line.str() + (Tail.data() > Line.data() + Line.size() ? "\n" : "");
      Rest = Tail;
    }
    Text = std::move(Kept);
  }
  Out << Text;
  if (!Opts.Json && !RemoveWork)
    Out << "work: " << Work << "\n";
  return RC == 0 ? 0 : RC == 1 ? 1 : 2;
}

} // namespace pk

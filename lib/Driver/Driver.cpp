//===- Driver.cpp - files in, translated files out
//-------------------------===//
// Rules: PK9001, PK9002, PK9004, PK9100, PK9101, PK9102
#include "pk/Driver.h"
#include "pk/Escape.h"
#include "pk/SafeIO.h"
#include "pk/CrashGuard.h"
#include "pk/Inputs.h"
#include "pk/OutputTransaction.h"
#include "pk/Trace.h"
#include "pk/Target.h"

#include "clang/Frontend/ASTUnit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <set>

using namespace pk;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace {

/// Results of one TU for every target.
struct TUResult {
  std::string Path;
  std::vector<std::string> UserFiles;
  std::vector<EditSet> Edits;              // per target
  std::vector<std::vector<Finding>> Finds; // per target
  std::vector<llvm::StringMap<unsigned>> Counts;
  std::vector<std::map<std::string, std::set<std::string>>> Needs;
  /// Per target: outputs generated whole (TargetBackend::generate).
  std::vector<std::map<std::string, std::string>> Generated;
  std::vector<std::map<std::string, std::vector<GeneratedLine>>> GenLines;
  std::string Error;
};

} // namespace

llvm::Error pk::writeFileAtomically(llvm::StringRef Path0,
                                    llvm::StringRef Contents) {
  std::string Abs = absPath(Path0);
  llvm::StringRef Path = Abs;
  // Scratch files too: never onto a file the run read (a --work-dir inside
  // the inputs).
  if (std::optional<std::string> Role =
          ReadSet::get().roleOf(landingPath(Path)))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "%s: error: would overwrite %s, which this run reads [PK9001]",
        Path.str().c_str(), Role->c_str());
  if (std::error_code EC = fs::create_directories(path::parent_path(Path)))
    return llvm::createStringError(EC, "%s: error: cannot create directory: %s",
                                   Path.str().c_str(), EC.message().c_str());
  llvm::SmallString<256> Tmp;
  int FD;
  if (std::error_code EC =
          fs::createUniqueFile(Path + ".pk-tmp-%%%%%%", FD, Tmp))
    return llvm::createStringError(EC, "%s: error: cannot write: %s",
                                   Path.str().c_str(), EC.message().c_str());
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Contents;
    OS.close();
    if (OS.has_error()) {
      fs::remove(Tmp);
      return llvm::createStringError(OS.error(), "%s: error: cannot write: %s",
                                     Path.str().c_str(),
                                     OS.error().message().c_str());
    }
  }
  if (std::error_code EC = fs::rename(Tmp, Path)) {
    fs::remove(Tmp);
    return llvm::createStringError(EC, "%s: error: cannot write: %s",
                                   Path.str().c_str(), EC.message().c_str());
  }
  return llvm::Error::success();
}

Driver::Driver(DriverOptions Opts, llvm::raw_ostream &Diag)
    : O(std::move(Opts)), Diag(Diag) {}

llvm::Error Driver::init() {
  if (!O.RulesDir.empty())
    if (llvm::Error E = DB.loadDirectory(O.RulesDir))
      return E;
  for (const auto &F : O.RuleFiles) {
    noteRead(F, "the --rules file");
    if (llvm::Error E = DB.loadFile(F))
      return E;
  }
  if (!O.FE.CompDbDir.empty())
    noteRead(O.FE.CompDbDir + "/compile_commands.json",
             "the compilation database");
  return llvm::Error::success();
}

std::vector<std::string> Driver::dependencies() const {
  std::set<std::string> Deps(ReadFiles.begin(), ReadFiles.end());
  if (!O.RulesDir.empty()) {
    std::error_code EC;
    for (fs::directory_iterator It(O.RulesDir, EC), End; It != End && !EC;
         It.increment(EC))
      if (path::extension(It->path()) == ".yaml")
        Deps.insert(absPath(It->path()));
  }
  for (const std::string &F : O.RuleFiles)
    Deps.insert(absPath(F));
  if (!O.FE.CompDbDir.empty())
    Deps.insert(absPath(O.FE.CompDbDir + "/compile_commands.json"));
  if (O.Policy) // the configuration files (.port-kernel.yaml) read
    for (const std::string &F : O.Policy->files())
      Deps.insert(F);
  return {Deps.begin(), Deps.end()};
}

llvm::Expected<std::string>
pk::depfileText(llvm::ArrayRef<std::string> Targets,
                llvm::ArrayRef<std::string> Deps) {
  std::string S;
  for (const std::string &T : Targets) {
    auto E = depfileEscape(T);
    if (!E)
      return E.takeError();
    S += (S.empty() ? "" : " \\\n ") + *E;
  }
  S += ":";
  for (const std::string &D : Deps) {
    auto E = depfileEscape(D);
    if (!E)
      return E.takeError();
    S += " \\\n  " + *E;
  }
  return S + "\n";
}

llvm::Expected<std::vector<TargetOutput>>
Driver::translate(llvm::ArrayRef<std::string> Paths,
                  llvm::ArrayRef<Target> Targets, llvm::StringRef OutRoot,
                  RunMode Mode, std::vector<FileFailure> *Failed,
                  bool SourcesAreUnits) {
  std::vector<InputFile> Inputs;
  std::vector<std::string> Skipped;
  if (llvm::Error E = collectInputs(Paths, Inputs, &Skipped))
    return std::move(E);
  // A C++ source named on the command line is a unit of the program being
  // ported even without CUDA in it (a CPU reference's gold.cpp): parsed, so
  // that the local headers it includes come along. Plain C++ found by
  // walking a directory is copied as it is.
  for (InputFile &F : Inputs) {
    llvm::StringRef Ext = llvm::sys::path::extension(F.Path);
    bool Cxx = Ext == ".cpp" || Ext == ".cc" || Ext == ".cxx" || Ext == ".C";
    if (F.Kind == FileKind::PlainCXX && Cxx && (F.Named || SourcesAreUnits))
      F.Kind = FileKind::CUDA;
  }
  for (const std::string &S : Skipped)
    Diag << S << "\n"; // what the walk left out, and why

  // Translation units first; headers and source files that another file
  // includes (fragments: a main.cu that includes kernels.cu) are handled in
  // the context of the TUs that reach them; those no TU reaches are parsed on
  // their own.  With a compilation database its file list names the TUs;
  // without one, a source another input #includes is a fragment (PK9101).
  std::vector<const InputFile *> TUs, Headers;
  std::map<std::string, std::string> IncludedBy;
  std::set<std::string> DbFiles;
  if (!O.FE.CompDbDir.empty()) {
    auto Files = compDbFiles(O.FE.CompDbDir);
    if (!Files)
      return Files.takeError();
    DbFiles.insert(Files->begin(), Files->end());
  } else {
    std::vector<std::string> Args = O.FE.ExtraArgsBefore;
    Args.insert(Args.end(), O.FE.ExtraArgs.begin(), O.FE.ExtraArgs.end());
    IncludedBy = findIncludedSources(Inputs, includeDirsOf(Args));
  }
  for (const InputFile &F : Inputs) {
    if (F.Kind != FileKind::CUDA && F.Kind != FileKind::HIP)
      continue;
    bool Fragment =
        isHeaderExt(F.Path) || (DbFiles.empty() ? IncludedBy.count(F.Path) > 0
                                                : !DbFiles.count(F.Path));
    (Fragment ? Headers : TUs).push_back(&F);
  }
  // --shard K/N: this shard's translation units, the headers they include
  // and the lone files of its own (pk/Shard.h).
  std::optional<std::set<std::string>> InShard;
  if (O.Shard.enabled()) {
    std::set<std::string> TUSet;
    for (const InputFile *F : TUs)
      TUSet.insert(F->Path);
    std::vector<std::string> Args = O.FE.ExtraArgsBefore;
    Args.insert(Args.end(), O.FE.ExtraArgs.begin(), O.FE.ExtraArgs.end());
    InShard = selectShard(Inputs, TUSet, includeDirsOf(Args), O.Shard);
    auto Out = [&](const InputFile *F) { return !InShard->count(F->Path); };
    llvm::erase_if(TUs, Out);
    llvm::erase_if(Headers, Out);
  }

  // One TU; \p Phase says what it is doing, for the message of a crash.
  auto RunOneUnguarded = [&](const InputFile *F, std::string &Phase) {
    TUResult R;
    R.Path = F->Path;
    trace::ThreadScope TraceThread; // this thread's events (PK_TIME_TRACE)
    llvm::TimeTraceScope FileScope("file", F->Path);
    Lang L = F->Kind == FileKind::HIP ? Lang::HIP : Lang::CUDA;
    Phase = "parsing";
    signalForTestIfRequested(
        F->Path); // PK_TEST_SIGTERM_IN (docs/reliability.md)
    auto PF = parseFile(F->Path, L, O.FE);
    if (!PF) {
      R.Error = llvm::toString(PF.takeError());
      return R;
    }
    R.UserFiles = (*PF)->UserFiles;
    // Invisible and bidirectional controls in the user's files (PK9004):
    // found once, reported for every target.
    std::vector<std::pair<std::string, ControlChar>> Controls;
    {
      llvm::TimeTraceScope Scope("scan for invisible controls");
      UserSource Probe(**PF);
      for (const std::string &U : R.UserFiles)
        for (const ControlChar &C : findInvisibleControls(Probe.contents(U)))
          Controls.push_back({U, C});
    }
    for (Target T : Targets) {
      llvm::TimeTraceScope TargetScope("target", targetName(T));
      TargetContext TC(**PF, DB, T, O.TO);
      // Outputs that depended on a stubbed header say so (PK9102).
      for (const ParseNote &N : (*PF)->StubNotes)
        TC.finding(N.File, N.Offset, RuleId::PK9102, Severity::Warning,
                   N.Message);
      for (const auto &[U, C] : Controls)
        TC.finding(U, C.Offset, RuleId::PK9004, Severity::Warning,
                   controlCharMessage(C.CodePoint));
      const TargetBackend &B = targetBackend(T);
      Phase = llvm::formatv("running the {0} passes", targetName(T)).str();
      if (testCrashRequested(F->Path))
        crashForTest(); // PK_TEST_CRASH_IN (docs/reliability.md)
      if (llvm::Error E = runPasses(
              TC, Mode == RunMode::Check ? B.checkPasses() : B.portPasses())) {
        R.Error = llvm::toString(std::move(E));
        return R;
      }
      std::map<std::string, std::string> Gen;
      if (Mode != RunMode::Check) {
        llvm::TimeTraceScope Scope("generate");
        B.generate(TC, Gen);
      }
      R.Generated.push_back(std::move(Gen));
      R.GenLines.push_back(std::move(TC.GenLines));
      R.Edits.push_back(std::move(TC.Edits));
      R.Finds.push_back(std::move(TC.Findings));
      R.Counts.push_back(std::move(TC.Counts));
      R.Needs.push_back(std::move(TC.Needs));
    }
    Phase = "releasing the parsed file";
    llvm::TimeTraceScope Scope("release the AST");
    PF->reset();
    return R; // parsed once, used by every target
  };

  // Each TU on a thread with a large stack under crash recovery
  // (pk/CrashGuard.h): a crash in clang or a pass fails that file only.
  auto RunOne = [&](const InputFile *F) {
    TUResult R;
    std::string Phase = "starting", Why;
    bool Ok = runWithCrashRecovery([&] { R = RunOneUnguarded(F, Phase); }, Why);
    returnFreedMemory();
    if (Ok)
      return R;
    TUResult C;
    C.Path = F->Path;
    C.Error = llvm::formatv("{0}: error: internal crash while {1}: {2}; the "
                            "file is not ported [{3}]",
                            F->Path, Phase, Why, ruleName(RuleId::PK9001))
                  .str();
    return C;
  };

  std::mutex ProgressMu;
  size_t NumDone = 0, NumKnown = TUs.size();
  auto RunAndReport = [&](const InputFile *F) {
    TUResult R = RunOne(F);
    if (O.Progress) {
      std::lock_guard<std::mutex> Lock(ProgressMu);
      O.Progress(++NumDone, NumKnown, F->Path);
    }
    return R;
  };
  auto RunAll = [&](const std::vector<const InputFile *> &List) {
    std::vector<TUResult> Res(List.size());
    unsigned J = effectiveJobs(O.Jobs, List.size());
    if (J <= 1) {
      for (size_t I = 0; I < List.size(); ++I)
        Res[I] = RunAndReport(List[I]);
    } else {
      llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(J));
      for (size_t I = 0; I < List.size(); ++I)
        Pool.async([&, I] { Res[I] = RunAndReport(List[I]); });
      Pool.wait();
    }
    return Res;
  };

  std::vector<TUResult> Results = RunAll(TUs);
  std::set<std::string> Covered;
  for (const TUResult &R : Results)
    for (const auto &U : R.UserFiles)
      Covered.insert(U);
  std::vector<const InputFile *> Lone;
  for (const InputFile *H : Headers)
    if (!Covered.count(H->Path))
      Lone.push_back(H);
  NumKnown += Lone.size();
  for (TUResult &R : RunAll(Lone))
    Results.push_back(std::move(R));
  // Which sources were translated as parts of another file, and where.
  for (const InputFile *H : Headers) {
    if (isHeaderExt(H->Path) || !Covered.count(H->Path))
      continue;
    auto By = IncludedBy.find(H->Path);
    std::string Where = By != IncludedBy.end() ? By->second : "";
    for (const TUResult &R : Results)
      if (Where.empty() && R.Error.empty() &&
          llvm::is_contained(R.UserFiles, H->Path))
        Where = R.Path;
    Diag << llvm::formatv("{0}: note: included by {1}: translated in its "
                          "context, not as a translation unit of its own "
                          "[PK9101]\n",
                          H->Path, Where);
  }

  // Every file this run reads: no output may land on one of them.
  ReadFiles.clear();
  for (const InputFile &F : Inputs)
    ReadFiles.insert(F.Path);
  for (const TUResult &R : Results)
    ReadFiles.insert(R.UserFiles.begin(), R.UserFiles.end());
  for (const InputFile &F : Inputs)
    noteRead(F.Path, "the input");
  for (const std::string &F : ReadFiles)
    noteRead(F, "the header");

  // A file that cannot be ported fails the call (strict), or is left out
  // and reported while every other file is ported (PK9100).
  std::string Errors;
  std::set<std::string> FailedPaths;
  for (const TUResult &R : Results)
    if (!R.Error.empty()) {
      Errors += (Errors.empty() ? "" : "\n") + R.Error;
      FailedPaths.insert(R.Path);
      if (Failed)
        Failed->push_back({R.Path, R.Error});
    }
  if (!Errors.empty() && !Failed)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), Errors);
  llvm::erase_if(Results, [](const TUResult &R) { return !R.Error.empty(); });

  // The layout root: common ancestor of the inputs' roots and of every user
  // file the TUs touched (local headers come along).
  std::string Root;
  auto Widen = [&](llvm::StringRef Dir) {
    Root = Root.empty() ? Dir.str() : commonDir(Root, Dir);
  };
  for (const InputFile &F : Inputs)
    Widen(F.Root);
  for (const TUResult &R : Results)
    for (const auto &U : R.UserFiles)
      Widen(path::parent_path(U));

  std::map<std::string, FileKind> Kinds;
  for (const InputFile &F : Inputs)
    Kinds[F.Path] = F.Kind;
  std::set<std::string> Files; // every file that gets an output
  for (const InputFile &F : Inputs)
    if (!FailedPaths.count(F.Path) && (!InShard || InShard->count(F.Path)))
      Files.insert(F.Path);
  for (const TUResult &R : Results)
    for (const auto &U : R.UserFiles)
      Files.insert(U);

  std::vector<TargetOutput> Outs;
  for (size_t TI = 0; TI < Targets.size(); ++TI) {
    TargetOutput TO;
    TO.T = Targets[TI];
    EditSet All;
    std::vector<Finding> Finds;
    std::set<std::tuple<std::string, unsigned, std::string, std::string>> FSeen;
    std::set<std::string> Translated;
    std::map<std::string, std::string> Generated;
    for (const TUResult &R : Results) {
      Generated.insert(R.Generated[TI].begin(), R.Generated[TI].end());
      TO.GenLines.insert(R.GenLines[TI].begin(), R.GenLines[TI].end());
      if (llvm::Error E = All.merge(std::move(R.Edits[TI])))
        return std::move(E);
      for (const Finding &F0 : R.Finds[TI]) {
        if (!FSeen.insert({F0.File, F0.Offset, F0.RuleID, F0.Message}).second)
          continue;
        Finding F = F0;
        FindingAction A = O.Policy
                              ? O.Policy->decide(F.File, F.RuleID, F.Sev)
                              : FindingAction::Keep;
        if (A == FindingAction::Drop) {
          TO.Disabled.push_back(std::move(F));
          continue;
        }
        // `check` promotes after NOPK comments apply (lib/Gate/Check.cpp).
        if (A == FindingAction::Promote && Mode == RunMode::Port) {
          F.Sev = Severity::Error;
          TO.Promoted.insert({F.File, F.Offset, F.RuleID});
        }
        Finds.push_back(std::move(F));
      }
      for (const auto &C : R.Counts[TI])
        TO.Counts[C.getKey().str()] += C.getValue();
      for (const auto &[F, N] : R.Needs[TI])
        TO.Needs[F].insert(N.begin(), N.end());
      for (const auto &U : R.UserFiles)
        Translated.insert(U);
    }
    std::sort(Finds.begin(), Finds.end(),
              [](const Finding &A, const Finding &B) {
                return std::tie(A.File, A.Offset, A.RuleID, A.Message) <
                       std::tie(B.File, B.Offset, B.RuleID, B.Message);
              });
    // Configurations first read for a header's findings are checked too.
    if (O.Policy) {
      if (llvm::Error E = O.Policy->takeError())
        return std::move(E);
      if (llvm::Error E = O.Policy->validatePatterns(Diag))
        return std::move(E);
    }
    std::string Base =
        OutRoot.empty() ? "" : (OutRoot + "/" + targetName(TO.T)).str();
    for (const std::string &F : Files) {
      auto Buf = llvm::MemoryBuffer::getFile(F);
      if (!Buf)
        return llvm::createStringError(Buf.getError(), "%s: error: cannot read",
                                       F.c_str());
      std::string Rel = F.substr(Root.size() + (Root == "/" ? 0 : 1));
      bool IsSource = Translated.count(F);
      std::string OutRel = IsSource ? outputName(Rel, TO.T) : Rel;
      std::string OutPath =
          O.InPlace ? F : absPath(Base.empty() ? OutRel : Base + "/" + OutRel);
      if (TO.Files.count(OutPath))
        return llvm::createStringError(
            llvm::inconvertibleErrorCode(),
            "%s: error: two inputs translate to the same output %s", F.c_str(),
            OutPath.c_str());
      auto Gen = Generated.find(F);
      std::string Text =
          IsSource && Gen != Generated.end() ? Gen->second
          : IsSource ? renderFile(F, (*Buf)->getBuffer(), All.find(F), Finds,
                                  targetBackend(TO.T).commentPrefix())
                     : (*Buf)->getBuffer().str();
      TO.Files[OutPath] = std::move(Text);
      TO.OutputOf[F] = OutPath;
    }
    for (const auto &[File, FE] : All.files())
      for (const Edit &E : FE.edits())
        TO.Edits.push_back(E);
    TO.Findings = std::move(Finds);
    Outs.push_back(std::move(TO));
  }
  return Outs;
}

void Driver::printFindings(const TargetOutput &TO) {
  for (const Finding &F : TO.Findings)
    // Invisible and terminal control characters in names and quoted code
    // are shown, never sent to the terminal (pk/Escape.h).  A warning
    // made an error by WarningsAsErrors says so, as clang-tidy does.
    Diag << llvm::formatv(
        "{0}:{1}:{2}: {3}: {4} [{5}{6}]\n", showControls(F.File), F.Line, F.Col,
        severityName(F.Sev), showControls(F.Message), F.RuleID,
        TO.Promoted.count({F.File, F.Offset, F.RuleID}) ? ",-warnings-as-errors"
                                                        : "");
}

static llvm::json::Value reportJson(const std::vector<TargetOutput> &Outs,
                                    const std::vector<FileFailure> &Failed) {
  llvm::json::Array Targets;
  for (const TargetOutput &TO : Outs) {
    llvm::json::Array Edits, Finds, Files;
    for (const Edit &E : TO.Edits)
      Edits.push_back(llvm::json::Object{{"file", E.File.str()},
                                         {"line", E.Line},
                                         {"col", E.Col},
                                         {"offset", E.Offset},
                                         {"length", E.Length},
                                         {"replacement", E.Replacement},
                                         {"rule", E.RuleID.str()},
                                         {"why", E.Why.str()}});
    for (const Finding &F : TO.Findings) {
      llvm::json::Object Obj{{"file", F.File},
                             {"line", F.Line},
                             {"col", F.Col},
                             {"severity", severityName(F.Sev)},
                             {"rule", F.RuleID},
                             {"message", F.Message}};
      if (TO.Promoted.count({F.File, F.Offset, F.RuleID}))
        Obj["promoted"] = true; // a warning made an error (WarningsAsErrors)
      Finds.push_back(std::move(Obj));
    }
    for (const auto &[In, Out] : TO.OutputOf) {
      llvm::json::Object File{{"input", In}, {"output", Out}};
      auto N = TO.Needs.find(In);
      if (N != TO.Needs.end() && !N->second.empty()) {
        // Hardware the output needs, and the AMD GPUs that have it.
        File["needs"] = llvm::json::Array(N->second);
        File["gpus"] = llvm::json::Array(gpusWith(N->second));
      }
      Files.push_back(std::move(File));
    }
    llvm::json::Object Counts;
    for (const auto &[K, V] : TO.Counts)
      Counts[K] = V;
    Targets.push_back(llvm::json::Object{{"target", targetName(TO.T)},
                                         {"files", std::move(Files)},
                                         {"edits", std::move(Edits)},
                                         {"findings", std::move(Finds)},
                                         {"counts", std::move(Counts)}});
  }
  // Inputs left out because they could not be ported (PK9100).
  llvm::json::Array NotPorted;
  for (const FileFailure &F : Failed)
    NotPorted.push_back(
        llvm::json::Object{{"input", F.Path},
                           {"rule", ruleName(RuleId::PK9100).str()},
                           {"reason", F.Reason}});
  return llvm::json::Object{{"tool", "port-kernel"},
                            {"targets", std::move(Targets)},
                            {"not_ported", std::move(NotPorted)}};
}

int Driver::port(llvm::ArrayRef<std::string> Paths) {
  trace::Session Trace; // PK_TIME_TRACE (pk/Trace.h)
  if (O.InPlace && !O.OutDir.empty()) {
    Diag << "port-kernel: error: --in-place and -o exclude each other: "
            "either rewrite the inputs or write to DIR\n";
    return 2;
  }
  if (O.InPlace && !O.DepFile.empty()) {
    Diag << "port-kernel: error: --depfile needs -o DIR: with --in-place the "
            "outputs are the inputs\n";
    return 2;
  }
  if (O.InPlace && O.Targets.size() != 1) {
    Diag << "port-kernel: error: --in-place needs exactly one target\n";
    return 2;
  }
  if (!O.InPlace && O.OutDir.empty()) {
    Diag << "port-kernel: error: no output directory: pass -o DIR (or "
            "--in-place)\n";
    return 2;
  }
  std::string Out = O.InPlace ? "" : absPath(O.OutDir);
  if (O.InPlace) {
    std::vector<InputFile> Ins;
    if (llvm::Error E = collectInputs(Paths, Ins)) {
      Diag << llvm::toString(std::move(E)) << "\n";
      return 2;
    }
    for (const InputFile &F : Ins) {
      if (fs::exists(F.Path + ".orig")) {
        Diag << llvm::formatv("port-kernel: error: backup {0}.orig already "
                              "exists; refusing to overwrite it [PK9001]\n",
                              F.Path);
        return 2;
      }
    }
    for (const auto &P : Paths)
      if (fs::is_symlink_file(P)) {
        Diag << llvm::formatv("{0}: error: is a symbolic link; --in-place "
                              "would replace the link by a file: give the "
                              "file it points to [PK9001]\n",
                              absPath(P));
        return 2;
      }
  }
  if (!O.InPlace) {
    // Never write into the input tree.
    for (const auto &P : Paths) {
      std::string A = absPath(P);
      if (fs::is_directory(A) &&
          (isUnder(Out, A) || isUnder(landingPath(Out), landingPath(A)))) {
        Diag << llvm::formatv("port-kernel: error: output directory {0} is "
                              "inside the input {1}; choose another -o or use "
                              "--in-place [PK9001]\n",
                              Out, A);
        return 2;
      }
    }
  }
  std::vector<FileFailure> Failed;
  auto Res = translate(Paths, O.Targets, Out, RunMode::Port,
                       O.Strict ? nullptr : &Failed);
  if (!Res) {
    Diag << llvm::toString(Res.takeError()) << "\n";
    Diag << "port-kernel: no output written\n";
    return 2;
  }
  // Files that could not be ported: each with its reasons.  When none could,
  // the run is an input error and writes nothing.
  if (!Failed.empty()) {
    std::set<std::string> Bad;
    for (const FileFailure &F : Failed)
      Bad.insert(F.Path);
    std::vector<InputFile> Ins;
    llvm::consumeError(collectInputs(Paths, Ins));
    bool NoneParsed = llvm::all_of(Ins, [&](const InputFile &F) {
      return (F.Kind != FileKind::CUDA && F.Kind != FileKind::HIP) ||
             Bad.count(F.Path);
    });
    for (const FileFailure &F : Failed) {
      Diag << F.Reason << "\n";
      if (!NoneParsed)
        Diag << llvm::formatv("{0}: note: not ported; the other inputs are "
                              "(--strict: all or nothing) [PK9100]\n",
                              F.Path);
    }
    if (NoneParsed) {
      Diag << "port-kernel: no output written\n";
      return 2;
    }
  }

  // The write plan: every output, then the report and the depfile.  The
  // plan refuses a write onto any file this run read (inputs, the headers
  // they include, rule files, the compilation database), two outputs on one
  // path and an output through a link (SafeIO.h).
  WritePlan Plan;
  std::vector<std::string> Roots;
  for (const auto &P : Paths)
    Roots.push_back(absPath(P));
  for (const TargetOutput &TO : *Res)
    for (const auto &[OutPath, Text] : TO.Files) {
      if (!O.InPlace) {
        Plan.add(OutPath, "-o", Text);
        continue;
      }
      auto Buf = llvm::MemoryBuffer::getFile(OutPath);
      if (Buf && (*Buf)->getBuffer() == Text)
        continue; // unchanged: not touched
      // In place, only files inside the given paths are rewritten.
      const std::string &Out = OutPath; // a structured binding is not captured
      bool Inside = llvm::any_of(
          Roots, [&](const std::string &R) { return isUnder(Out, R); });
      if (!Inside) {
        Diag << llvm::formatv("{0}: error: needs edits but is outside the "
                              "inputs given to --in-place; add it to the "
                              "inputs or port with -o [PK9001]\n",
                              OutPath);
        Diag << "port-kernel: no output written\n";
        return 2;
      }
      fs::file_status St;
      WritePlan::Output &W = Plan.add(OutPath, "--in-place", Text);
      if (!fs::status(OutPath, St))
        W.Mode = St.permissions();
      W.KeepBackupAs = OutPath + ".orig";
      W.ReplacesInput = true; // rewriting the inputs is what it means
    }
  if (!O.ReportJson.empty()) {
    std::string S;
    llvm::raw_string_ostream OS(S);
    OS << llvm::formatv("{0:2}", reportJson(*Res, Failed)) << "\n";
    Plan.add(O.ReportJson, "--report", std::move(S));
  }

  // The depfile: the outputs of the files named on the command line (not
  // those of the headers they reach: a build system declares the former)
  // depend on every file read.
  if (!O.DepFile.empty()) {
    std::vector<InputFile> Named;
    llvm::consumeError(collectInputs(Paths, Named));
    std::vector<std::string> Targets;
    for (const TargetOutput &TO : *Res)
      for (const InputFile &F : Named)
        if (auto It = TO.OutputOf.find(F.Path); It != TO.OutputOf.end())
          Targets.push_back(It->second);
    auto Text = depfileText(Targets, dependencies());
    if (!Text) {
      Diag << llvm::toString(Text.takeError()) << "\n";
      Diag << "port-kernel: no output written\n";
      return 2;
    }
    Plan.add(O.DepFile, "--depfile", std::move(*Text));
  }
  if (llvm::Error E = Plan.check()) {
    Diag << llvm::toString(std::move(E)) << "\n";
    Diag << "port-kernel: no output written\n";
    return 2;
  }

  for (const TargetOutput &TO : *Res)
    printFindings(TO);

  // All or nothing: stage everything next to its destination, then commit.
  {
    llvm::TimeTraceScope Scope("write outputs");
    if (int RC = Plan.write(Diag))
      return RC;
  }

  if (!O.Quiet)
    for (const TargetOutput &TO : *Res) {
      unsigned NE = 0, NW = 0, NErr = 0;
      for (const Edit &E : TO.Edits)
        NE += E.Why != "diagnostic";
      for (const Finding &F : TO.Findings) {
        if (F.Sev == Severity::Error)
          ++NErr;
        else if (F.Sev == Severity::Warning)
          ++NW;
      }
      unsigned NUnsup = 0;
      for (RuleId R : {RuleId::PK1010, RuleId::PK1033})
        if (TO.Counts.count(ruleName(R).str()))
          NUnsup += TO.Counts.at(ruleName(R).str());
      Diag << llvm::formatv("port-kernel: {0}: {1} files, {2} edits, {3} "
                            "warnings ({6} API uses without a counterpart "
                            "[PK1010, PK1033]), {4} errors{5}\n",
                            targetName(TO.T), TO.Files.size(), NE, NW, NErr,
                            O.InPlace ? " (in place; originals kept as .orig)"
                                      : " -> " + O.OutDir + "/" +
                                            targetName(TO.T).str(),
                            NUnsup);
      // Which GPUs the outputs run on, when matrix cores narrow it down.
      std::map<std::set<std::string>, unsigned> ByNeeds;
      for (const auto &[In, N] : TO.Needs)
        if (!N.empty() && TO.OutputOf.count(In))
          ++ByNeeds[N];
      for (const auto &[N, Count] : ByNeeds)
        Diag << llvm::formatv(
            "port-kernel: {0}: {1} file{2} need{3} {4} ({5})\n",
            targetName(TO.T), Count, Count == 1 ? "" : "s",
            Count == 1 ? "s" : "",
            llvm::join(std::vector<std::string>(N.begin(), N.end()), " and "),
            llvm::join(gpusWith(N), ", "));
    }
  if (!Failed.empty()) {
    std::vector<std::string> Names;
    for (const FileFailure &F : Failed)
      Names.push_back(F.Path);
    Diag << llvm::formatv("port-kernel: {0} input file{1} not ported (see the "
                          "errors above): {2}; every other file was written "
                          "[PK9100]\n",
                          Failed.size(), Failed.size() == 1 ? "" : "s",
                          llvm::join(Names, ", "));
    return 4;
  }
  bool AnyError = false;
  for (const TargetOutput &TO : *Res)
    for (const Finding &F : TO.Findings)
      AnyError |= F.Sev == Severity::Error;
  return AnyError ? 3 : 0;
}

int Driver::check(llvm::ArrayRef<std::string> Paths) {
  trace::Session Trace; // PK_TIME_TRACE (pk/Trace.h)
  std::vector<FileFailure> Failed;
  auto Res = translate(Paths, O.Targets, "", RunMode::Check,
                       O.Strict ? nullptr : &Failed);
  if (!Res) {
    Diag << llvm::toString(Res.takeError()) << "\n";
    return 2; // input error, not findings
  }
  // The files that parse are checked; the others are input errors.
  for (const FileFailure &F : Failed)
    Diag << F.Reason << "\n"
         << llvm::formatv("{0}: note: not checked [PK9100]\n", F.Path);
  unsigned N = 0;
  for (const TargetOutput &TO : *Res) {
    printFindings(TO);
    for (const Finding &F : TO.Findings)
      N += F.Sev != Severity::Note;
  }
  if (!O.Quiet)
    Diag << llvm::formatv("port-kernel: {0} finding(s){1}\n", N,
                          Failed.empty()
                              ? ""
                              : llvm::formatv("; {0} input file(s) not "
                                              "checked [PK9100]",
                                              Failed.size())
                                    .str());
  return !Failed.empty() ? 2 : N ? 1 : 0;
}

/// Writes one target's outputs of translate() under \p OutDir, mirroring
/// the inputs' layout; \p OutPaths receives each input's output.
static llvm::Error writePorted(const TargetOutput &TO,
                               llvm::ArrayRef<std::string> Inputs,
                               llvm::StringRef OutDir,
                               std::vector<std::string> &OutPaths) {
  // translate() made paths relative to the layout root; re-root them.
  std::string Root;
  for (const auto &[In, Out] : TO.OutputOf)
    Root = Root.empty() ? path::parent_path(Out).str()
                        : commonDir(Root, path::parent_path(Out));
  std::string Base = absPath(OutDir);
  std::map<std::string, std::string> Moved;
  for (const auto &[Out, Text] : TO.Files) {
    std::string Rel = Out.substr(Root.size() + (Root == "/" ? 0 : 1));
    std::string Dest = Base + "/" + Rel;
    if (llvm::Error E = writeFileAtomically(Dest, Text))
      return E;
    Moved[Out] = Dest;
  }
  OutPaths.clear();
  for (const auto &In : Inputs) {
    auto It = TO.OutputOf.find(absPath(In));
    OutPaths.push_back(It == TO.OutputOf.end() ? "" : Moved[It->second]);
  }
  return llvm::Error::success();
}

llvm::Error Driver::portFiles(llvm::ArrayRef<std::string> Inputs, Target T,
                              llvm::StringRef OutDir,
                              std::vector<std::string> &OutPaths) {
  auto Res = translate(Inputs, {T}, "", RunMode::Port, nullptr,
                       /*SourcesAreUnits=*/true);
  if (!Res)
    return Res.takeError();
  return writePorted(Res->front(), Inputs, OutDir, OutPaths);
}

llvm::Error
Driver::portFilesToTargets(llvm::ArrayRef<std::string> Inputs,
                           llvm::ArrayRef<Target> Targets,
                           llvm::ArrayRef<std::string> OutDirs,
                           std::vector<std::vector<std::string>> &OutPaths) {
  auto Res = translate(Inputs, Targets, "", RunMode::Port, nullptr,
                       /*SourcesAreUnits=*/true);
  if (!Res)
    return Res.takeError();
  OutPaths.assign(Targets.size(), {});
  for (size_t I = 0; I < Targets.size() && I < Res->size(); ++I)
    if (llvm::Error E = writePorted((*Res)[I], Inputs, OutDirs[I], OutPaths[I]))
      return E;
  return llvm::Error::success();
}

bool Driver::isHipSource(llvm::StringRef File) const {
  auto Buf = llvm::MemoryBuffer::getFile(File);
  return Buf && classifyFile(File, (*Buf)->getBuffer()) == FileKind::HIP;
}

llvm::Expected<std::string> Driver::emuPrepare(llvm::StringRef MainFile,
                                               bool IsHip,
                                               llvm::StringRef OutDir) {
  return emuPrepareWithFlags(MainFile, IsHip, OutDir, {});
}

llvm::Expected<std::string>
Driver::emuPrepareWithFlags(llvm::StringRef MainFile, bool IsHip,
                            llvm::StringRef OutDir,
                            llvm::ArrayRef<std::string> BuildFlags) {
  std::optional<std::vector<std::string>> Flags;
  if (!BuildFlags.empty())
    Flags.emplace(BuildFlags.begin(), BuildFlags.end());
  // Like every TU of a port: a thread with a large stack, crashes recovered.
  std::optional<llvm::Expected<std::string>> Res;
  std::string Why;
  if (!runWithCrashRecovery(
          [&] {
            Res.emplace(emuPrepareUnguarded(MainFile, IsHip, OutDir,
                                            Flags ? &*Flags : nullptr));
          },
          Why))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("{0}: error: internal crash while preparing it for the "
                      "emulator: {1} [{2}]",
                      absPath(MainFile), Why, ruleName(RuleId::PK9001))
            .str());
  return std::move(*Res);
}

llvm::Expected<std::string>
Driver::emuPrepareUnguarded(llvm::StringRef MainFile, bool IsHip,
                            llvm::StringRef OutDir,
                            const std::vector<std::string> *BuildFlags) {
  FrontendOptions FE = O.FE;
  FE.EmuParse = true;
  if (BuildFlags) {
    // The given flags replace what the compilation database and
    // --extra-arg say about include paths, macros and the standard.
    std::vector<std::string> Rest;
    (void)buildFlags(FE.ExtraArgs, "", &Rest);
    FE.ExtraArgs = std::move(Rest);
    llvm::append_range(FE.ExtraArgs, *BuildFlags);
    FE.CompDbDir.clear();
  }
  auto PF = parseFile(MainFile, IsHip ? Lang::HIP : Lang::CUDA, FE);
  if (!PF)
    return PF.takeError();
  TargetContext TC(**PF, DB, IsHip ? Target::HIP : Target::CUDA, O.TO);
  if (llvm::Error E = runEmuPrep(TC))
    return std::move(E);
  std::string Main = absPath(MainFile);
  std::string Root = path::parent_path(Main).str();
  for (const auto &U : (*PF)->UserFiles)
    Root = commonDir(Root, path::parent_path(U));
  std::string Base = absPath(OutDir);
  std::string Result;
  for (const auto &U : (*PF)->UserFiles) {
    std::string Rel = U.substr(Root.size() + (Root == "/" ? 0 : 1));
    std::string Dest = Base + "/" + Rel;
    FileEdits *FE2 = TC.Edits.find(U);
    std::string Text = FE2 ? FE2->apply(TC.contents(U)) : TC.contents(U).str();
    if (llvm::Error E = writeFileAtomically(Dest, Text))
      return std::move(E);
    if (U == Main)
      Result = Dest;
  }
  return Result;
}

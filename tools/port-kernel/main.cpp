//===- main.cpp - the port-kernel command line
//-----------------------------===//
//
// Subcommand dispatch only: the options are declared in Options.cpp, the
// configuration merged in Configuration.cpp; the work lives in lib/.
//
//===----------------------------------------------------------------------===//
#include "Options.h"
#include "pk/Config.h"
#include "pk/DataDir.h"
#include "pk/Driver.h"
#include "pk/GateCheck.h"
#include "pk/Inputs.h"
#include "pk/MacroDepth.h"
#include "pk/Report.h"
#include "pk/Rules.h"
#include "pk/SafeIO.h"
#ifdef PK_HAVE_VALIDATE
#include "pk/GpuRun.h"
#include "pk/Validate.h"
namespace pk {
/// The emulator toolchain configured at build time.
static EmuToolchain emuToolchain() {
  EmuToolchain T;
#include "EmuConfig.inc"
  return T;
}
} // namespace pk
#endif

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"
#include <limits>

using namespace llvm;

using namespace pkcli;

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "port-kernel " PK_VERSION " (" PK_REVISION "clang " PK_CLANG_VERSION
          ")\n";
  });
  // Everything after `--` belongs to the validated program, not to us.
  std::vector<std::string> ProgramArgs;
  for (int I = 1; I < argc; ++I)
    if (StringRef(argv[I]) == "--") {
      for (int J = I + 1; J < argc; ++J)
        ProgramArgs.push_back(argv[J]);
      argc = I;
      break;
    }
  // The target list of --to comes from the target registry, so the help
  // never falls behind it.
  static std::string ToDesc = [] {
    std::vector<std::string> Names;
    for (pk::Target T : pk::allTargets())
      Names.push_back(pk::targetName(T).str());
    return "Targets, comma separated: " + llvm::join(Names, ", ") +
           " (default: hip; validate also accepts none)";
  }();
  To.setDescription(ToDesc);
  cl::HideUnrelatedOptions(Cat);
  cl::extrahelp More(Examples);
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "port-kernel: port CUDA tile kernels to HIP (wave-64, MFMA), modern "
          "CUDA and NKI\n",
          &errs()))
    return 2;

  if (!HelpMarkdown.empty()) {
    if (HelpMarkdown == "rules") {
      pk::writeRuleCatalogue(outs());
      return 0;
    }
    std::string Doc;
    raw_string_ostream DocOS(Doc);
    if (!pk::writeCliDoc(HelpMarkdown, DocOS, Cat, [](const cl::Option &Opt) {
      std::vector<std::pair<std::string, std::string>> V;
      auto Add = [&](auto &P) {
        for (unsigned I = 0; I < P.getNumOptions(); ++I)
          V.push_back({P.getOption(I).str(), P.getDescription(I).str()});
      };
      if (&Opt == &Wave64)
        Add(Wave64.getParser());
      else if (&Opt == &MfmaShapeOpt)
        Add(MfmaShapeOpt.getParser());
      else if (&Opt == &LdsPadding)
        Add(LdsPadding.getParser());
      else if (&Opt == &Format)
        Add(Format.getParser());
      return V;
    })) {
      errs() << "port-kernel: error: --help-markdown takes cli, rules, man, "
                "bash or zsh\n";
      return 2;
    }
    outs() << Doc;
    return 0;
  }

  // An option given with an empty value (--shard=, --output '') is a
  // mistake, never "not given".
  for (cl::opt<std::string> *Opt :
       {&OutDir, &CompDb, &CudaPath, &Report, &CheckOutput, &Baseline,
        &SrcRoot, &Shard, &RulesUriBase, &DepFile, &ReportHtml,
        &ReportMarkdown, &PatchDir, &Program, &WorkDir, &CacheDir,
        &GpuBundle, &Nvcc, &GpuArch, &Checks, &WarningsAsErrors, &ConfigText,
        &ConfigFile, &DumpConfig})
    if (Opt->getNumOccurrences() && Opt->empty()) {
      errs() << "port-kernel: error: -" << (Opt->ArgStr.size() > 1 ? "-" : "")
             << Opt->ArgStr << " needs a value (it was given empty)\n";
      return 2;
    }
  for (const std::string &F : RuleFiles)
    if (F.empty()) {
      errs() << "port-kernel: error: --rules needs a value (it was given "
                "empty)\n";
      return 2;
    }

  if (MergeReportsCmd) {
    if (MergeArgs.size() < 2) {
      errs() << "port-kernel: error: merge-reports needs OUT and at least one "
                "input report\n";
      return 2;
    }
    return pk::mergeReports(MergeArgs.front(),
                            ArrayRef<std::string>(MergeArgs).drop_front(),
                            PK_VERSION, errs(), RulesUriBase);
  }

  if (ExplainCmd) {
    if (ExplainID.empty()) {
      errs() << "port-kernel: error: explain needs a rule ID, e.g. "
                "`port-kernel explain PK2001`\n";
      return 2;
    }
    StringRef Doc = pk::ruleDoc(ExplainID);
    if (Doc.empty()) {
      errs() << "port-kernel: error: unknown rule ID '" << ExplainID
             << "' (see `port-kernel rules`)\n";
      return 2;
    }
    outs() << Doc;
    return 0;
  }

  if (Error E = pk::checkDataDir()) {
    errs() << "port-kernel: error: " << toString(std::move(E)) << "\n";
    return 2;
  }
  // port and check: .port-kernel.yaml files, --config, --checks, ...
  std::shared_ptr<pk::ConfigResolver> Policy;
  if (PortCmd || CheckCmd)
    if (int RC = applyConfiguration(Policy); RC >= 0)
      return RC;

  pk::DriverOptions O;
  O.Policy = Policy;
  O.FE.CompDbDir = CompDb;
  O.FE.ExtraArgs = ExtraArg;
  O.FE.ExtraArgsBefore = ExtraArgBefore;
  O.FE.CudaPath = CudaPath;
  O.FE.Verbose = Verbose;
  O.FE.StubMissingIncludes = StubMissing;
  pk::setMacroDepthLimit(MaxMacroDepth);
  O.OutDir = OutDir;
  O.InPlace = InPlace;
  O.TO.KeepNames = InPlace;
  // 0 (the default): one per core.  Never more than the free memory allows
  // (pk::ParseBytesEstimate per parse); the driver also caps it by the number
  // of files.
  O.Jobs = pk::effectiveJobs(Jobs, std::numeric_limits<size_t>::max());
  O.RuleFiles = RuleFiles;
  O.RulesDir = pk::dataPath("rules/cuda2hip");
  O.ReportJson = Report;
  O.DepFile = DepFile;
  O.Quiet = Quiet;
  O.Strict = Strict;
  O.TO.Wave64 = Wave64;
  O.TO.Mfma = MfmaShapeOpt;
  O.TO.Padding = LdsPadding;
  if (RocmVersion != 5 && RocmVersion != 6) {
    llvm::errs() << "port-kernel: error: --rocm-version must be 5 or 6 (got "
                 << RocmVersion << ")\n";
    return 2;
  }
  O.TO.RocmMajor = RocmVersion;
  if (!Shard.empty()) {
    auto S = pk::parseShard(Shard);
    if (!S) {
      errs() << toString(S.takeError()) << "\n";
      return 2;
    }
    O.Shard = *S;
  }
  O.Progress = pk::terminalProgress();

  if (RulesCmd) {
    pk::Driver D(O, errs());
    if (Error E = D.init()) {
      errs() << toString(std::move(E)) << "\n";
      return 2;
    }
    for (const pk::RuleInfo &R : pk::RuleRegistry::get().all())
      outs() << formatv("{0}  {1,-10}  {2}\n", R.ID, R.Kind, R.Title);
    return 0;
  }

  if (!PortCmd && !CheckCmd && !ValidateCmd && !ReportCmd) {
    errs() << "port-kernel: error: no command; try `port-kernel --help`\n";
    return 2;
  }
  if (!parseTargets(To, O.Targets, /*AllowNone=*/bool(ValidateCmd)))
    return 2;

  if (Verbose) {
    std::string Cuda = pk::detectCudaToolkit(O.FE);
    errs() << "port-kernel: parsing CUDA with "
           << (Cuda.empty()
                   ? std::string(
                         "the bundled CUDA declarations (no toolkit found)")
                   : "the CUDA toolkit at " + Cuda)
           << "\n";
    // What nvcc accepts and clang does not is declared for a toolkit newer
    // than clang knows, and with the bundled declarations.
    unsigned V = Cuda.empty() ? 0 : pk::cudaToolkitVersion(Cuda);
    if (Cuda.empty() || V > pk::MaxClangCudaVersion)
      errs() << formatv(
          "port-kernel: note: {0}: nvcc compatibility declarations added "
          "({1}) [{2}]\n",
          Cuda.empty() ? std::string("bundled declarations")
                       : formatv("CUDA {0}.{1} is newer than the parser knows "
                                 "(clang {2}: up to 12.5)",
                                 V / 1000, V % 1000 / 10, PK_CLANG_VERSION)
                             .str(),
          pk::nvccCompatHeader(), pk::ruleName(pk::RuleId::PK9103));
  }

  std::vector<std::string> ProgramDbFlags;
  // validate --program with -p: the flags of the program's compile command
  // (nvcc's long forms and options files too, reduced as for its parse;
  // paths absolute) that a build needs reach the emulator builds and the
  // parses of its ports, which the compilation database does not list.
  if (ValidateCmd && !Program.empty() && !CompDb.empty()) {
    auto Flags = pk::compDbEntryFlags(CompDb, pk::absPath(Program));
    if (!Flags) {
      errs() << toString(Flags.takeError()) << "\n";
      return 2;
    }
    std::vector<std::string> Unused;
    ProgramDbFlags = pk::buildFlags(*Flags, "", &Unused);
    if (!Unused.empty())
      errs() << "port-kernel: note: " << Program
             << ": flags of its compile command that the emulator builds do "
                "not use: "
             << join(Unused, " ") << "\n";
  }
  llvm::append_range(O.FE.ExtraArgs, ProgramDbFlags);
  pk::Driver D(O, errs());
  if (Error E = D.init()) {
    errs() << toString(std::move(E)) << "\n";
    return 2; // a rule file that cannot be used is an input error
  }
  // Rule patterns, once the --rules tables have added their rules.
  if (Policy)
    if (Error E = Policy->validatePatterns(errs())) {
      errs() << toString(std::move(E)) << "\n";
      return 2;
    }

  if (ValidateCmd) {
#ifdef PK_HAVE_VALIDATE
    pk::ValidateOptions V;
    V.Targets = O.Targets;
    V.Paths = Paths;
    V.Json = Json;
    V.Jobs = O.Jobs;
    V.WorkDir = WorkDir;
    V.KeepWork = KeepWork;
    // The scratch and bundle directories may not be inside what is
    // validated: their copies of case.yaml files and sources would be found
    // as inputs by later runs, and a program's directory is copied into
    // each run.
    for (auto [Flag, Dir] : {std::pair<const char *, std::string>{
                                 "--work-dir", WorkDir},
                             {"--gpu-bundle", GpuBundle}}) {
      if (Dir.empty())
        continue;
      std::vector<std::string> Roots(Paths.begin(), Paths.end());
      if (!Program.empty() && sys::fs::exists(Program))
        Roots.push_back(sys::path::parent_path(pk::absPath(Program)).str());
      std::string W = pk::landingPath(Dir);
      for (const std::string &R0 : Roots) {
        std::string R = pk::landingPath(R0);
        // An input that does not exist holds nothing: the run reports it as
        // missing (its parent directory is not what this run validates).
        if (!sys::fs::exists(R))
          continue;
        if (!sys::fs::is_directory(R))
          R = sys::path::parent_path(R).str();
        if (pk::isUnder(W, R)) {
          errs() << Dir << ": error: " << Flag << " is inside " << R0
                 << ", which this run validates; choose a directory outside "
                    "it [PK9001]\n";
          return 2;
        }
      }
    }
    V.CacheDir = CacheDir;
    if (CacheDir.getNumOccurrences() == 0)
      if (const char *E = std::getenv("PORT_KERNEL_CACHE_DIR"))
        V.CacheDir = E;
    if (!V.CacheDir.empty()) {
      SmallString<256> Abs(V.CacheDir);
      sys::fs::make_absolute(Abs);
      V.CacheDir = std::string(Abs);
    }
    V.Program = !Program.empty();
    V.ProgramFile = Program;
    if (V.Program) {
      // `--program MAIN OTHER...`: the other inputs are the program's other
      // translation units (never case directories, which program mode
      // does not read).
      V.ProgramSources = V.Paths;
      V.Paths.clear();
    }
    V.Lanes = Lanes;
    for (const std::string &A : Allow) {
      if (llvm::none_of(pk::RelaxableChecks, [&](const pk::RelaxableCheck &R) {
            return A == R.Name;
          })) {
        std::vector<std::string> Names;
        for (const pk::RelaxableCheck &R : pk::RelaxableChecks)
          Names.push_back(std::string(R.Name) + " (" + R.What + ")");
        errs() << "port-kernel: error: --allow: unknown check '" << A
               << "' (checks that can be relaxed: " << llvm::join(Names, ", ")
               << ")\n";
        return 2;
      }
      if (!llvm::is_contained(V.Allow, A))
        V.Allow.push_back(A);
    }
    if (!V.Allow.empty() && (Gpu || !GpuBundle.empty())) {
      errs() << "port-kernel: error: --allow relaxes the emulator's checks; "
                "--gpu and --gpu-bundle run no emulator\n";
      return 2;
    }
    V.RocmMajor = RocmVersion;
    V.ProgramArgs = ProgramArgs;
    V.ExpectOutput = ExpectOutput;
    V.FailOutput = FailOutput;
    V.StopAt = StopAt;
    V.InlineHooks = InlineHooks;
    V.NoReplay = NoReplay;
    for (const std::string *Re : {&V.ExpectOutput, &V.FailOutput, &V.StopAt}) {
      std::string Why;
      if (!Re->empty() && !Regex(*Re).isValid(Why)) {
        errs() << "port-kernel: error: bad regular expression '" << *Re
               << "': " << Why << "\n";
        return 2;
      }
    }
    // The include paths, macros, forced includes and standard of
    // --extra-arg reach the emulator builds too.
    V.BuildFlags = pk::buildFlags(
        std::vector<std::string>(ExtraArg.begin(), ExtraArg.end()),
        pk::absPath("."));
    llvm::append_range(V.BuildFlags, ProgramDbFlags);
    V.TimeoutSec = ValidateTimeout;
    if (OutputLimitKB == 0) {
      errs() << "port-kernel: error: --output-limit must be at least 1\n";
      return 2;
    }
    V.OutputLimit = std::size_t(OutputLimitKB) << 10;
    if (V.Lanes != 0 && V.Lanes != 32 && V.Lanes != 64) {
      errs() << "port-kernel: error: --lanes must be 32 or 64\n";
      return 2;
    }
    if (!V.Program && V.Paths.empty()) {
      errs() << "port-kernel: error: validate needs case directories or "
                "--program FILE\n";
      return 2;
    }
    if ((Gpu || !GpuBundle.empty()) && !V.ProgramSources.empty()) {
      errs() << "port-kernel: error: --gpu and --gpu-bundle build a program "
                "from one source file; a program of several translation units ("
             << Program << ", " << join(V.ProgramSources, ", ")
             << ") is validated on the emulator only\n";
      return 2;
    }
    if (Gpu || !GpuBundle.empty()) {
      // The original and its CUDA port: --to defaults to cuda here.
      if (!To.getNumOccurrences())
        V.Targets = {pk::Target::CUDA};
      pk::GpuOptions G;
      G.BundleDir = GpuBundle;
      G.Nvcc = Nvcc;
      G.Arch = GpuArch;
      G.Warmup = GpuWarmup;
      G.Repeats = GpuRepeats;
      G.Batch = GpuBatch;
      if (G.Repeats == 0) {
        errs() << "port-kernel: error: --gpu-repeats must be at least 1\n";
        return 2;
      }
      return pk::runGpuValidate(V, G, D, outs(), errs());
    }
    return pk::runValidate(V, pk::emuToolchain(), D, outs(), errs());
#else
    errs() << "port-kernel: error: this build has no emulator\n";
    return 2;
#endif
  }

  if (ReportCmd) {
    pk::ReportOptions R;
    R.HtmlPath = ReportHtml;
    R.MarkdownPath = ReportMarkdown;
    R.PatchDir = PatchDir;
    R.Targets = O.Targets;
    if (ReportValidate) {
#ifdef PK_HAVE_VALIDATE
      R.Validate = [&]() -> Expected<json::Value> {
        pk::ValidateOptions V;
        V.Targets = O.Targets;
        V.Paths = Paths;
        V.Json = true;
        V.Jobs = O.Jobs;
        std::string S;
        raw_string_ostream OS(S);
        int RC = pk::runValidate(V, pk::emuToolchain(), D, OS, errs());
        if (RC != 0 && RC != 1)
          return createStringError("port-kernel: error: --validate: the "
                                   "validation did not run (exit %d)",
                                   RC);
        return json::parse(S);
      };
#else
      errs() << "port-kernel: error: this build has no emulator "
                "(--validate)\n";
      return 2;
#endif
    }
    return pk::runReport(D, Paths, R, errs());
  }

  if (Paths.empty()) {
    errs() << "port-kernel: error: no input files or directories\n";
    return 2;
  }
  if (CheckCmd) {
    pk::CheckOptions C;
    C.Format = Format;
    C.Output = CheckOutput;
    C.Baseline = Baseline;
    C.UpdateBaseline = UpdateBaseline;
    C.SrcRoot = SrcRoot;
    C.ToolVersion = PK_VERSION;
    C.Quiet = Quiet;
    C.Strict = Strict;
    C.RulesUriBase = RulesUriBase;
    C.DepFile = DepFile;
    C.Policy = Policy.get();
    if (CheckValidate) {
#ifdef PK_HAVE_VALIDATE
      C.Validate = [&](const std::vector<std::string> &CaseDirs)
          -> Expected<json::Value> {
        pk::ValidateOptions V;
        V.Targets = O.Targets;
        V.Paths = CaseDirs;
        V.Json = true;
        V.Jobs = O.Jobs;
        std::string S, Log;
        raw_string_ostream OS(S), LogOS(Log);
        // A case is ported whole, whichever shard its files fall in.
        pk::DriverOptions VO = O;
        VO.Shard = {};
        VO.Progress = {};
        pk::Driver VD(VO, LogOS);
        if (Error E = VD.init())
          return std::move(E);
        int RC = pk::runValidate(V, pk::emuToolchain(), VD, OS, LogOS);
        if (RC != 0 && RC != 1)
          return createStringError("%sport-kernel: error: --validate: the "
                                   "validation did not run (exit %d)",
                                   Log.c_str(), RC);
        return json::parse(S);
      };
#else
      errs() << "port-kernel: error: this build has no emulator "
                "(--validate)\n";
      return 2;
#endif
    }
    return pk::runCheck(D, Paths, O.Targets, C, outs(), errs());
  }
  return D.port(Paths);
}

//===- main.cpp - the port-kernel command line
//-----------------------------===//
//
// Subcommand dispatch and option parsing only; the work lives in lib/.
//
//===----------------------------------------------------------------------===//
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

namespace {

cl::SubCommand PortCmd("port",
                       "Translate files or directories to one or more targets");
cl::SubCommand CheckCmd("check",
                        "Report portability hazards without translating");
cl::SubCommand ExplainCmd("explain",
                          "Print the documentation of a rule or diagnostic ID");
cl::SubCommand RulesCmd("rules",
                        "List every rule and diagnostic ID (with --rules, "
                        "those of the tables given too)");
cl::SubCommand ValidateCmd(
    "validate",
    "Port corpus cases or programs and run them on the SIMT emulator");

cl::SubCommand MergeReportsCmd(
    "merge-reports",
    "Combine the JSON or SARIF reports of `check` shards into one");

cl::SubCommand ReportCmd("report",
                         "Write an HTML report of a port (diffs with the rules "
                         "that made them), a Markdown summary and patches");

cl::OptionCategory Cat("port-kernel options");

cl::opt<std::string>
    To("to",
       cl::desc(
           "Targets, comma separated: hip, cuda, nki (validate also accepts "
           "none)"),
       cl::value_desc("targets"), cl::init("hip"), cl::cat(Cat),
       cl::sub(PortCmd), cl::sub(CheckCmd), cl::sub(ReportCmd),
       cl::sub(ValidateCmd));
cl::opt<std::string>
    OutDir("o", cl::desc("Output directory (outputs go to DIR/<target>/)"),
           cl::value_desc("DIR"), cl::cat(Cat), cl::sub(PortCmd));
cl::opt<unsigned> Jobs("j",
                       cl::desc("Files (or cases) in parallel (default: one "
                                "per core, fewer when memory is short)"),
                       cl::init(0), cl::cat(Cat), cl::sub(PortCmd),
                       cl::sub(CheckCmd), cl::sub(ReportCmd),
                       cl::sub(ValidateCmd));
cl::opt<bool>
    InPlace("in-place",
            cl::desc("Rewrite the inputs in place, keeping FILE.orig backups"),
            cl::cat(Cat), cl::sub(PortCmd));
cl::opt<std::string>
    CompDb("p", cl::desc("Build directory with compile_commands.json"),
           cl::value_desc("DIR"), cl::cat(Cat), cl::sub(PortCmd),
           cl::sub(CheckCmd), cl::sub(ReportCmd), cl::sub(ValidateCmd));
cl::list<std::string>
    ExtraArg("extra-arg",
             cl::desc("Extra argument to append to the compiler command line"),
             cl::cat(Cat), cl::sub(PortCmd), cl::sub(CheckCmd),
             cl::sub(ReportCmd), cl::sub(ValidateCmd));
cl::list<std::string> ExtraArgBefore(
    "extra-arg-before",
    cl::desc("Extra argument to prepend to the compiler command line"),
    cl::cat(Cat), cl::sub(PortCmd), cl::sub(CheckCmd), cl::sub(ReportCmd),
    cl::sub(ValidateCmd));
cl::opt<std::string> CudaPath(
    "cuda-path",
    cl::desc(
        "CUDA toolkit to parse against; 'none' uses the bundled declarations"),
    cl::value_desc("DIR"), cl::cat(Cat), cl::sub(PortCmd), cl::sub(CheckCmd),
    cl::sub(ReportCmd), cl::sub(ValidateCmd));
cl::list<std::string> RuleFiles(
    "rules",
    cl::desc(
        "Additional YAML rename table (same format as rules/cuda2hip/*.yaml)"),
    cl::value_desc("FILE"), cl::cat(Cat), cl::sub(PortCmd), cl::sub(CheckCmd),
    cl::sub(ReportCmd), cl::sub(RulesCmd));
cl::opt<std::string> Report("report",
                            cl::desc("Write a JSON report of every edit (with "
                                     "its rule and reason) and finding"),
                            cl::value_desc("FILE"), cl::cat(Cat),
                            cl::sub(PortCmd));
cl::opt<pk::Wave64Strategy> Wave64(
    "wave64", cl::desc("Warp-32 to wave-64 strategy"),
    cl::values(
        clEnumValN(pk::Wave64Strategy::Auto, "auto",
                   "per kernel: native unless something needs 32-lane warps"),
        clEnumValN(pk::Wave64Strategy::Logical32, "logical32",
                   "two logical 32-lane warps per 64-lane wave"),
        clEnumValN(pk::Wave64Strategy::Native, "native", "64-lane warps")),
    cl::init(pk::Wave64Strategy::Auto), cl::cat(Cat), cl::sub(PortCmd),
    cl::sub(CheckCmd), cl::sub(ReportCmd), cl::sub(ValidateCmd));
cl::opt<pk::MfmaShape> MfmaShapeOpt(
    "mfma-shape", cl::desc("MFMA shape for ported tensor-core code"),
    cl::values(
        clEnumValN(
            pk::MfmaShape::Auto, "auto",
            "32x32x8 for a warp's 2x2 fragment groups, 16x16x16 otherwise"),
        clEnumValN(pk::MfmaShape::M16N16K16, "16x16x16",
                   "v_mfma_f32_16x16x16 everywhere"),
        clEnumValN(pk::MfmaShape::M32N32K8, "32x32x8",
                   "v_mfma_f32_32x32x8 everywhere")),
    cl::init(pk::MfmaShape::Auto), cl::cat(Cat), cl::sub(PortCmd),
    cl::sub(CheckCmd), cl::sub(ReportCmd), cl::sub(ValidateCmd));
cl::opt<pk::LdsPadding> LdsPadding(
    "lds-padding",
    cl::desc("Row padding of shared-memory tiles that ported fragments load or "
             "store (PK3017)"),
    cl::values(clEnumValN(pk::LdsPadding::Auto, "auto",
                          "re-planned for the LDS banks unless fewer "
                          "workgroups would fit in a CU"),
               clEnumValN(pk::LdsPadding::Always, "always",
                          "re-planned even then"),
               clEnumValN(pk::LdsPadding::Keep, "keep", "as written")),
    cl::init(pk::LdsPadding::Auto), cl::cat(Cat), cl::sub(PortCmd),
    cl::sub(CheckCmd), cl::sub(ReportCmd), cl::sub(ValidateCmd));
cl::opt<unsigned> RocmVersion(
    "rocm-version",
    cl::desc("ROCm major version the HIP output is for: 6 (bfloat16 as "
             "__hip_bfloat16 of <hip/hip_bf16.h>) or 5 (hip_bfloat16, "
             "conversions written out); default 6 (PK1016)"),
    cl::value_desc("5|6"), cl::init(6), cl::cat(Cat), cl::sub(PortCmd),
    cl::sub(CheckCmd), cl::sub(ReportCmd), cl::sub(ValidateCmd));
cl::opt<bool>
    Strict("strict",
           cl::desc("All or nothing: one input that does not parse stops the "
                    "run (by default port writes the others and exits 4; "
                    "check reports the others' findings and exits 2)"),
           cl::cat(Cat), cl::sub(PortCmd), cl::sub(CheckCmd));
cl::opt<bool> StubMissing(
    "stub-missing-includes",
    cl::desc("Parse a header that is not installed (mpi.h, omp.h, gsl/...) as "
             "an empty one; errors in host code that follow are tolerated; "
             "each is reported at its line (PK9102)"),
    cl::cat(Cat), cl::sub(PortCmd), cl::sub(CheckCmd), cl::sub(ReportCmd));
cl::opt<unsigned> MaxMacroDepth(
    "max-macro-depth",
    cl::desc("Macro arguments nested deeper than N in a file or its local "
             "headers are an error for that file before clang expands them "
             "(its memory grows with the square of the depth); 0: no limit"),
    cl::value_desc("N"), cl::init(pk::DefaultMaxMacroDepth), cl::cat(Cat),
    cl::sub(PortCmd), cl::sub(CheckCmd), cl::sub(ReportCmd),
    cl::sub(ValidateCmd));
cl::opt<bool> Quiet("q", cl::desc("No summary lines"), cl::cat(Cat),
                    cl::sub(PortCmd), cl::sub(CheckCmd));
cl::opt<bool> Verbose("v", cl::desc("Say which CUDA declarations are used"),
                      cl::cat(Cat), cl::sub(PortCmd), cl::sub(CheckCmd),
                      cl::sub(ReportCmd));
// check as a CI gate (docs/ci.md)
cl::opt<pk::CheckFormat>
    Format("format", cl::desc("How check reports its findings"),
           cl::values(clEnumValN(pk::CheckFormat::Text, "text",
                                 "clang-style lines on stderr"),
                      clEnumValN(pk::CheckFormat::Json, "json",
                                 "a JSON report (also a baseline)"),
                      clEnumValN(pk::CheckFormat::Sarif, "sarif",
                                 "SARIF 2.1.0 for code-scanning services")),
           cl::init(pk::CheckFormat::Text), cl::cat(Cat), cl::sub(CheckCmd));
cl::opt<std::string> CheckOutput(
    "output",
    cl::desc("Write the json or sarif report to FILE (atomically) instead of "
             "stdout"),
    cl::value_desc("FILE"), cl::cat(Cat), cl::sub(CheckCmd));
cl::opt<std::string> Baseline(
    "baseline",
    cl::desc("Findings recorded in FILE (a json report) do not count: exit 1 "
             "only for new ones, matched by target, rule, file and "
             "fingerprint"),
    cl::value_desc("FILE"), cl::cat(Cat), cl::sub(CheckCmd));
cl::opt<bool> UpdateBaseline(
    "update-baseline",
    cl::desc("Record every finding in the --baseline FILE and exit 0"),
    cl::cat(Cat), cl::sub(CheckCmd));
cl::opt<std::string>
    SrcRoot("src-root",
            cl::desc("Directory report paths are relative to (SARIF %SRCROOT%; "
                     "default: the current directory)"),
            cl::value_desc("DIR"), cl::cat(Cat), cl::sub(CheckCmd));
cl::opt<std::string> Shard(
    "shard",
    cl::desc("Only shard K of N: translation units split by a stable hash of "
             "their paths, each with the headers it includes"),
    cl::value_desc("K/N"), cl::cat(Cat), cl::sub(PortCmd), cl::sub(CheckCmd));
cl::opt<bool> CheckValidate(
    "validate",
    cl::desc("Also validate, on the emulator, the cases (case.yaml "
             "directories) the checked files belong to: each failed kernel "
             "and target is a finding (PK9220; PK9221 when the original "
             "fails)"),
    cl::cat(Cat), cl::sub(CheckCmd));
cl::opt<std::string> RulesUriBase(
    "rules-uri-base",
    cl::desc("Where docs/rules/ is published: SARIF rules get helpUri "
             "URL/ID.md and the tool informationUri URL/README.md (without "
             "it, no URIs)"),
    cl::value_desc("URL"), cl::cat(Cat), cl::sub(CheckCmd),
    cl::sub(MergeReportsCmd));
cl::opt<std::string> DepFile(
    "depfile",
    cl::desc("Also write a Makefile-syntax depfile: the outputs (port) or the "
             "--output report (check) depend on every file the run read"),
    cl::value_desc("FILE"), cl::cat(Cat), cl::sub(PortCmd), cl::sub(CheckCmd));
// configuration (docs/configuration.md)
cl::opt<std::string> Checks(
    "checks",
    cl::desc("Rules whose findings are reported: comma-separated globs, later "
             "ones win, '-' disables (e.g. '-*,PK21*,-PK2104'); added after "
             "the configuration's Checks. Errors, and warnings of rewrite and "
             "rename rules, are never disabled; naming such a rule in a '-' "
             "pattern is an error"),
    cl::value_desc("GLOBS"), cl::cat(Cat), cl::sub(PortCmd), cl::sub(CheckCmd));
cl::opt<std::string> WarningsAsErrors(
    "warnings-as-errors",
    cl::desc("Rules whose warnings are errors (globs as --checks); added after "
             "the configuration's WarningsAsErrors"),
    cl::value_desc("GLOBS"), cl::cat(Cat), cl::sub(PortCmd), cl::sub(CheckCmd));
cl::opt<std::string> ConfigText(
    "config",
    cl::desc("Configuration as YAML text, e.g. '{Checks: \"-*,PK21*\"}': used "
             "instead of the .port-kernel.yaml files (with "
             "InheritParentConfig: true, on top of them)"),
    cl::value_desc("YAML"), cl::cat(Cat), cl::sub(PortCmd), cl::sub(CheckCmd));
cl::opt<std::string> ConfigFile(
    "config-file",
    cl::desc("Configuration file used instead of the .port-kernel.yaml files "
             "found above each input (with InheritParentConfig: true, on top "
             "of them)"),
    cl::value_desc("FILE"), cl::cat(Cat), cl::sub(PortCmd), cl::sub(CheckCmd));
cl::opt<std::string> DumpConfig(
    "dump-config",
    cl::desc("Print the configuration FILE gets (YAML; each value with where it "
             "came from) and exit"),
    cl::value_desc("FILE"), cl::cat(Cat), cl::sub(PortCmd), cl::sub(CheckCmd));
cl::list<std::string> MergeArgs(cl::Positional, cl::desc("OUT IN..."),
                                cl::sub(MergeReportsCmd));
cl::opt<std::string>
    HelpMarkdown("help-markdown",
                 cl::desc("Print docs/cli.md (cli), docs/rules/README.md "
                          "(rules), the man page (man) or a completion "
                          "script (bash, zsh)"),
                 cl::value_desc("cli|rules|man|bash|zsh"), cl::Hidden);

cl::list<std::string> Paths(cl::Positional, cl::desc("<file or directory>..."),
                            cl::sub(PortCmd), cl::sub(CheckCmd),
                            cl::sub(ReportCmd), cl::sub(ValidateCmd));
// report
cl::opt<std::string> ReportHtml("o", cl::desc("The HTML report to write"),
                                cl::value_desc("FILE.html"), cl::cat(Cat),
                                cl::sub(ReportCmd));
cl::opt<std::string>
    ReportMarkdown("markdown",
                   cl::desc("Also write a Markdown summary for a pull request"),
                   cl::value_desc("FILE.md"), cl::cat(Cat), cl::sub(ReportCmd));
cl::opt<std::string> PatchDir(
    "patch-dir",
    cl::desc("Also write DIR/<target>.patch, which `git apply` accepts in the "
             "inputs' root"),
    cl::value_desc("DIR"), cl::cat(Cat), cl::sub(ReportCmd));
cl::opt<bool> ReportValidate(
    "validate",
    cl::desc("Validate the cases under the inputs on the emulator and report "
             "each kernel's result per target"),
    cl::cat(Cat), cl::sub(ReportCmd));
cl::opt<std::string> ExplainID(cl::Positional, cl::desc("<rule ID>"),
                               cl::sub(ExplainCmd));

// validate
cl::opt<std::string>
    Program("program",
            cl::desc("Validate a self-checking program (a main that exits "
                     "non-zero on a wrong answer)"),
            cl::value_desc("FILE.cu"), cl::cat(Cat), cl::sub(ValidateCmd));
cl::opt<unsigned>
    Lanes("lanes",
          cl::desc("Force the emulated warp width of every run (32 or 64)"),
          cl::init(0), cl::cat(Cat), cl::sub(ValidateCmd));
cl::list<std::string> Allow(
    "allow",
    cl::desc("Relax emulator checks for programs that rely on benign "
             "patterns: race-shared (data races on shared memory), "
             "uninit-shared (reads of shared memory no thread has written). "
             "Their reports, with where they fire, no longer fail a run; a run "
             "that passed only because one fired is marked PASS* and listed"),
    cl::value_desc("CHECK,..."), cl::CommaSeparated, cl::cat(Cat),
    cl::sub(ValidateCmd));
cl::opt<bool> Json("json", cl::desc("Machine-readable results"), cl::cat(Cat),
                   cl::sub(ValidateCmd));
cl::opt<bool> KeepWork("keep-work", cl::desc("Keep the scratch directory"),
                       cl::cat(Cat), cl::sub(ValidateCmd));
cl::opt<std::string> WorkDir("work-dir", cl::desc("Scratch directory"),
                             cl::cat(Cat), cl::sub(ValidateCmd));
cl::opt<std::string> CacheDir(
    "cache-dir",
    cl::desc("Keep compiled emulator objects in DIR and reuse them for the "
             "same preprocessed source and flags (default: "
             "$PORT_KERNEL_CACHE_DIR; none when unset)"),
    cl::value_desc("DIR"), cl::cat(Cat), cl::sub(ValidateCmd));
cl::opt<unsigned> ValidateTimeout(
    "timeout",
    cl::desc("Seconds one case or program may take to compile, link and run "
             "(default 300; 0: no limit)"),
    cl::value_desc("SECONDS"), cl::init(300), cl::cat(Cat),
    cl::sub(ValidateCmd));
cl::opt<unsigned> OutputLimitKB(
    "output-limit",
    cl::desc("KiB of stdout and of stderr kept from each compiler or program "
             "run (default 4096); the rest is discarded with a note"),
    cl::value_desc("KIB"), cl::init(4096), cl::cat(Cat), cl::sub(ValidateCmd));

cl::opt<std::string> ExpectOutput(
    "expect-output",
    cl::desc("A program run passes only when it exits 0 and its standard "
             "output matches REGEX (POSIX extended; ^ and $ match at lines)"),
    cl::value_desc("REGEX"), cl::cat(Cat), cl::sub(ValidateCmd));
cl::opt<std::string> FailOutput(
    "fail-output",
    cl::desc("A program run fails when its standard output matches REGEX"),
    cl::value_desc("REGEX"), cl::cat(Cat), cl::sub(ValidateCmd));
cl::opt<std::string> StopAt(
    "stop-at",
    cl::desc("A program run is stopped, as passed, once a line of its "
             "standard output matches REGEX (a benchmark's timing loops "
             "after its self-check are not emulated); the verdict says so"),
    cl::value_desc("REGEX"), cl::cat(Cat), cl::sub(ValidateCmd));

cl::opt<bool> InlineHooks(
    "inline-hooks",
    cl::desc("Inline the emulator's memory-check fast path into kernels "
             "(bitcode, opt, llc): about 1.5x the compile time, kernels "
             "dominated by global accesses about 1.4x faster; for long "
             "programs"),
    cl::cat(Cat), cl::sub(ValidateCmd));

cl::opt<bool> Gpu("gpu",
                  cl::desc("Build the original and its CUDA port with nvcc, "
                           "run both on an NVIDIA GPU against the reference "
                           "and time the kernels (skipped without nvcc or "
                           "GPU)"),
                  cl::cat(Cat), cl::sub(ValidateCmd));
cl::opt<std::string> GpuBundle(
    "gpu-bundle",
    cl::desc("Write what --gpu builds and runs to DIR, with a run.sh for a "
             "GPU machine that has nvcc, bash and python3"),
    cl::value_desc("DIR"), cl::cat(Cat), cl::sub(ValidateCmd));
cl::opt<std::string> Nvcc("nvcc",
                          cl::desc("nvcc for --gpu (default: $NVCC, PATH, "
                                   "/usr/local/cuda/bin/nvcc)"),
                          cl::value_desc("PATH"), cl::cat(Cat),
                          cl::sub(ValidateCmd));
cl::opt<std::string>
    GpuArch("gpu-arch",
            cl::desc("nvcc -arch for --gpu (default: the GPU's, else sm_90)"),
            cl::value_desc("sm_XX"), cl::cat(Cat), cl::sub(ValidateCmd));
cl::opt<unsigned> GpuWarmup("gpu-warmup",
                            cl::desc("--gpu: untimed launches before timing "
                                     "(default 5)"),
                            cl::init(5), cl::cat(Cat), cl::sub(ValidateCmd));
cl::opt<unsigned>
    GpuRepeats("gpu-repeats",
               cl::desc("--gpu: timed samples, the median is reported "
                        "(default 21)"),
               cl::init(21), cl::cat(Cat), cl::sub(ValidateCmd));
cl::opt<unsigned>
    GpuBatch("gpu-batch",
             cl::desc("--gpu: launches per timed sample (default 0: about "
                      "0.5 ms per sample)"),
             cl::init(0), cl::cat(Cat), cl::sub(ValidateCmd));

const char *Examples = R"(
EXAMPLES:
  port-kernel port --to hip -o out src/           port a tree to HIP (out/hip/...)
  port-kernel port --to hip,cuda -j 2 -o out a.cu  port one file to HIP and modern CUDA
  port-kernel port --to hip -p build src/kernels   use build/compile_commands.json
  port-kernel port --to hip --in-place k.cu        rewrite k.cu, keep k.cu.orig
  port-kernel check --to hip src/                  lint NVIDIA-first code for wave-64 hazards
  port-kernel check --format sarif --output r.sarif --baseline b.json src/
  port-kernel check --checks='-*,PK21*' --warnings-as-errors=PK2101 src/
  port-kernel check --dump-config src/a.cu         the configuration of a.cu (.port-kernel.yaml)
  port-kernel merge-reports all.sarif s1.sarif s2.sarif
  port-kernel explain PK2001                       what a rule does and why
  port-kernel validate --to hip corpus/            port every case and run it on the emulator
  port-kernel validate --program app.cu --to hip -- 1024
  port-kernel validate --gpu corpus/              original and CUDA port on an NVIDIA GPU
  port-kernel validate --gpu-bundle b corpus/     the same as a bundle: bash b/run.sh on a GPU machine
)";

bool parseTargets(llvm::StringRef S, std::vector<pk::Target> &Out,
                  bool AllowNone) {
  SmallVector<StringRef, 4> Parts;
  S.split(Parts, ',', -1, false);
  for (StringRef P : Parts) {
    P = P.trim();
    if (std::optional<pk::Target> T = pk::findTarget(P))
      Out.push_back(*T);
    else if (P == "none" && AllowNone)
      continue;
    else {
      std::vector<std::string> Names;
      for (pk::Target T : pk::allTargets())
        Names.push_back(pk::targetName(T).str());
      if (AllowNone)
        Names.push_back("none");
      errs() << "port-kernel: error: unknown target '" << P
             << "' (targets: " << llvm::join(Names, ", ") << ")\n";
      return false;
    }
  }
  if (Out.empty() && !AllowNone) {
    errs() << "port-kernel: error: --to names no target\n";
    return false;
  }
  return true;
}

/// The values each configuration key accepts: the options' own.
pk::ConfigSchema configSchema() {
  pk::ConfigSchema S;
  for (pk::Target T : pk::allTargets())
    S.Targets.push_back(pk::targetName(T).str());
  auto Values = [](auto &P, std::vector<std::string> &Out) {
    for (unsigned I = 0; I < P.getNumOptions(); ++I)
      Out.push_back(P.getOption(I).str());
  };
  Values(Wave64.getParser(), S.Wave64);
  Values(MfmaShapeOpt.getParser(), S.MfmaShape);
  Values(LdsPadding.getParser(), S.LdsPadding);
  S.RocmVersion = {5, 6};
  S.Defaults = {{"To", "hip"},         {"Wave64", "auto"},
                {"MfmaShape", "auto"}, {"LdsPadding", "auto"},
                {"RocmVersion", "6"}};
  return S;
}

/// port and check: the .port-kernel.yaml files of the inputs, --config,
/// --config-file and the options given, merged (docs/configuration.md).
/// The settings of the whole run are written back into the options that
/// were not given; \p Policy receives the per-file part.  Returns -1 to go
/// on, else the exit code (--dump-config, or 2 on an error).
int applyConfiguration(std::shared_ptr<pk::ConfigResolver> &Policy) {
  pk::ConfigSchema Schema = configSchema();
  if (ConfigText.getNumOccurrences() && ConfigFile.getNumOccurrences()) {
    errs() << "port-kernel: error: --config and --config-file exclude each "
              "other: give one configuration\n";
    return 2;
  }
  std::optional<pk::ConfigLayer> Explicit;
  if (!ConfigFile.empty()) {
    auto L = pk::readConfigFile(ConfigFile, Schema);
    if (!L) {
      errs() << toString(L.takeError()) << "\n";
      return 2;
    }
    Explicit = std::move(*L);
  } else if (ConfigText.getNumOccurrences()) {
    SmallString<256> Cwd;
    sys::fs::current_path(Cwd);
    auto L = pk::parseConfig(ConfigText, "--config", Cwd, Schema,
                             /*IsFile=*/false);
    if (!L) {
      errs() << toString(L.takeError()) << "\n";
      return 2;
    }
    Explicit = std::move(*L);
  }
  // The options given: the last layer.  Their values were checked by the
  // option parser (targets below).
  pk::ConfigLayer CL;
  CL.Name = pk::CommandLineName;
  if (Checks.getNumOccurrences())
    CL.Checks = Checks;
  if (WarningsAsErrors.getNumOccurrences())
    CL.WarningsAsErrors = WarningsAsErrors;
  if (To.getNumOccurrences())
    CL.To = To;
  // The enumerated options, spelled as the configuration spells them.
  auto Spelling = [](auto &Opt) -> std::optional<std::string> {
    if (!Opt.getNumOccurrences())
      return std::nullopt;
    auto &P = Opt.getParser();
    for (unsigned I = 0; I < P.getNumOptions(); ++I)
      if (std::decay_t<decltype(Opt.getValue())> V;
          !P.parse(Opt, Opt.ArgStr, P.getOption(I), V) && V == Opt.getValue())
        return P.getOption(I).str();
    return std::nullopt;
  };
  CL.Wave64 = Spelling(Wave64);
  CL.MfmaShape = Spelling(MfmaShapeOpt);
  CL.LdsPadding = Spelling(LdsPadding);
  if (RocmVersion.getNumOccurrences())
    CL.RocmVersion = RocmVersion;
  if (RuleFiles.getNumOccurrences()) {
    CL.Rules.emplace();
    for (const std::string &R : RuleFiles)
      CL.Rules->push_back(pk::absPathOf(R));
  }
  if (Baseline.getNumOccurrences())
    CL.Baseline = pk::absPathOf(Baseline);
  if (SrcRoot.getNumOccurrences())
    CL.SrcRoot = pk::absPathOf(SrcRoot);
  Policy = std::make_shared<pk::ConfigResolver>(Schema, std::move(Explicit),
                                                std::move(CL));

  if (DumpConfig.getNumOccurrences()) {
    auto C = Policy->forPath(DumpConfig);
    if (!C) {
      errs() << toString(C.takeError()) << "\n";
      return 2;
    }
    // Patterns are checked against the rules, --rules tables included.
    pk::RenameDB DB;
    for (const std::string &R : (*C)->Rules)
      if (Error E = DB.loadFile(R)) {
        errs() << toString(std::move(E)) << "\n";
        return 2;
      }
    if (Error E = Policy->validatePatterns(errs())) {
      errs() << toString(std::move(E)) << "\n";
      return 2;
    }
    pk::writeEffectiveConfig(outs(), **C, pk::absPathOf(DumpConfig));
    return 0;
  }

  // The settings of the whole run: the inputs' configurations agree.
  std::vector<pk::InputFile> Ins;
  std::vector<std::string> Files;
  if (Error E = pk::collectInputs(Paths, Ins))
    consumeError(std::move(E)); // reported by the run itself
  for (const pk::InputFile &F : Ins)
    Files.push_back(F.Path);
  std::vector<StringRef> RunKeys = {"To", "Wave64", "MfmaShape", "LdsPadding",
                                    "RocmVersion", "Rules"};
  if (CheckCmd) {
    RunKeys.push_back("Baseline");
    RunKeys.push_back("SrcRoot");
  }
  auto Run = Policy->runConfig(Files, RunKeys);
  if (!Run) {
    errs() << toString(Run.takeError()) << "\n";
    return 2;
  }
  const pk::EffectiveConfig &C = **Run;
  if (!To.getNumOccurrences() && !C.To.From.empty())
    To = C.To.V;
  auto SetEnum = [&](auto &Opt, const pk::EffectiveConfig::Value &V) {
    if (Opt.getNumOccurrences() || V.From.empty())
      return true;
    std::decay_t<decltype(Opt.getValue())> Val;
    if (Opt.getParser().parse(Opt, Opt.ArgStr, V.V, Val))
      return false;
    Opt = Val;
    return true;
  };
  if (!SetEnum(Wave64, C.Wave64) || !SetEnum(MfmaShapeOpt, C.MfmaShape) ||
      !SetEnum(LdsPadding, C.LdsPadding))
    return 2;
  if (!RocmVersion.getNumOccurrences() && !C.RocmVersion.From.empty())
    RocmVersion = unsigned(std::stoul(C.RocmVersion.V));
  if (!RuleFiles.getNumOccurrences())
    for (const std::string &R : C.Rules)
      RuleFiles.push_back(R);
  if (!Baseline.getNumOccurrences() && !C.Baseline.V.empty())
    Baseline = C.Baseline.V;
  if (!SrcRoot.getNumOccurrences() && !C.SrcRoot.V.empty())
    SrcRoot = C.SrcRoot.V;
  return -1;
}

} // namespace

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
      if (!Program.empty())
        Roots.push_back(sys::path::parent_path(pk::absPath(Program)).str());
      std::string W = pk::landingPath(Dir);
      for (const std::string &R0 : Roots) {
        std::string R = pk::landingPath(R0);
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

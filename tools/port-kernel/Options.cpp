//===- Options.cpp - the options and subcommands of port-kernel -----------===//
//
// Every option and subcommand of the command line (LLVM cl), in the order
// they are registered; docs/cli.md is generated from them.
//
//===----------------------------------------------------------------------===//
#include "Options.h"

using namespace llvm;

namespace pkcli {

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
                     "non-zero on a wrong answer); the inputs after it are the "
                     "program's other translation units (main.cpp "
                     "kernels.cu ...), each compiled on its own and linked "
                     "with it"),
            cl::value_desc("MAIN"), cl::cat(Cat), cl::sub(ValidateCmd));
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

cl::opt<bool> NoReplay(
    "no-replay",
    cl::desc("Run every kernel launch, also one that repeats an earlier "
             "launch exactly (the same kernel, configuration, arguments and "
             "device memory, and no atomics, printf, clock or host memory), "
             "which the emulator otherwise replays"),
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
  port-kernel validate --program main.cpp kernels.cu gold.cpp   a program of three units
  port-kernel validate --gpu corpus/              original and CUDA port on an NVIDIA GPU
  port-kernel validate --gpu-bundle b corpus/     the same as a bundle: bash b/run.sh on a GPU machine
)";

} // namespace pkcli

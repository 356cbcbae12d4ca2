//===- Options.h - the options and subcommands of port-kernel -------------===//
//
// Defined in Options.cpp, in the order the command line registers them;
// main.cpp dispatches on them and Configuration.cpp merges them with the
// configuration files.
//
//===----------------------------------------------------------------------===//
#ifndef PK_TOOLS_PORT_KERNEL_OPTIONS_H
#define PK_TOOLS_PORT_KERNEL_OPTIONS_H

#include "pk/Config.h"
#include "pk/Driver.h"
#include "pk/GateCheck.h"
#include "pk/MacroDepth.h"
#include "pk/Report.h"

#include "llvm/Support/CommandLine.h"
#include <memory>
#include <string>
#include <vector>

namespace pkcli {

extern llvm::cl::SubCommand PortCmd;
extern llvm::cl::SubCommand CheckCmd;
extern llvm::cl::SubCommand ExplainCmd;
extern llvm::cl::SubCommand RulesCmd;
extern llvm::cl::SubCommand ValidateCmd;
extern llvm::cl::SubCommand MergeReportsCmd;
extern llvm::cl::SubCommand ReportCmd;
extern llvm::cl::OptionCategory Cat;
extern llvm::cl::opt<std::string> To;
extern llvm::cl::opt<std::string> OutDir;
extern llvm::cl::opt<unsigned> Jobs;
extern llvm::cl::opt<bool> InPlace;
extern llvm::cl::opt<std::string> CompDb;
extern llvm::cl::list<std::string> ExtraArg;
extern llvm::cl::list<std::string> ExtraArgBefore;
extern llvm::cl::opt<std::string> CudaPath;
extern llvm::cl::list<std::string> RuleFiles;
extern llvm::cl::opt<std::string> Report;
extern llvm::cl::opt<pk::Wave64Strategy> Wave64;
extern llvm::cl::opt<pk::MfmaShape> MfmaShapeOpt;
extern llvm::cl::opt<pk::LdsPadding> LdsPadding;
extern llvm::cl::opt<unsigned> RocmVersion;
extern llvm::cl::opt<bool> Strict;
extern llvm::cl::opt<bool> StubMissing;
extern llvm::cl::opt<unsigned> MaxMacroDepth;
extern llvm::cl::opt<bool> Quiet;
extern llvm::cl::opt<bool> Verbose;
extern llvm::cl::opt<pk::CheckFormat> Format;
extern llvm::cl::opt<std::string> CheckOutput;
extern llvm::cl::opt<std::string> Baseline;
extern llvm::cl::opt<bool> UpdateBaseline;
extern llvm::cl::opt<std::string> SrcRoot;
extern llvm::cl::opt<std::string> Shard;
extern llvm::cl::opt<bool> CheckValidate;
extern llvm::cl::opt<std::string> RulesUriBase;
extern llvm::cl::opt<std::string> DepFile;
extern llvm::cl::opt<std::string> Checks;
extern llvm::cl::opt<std::string> WarningsAsErrors;
extern llvm::cl::opt<std::string> ConfigText;
extern llvm::cl::opt<std::string> ConfigFile;
extern llvm::cl::opt<std::string> DumpConfig;
extern llvm::cl::list<std::string> MergeArgs;
extern llvm::cl::opt<std::string> HelpMarkdown;
extern llvm::cl::list<std::string> Paths;
extern llvm::cl::opt<std::string> ReportHtml;
extern llvm::cl::opt<std::string> ReportMarkdown;
extern llvm::cl::opt<std::string> PatchDir;
extern llvm::cl::opt<bool> ReportValidate;
extern llvm::cl::opt<std::string> ExplainID;
extern llvm::cl::opt<std::string> Program;
extern llvm::cl::opt<unsigned> Lanes;
extern llvm::cl::list<std::string> Allow;
extern llvm::cl::opt<bool> Json;
extern llvm::cl::opt<bool> KeepWork;
extern llvm::cl::opt<std::string> WorkDir;
extern llvm::cl::opt<std::string> CacheDir;
extern llvm::cl::opt<unsigned> ValidateTimeout;
extern llvm::cl::opt<unsigned> OutputLimitKB;
extern llvm::cl::opt<std::string> ExpectOutput;
extern llvm::cl::opt<std::string> FailOutput;
extern llvm::cl::opt<std::string> StopAt;
extern llvm::cl::opt<bool> InlineHooks;
extern llvm::cl::opt<bool> NoReplay;
extern llvm::cl::opt<bool> Gpu;
extern llvm::cl::opt<std::string> GpuBundle;
extern llvm::cl::opt<std::string> Nvcc;
extern llvm::cl::opt<std::string> GpuArch;
extern llvm::cl::opt<unsigned> GpuWarmup;
extern llvm::cl::opt<unsigned> GpuRepeats;
extern llvm::cl::opt<unsigned> GpuBatch;

/// The examples at the end of --help.
extern const char *Examples;

/// The targets of a comma-separated --to list; false (after an error
/// message) for an unknown one or none.  "none" is accepted (and skipped)
/// when \p AllowNone.
bool parseTargets(llvm::StringRef S, std::vector<pk::Target> &Out,
                  bool AllowNone);
/// The values each configuration key accepts: the options' own.
pk::ConfigSchema configSchema();
/// port and check: the .port-kernel.yaml files of the inputs, --config,
/// --config-file and the options given, merged (docs/configuration.md).
/// The settings of the whole run are written back into the options that
/// were not given; \p Policy receives the per-file part.  Returns -1 to go
/// on, else the exit code (--dump-config, or 2 on an error).
int applyConfiguration(std::shared_ptr<pk::ConfigResolver> &Policy);

} // namespace pkcli

#endif

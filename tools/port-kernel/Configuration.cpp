//===- Configuration.cpp - the --to list and the configuration of a run ---===//
//
// The targets of --to, and the merge of the .port-kernel.yaml files,
// --config, --config-file and the options given (docs/configuration.md).
//
//===----------------------------------------------------------------------===//
#include "Options.h"

#include "pk/Config.h"
#include "pk/Inputs.h"
#include "pk/Rules.h"
#include "pk/SafeIO.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace pkcli {

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

} // namespace pkcli

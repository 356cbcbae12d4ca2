// Configuration files, rule globs and their merging (pk/Config.h,
// docs/configuration.md).
#include "pk/Config.h"
#include "pk/SafeIO.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"
#include <fstream>
#include <unistd.h>

using namespace pk;
namespace fs = llvm::sys::fs;

namespace {

ConfigSchema schema() {
  ConfigSchema S;
  S.Targets = {"cuda", "hip", "nki"};
  S.Wave64 = {"auto", "logical32", "native"};
  S.MfmaShape = {"auto", "16x16x16", "32x32x8"};
  S.LdsPadding = {"auto", "always", "keep"};
  S.RocmVersion = {5, 6};
  S.Defaults = {{"To", "hip"},         {"Wave64", "auto"},
                {"MfmaShape", "auto"}, {"LdsPadding", "auto"},
                {"RocmVersion", "6"}};
  return S;
}

std::string parseError(llvm::StringRef Text) {
  auto L = parseConfig(Text, "cfg.yaml", "/base", schema());
  if (L)
    return "";
  return llvm::toString(L.takeError());
}

/// A scratch directory tree, removed at the end.
struct Tree {
  std::string Root;
  Tree() {
    llvm::SmallString<128> P;
    fs::createUniqueDirectory("pk-config-test", P);
    Root = absPathOf(P);
  }
  ~Tree() { fs::remove_directories(Root); }
  std::string write(llvm::StringRef Rel, llvm::StringRef Text) {
    std::string P = Root + "/" + Rel.str();
    fs::create_directories(llvm::sys::path::parent_path(P));
    std::ofstream(P) << Text.str();
    return P;
  }
};

} // namespace

TEST(RuleGlob, StarIsTheOnlyWildcard) {
  EXPECT_TRUE(ruleGlobMatch("*", "PK2010"));
  EXPECT_TRUE(ruleGlobMatch("*", ""));
  EXPECT_TRUE(ruleGlobMatch("PK2*", "PK2010"));
  EXPECT_FALSE(ruleGlobMatch("PK2*", "PK3001"));
  EXPECT_TRUE(ruleGlobMatch("*10", "PK2010"));
  EXPECT_FALSE(ruleGlobMatch("*10", "PK2011"));
  EXPECT_TRUE(ruleGlobMatch("PK*0*1", "PK2001"));
  EXPECT_TRUE(ruleGlobMatch("PK2010", "PK2010"));
  EXPECT_FALSE(ruleGlobMatch("PK201", "PK2010"));
  EXPECT_FALSE(ruleGlobMatch("pk2010", "PK2010")); // case-sensitive
  EXPECT_FALSE(ruleGlobMatch("PK201?", "PK2010")); // '?' is a character
  EXPECT_FALSE(ruleGlobMatch("PK20[1]0", "PK2010"));
  EXPECT_FALSE(ruleGlobMatch("", "PK2010"));
  EXPECT_TRUE(ruleGlobMatch("**", "PK2010"));
}

TEST(RuleGlob, LaterPatternsWin) {
  RuleGlobList L = RuleGlobList::parse("-*,PK2*,-PK2010", "x");
  EXPECT_TRUE(L.contains("PK2001"));
  EXPECT_FALSE(L.contains("PK2010"));
  EXPECT_FALSE(L.contains("PK3001"));
  EXPECT_FALSE(RuleGlobList::parse("PK2010,-PK2010", "x").contains("PK2010"));
  EXPECT_TRUE(RuleGlobList::parse("-PK2010,PK2010", "x").contains("PK2010"));
  // Nothing matches: not selected.
  EXPECT_FALSE(RuleGlobList::parse("PK3*", "x").contains("PK2010"));
  const RulePattern *P = L.decide("PK2010");
  ASSERT_TRUE(P);
  EXPECT_EQ(P->spelling(), "-PK2010");
  EXPECT_EQ(P->Origin, "x");
}

TEST(RuleGlob, EmptyItemsAndBlanks) {
  EXPECT_TRUE(RuleGlobList::parse("", "x").empty());
  EXPECT_TRUE(RuleGlobList::parse(" , ,\n", "x").empty());
  EXPECT_FALSE(RuleGlobList::parse("", "x").contains("PK2010"));
  RuleGlobList L = RuleGlobList::parse("  -*,\n  PK21* ,\n - PK2104,", "x");
  ASSERT_EQ(L.patterns().size(), 3u);
  EXPECT_EQ(L.str(), "-*,PK21*,-PK2104");
  EXPECT_TRUE(L.contains("PK2101"));
  EXPECT_FALSE(L.contains("PK2104"));
}

TEST(RuleGlob, AppendKeepsOrder) {
  RuleGlobList A = RuleGlobList::parse("-*,PK2*", "a");
  A.append(RuleGlobList::parse("-PK2010", "b"));
  EXPECT_EQ(A.str(), "-*,PK2*,-PK2010");
  EXPECT_FALSE(A.contains("PK2010"));
  EXPECT_EQ(A.decide("PK2010")->Origin, "b");
  EXPECT_EQ(A.decide("PK2001")->Origin, "a");
}

TEST(ConfigParse, EveryKey) {
  auto L = parseConfig("Checks: '-*,PK21*'\n"
                       "WarningsAsErrors: PK2101\n"
                       "To: hip,cuda\n"
                       "Wave64: logical32\n"
                       "MfmaShape: 32x32x8\n"
                       "LdsPadding: keep\n"
                       "RocmVersion: 5\n"
                       "Rules: [extra.yaml, /abs/t.yaml]\n"
                       "Baseline: ../b.json\n"
                       "SrcRoot: .\n"
                       "InheritParentConfig: true\n",
                       "/base/cfg.yaml", "/base/dir", schema());
  ASSERT_TRUE(bool(L)) << llvm::toString(L.takeError());
  EXPECT_EQ(*L->Checks, "-*,PK21*");
  EXPECT_EQ(*L->WarningsAsErrors, "PK2101");
  EXPECT_EQ(*L->To, "hip,cuda");
  EXPECT_EQ(*L->Wave64, "logical32");
  EXPECT_EQ(*L->MfmaShape, "32x32x8");
  EXPECT_EQ(*L->LdsPadding, "keep");
  EXPECT_EQ(*L->RocmVersion, 5u);
  ASSERT_EQ(L->Rules->size(), 2u);
  EXPECT_EQ((*L->Rules)[0], "/base/dir/extra.yaml"); // relative to the file
  EXPECT_EQ((*L->Rules)[1], "/abs/t.yaml");
  EXPECT_EQ(*L->Baseline, "/base/b.json");
  EXPECT_EQ(*L->SrcRoot, "/base/dir");
  EXPECT_TRUE(L->InheritParentConfig);
  EXPECT_EQ(L->origin("Wave64"), "/base/cfg.yaml:4");
  EXPECT_EQ(L->origin("InheritParentConfig"), "/base/cfg.yaml:11");
}

TEST(ConfigParse, EmptyAndCommentsOnly) {
  for (const char *T : {"", "# nothing\n", "---\n", "{}\n"}) {
    auto L = parseConfig(T, "cfg.yaml", "/b", schema());
    ASSERT_TRUE(bool(L)) << T << ": " << llvm::toString(L.takeError());
    EXPECT_FALSE(L->Checks || L->To || L->Rules || L->InheritParentConfig);
  }
}

TEST(ConfigParse, ErrorsSayFileLineWhatAndWhy) {
  // Unknown key: the line of the key, and the keys there are.
  std::string E = parseError("Checks: '*'\nChekcs: '-*'\n");
  EXPECT_NE(E.find("cfg.yaml:2:1: error: unknown key 'Chekcs'"),
            std::string::npos)
      << E;
  EXPECT_NE(E.find("keys: Checks, WarningsAsErrors"), std::string::npos) << E;
  // clang-tidy keys port-kernel does not have are unknown too.
  E = parseError("HeaderFilterRegex: '.*'\n");
  EXPECT_NE(E.find("cfg.yaml:1:1: error: unknown key 'HeaderFilterRegex'"),
            std::string::npos)
      << E;
  E = parseError("To: hip\nWave64: wide\n");
  EXPECT_NE(E.find("cfg.yaml:2:9: error: Wave64: 'wide' is not one of auto, "
                   "logical32, native"),
            std::string::npos)
      << E;
  E = parseError("To: hip,cuad\n");
  EXPECT_NE(E.find("cfg.yaml:1:5: error: To: unknown target 'cuad' (targets: "
                   "cuda, hip, nki)"),
            std::string::npos)
      << E;
  E = parseError("To: ','\n");
  EXPECT_NE(E.find("To names no target"), std::string::npos) << E;
  E = parseError("RocmVersion: 7\n");
  EXPECT_NE(E.find("cfg.yaml:1:14: error: RocmVersion: '7' is not one of 5, 6"),
            std::string::npos)
      << E;
  E = parseError("InheritParentConfig: maybe\n");
  EXPECT_NE(E.find("cfg.yaml:1:22: error: InheritParentConfig is true or "
                   "false"),
            std::string::npos)
      << E;
  E = parseError("Checks: [PK2*, -PK2010]\n");
  EXPECT_NE(E.find("cfg.yaml:1:10: error: a list or mapping where one value "
                   "belongs"),
            std::string::npos)
      << E;
  E = parseError("Rules: one.yaml\n");
  EXPECT_NE(E.find("cfg.yaml:1:8: error: Rules takes a list of files"),
            std::string::npos)
      << E;
  E = parseError("hello\n");
  EXPECT_NE(E.find("cfg.yaml:1:1: error: a configuration is a mapping"),
            std::string::npos)
      << E;
  E = parseError("Baseline: ''\n");
  EXPECT_NE(E.find("a path may not be empty"), std::string::npos) << E;
  E = parseError("- Checks: '*'\n");
  EXPECT_NE(E.find("cfg.yaml:1:1: error:"), std::string::npos) << E;
  E = parseError("Checks: '*'\nChecks: '-*'\n");
  EXPECT_NE(E.find("cfg.yaml:2:1: error:"), std::string::npos) << E;
  E = parseError("Checks: '*'\n---\nChecks: '-*'\n");
  EXPECT_NE(E.find("cfg.yaml:2:1: error: a configuration holds one YAML "
                   "document"),
            std::string::npos)
      << E;
  E = parseError("Checks: \"\xff\"\n");
  EXPECT_NE(E.find("cfg.yaml:1:10: error: invalid UTF-8"), std::string::npos)
      << E;
  E = parseError("Checks: 'PK2*\n");
  EXPECT_NE(E.find("cfg.yaml:"), std::string::npos) << E;
}

TEST(ConfigParse, NestingIsBounded) {
  std::string Deep = "Rules: " + std::string(10000, '[') + "\n";
  std::string E = parseError(Deep);
  EXPECT_NE(E.find("nested deeper than"), std::string::npos) << E;
}

TEST(ConfigDecide, DisablePromoteAndWhatStays) {
  EffectiveConfig C;
  C.Checks = RuleGlobList::parse("*,-PK21*,-PK1016,-PK6030,-PK9003", "x");
  C.WarningsAsErrors = RuleGlobList::parse("PK2010,PK21*,PK1010", "x");
  // A disabled diagnostic loses its notes and warnings, never its errors.
  EXPECT_EQ(decideFinding(C, "PK2101", "diagnostic", Severity::Warning),
            FindingAction::Drop);
  EXPECT_EQ(decideFinding(C, "PK9003", "diagnostic", Severity::Error),
            FindingAction::Keep);
  // A disabled rewrite keeps its warnings (an edit that could not be made),
  // not its notes.
  EXPECT_EQ(decideFinding(C, "PK6030", "rewrite", Severity::Warning),
            FindingAction::Keep);
  EXPECT_EQ(decideFinding(C, "PK1016", "rewrite", Severity::Note),
            FindingAction::Drop);
  // Promotion: warnings only; disabled wins.
  EXPECT_EQ(decideFinding(C, "PK2010", "diagnostic", Severity::Warning),
            FindingAction::Promote);
  EXPECT_EQ(decideFinding(C, "PK2010", "diagnostic", Severity::Note),
            FindingAction::Keep);
  EXPECT_EQ(decideFinding(C, "PK2102", "diagnostic", Severity::Warning),
            FindingAction::Drop);
  EXPECT_EQ(decideFinding(C, "PK1010", "diagnostic", Severity::Warning),
            FindingAction::Promote);
  EXPECT_EQ(decideFinding(C, "PK3001", "rewrite", Severity::Warning),
            FindingAction::Keep);
}

TEST(ConfigResolve, NearestWinsAndInheritMerges) {
  Tree T;
  T.write(".port-kernel.yaml", "Checks: '-*,PK2*'\nWave64: logical32\n");
  T.write("a/.port-kernel.yaml",
          "InheritParentConfig: true\nChecks: '-PK2010'\nMfmaShape: 32x32x8\n");
  T.write("b/.port-kernel.yaml", "Checks: 'PK3*'\n");
  T.write("a/x.cu", "");
  T.write("b/y.cu", "");
  T.write("c/z.cu", "");
  ConfigLayer CL;
  CL.Name = CommandLineName;
  CL.Checks = "PK2010";
  ConfigResolver R(schema(), std::nullopt, CL);

  auto A = R.forPath(T.Root + "/a/x.cu");
  ASSERT_TRUE(bool(A)) << llvm::toString(A.takeError());
  EXPECT_EQ((*A)->Checks.str(), "*,-*,PK2*,-PK2010,PK2010");
  EXPECT_EQ((*A)->Wave64.V, "logical32"); // inherited
  EXPECT_EQ((*A)->MfmaShape.V, "32x32x8");
  ASSERT_EQ((*A)->Files.size(), 2u);
  EXPECT_EQ((*A)->Files[0], T.Root + "/.port-kernel.yaml");
  EXPECT_EQ((*A)->Checks.decide("PK2010")->Origin, "--checks");
  EXPECT_EQ((*A)->Checks.decide("PK2001")->Origin,
            T.Root + "/.port-kernel.yaml:1");

  // b's file does not inherit: the top file is not used.
  auto B = R.forPath(T.Root + "/b/y.cu");
  ASSERT_TRUE(bool(B));
  EXPECT_EQ((*B)->Checks.str(), "*,PK3*,PK2010");
  EXPECT_EQ((*B)->Wave64.V, "auto");
  EXPECT_TRUE((*B)->Wave64.From.empty());
  ASSERT_EQ((*B)->Files.size(), 1u);

  // c has none of its own: the top one.
  auto Cc = R.forPath(T.Root + "/c/z.cu");
  ASSERT_TRUE(bool(Cc));
  EXPECT_EQ((*Cc)->Wave64.V, "logical32");
  EXPECT_EQ((*Cc)->Wave64.From.front(), T.Root + "/.port-kernel.yaml:2");

  // Every file read is registered (outputs may not land on them).
  EXPECT_TRUE(ReadSet::get().roleOf(landingPath(T.Root + "/a/.port-kernel.yaml")));
  EXPECT_EQ(R.files().size(), 3u);

  // Per-run keys must agree: a and b differ on Wave64.
  auto Run = R.runConfig({T.Root + "/a/x.cu", T.Root + "/b/y.cu"},
                         {"To", "Wave64"});
  ASSERT_FALSE(bool(Run));
  std::string E = llvm::toString(Run.takeError());
  EXPECT_NE(E.find("disagree on Wave64"), std::string::npos) << E;
  EXPECT_NE(E.find(T.Root + "/.port-kernel.yaml:2"), std::string::npos) << E;
  EXPECT_NE(E.find("the default"), std::string::npos) << E;
  EXPECT_NE(E.find("--wave64"), std::string::npos) << E;
  // ... and agree on To.
  EXPECT_TRUE(bool(
      R.runConfig({T.Root + "/a/x.cu", T.Root + "/b/y.cu"}, {"To"})));
}

TEST(ConfigResolve, ExplicitConfigReplacesOrInherits) {
  Tree T;
  T.write(".port-kernel.yaml", "Checks: '-*'\nWave64: native\n");
  T.write("x.cu", "");
  ConfigLayer CL;
  CL.Name = CommandLineName;
  auto E1 = parseConfig("Checks: 'PK2*'", "--config", T.Root, schema(), false);
  ASSERT_TRUE(bool(E1));
  ConfigResolver Replace(schema(), *E1, CL);
  auto C = Replace.forPath(T.Root + "/x.cu");
  ASSERT_TRUE(bool(C));
  EXPECT_EQ((*C)->Checks.str(), "*,PK2*");
  EXPECT_EQ((*C)->Wave64.V, "auto");
  EXPECT_TRUE((*C)->Files.empty());

  auto E2 = parseConfig("{InheritParentConfig: true, Checks: 'PK2*'}",
                        "--config", T.Root, schema(), false);
  ASSERT_TRUE(bool(E2));
  ConfigResolver Inherit(schema(), *E2, CL);
  C = Inherit.forPath(T.Root + "/x.cu");
  ASSERT_TRUE(bool(C));
  EXPECT_EQ((*C)->Checks.str(), "*,-*,PK2*");
  EXPECT_EQ((*C)->Wave64.V, "native");
}

TEST(ConfigResolve, RulesAddUpAndTheCommandLineReplaces) {
  Tree T;
  T.write(".port-kernel.yaml", "Rules: [top.yaml]\n");
  T.write("a/.port-kernel.yaml",
          "InheritParentConfig: true\nRules: [a.yaml, ../top.yaml]\n");
  T.write("a/x.cu", "");
  ConfigLayer CL;
  CL.Name = CommandLineName;
  ConfigResolver R(schema(), std::nullopt, CL);
  auto C = R.forPath(T.Root + "/a/x.cu");
  ASSERT_TRUE(bool(C));
  EXPECT_EQ((*C)->Rules, (std::vector<std::string>{T.Root + "/top.yaml",
                                                   T.Root + "/a/a.yaml"}));
  CL.Rules = std::vector<std::string>{"/cli.yaml"};
  ConfigResolver R2(schema(), std::nullopt, CL);
  C = R2.forPath(T.Root + "/a/x.cu");
  ASSERT_TRUE(bool(C));
  EXPECT_EQ((*C)->Rules, (std::vector<std::string>{"/cli.yaml"}));
}

TEST(ConfigResolve, ADirectoryOrALinkLoopIsAnError) {
  Tree T;
  fs::create_directories(T.Root + "/d/.port-kernel.yaml");
  T.write("d/x.cu", "");
  ConfigLayer CL;
  CL.Name = CommandLineName;
  ConfigResolver R(schema(), std::nullopt, CL);
  auto C = R.forPath(T.Root + "/d/x.cu");
  ASSERT_FALSE(bool(C));
  std::string E = llvm::toString(C.takeError());
  EXPECT_NE(E.find("d/.port-kernel.yaml: error: cannot read the configuration "
                   "file: it is a directory"),
            std::string::npos)
      << E;

  fs::create_directories(T.Root + "/l");
  ASSERT_EQ(::symlink(".port-kernel.yaml", (T.Root + "/l/.port-kernel.yaml").c_str()), 0);
  T.write("l/x.cu", "");
  C = R.forPath(T.Root + "/l/x.cu");
  ASSERT_FALSE(bool(C));
  E = llvm::toString(C.takeError());
  EXPECT_NE(E.find("l/.port-kernel.yaml: error: cannot read the configuration "
                   "file"),
            std::string::npos)
      << E;
  // The policy reports it rather than deciding silently.
  EXPECT_EQ(R.decide(T.Root + "/l/x.cu", "PK2010", Severity::Warning),
            FindingAction::Keep);
  llvm::Error Err = R.takeError();
  EXPECT_TRUE(bool(Err));
  llvm::consumeError(std::move(Err));
}

TEST(ConfigValidate, RewritesCannotBeDisabledByName) {
  ConfigLayer CL;
  CL.Name = CommandLineName;
  CL.Checks = "-*,PK2*,-PK2001";
  ConfigResolver R(schema(), std::nullopt, CL);
  std::string W;
  llvm::raw_string_ostream OS(W);
  llvm::Error E = R.validatePatterns(OS);
  ASSERT_TRUE(bool(E));
  std::string S = llvm::toString(std::move(E));
  EXPECT_NE(S.find("--checks: error: Checks: '-PK2001' disables PK2001, a "
                   "rewrite rule"),
            std::string::npos)
      << S;
  EXPECT_NE(S.find("silently wrong output"), std::string::npos) << S;

  // Rename rules likewise; wildcards are fine.
  CL.Checks = "-PK1001";
  ConfigResolver R2(schema(), std::nullopt, CL);
  E = R2.validatePatterns(OS);
  ASSERT_TRUE(bool(E));
  EXPECT_NE(llvm::toString(std::move(E)).find("a rename rule"),
            std::string::npos);
  CL.Checks = "-*,-PK20*,PK2001";
  ConfigResolver R3(schema(), std::nullopt, CL);
  EXPECT_FALSE(bool(R3.validatePatterns(OS)));
}

TEST(ConfigValidate, PatternsThatMatchNoRuleWarnOnce) {
  ConfigLayer CL;
  CL.Name = CommandLineName;
  CL.Checks = "-PK2O10,PK21*";
  CL.WarningsAsErrors = "pk2010";
  ConfigResolver R(schema(), std::nullopt, CL);
  std::string W;
  llvm::raw_string_ostream OS(W);
  EXPECT_FALSE(bool(R.validatePatterns(OS)));
  EXPECT_FALSE(bool(R.validatePatterns(OS)));
  EXPECT_NE(W.find("--checks: warning: Checks: '-PK2O10' matches no rule"),
            std::string::npos)
      << W;
  EXPECT_NE(W.find("--warnings-as-errors: warning: WarningsAsErrors: "
                   "'pk2010' matches no rule"),
            std::string::npos)
      << W;
  EXPECT_EQ(W.find("PK21*"), std::string::npos) << W;
  // Once each, however often it is checked.
  EXPECT_EQ(W.find("PK2O10"), W.rfind("PK2O10"));
}

TEST(ConfigDump, RoundTrips) {
  Tree T;
  T.write(".port-kernel.yaml",
          "Checks: \"-*,PK2*,-PK2010\"\nWarningsAsErrors: PK2101\nTo: "
          "hip,cuda\nRules: [t.yaml]\n");
  T.write("x.cu", "");
  ConfigLayer CL;
  CL.Name = CommandLineName;
  CL.Wave64 = "native";
  ConfigResolver R(schema(), std::nullopt, CL);
  auto C = R.forPath(T.Root + "/x.cu");
  ASSERT_TRUE(bool(C));
  std::string S;
  llvm::raw_string_ostream OS(S);
  writeEffectiveConfig(OS, **C, T.Root + "/x.cu");
  EXPECT_NE(S.find("Checks: '*,-*,PK2*,-PK2010'   # default '*', " + T.Root +
                   "/.port-kernel.yaml:1\n"),
            std::string::npos)
      << S;
  EXPECT_NE(S.find("Wave64: 'native'   # --wave64\n"), std::string::npos) << S;
  EXPECT_NE(S.find("MfmaShape: 'auto'   # default\n"), std::string::npos) << S;
  // What it prints is a configuration that gives the same.
  auto L = parseConfig(S, "dump", T.Root, schema());
  ASSERT_TRUE(bool(L)) << llvm::toString(L.takeError()) << "\n" << S;
  EXPECT_EQ(*L->To, "hip,cuda");
  EXPECT_EQ(*L->Wave64, "native");
  EXPECT_EQ(*L->WarningsAsErrors, "PK2101");
  EXPECT_EQ(*L->Rules, std::vector<std::string>{T.Root + "/t.yaml"});
}

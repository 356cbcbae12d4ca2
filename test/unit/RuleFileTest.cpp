//===- RuleFileTest.cpp - user rename tables the loader must refuse -------===//
#include "pk/Rules.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace pk;

namespace {

/// Writes \p Text to a scratch rule file, loads it as a --rules table and
/// returns the loader's message ("" when it loads).
std::string loadUserTable(llvm::StringRef Text, std::string &Path) {
  llvm::SmallString<128> P;
  int FD;
  EXPECT_FALSE(llvm::sys::fs::createTemporaryFile("pk-rules", "yaml", FD, P));
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
  }
  Path = P.str().str();
  RenameDB DB;
  llvm::Error E = DB.loadFile(Path, /*BuiltIn=*/false);
  llvm::sys::fs::remove(Path);
  return E ? llvm::toString(std::move(E)) : "";
}

} // namespace

TEST(RuleFiles, MalformedFilesAreErrorsWithAPosition) {
  struct Case {
    const char *Text, *Want; ///< Want: the message after "PATH:"
  } Cases[] = {
      {"", "1:1: error: the rule file is empty; expected a mapping with "
           "'rule', 'title' and 'entries'"},
      {"# only a comment\n\n   # another\n",
       "1:1: error: the rule file is empty; expected a mapping with 'rule', "
       "'title' and 'entries'"},
      {"---\n...\n", "1:1: error: the rule file is empty; expected a mapping "
                     "with 'rule', 'title' and 'entries'"},
      {"- rule: PK8001\n- title: x\n",
       "1:1: error: expected a mapping with 'rule', 'title' and 'entries', "
       "found a sequence"},
      {"# a scalar\njust text\n",
       "2:1: error: expected a mapping with 'rule', 'title' and 'entries', "
       "found a scalar"},
      {"rule: PK8001\ntitle: t\nentries:\n  - { cuda: a, hip: b }\n  - foo\n",
       "5:5: error: an entry must be a mapping with 'cuda' and 'hip' (or "
       "'unsupported'), found a scalar"},
      {"rule: PK8001\ntitle: t\nentries:\n  - [a, b]\n",
       "4:6: error: an entry must be a mapping with 'cuda' and 'hip' (or "
       "'unsupported'), found a sequence"},
      {"rule: PK8001\ntitle: t\nentries: none\n",
       "3:10: error: 'entries' must be a sequence of mappings, found a scalar"},
      {"rule: PK8001\ntitle: t\xff\nentries:\n  - { cuda: a, hip: b }\n",
       "2:9: error: invalid UTF-8; a rule file is UTF-8 text"},
      {"rule: PK8001\ntitle: caf\xc3\xa9 \xe2\x82\n",
       "2:14: error: invalid UTF-8; a rule file is UTF-8 text"},
      {"rule: PK8001\ntitle: t\nentries: []\n---\nrule: PK8002\n",
       "5:1: error: a rule file holds one table; a second document starts "
       "here"},
      // What the reader itself reports keeps its position too.
      {"rule: PK8001\ntitle: t\nentries:\n  - { cuda: a }\n",
       "4:7: error: entry 'a' needs either 'hip' or 'unsupported'"},
      {"rule: PK8001\ntitle: t\nentries:\n  - { cuda: a, hip: b\n",
       "4:22: error: Unexpected token. Expected Key, Flow Entry, or Flow "
       "Mapping End."},
  };
  for (const Case &C : Cases) {
    std::string Path;
    std::string Msg = loadUserTable(C.Text, Path);
    EXPECT_EQ(Msg, Path + ":" + C.Want) << C.Text;
  }
}

TEST(RuleFiles, ValidTablesStillLoad) {
  std::string Path;
  EXPECT_EQ(loadUserTable("# a user table\nrule: PK8101\ntitle: t\nentries:\n"
                          "  - { cuda: myCudaThing, hip: myHipThing }\n",
                          Path),
            "");
  EXPECT_EQ(loadUserTable("rule: PK8102\ntitle: t\nentries:\n", Path), "");
}

TEST(RuleFiles, KeywordsAndBuiltInIdsAreStillRefused) {
  std::string Path;
  std::string Msg = loadUserTable("rule: PK8103\ntitle: t\nentries:\n"
                                  "  - { cuda: cudaFoo, hip: while }\n",
                                  Path);
  EXPECT_EQ(Msg, Path + ": error: 'while' in entry 'cudaFoo' is a C++ "
                        "keyword; rename tables map API names, not the "
                        "language");
  Msg = loadUserTable(
      "rule: PK2001\ntitle: t\nentries:\n  - { cuda: a, hip: b }\n", Path);
  EXPECT_EQ(Msg, Path + ": error: rule ID PK2001 is already used by a "
                        "built-in rule; give the table an ID of its own (see "
                        "`port-kernel rules`)");
}

TEST(RuleFiles, ADirectoryIsNotARuleFile) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("pk-rules-dir", Dir));
  RenameDB DB;
  llvm::Error E = DB.loadFile(Dir, /*BuiltIn=*/false);
  ASSERT_TRUE(bool(E));
  EXPECT_EQ(llvm::toString(std::move(E)),
            (Dir + ":1:1: error: cannot read rule file: it is a directory, "
                   "not a YAML rename table")
                .str());
  E = DB.loadFile((Dir + "/missing.yaml").str(), /*BuiltIn=*/false);
  ASSERT_TRUE(bool(E));
  EXPECT_EQ(llvm::toString(std::move(E)),
            (Dir + "/missing.yaml: error: cannot read rule file: No such file "
                   "or directory")
                .str());
  llvm::sys::fs::remove_directories(Dir);
}

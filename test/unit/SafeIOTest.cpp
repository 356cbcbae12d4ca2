//===- SafeIOTest.cpp - the I/O layer (pk/SafeIO.h) ------------------------===//
// Rules: PK9001
#include "pk/SafeIO.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <unistd.h>

using namespace pk;
namespace fs = llvm::sys::fs;

namespace {

class SafeIOTest : public ::testing::Test {
protected:
  llvm::SmallString<256> Dir;
  void SetUp() override {
    ASSERT_FALSE(fs::createUniqueDirectory("pk-safeio", Dir));
    ReadSet::get().clear();
  }
  void TearDown() override {
    ReadSet::get().clear();
    fs::remove_directories(Dir);
  }
  std::string path(llvm::StringRef Name) {
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::append(P, Name);
    return P.str().str();
  }
  void write(llvm::StringRef Name, llvm::StringRef Text) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(path(Name), EC);
    ASSERT_FALSE(EC);
    OS << Text;
  }
  std::string read(llvm::StringRef Name) {
    auto B = llvm::MemoryBuffer::getFile(path(Name));
    return B ? (*B)->getBuffer().str() : "<missing>";
  }
  std::string files() {
    std::string S;
    std::error_code EC;
    for (fs::directory_iterator It(Dir, EC), End; It != End && !EC;
         It.increment(EC))
      S += llvm::sys::path::filename(It->path()).str() + " ";
    return S;
  }
};

TEST_F(SafeIOTest, OutputOnAFileReadIsRefusedNamingBothRoles) {
  write("in.cu", "x");
  noteRead(path("in.cu"), "the input");
  WritePlan P;
  P.add(path("a.json"), "--output", "A");
  P.add(path("sub/../in.cu"), "--depfile", "D");
  std::string Diag;
  llvm::raw_string_ostream OS(Diag);
  EXPECT_EQ(P.write(OS), 2);
  EXPECT_NE(Diag.find("--depfile would overwrite the input " + path("in.cu") +
                      ", which this run reads"),
            std::string::npos)
      << Diag;
  EXPECT_NE(Diag.find("no output written"), std::string::npos);
  EXPECT_EQ(read("in.cu"), "x");
  EXPECT_EQ(read("a.json"), "<missing>"); // nothing, not even the first
}

TEST_F(SafeIOTest, ReadThroughALinkIsMatchedByRealPath) {
  write("real.yaml", "r");
  ASSERT_FALSE(fs::create_link(path("real.yaml"), path("alias.yaml")));
  noteRead(path("alias.yaml"), "the --rules file");
  WritePlan P;
  P.add(path("real.yaml"), "--report", "R");
  llvm::Error E = P.check();
  ASSERT_TRUE(bool(E));
  EXPECT_NE(llvm::toString(std::move(E)).find("the --rules file"),
            std::string::npos);
}

TEST_F(SafeIOTest, TwoOutputsOnOnePathAreRefused) {
  ASSERT_FALSE(fs::create_directory(path("d")));
  ASSERT_FALSE(fs::create_link(path("d"), path("l")));
  WritePlan P;
  P.add(path("d/x"), "-o");
  P.add(path("l/x"), "--markdown");
  llvm::Error E = P.check();
  ASSERT_TRUE(bool(E));
  EXPECT_NE(llvm::toString(std::move(E)).find("-o and --markdown name the "
                                              "same file"),
            std::string::npos);
}

TEST_F(SafeIOTest, AnOutputThatIsALinkIsRefused) {
  write("target", "keep");
  ASSERT_FALSE(fs::create_link(path("target"), path("link")));
  WritePlan P;
  P.add(path("link"), "--output", "new");
  std::string Diag;
  llvm::raw_string_ostream OS(Diag);
  EXPECT_EQ(P.write(OS), 2);
  EXPECT_NE(Diag.find("is a symbolic link"), std::string::npos) << Diag;
  EXPECT_EQ(read("target"), "keep");
  EXPECT_TRUE(fs::is_symlink_file(path("link")));
}

TEST_F(SafeIOTest, AllOrNothing) {
  write("old", "before");
  write("blocker", "a file where a directory is needed");
  WritePlan P;
  P.add(path("old"), "-o", "after");
  P.add(path("blocker/x"), "--markdown", "y");
  std::string Diag;
  llvm::raw_string_ostream OS(Diag);
  EXPECT_EQ(P.write(OS), 2);
  EXPECT_EQ(read("old"), "before");
  EXPECT_EQ(files().find(".pk-"), std::string::npos) << files();
  WritePlan Q;
  Q.add(path("old"), "-o", "after");
  Q.add(path("new/deep/x"), "--markdown", "y");
  EXPECT_EQ(Q.write(OS), 0) << Diag;
  EXPECT_EQ(read("old"), "after");
  EXPECT_EQ(read("new/deep/x"), "y");
}

TEST_F(SafeIOTest, JsonNestingIsBoundedBeforeParsing) {
  std::string Deep(100000, '[');
  auto V = parseJsonBounded(Deep, "deep.json");
  ASSERT_FALSE(bool(V));
  EXPECT_NE(llvm::toString(V.takeError())
                .find("deep.json: error: line 1: JSON nested deeper than 512"),
            std::string::npos);
  // Brackets inside strings are not nesting; escaped quotes do not end them.
  std::string Text = "{\"a\": \"" + std::string(5000, '[') + "\\\"" +
                     std::string(5000, '{') + "\"}";
  auto W = parseJsonBounded(Text, "s.json");
  ASSERT_TRUE(bool(W)) << llvm::toString(W.takeError());
  std::string Ok = std::string(512, '[') + std::string(512, ']');
  auto X = parseJsonBounded(Ok, "ok.json");
  EXPECT_TRUE(bool(X));
  if (!X)
    llvm::consumeError(X.takeError());
  auto Y = parseJsonBounded("[1,\n[2,\n[3]]]", "l.json", 2);
  ASSERT_FALSE(bool(Y));
  EXPECT_NE(llvm::toString(Y.takeError()).find("line 3:"), std::string::npos);
}

TEST_F(SafeIOTest, YamlNestingIsBoundedBeforeParsing) {
  auto Msg = [](llvm::Error E) { return llvm::toString(std::move(E)); };
  EXPECT_NE(Msg(checkYamlNesting("a: " + std::string(100000, '['), "c.yaml"))
                .find("c.yaml:1: error: YAML nested deeper than 256 levels"),
            std::string::npos);
  std::string Block;
  for (int I = 0; I < 300; ++I)
    Block += std::string(I, ' ') + "k" + std::to_string(I) + ":\n";
  EXPECT_NE(Msg(checkYamlNesting(Block, "b.yaml")).find("b.yaml:257:"),
            std::string::npos);
  std::string Dashes;
  for (int I = 0; I < 300; ++I)
    Dashes += "- ";
  EXPECT_NE(Msg(checkYamlNesting(Dashes + "x\n", "d.yaml")).find("d.yaml:1:"),
            std::string::npos);
  // Brackets in quotes and comments are not nesting; ordinary files pass.
  EXPECT_FALSE(bool(checkYamlNesting(
      "name: \"" + std::string(1000, '[') + "\"\n# " +
          std::string(1000, '{') + "\nargs: [{a: 1}, {b: [2, 3]}]\n",
      "ok.yaml")));
  EXPECT_FALSE(bool(checkYamlNesting("rule: PK8001\nentries:\n  - { cuda: a, "
                                     "hip: b }\n  - cuda: c\n    hip: d\n",
                                     "r.yaml")));
}

TEST_F(SafeIOTest, ReadFileRegistersAndLimitsSize) {
  write("big.json", std::string(2000, ' '));
  auto B = readFile(path("big.json"), "the --baseline file", 1000);
  ASSERT_FALSE(bool(B));
  EXPECT_NE(llvm::toString(B.takeError())
                .find("the --baseline file is 2000 bytes, more than the 1000"),
            std::string::npos);
  EXPECT_FALSE(ReadSet::get().roleOf(landingPath(path("big.json"))));
  auto C = readFile(path("big.json"), "the --baseline file", 4000);
  ASSERT_TRUE(bool(C));
  EXPECT_EQ(ReadSet::get().roleOf(landingPath(path("big.json"))),
            std::optional<std::string>("the --baseline file"));
  auto D = readFile(Dir, "input report 1");
  ASSERT_FALSE(bool(D));
  EXPECT_NE(llvm::toString(D.takeError()).find("is a directory"),
            std::string::npos);
}

} // namespace

#include "pk/Edit.h"
#include "pk/Rules.h"
#include "pk/TargetContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <gtest/gtest.h>

using namespace pk;

static Edit mk(unsigned Off, unsigned Len, std::string Rep, std::string Rule) {
  Edit E;
  E.File = "/f.cu";
  E.Offset = Off;
  E.Length = Len;
  E.Replacement = std::move(Rep);
  E.RuleID = std::move(Rule);
  return E;
}

TEST(FileEdits, AppliesInOffsetOrderAndKeepsTheRest) {
  FileEdits FE;
  ASSERT_FALSE(bool(FE.add(mk(6, 10, "hipMalloc", "PK1001"))));
  ASSERT_FALSE(bool(FE.add(mk(0, 5, "HELLO", "PK1001"))));
  EXPECT_EQ(FE.apply("hello cudaMalloc(x);"), "HELLO hipMalloc(x);");
}

TEST(FileEdits, OverlapIsAConflictNamingBothRules) {
  FileEdits FE;
  ASSERT_FALSE(bool(FE.add(mk(10, 6, "a", "PK1001"))));
  llvm::Error E = FE.add(mk(12, 6, "b", "PK2001"));
  ASSERT_TRUE(bool(E));
  std::string Msg = llvm::toString(std::move(E));
  EXPECT_NE(Msg.find("PK2001"), std::string::npos);
  EXPECT_NE(Msg.find("PK1001"), std::string::npos);
  EXPECT_NE(Msg.find("PK9002"), std::string::npos);
}

TEST(FileEdits, IdenticalEditsMergeAndInsertionsKeepOrder) {
  FileEdits FE;
  ASSERT_FALSE(bool(FE.add(mk(3, 2, "X", "PK1001"))));
  ASSERT_FALSE(bool(FE.add(mk(3, 2, "X", "PK1001")))); // same edit via another TU
  ASSERT_FALSE(bool(FE.add(mk(3, 0, "<a>", "PK2001"))));
  ASSERT_FALSE(bool(FE.add(mk(3, 0, "<b>", "PK2002"))));
  EXPECT_EQ(FE.edits().size(), 3u);
  EXPECT_EQ(FE.apply("0123456"), "012<a><b>X56");
}

TEST(FileEdits, InsertionInsideAReplacedRangeConflicts) {
  FileEdits FE;
  ASSERT_FALSE(bool(FE.add(mk(2, 4, "Y", "PK1001"))));
  EXPECT_TRUE(bool(llvm::Error(FE.add(mk(4, 0, "z", "PK2001"))))) ;
}

// covers(): whether a replacement spans an offset (PK1033 asks it of every
// name it would report); insertions span nothing.
TEST(FileEdits, CoversTheOffsetsOfReplacementsOnly) {
  FileEdits FE;
  EXPECT_FALSE(FE.covers(0));
  ASSERT_FALSE(bool(FE.add(mk(4, 3, "X", "PK1001"))));    // [4, 7)
  ASSERT_FALSE(bool(FE.add(mk(10, 0, "<i>", "PK2001")))); // insertion
  ASSERT_FALSE(bool(FE.add(mk(12, 5, "Y", "PK1028"))));   // [12, 17)
  for (unsigned Off : {4u, 5u, 6u, 12u, 16u})
    EXPECT_TRUE(FE.covers(Off)) << Off;
  for (unsigned Off : {0u, 3u, 7u, 10u, 11u, 17u, 100u})
    EXPECT_FALSE(FE.covers(Off)) << Off;
}

TEST(EditSet, MergeByMoveTakesNewFilesAndChecksSharedOnes) {
  // Two translation units' edits: a file only the second edited is taken
  // as it is; a file both edited merges identical edits and reports a
  // conflicting one, as the copying merge does.
  auto In = [](std::string File, Edit E) {
    E.File = std::move(File);
    return E;
  };
  EditSet A, B;
  ASSERT_FALSE(bool(A.add(In("/a.cu", mk(0, 5, "HELLO", "PK1001")))));
  ASSERT_FALSE(bool(B.add(In("/a.cu", mk(0, 5, "HELLO", "PK1001")))));
  ASSERT_FALSE(bool(B.add(In("/a.cu", mk(6, 1, "W", "PK1002")))));
  ASSERT_FALSE(bool(B.add(In("/b.cu", mk(1, 1, "Z", "PK1003")))));
  ASSERT_FALSE(bool(A.merge(std::move(B))));
  EXPECT_TRUE(B.files().empty());
  ASSERT_TRUE(A.find("/a.cu"));
  ASSERT_TRUE(A.find("/b.cu"));
  EXPECT_EQ(A.find("/a.cu")->apply("hello world"), "HELLO World");
  EXPECT_EQ(A.find("/b.cu")->apply("abc"), "aZc");
  EditSet C;
  ASSERT_FALSE(bool(C.add(In("/a.cu", mk(2, 3, "x", "PK2001")))));
  llvm::Error E = A.merge(std::move(C));
  ASSERT_TRUE(bool(E));
  EXPECT_NE(llvm::toString(std::move(E)).find("PK2001"), std::string::npos);
}

TEST(RenderFile, FindingBecomesACommentAboveItsLineWithIndent) {
  std::string Src = "void f() {\n    int x = g();\n}\n";
  Finding F;
  F.RuleID = "PK2010";
  F.File = "/f.cu";
  F.Offset = Src.find("g()");
  F.Message = "look here";
  std::string Out = renderFile("/f.cu", Src, nullptr, {F});
  EXPECT_EQ(Out, "void f() {\n    // port-kernel: warning: look here [PK2010]\n"
                 "    int x = g();\n}\n");
}

TEST(RenderFile, FindingInAMultiLineMacroGoesAboveTheDefine) {
  std::string Src = "#define M(x) \\\n  foo(x)\nint y;\n";
  Finding F;
  F.RuleID = "PK1010";
  F.File = "/f.cu";
  F.Offset = Src.find("foo");
  F.Message = "m";
  std::string Out = renderFile("/f.cu", Src, nullptr, {F});
  EXPECT_EQ(Out.rfind("// port-kernel: warning: m [PK1010]\n#define M(x)", 0), 0u);
}

TEST(OutputName, TargetExtensions) {
  EXPECT_EQ(outputName("a/k.cu", Target::HIP), "a/k.hip");
  EXPECT_EQ(outputName("a/k.cuh", Target::HIP), "a/k.hpp");
  EXPECT_EQ(outputName("a/k.h", Target::HIP), "a/k.h");
  EXPECT_EQ(outputName("a/k.hip", Target::CUDA), "a/k.cu");
  EXPECT_EQ(outputName("a/k.cu", Target::CUDA), "a/k.cu");
}

// Rule files for the tests below, removed when the test program ends.
static std::string writeTemp(const std::string &Text) {
  static struct Files {
    std::vector<std::string> Paths;
    ~Files() {
      for (const std::string &P : Paths)
        llvm::sys::fs::remove(P);
    }
  } Made;
  llvm::SmallString<128> P;
  int FD;
  if (llvm::sys::fs::createTemporaryFile("rules", "yaml", FD, P))
    return "/nonexistent/rules.yaml";
  Made.Paths.push_back(P.str().str());
  llvm::raw_fd_ostream OS(FD, true);
  OS << Text;
  return P.str().str();
}

TEST(RenameDB, LoadsBothDirectionsAndHeaders) {
  RenameDB DB;
  std::string F = writeTemp("rule: PK8001\ntitle: t\nentries:\n"
                            "  - { cuda: cudaMalloc, hip: hipMalloc }\n"
                            "  - { cuda: cudaX, unsupported: \"no X\" }\n"
                            "  - { cuda: __nv_bfloat16, hip: hip_bfloat16, reverse: false }\n");
  std::string H = writeTemp("rule: PK8003\ntitle: h\nkind: header\nentries:\n"
                            "  - { cuda: cuda_runtime.h, hip: hip/hip_runtime.h }\n");
  ASSERT_FALSE(bool(DB.loadFile(F)));
  ASSERT_FALSE(bool(DB.loadFile(H)));
  ASSERT_TRUE(DB.lookup("cudaMalloc", true));
  EXPECT_EQ(DB.lookup("cudaMalloc", true)->Hip, "hipMalloc");
  EXPECT_EQ(DB.lookup("hipMalloc", false)->Hip, "cudaMalloc");
  EXPECT_EQ(DB.lookup("cudaX", true)->Unsupported, "no X");
  EXPECT_EQ(DB.lookup("hip_bfloat16", false), nullptr);
  EXPECT_EQ(DB.lookupHeader("cuda_runtime.h", true)->Hip, "hip/hip_runtime.h");
  EXPECT_EQ(DB.lookup("cudaMalloc", true)->RuleID, "PK8001");
}

TEST(RenameDB, ErrorsCarryFileAndLine) {
  RenameDB DB;
  std::string F = writeTemp("rule: PK8001\ntitle: t\nentries:\n  - { cuda: a, hip: b, unsupported: c }\n");
  llvm::Error E = DB.loadFile(F);
  ASSERT_TRUE(bool(E));
  std::string M = llvm::toString(std::move(E));
  EXPECT_NE(M.find(F + ":4:"), std::string::npos) << M;
  EXPECT_NE(M.find("both 'hip' and 'unsupported'"), std::string::npos) << M;

  RenameDB DB2;
  std::string G = writeTemp("rule: X1\ntitle: t\nentries: []\n");
  llvm::Error E2 = DB2.loadFile(G);
  ASSERT_TRUE(bool(E2));
  EXPECT_NE(llvm::toString(std::move(E2)).find("PKnnnn"), std::string::npos);

  RenameDB DB3;
  std::string D = writeTemp("rule: PK8001\ntitle: t\nentries:\n  - { cuda: a, hip: b }\n  - { cuda: a, hip: c }\n");
  llvm::Error E3 = DB3.loadFile(D);
  ASSERT_TRUE(bool(E3));
  EXPECT_NE(llvm::toString(std::move(E3)).find("already mapped"), std::string::npos);
}

TEST(RenameDB, UserTablesAreCheckedAgainstTheRuleTable) {
  auto Err = [](llvm::StringRef Text, bool BuiltIn = false) {
    RenameDB DB;
    llvm::Error E = DB.loadFile(writeTemp(Text.str()), BuiltIn);
    return E ? llvm::toString(std::move(E)) : std::string();
  };
  // A user table may not claim a built-in rule's ID.
  EXPECT_NE(Err("rule: PK1001\ntitle: t\nentries:\n  - { cuda: a, hip: b }\n")
                .find("already used by a built-in rule"),
            std::string::npos);
  // C++ keywords and non-identifiers are not API names.
  EXPECT_NE(Err("rule: PK8001\ntitle: t\nentries:\n  - { cuda: int, hip: long }\n")
                .find("C++ keyword"),
            std::string::npos);
  EXPECT_NE(Err("rule: PK8001\ntitle: t\nentries:\n  - { cuda: threadIdx, hip: \"\" }\n")
                .find("not an identifier"),
            std::string::npos);
  EXPECT_NE(Err("rule: PK8001\nentries:\n  - { cuda: a, hip: b }\n").find("needs a 'title'"),
            std::string::npos);
  // A built-in table names a rename row of the rule table; its title, if
  // written, is the table's.
  EXPECT_EQ(Err("rule: PK1001\nentries:\n  - { cuda: a, hip: b }\n", true), "");
  EXPECT_NE(Err("rule: PK2001\nentries:\n  - { cuda: a, hip: b }\n", true)
                .find("not a rename rule"),
            std::string::npos);
  EXPECT_NE(Err("rule: PK1001\ntitle: other\nentries:\n  - { cuda: a, hip: b }\n", true)
                .find("title differs"),
            std::string::npos);
  // Each rule ID has one table.
  RenameDB DB;
  ASSERT_FALSE(bool(DB.loadFile(writeTemp("rule: PK8001\ntitle: t\nentries:\n  - { cuda: a, hip: b }\n"))));
  llvm::Error E = DB.loadFile(writeTemp("rule: PK8001\ntitle: t\nentries:\n  - { cuda: c, hip: d }\n"));
  ASSERT_TRUE(bool(E));
  EXPECT_NE(llvm::toString(std::move(E)).find("each rule ID has one table"), std::string::npos);
}

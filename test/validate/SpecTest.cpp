//===- SpecTest.cpp - case.yaml parsing -----------------------------------===//

#include "pk/ValidateCase.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace pk::validate;

namespace {

const char *GoodSpec = R"(name: saxpy
source: saxpy.cu
entry: saxpy
reference: saxpy_ref
grid: [16, 1, 1]
block: [256, 1, 1]
shared_bytes: 0
args:
  - { name: y, type: float, count: 4096, init: uniform, lo: -1.0, hi: 1.0, seed: 1, output: true }
  - { name: x, type: float, count: 4096, init: uniform, lo: -1.0, hi: 1.0, seed: 2 }
  - { name: a, type: float, value: 2.5 }
  - { name: n, type: int, value: 4096 }
tolerance: { abs: 1.0e-5, rel: 1.0e-4 }
)";

/// Parses without touching the file system.
llvm::Expected<CaseSpec> parse(llvm::StringRef Text) {
  return parseCaseSpecText(Text, "case.yaml", "/nonexistent", /*CheckFiles=*/false);
}

std::string errorOf(llvm::StringRef Text) {
  auto S = parse(Text);
  if (S)
    return "<parsed>";
  return llvm::toString(S.takeError());
}

/// GoodSpec with one line replaced.
std::string withLine(llvm::StringRef From, llvm::StringRef To) {
  std::string S = GoodSpec;
  size_t P = S.find(From.str());
  EXPECT_NE(P, std::string::npos) << From.str();
  S.replace(P, From.size(), To.str());
  return S;
}

TEST(CaseSpec, ParsesTheDocumentedExample) {
  auto S = parse(GoodSpec);
  ASSERT_TRUE(!!S) << llvm::toString(S.takeError());
  EXPECT_EQ(S->Name, "saxpy");
  EXPECT_EQ(S->Source, "saxpy.cu");
  EXPECT_EQ(S->Entry, "saxpy");
  EXPECT_EQ(S->Reference, "saxpy_ref");
  EXPECT_EQ(S->ReferenceSource, "ref.cpp");
  EXPECT_EQ(S->Grid[0], 16u);
  EXPECT_EQ(S->Block[0], 256u);
  EXPECT_EQ(S->SharedBytes, 0u);
  ASSERT_EQ(S->Args.size(), 4u);
  const ArgSpec &Y = S->Args[0];
  EXPECT_EQ(Y.Name, "y");
  EXPECT_EQ(Y.Type, ElemType::Float);
  EXPECT_TRUE(Y.isBuffer());
  EXPECT_EQ(*Y.Count, 4096u);
  EXPECT_EQ(Y.init(), InitKind::Uniform);
  EXPECT_EQ(Y.lo(), -1.0);
  EXPECT_EQ(Y.hi(), 1.0);
  EXPECT_EQ(Y.seed(), 1u);
  EXPECT_TRUE(Y.isOutput());
  EXPECT_EQ(Y.Line, 9u);
  EXPECT_FALSE(S->Args[1].isOutput());
  EXPECT_FALSE(S->Args[2].isBuffer());
  EXPECT_EQ(S->Args[2].Number, 2.5);
  EXPECT_EQ(S->Args[3].Type, ElemType::Int);
  EXPECT_EQ(S->Args[3].Number, 4096.0);
  EXPECT_EQ(S->AbsTol, 1e-5);
  EXPECT_EQ(S->RelTol, 1e-4);
  EXPECT_EQ(S->sourcePath(), "/nonexistent/saxpy.cu");
  EXPECT_EQ(S->referencePath(), "/nonexistent/ref.cpp");
}

TEST(CaseSpec, DefaultsAndShortDims) {
  auto S = parse("name: t\nsource: t.cu\nentry: k<32, float>\nreference: r\n"
                 "grid: [3]\nblock: [32, 4]\n"
                 "args:\n  - { name: o, type: bf16, count: 8, output: true }\n"
                 "  - { name: s, type: unsigned, value: 0x10 }\n");
  ASSERT_TRUE(!!S) << llvm::toString(S.takeError());
  EXPECT_EQ(S->Entry, "k<32, float>");
  EXPECT_EQ(S->Grid[0], 3u);
  EXPECT_EQ(S->Grid[1], 1u);
  EXPECT_EQ(S->Grid[2], 1u);
  EXPECT_EQ(S->Block[1], 4u);
  EXPECT_EQ(S->Args[0].init(), InitKind::Zero);
  EXPECT_EQ(S->Args[1].Number, 16.0);
  EXPECT_EQ(S->AbsTol, 1e-5);
  EXPECT_EQ(S->RelTol, 1e-4);
}

TEST(CaseSpec, UnknownType) {
  EXPECT_EQ(errorOf(withLine("{ name: a, type: float, value: 2.5 }",
                             "{ name: a, type: flaot, value: 2.5 }")),
            "case.yaml:11:22: error: unknown type 'flaot' (expected float, double, "
            "int, unsigned, half, bf16 or uint8)");
}

TEST(CaseSpec, UnknownInit) {
  EXPECT_EQ(errorOf(withLine("count: 4096, init: uniform, lo: -1.0, hi: 1.0, seed: 2 }",
                             "count: 4096, init: random, lo: -1.0, hi: 1.0, seed: 2 }")),
            "case.yaml:10:48: error: unknown init 'random' (expected zero, uniform, "
            "iota or const)");
}

TEST(CaseSpec, MissingRequiredKey) {
  EXPECT_EQ(errorOf(withLine("entry: saxpy\n", "")),
            "case.yaml:1:1: error: missing required key 'entry'");
}

TEST(CaseSpec, UnknownKey) {
  EXPECT_EQ(errorOf(withLine("shared_bytes: 0", "shared_byte: 0")),
            "case.yaml:7:1: error: unknown key 'shared_byte'");
}

TEST(CaseSpec, ScalarWithoutValue) {
  EXPECT_EQ(errorOf(withLine("{ name: a, type: float, value: 2.5 }", "{ name: a, type: float }")),
            "case.yaml:11:7: error: argument 'a': a scalar needs 'value' (or give "
            "'count' for a buffer)");
}

TEST(CaseSpec, ScalarOutput) {
  EXPECT_EQ(errorOf(withLine("{ name: n, type: int, value: 4096 }",
                             "{ name: n, type: int, value: 4096, output: true }")),
            "case.yaml:12:7: error: argument 'n': a scalar cannot be an output");
}

TEST(CaseSpec, IntegerValueMustBeInteger) {
  EXPECT_EQ(errorOf(withLine("value: 4096 }", "value: 40.5 }")),
            "case.yaml:12:7: error: argument 'n': value '40.5' is not an integer");
}

TEST(CaseSpec, UnsignedRange) {
  EXPECT_EQ(errorOf(withLine("{ name: n, type: int, value: 4096 }",
                             "{ name: n, type: uint8, value: 300 }")),
            "case.yaml:12:7: error: argument 'n': value 300 is out of range for uint8");
}

TEST(CaseSpec, DuplicateArgument) {
  EXPECT_EQ(errorOf(withLine("{ name: a, type: float, value: 2.5 }",
                             "{ name: x, type: float, value: 2.5 }")),
            "case.yaml:11:7: error: duplicate argument name 'x'");
}

TEST(CaseSpec, ConstNeedsValue) {
  EXPECT_EQ(errorOf(withLine("init: uniform, lo: -1.0, hi: 1.0, seed: 1, output: true",
                             "init: const, output: true")),
            "case.yaml:9:7: error: argument 'y': init: const needs 'value'");
}

TEST(CaseSpec, LoAboveHi) {
  EXPECT_EQ(errorOf(withLine("lo: -1.0, hi: 1.0, seed: 2", "lo: 1.0, hi: -1.0, seed: 2")),
            "case.yaml:10:7: error: argument 'x': lo must not exceed hi");
}

TEST(CaseSpec, TooManyDims) {
  EXPECT_EQ(errorOf(withLine("grid: [16, 1, 1]", "grid: [16, 1, 1, 1]")),
            "case.yaml:5:18: error: at most 3 dimensions (x, y, z)");
}

TEST(CaseSpec, ZeroDim) {
  EXPECT_EQ(errorOf(withLine("block: [256, 1, 1]", "block: [256, 0, 1]")),
            "case.yaml:6:14: error: expected a positive integer, got '0'");
}

TEST(CaseSpec, TooManyThreads) {
  EXPECT_EQ(errorOf(withLine("block: [256, 1, 1]", "block: [256, 8, 1]")),
            "case.yaml:6:1: error: a block has at most 1024 threads (this one has 2048)");
}

TEST(CaseSpec, NoOutput) {
  EXPECT_EQ(errorOf(withLine("seed: 1, output: true }", "seed: 1 }")),
            "case.yaml:8:1: error: no argument has output: true");
}

TEST(CaseSpec, BadEntry) {
  EXPECT_EQ(errorOf(withLine("entry: saxpy", "entry: 2saxpy")),
            "case.yaml:3:8: error: invalid entry '2saxpy' (expected a kernel name, "
            "optionally with template arguments)");
}

TEST(CaseSpec, NegativeTolerance) {
  EXPECT_EQ(errorOf(withLine("abs: 1.0e-5", "abs: -1.0")),
            "case.yaml:13:14: error: tolerances must be non-negative");
}

TEST(CaseSpec, Empty) {
  EXPECT_EQ(errorOf("  \n"), "case.yaml:1:1: error: empty case spec");
}

TEST(CaseSpec, NotAMapping) {
  EXPECT_EQ(errorOf("- 1\n- 2\n"), "case.yaml:1:1: error: not a mapping");
}

/// A scratch case directory with a kernel and a reference.
class CaseDir : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("pkv-spec", Dir));
    write("saxpy.cu", "__global__ void saxpy(float *y, const float *x, float a, int n) {}\n");
    write("ref.cpp", "void saxpy_ref(float *y, const float *x, float a, int n) {}\n");
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }
  void write(llvm::StringRef Name, llvm::StringRef Text) {
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::append(P, Name);
    std::error_code EC;
    llvm::raw_fd_ostream OS(P, EC);
    OS << Text;
  }
  std::string check(llvm::StringRef Text) {
    auto S = parseCaseSpecText(Text, "case.yaml", Dir, true);
    return S ? "<parsed>" : llvm::toString(S.takeError());
  }
  llvm::SmallString<256> Dir;
};

TEST_F(CaseDir, FilesPresent) { EXPECT_EQ(check(GoodSpec), "<parsed>"); }

TEST_F(CaseDir, MissingSource) {
  EXPECT_EQ(check(withLine("source: saxpy.cu", "source: saxpi.cu")),
            "case.yaml:2:9: error: cannot read 'saxpi.cu' in the case directory: "
            "No such file or directory");
}

TEST_F(CaseDir, EntryNotInSource) {
  EXPECT_EQ(check(withLine("entry: saxpy", "entry: daxpy")),
            "case.yaml:3:8: error: entry 'daxpy' does not appear in the kernel source");
}

TEST_F(CaseDir, ReferenceNotInRefCpp) {
  EXPECT_EQ(check(withLine("reference: saxpy_ref", "reference: saxpy_cpu")),
            "case.yaml:4:12: error: reference 'saxpy_cpu' does not appear in the "
            "reference source");
}

TEST_F(CaseDir, MissingRefCpp) {
  llvm::SmallString<256> P(Dir);
  llvm::sys::path::append(P, "ref.cpp");
  llvm::sys::fs::remove(P);
  EXPECT_EQ(check(GoodSpec),
            "case.yaml:4:12: error: cannot read 'ref.cpp' in the case directory: "
            "No such file or directory");
}

TEST(CaseSpec, EveryCorpusCaseParses) {
  auto Specs = findCaseSpecs({PKV_CORPUS_DIR});
  ASSERT_TRUE(!!Specs) << llvm::toString(Specs.takeError());
  EXPECT_GE(Specs->size(), 14u);
  for (const std::string &P : *Specs) {
    auto S = parseCaseSpecFile(P);
    ASSERT_TRUE(!!S) << llvm::toString(S.takeError());
    EXPECT_EQ(S->Name, llvm::sys::path::filename(S->Dir)) << P;
    EXPECT_TRUE(llvm::any_of(S->Args, [](const ArgSpec &A) { return A.isOutput(); }));
  }
}

TEST(CaseSpec, FindCaseSpecsAcceptsCaseDirsAndFiles) {
  std::string Corpus = PKV_CORPUS_DIR;
  auto A = findCaseSpecs({Corpus + "/saxpy", Corpus + "/saxpy/case.yaml"});
  ASSERT_TRUE(!!A) << llvm::toString(A.takeError());
  EXPECT_EQ(A->size(), 1u); // both spell the same case.yaml
  auto B = findCaseSpecs({Corpus + "/no-such-dir"});
  EXPECT_FALSE(!!B);
  llvm::consumeError(B.takeError());
}

} // namespace

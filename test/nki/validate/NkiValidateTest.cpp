//===- NkiValidateTest.cpp - `validate --to nki` end to end ---------------===//
//
// runValidate with the NKI target over corpus cases, with hand-written NKI
// outputs (outputs/<stem>.py) standing in for the translator's: the NKI
// runner, the reference driver, the comparison, the table, the JSON and the
// exit status; a wrong kernel (wrong/) is a mismatch and a kernel that was
// not lifted is reported as such with its diagnostic.

#include "FakePortService.h"
#include "pk/NKIRun.h"
#include "pk/Validate.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"

using namespace pk;

namespace {

/// The stand-in translator, whose NKI "port" of a source copies DIR/<stem>.py
/// when there is one and otherwise writes an output with nothing lifted.
class HandWrittenNki : public test::FakePortService {
public:
  explicit HandWrittenNki(std::string Dir) : Dir(std::move(Dir)) {}

  llvm::Error portFiles(llvm::ArrayRef<std::string> Inputs, Target T,
                        llvm::StringRef OutDir,
                        std::vector<std::string> &OutPaths) override {
    if (!validate::runsOnNkiSimulator(T))
      return FakePortService::portFiles(Inputs, T, OutDir, OutPaths);
    for (const std::string &In : Inputs) {
      std::string Stem = llvm::sys::path::stem(In).str();
      llvm::SmallString<256> Src(Dir), Dst(OutDir);
      llvm::sys::path::append(Src, Stem + ".py");
      llvm::sys::path::append(Dst, Stem + ".py");
      llvm::sys::fs::create_directories(OutDir);
      if (llvm::sys::fs::exists(Src)) {
        if (std::error_code EC = llvm::sys::fs::copy_file(Src, Dst))
          return llvm::createStringError(EC, "cannot copy " + Src);
      } else {
        std::error_code EC;
        llvm::raw_fd_ostream OS(Dst, EC);
        OS << "import nki\n"
           << "# " << In << ":1:1: warning: kernel not lifted: no "
           << "hand-written NKI output [PK5099]\n"
           << "PK_KERNELS = {}\n";
      }
      OutPaths.push_back(std::string(Dst));
    }
    return llvm::Error::success();
  }

private:
  std::string Dir;
};

EmuToolchain mockToolchain() {
  EmuToolchain TC;
  TC.ClangXX = PKV_CLANGXX;
  TC.CompileFlags = {"-I" PKV_MOCK_EMU, "-w"};
  return TC;
}

struct Result {
  int Code = 0;
  std::string Out, Err;
  llvm::json::Value Json = nullptr;
};

Result validateNki(std::vector<std::string> Cases, std::string OutputsDir,
                   bool Json, unsigned TimeoutSec = 0) {
  Result R;
  std::optional<Target> Nki = findTarget("nki");
  if (!Nki)
    return R;
  ValidateOptions O;
  O.Targets = {*Nki};
  for (const std::string &C : Cases)
    O.Paths.push_back(std::string(PKV_CORPUS_DIR) + "/" + C);
  O.Json = Json;
  O.Jobs = 2;
  if (TimeoutSec)
    O.TimeoutSec = TimeoutSec;
  HandWrittenNki PS(std::move(OutputsDir));
  llvm::raw_string_ostream Out(R.Out), Err(R.Err);
  R.Code = runValidate(O, mockToolchain(), PS, Out, Err);
  Out.flush();
  Err.flush();
  if (Json) {
    auto J = llvm::json::parse(R.Out);
    EXPECT_TRUE(!!J) << R.Out;
    if (J)
      R.Json = std::move(*J);
    else
      llvm::consumeError(J.takeError());
  }
  return R;
}

/// The nki cell of case \p Name.
const llvm::json::Object *nkiCell(const llvm::json::Value &Doc,
                                  llvm::StringRef Name) {
  for (const llvm::json::Value &C :
       *Doc.getAsObject()->getArray("cases")) {
    const llvm::json::Object *CO = C.getAsObject();
    if (CO->getString("name") != Name)
      continue;
    for (const llvm::json::Value &Cell : *CO->getArray("results"))
      if (Cell.getAsObject()->getString("variant") == "nki")
        return Cell.getAsObject();
  }
  return nullptr;
}

#define NEED_NKI_TARGET()                                                      \
  if (!findTarget("nki"))                                                      \
  GTEST_SKIP() << "no nki target in pk/TargetList.def"

TEST(NkiValidate, HandWrittenOutputsPassWithOperationCounts) {
  NEED_NKI_TARGET();
  Result R = validateNki({"saxpy", "warp_softmax"}, PKV_NKI_OUTPUTS, true);
  const llvm::json::Object *S = nkiCell(R.Json, "saxpy");
  const llvm::json::Object *W = nkiCell(R.Json, "warp_softmax");
  ASSERT_TRUE(S && W) << R.Out;
  EXPECT_EQ(S->getString("status"), "pass") << R.Out;
  EXPECT_EQ(W->getString("status"), "pass") << R.Out;
  // saxpy, n = 3000: one tile of 5 rows of 512 and a tail of 440 (5 ops each);
  // warp_softmax, 37 rows: one tile of 8 ops.
  EXPECT_EQ(S->getInteger("nki_ops"), 10);
  EXPECT_EQ(W->getInteger("nki_ops"), 8);
  const llvm::json::Array *Outs = S->getArray("outputs");
  ASSERT_TRUE(Outs && Outs->size() == 1);
  EXPECT_EQ((*Outs)[0].getAsObject()->getInteger("count"), 3000);
  EXPECT_EQ((*Outs)[0].getAsObject()->getInteger("mismatches"), 0);
}

TEST(NkiValidate, HalfBuffersAndLaunchDimensions) {
  NEED_NKI_TARGET();
  // rmsnorm: half in and out (the reference driver's pk_half), the row count
  // from grid_x, per-partition operands.
  Result R = validateNki({"rmsnorm"}, PKV_NKI_OUTPUTS, true);
  const llvm::json::Object *C = nkiCell(R.Json, "rmsnorm");
  ASSERT_TRUE(C) << R.Out;
  EXPECT_EQ(C->getString("status"), "pass") << R.Out;
  // 6 rows: 1 DMA in, 6 weight-row DMAs, 7 compute operations, 1 DMA out.
  EXPECT_EQ(C->getInteger("nki_ops"), 15);
}

TEST(NkiValidate, Bf16BuffersAndAMatmulInPsum) {
  NEED_NKI_TARGET();
  // wmma_bf16_gemm: bf16 inputs (the reference driver's pk_bf16), an output
  // that is only written (role out), nc_transpose and nc_matmul.
  Result R = validateNki({"wmma_bf16_gemm"}, PKV_NKI_OUTPUTS, true);
  const llvm::json::Object *C = nkiCell(R.Json, "wmma_bf16_gemm");
  ASSERT_TRUE(C) << R.Out;
  EXPECT_EQ(C->getString("status"), "pass") << R.Out;
  // One 64 x 32 tile, one K tile: 2 DMAs, 2 transposes, 2 evictions, 1
  // matmul, 1 scaling, 1 DMA out.
  EXPECT_EQ(C->getInteger("nki_ops"), 9);
}

TEST(NkiValidate, TableHasAnNkiColumnAndTheOperationCounts) {
  NEED_NKI_TARGET();
  Result R = validateNki({"saxpy"}, PKV_NKI_OUTPUTS, false);
  EXPECT_NE(R.Out.find("nki"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("(nki: traced operations per kernel: saxpy 10)"),
            std::string::npos)
      << R.Out;
}

TEST(NkiValidate, AWrongKernelIsAMismatch) {
  NEED_NKI_TARGET();
  Result R = validateNki({"saxpy"}, PKV_NKI_WRONG, true);
  EXPECT_EQ(R.Code, 1);
  const llvm::json::Object *S = nkiCell(R.Json, "saxpy");
  ASSERT_TRUE(S) << R.Out;
  EXPECT_EQ(S->getString("status"), "fail");
  EXPECT_EQ(S->getString("kind"), "mismatch");
  // The first element of the unscaled tail: 5 * 512.
  EXPECT_NE(S->getString("reason")->find("y[2560]"), llvm::StringRef::npos)
      << R.Out;
  EXPECT_NE(S->getString("reason")->find("440 of 3000 differ"),
            llvm::StringRef::npos)
      << R.Out;
}

TEST(NkiValidate, AKernelThatNeverEndsTimesOut) {
  NEED_NKI_TARGET();
  Result R = validateNki({"saxpy"}, PKV_NKI_SLOW, true, /*TimeoutSec=*/20);
  EXPECT_EQ(R.Code, 1);
  const llvm::json::Object *S = nkiCell(R.Json, "saxpy");
  ASSERT_TRUE(S) << R.Out;
  EXPECT_EQ(S->getString("kind"), "timeout") << R.Out;
  EXPECT_LT(*S->getNumber("seconds"), 60) << R.Out;
}

TEST(NkiValidate, AKernelThatWasNotLiftedIsReportedWithItsDiagnostic) {
  NEED_NKI_TARGET();
  Result R = validateNki({"histogram"}, PKV_NKI_OUTPUTS, false);
  EXPECT_EQ(R.Code, 1);
  EXPECT_NE(R.Out.find("FAIL not-lifted"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("not lifted: kernel 'histogram"), std::string::npos)
      << R.Out;
  EXPECT_NE(R.Out.find("no hand-written NKI output [PK5099]"),
            std::string::npos)
      << R.Out;
}

/// Counts the harness's port requests.
class CountingNki : public HandWrittenNki {
public:
  using HandWrittenNki::HandWrittenNki;
  unsigned MultiCalls = 0;
  std::vector<Target> MultiTargets;
  llvm::Error
  portFilesToTargets(llvm::ArrayRef<std::string> Inputs,
                     llvm::ArrayRef<Target> Targets,
                     llvm::ArrayRef<std::string> OutDirs,
                     std::vector<std::vector<std::string>> &OutPaths) override {
    ++MultiCalls;
    MultiTargets = Targets.vec();
    return HandWrittenNki::portFilesToTargets(Inputs, Targets, OutDirs,
                                              OutPaths);
  }
};

TEST(NkiValidate, EveryTargetOfACaseIsPortedByOneRequest) {
  // With the nki target: cuda and nki; without it: cuda and hip.
  ValidateOptions O;
  std::optional<Target> Nki = findTarget("nki");
  O.Targets = {Target::CUDA, Nki ? *Nki : Target::HIP};
  O.Paths = {std::string(PKV_CORPUS_DIR) + "/saxpy"};
  O.Json = true;
  O.Jobs = 2;
  CountingNki PS(PKV_NKI_OUTPUTS);
  PS.AllowHip = true;
  std::string Out, Err;
  llvm::raw_string_ostream OS(Out), ES(Err);
  runValidate(O, mockToolchain(), PS, OS, ES);
  OS.flush();
  EXPECT_EQ(PS.MultiCalls, 1u);
  EXPECT_EQ(PS.MultiTargets, O.Targets);
  auto J = llvm::json::parse(Out);
  ASSERT_TRUE(!!J) << Out;
  // The outputs of that one request are the ones the cells ran (the stand-in
  // emulator builds CUDA only, so the hip cell's build is not checked).
  const llvm::json::Array *Cells =
      (*J->getAsObject()->getArray("cases"))[0].getAsObject()->getArray(
          "results");
  for (const llvm::json::Value &C : *Cells) {
    llvm::StringRef V = *C.getAsObject()->getString("variant");
    if (V == "hip")
      continue;
    EXPECT_EQ(C.getAsObject()->getString("status"), "pass") << V.str() << Out;
  }
}

TEST(NkiValidate, KernelNames) {
  EXPECT_EQ(validate::nkiKernelName("sgemm_tiled<16>"), "sgemm_tiled");
  EXPECT_EQ(validate::nkiKernelName("ns::k"), "k");
  EXPECT_EQ(validate::nkiKernelName("saxpy"), "saxpy");
}

} // namespace

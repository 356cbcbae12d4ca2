//===- HarnessTest.cpp - runValidate end to end ---------------------------===//
//
// Runs the harness over test/validate/cases with the stand-in translator and
// a serial stand-in for the emulator (mock_emu/), so these tests exercise
// porting, preparation, driver generation, compilation, running, result
// parsing and reporting without the real emulator.

#include "FakePortService.h"
#include "Process.h"
#include "pk/Validate.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <sys/resource.h>
#include <thread>

using namespace pk;

namespace {

EmuToolchain mockToolchain() {
  EmuToolchain TC;
  TC.ClangXX = PKV_CLANGXX;
  TC.CompileFlags = {"-I" PKV_TEST_DIR "/mock_emu", "-w"};
  return TC;
}

struct RunResult {
  int Code;
  std::string Out, Err;
  llvm::json::Value Json = nullptr;
};

RunResult runIt(const ValidateOptions &O, test::FakePortService &PS) {
  RunResult R;
  llvm::raw_string_ostream Out(R.Out), Err(R.Err);
  R.Code = runValidate(O, mockToolchain(), PS, Out, Err);
  Out.flush();
  Err.flush();
  if (O.Json) {
    auto J = llvm::json::parse(R.Out);
    EXPECT_TRUE(!!J) << R.Out;
    if (J)
      R.Json = std::move(*J);
    else
      llvm::consumeError(J.takeError());
  }
  return R;
}

const llvm::json::Object *cell(const llvm::json::Value &Doc, llvm::StringRef Case,
                               llvm::StringRef Variant) {
  const llvm::json::Object *D = Doc.getAsObject();
  if (!D)
    return nullptr;
  const llvm::json::Array *Rows = D->getArray("cases") ? D->getArray("cases") : D->getArray("programs");
  if (!Rows)
    return nullptr;
  for (const llvm::json::Value &R : *Rows) {
    const llvm::json::Object *RO = R.getAsObject();
    if (!RO || RO->getString("name") != Case)
      continue;
    for (const llvm::json::Value &C : *RO->getArray("results"))
      if (C.getAsObject()->getString("variant") == Variant)
        return C.getAsObject();
  }
  return nullptr;
}

std::string field(const llvm::json::Object *O, llvm::StringRef K) {
  if (!O)
    return "<no cell>";
  auto S = O->getString(K);
  return S ? S->str() : "";
}

TEST(Harness, KernelCasesAgainstStandIn) {
  test::FakePortService PS;
  ValidateOptions O;
  O.Paths = {PKV_TEST_DIR "/cases"};
  O.Targets = {Target::CUDA, Target::HIP}; // the stand-in refuses hip
  O.Json = true;
  O.Jobs = 2;
  RunResult R = runIt(O, PS);
  EXPECT_EQ(R.Code, 1) << R.Out << R.Err;

  EXPECT_EQ(field(cell(R.Json, "m_pass", "original"), "status"), "pass") << R.Out;
  EXPECT_EQ(field(cell(R.Json, "m_pass", "cuda"), "status"), "pass") << R.Out;
  EXPECT_EQ(field(cell(R.Json, "m_half", "original"), "status"), "pass") << R.Out;

  const llvm::json::Object *Refused = cell(R.Json, "m_pass", "hip");
  EXPECT_EQ(field(Refused, "status"), "fail");
  EXPECT_EQ(field(Refused, "kind"), "port");
  EXPECT_EQ(field(Refused, "reason"), "port failed: error: this stand-in does not port to hip");

  const llvm::json::Object *Mis = cell(R.Json, "m_mismatch", "original");
  EXPECT_EQ(field(Mis, "kind"), "mismatch");
  EXPECT_EQ(field(Mis, "reason").rfind("mismatch: out[37] = ", 0), 0u) << field(Mis, "reason");
  EXPECT_NE(field(Mis, "reason").find("; 1 of 64 differ"), std::string::npos);

  const llvm::json::Object *Trap = cell(R.Json, "m_trap", "cuda");
  EXPECT_EQ(field(Trap, "kind"), "emulator");
  EXPECT_EQ(field(Trap, "reason"), "emulator: trap in block (0,0,0) thread (5,0,0)");
  EXPECT_EQ(field(Trap, "detail"),
            "pkemu: error: trap in block (0,0,0) thread (5,0,0)\n  note: reached __trap()");

  const llvm::json::Object *Comp = cell(R.Json, "m_compile_error", "original");
  EXPECT_EQ(field(Comp, "kind"), "compile");
  EXPECT_NE(field(Comp, "reason").find("expected ';'"), std::string::npos)
      << field(Comp, "reason");

  auto *Doc = R.Json.getAsObject();
  ASSERT_TRUE(Doc);
  EXPECT_EQ(Doc->getBoolean("ok"), false);
  EXPECT_EQ(Doc->getObject("summary")->getInteger("passed"), 4);
}

TEST(Harness, TableForPassingCase) {
  test::FakePortService PS;
  ValidateOptions O;
  O.Paths = {PKV_TEST_DIR "/cases/m_pass"};
  O.Targets = {Target::CUDA};
  RunResult R = runIt(O, PS);
  EXPECT_EQ(R.Code, 0) << R.Out << R.Err;
  EXPECT_NE(R.Out.find("case    original (32)         cuda (32)"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("m_pass  PASS 0.0e+00/0.0e+00  PASS 0.0e+00/0.0e+00"), std::string::npos)
      << R.Out;
  EXPECT_NE(R.Out.find("2 passed, 0 failed (1 case x 2 variants)"), std::string::npos) << R.Out;
}

TEST(Harness, KeepWorkLeavesGeneratedFiles) {
  test::FakePortService PS;
  llvm::SmallString<256> Work;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("pkv-work", Work));
  ValidateOptions O;
  O.Paths = {PKV_TEST_DIR "/cases/m_pass"};
  O.WorkDir = std::string(Work);
  RunResult R = runIt(O, PS);
  EXPECT_EQ(R.Code, 0) << R.Out << R.Err;
  for (const char *F : {"/pkv_rt.h", "/m_pass/original/driver.cpp",
                        "/m_pass/original/prep/m_pass.cu", "/m_pass/original/prep/scale.cuh",
                        "/m_pass/original/compile.cmd", "/m_pass/original/run.out"})
    EXPECT_TRUE(llvm::sys::fs::exists(std::string(Work) + F)) << F;
  llvm::sys::fs::remove_directories(Work);
}

TEST(Harness, CacheDirReusesObjectsAcrossScratchDirectories) {
  test::FakePortService PS;
  llvm::SmallString<256> Base;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("pkv-cache", Base));
  std::string Cache = std::string(Base) + "/cache";
  auto readFile = [](const std::string &P) {
    auto B = llvm::MemoryBuffer::getFile(P);
    return B ? (*B)->getBuffer().str() : std::string("<missing>");
  };
  for (const char *Run : {"/a", "/b"}) {
    ValidateOptions O;
    O.Paths = {PKV_TEST_DIR "/cases/m_pass"};
    O.Targets = {Target::CUDA};
    O.WorkDir = std::string(Base) + Run;
    O.CacheDir = Cache;
    RunResult R = runIt(O, PS);
    EXPECT_EQ(R.Code, 0) << R.Out << R.Err;
    std::string Log = readFile(O.WorkDir + "/m_pass/original/compile.log");
    bool Reused = Log.find("reused from " + Cache) != std::string::npos;
    // The first run compiles and stores; the second, in another scratch
    // directory, takes the object the first one stored.
    EXPECT_EQ(Reused, std::string(Run) == "/b") << Run << ": " << Log;
    // The second run linked nothing: the program was stored too.
    if (std::string(Run) == "/b")
      EXPECT_NE(Log.find("program "), std::string::npos) << Log;
    EXPECT_FALSE(llvm::sys::fs::exists(O.WorkDir + "/m_pass/original/driver.ii"));
  }
  llvm::sys::fs::remove_directories(Base);
}

TEST(Harness, CacheDirReusesObjectsAcrossSourceDirectories) {
  // The same program in two directories: the second build takes the first
  // one's object (the source and cell directories are recorded as /@pk-src@
  // and /@pk-cell@), and what the reused program prints about its source
  // names the second run's directories.
  test::FakePortService PS;
  llvm::SmallString<256> Base;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("pkv-cache-src", Base));
  std::string Cache = std::string(Base) + "/cache";
  auto readFile = [](const std::string &P) {
    auto B = llvm::MemoryBuffer::getFile(P);
    return B ? (*B)->getBuffer().str() : std::string("<missing>");
  };
  for (const char *Dir : {"/one", "/two"}) {
    std::string Src = std::string(Base) + Dir;
    ASSERT_FALSE(llvm::sys::fs::create_directories(Src));
    std::ofstream P(Src + "/where.cu");
    P << "#include <cuda_runtime.h>\n#include <cstdio>\n"
         "__global__ void k(int *p) { p[threadIdx.x] = 1; }\n"
         "int main() {\n  int *d = nullptr;\n"
         "  cudaMalloc((void **)&d, 32 * sizeof(int));\n"
         "  k<<<1, 32>>>(d);\n  cudaDeviceSynchronize();\n"
         "  std::printf(\"built from %s\\n\", __FILE__);\n  return 0;\n}\n";
  }
  for (const char *Dir : {"/one", "/two"}) {
    std::string Src = std::string(Base) + Dir;
    ValidateOptions O;
    O.Program = true;
    O.ProgramFile = Src + "/where.cu";
    O.Targets = {Target::CUDA};
    O.WorkDir = std::string(Base) + "/work" + Dir;
    O.CacheDir = Cache;
    RunResult R = runIt(O, PS);
    EXPECT_EQ(R.Code, 0) << R.Out << R.Err;
    std::string Log = readFile(O.WorkDir + "/where/original/compile.log");
    EXPECT_EQ(Log.find("reused from " + Cache) != std::string::npos,
              std::string(Dir) == "/two")
        << Dir << ": " << Log;
    // (The stand-in translator writes no #line: __FILE__ is the prepared
    // copy in this run's cell directory.)
    std::string Printed = readFile(O.WorkDir + "/where/original/run.out");
    EXPECT_NE(Printed.find("built from " + O.WorkDir +
                           "/where/original/prep/where.cu"),
              std::string::npos)
        << Dir << ": " << Printed;
    EXPECT_EQ(Printed.find("/@pk-"), std::string::npos) << Printed;
  }
  llvm::sys::fs::remove_directories(Base);
}

TEST(Harness, IdenticalPortSharesTheOriginalsObject) {
  // A CUDA port byte-identical to its source builds what the original
  // builds: validated in parallel, one of the two compiles and the other
  // takes its program (the other waits while the first compiles). A port
  // that differs by one line, or that leaves a file of its own beside its
  // outputs, compiles on its own.
  auto readFile = [](const std::string &P) {
    auto B = llvm::MemoryBuffer::getFile(P);
    return B ? (*B)->getBuffer().str() : std::string("<missing>");
  };
  for (int Kind : {0, 1, 2}) {
    const bool Differs = Kind != 0;
    llvm::SmallString<256> Base;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("pkv-same-port", Base));
    test::FakePortService PS;
    // Each prepared file names its input (#line): the original's the
    // user's file, the port's its copy, which only an identical tree may
    // stand for.
    PS.LineDirectives = true;
    if (Kind == 1)
      PS.CudaPortSuffix = "\n// the port differs\n";
    PS.CudaPortExtraFile = Kind == 2;
    ValidateOptions O;
    O.Program = true;
    O.ProgramFile = PKV_TEST_DIR "/programs/prog_ok.cu";
    O.Targets = {Target::CUDA};
    O.Jobs = 2;
    O.WorkDir = std::string(Base) + "/work";
    O.CacheDir = std::string(Base) + "/cache";
    RunResult R = runIt(O, PS);
    EXPECT_EQ(R.Code, 0) << R.Out << R.Err;
    unsigned Reused = 0;
    for (const char *V : {"original", "cuda"})
      Reused += readFile(O.WorkDir + "/prog_ok/" + V + "/compile.log")
                    .find("reused from " + O.CacheDir) != std::string::npos;
    EXPECT_EQ(Reused, Differs ? 0u : 1u) << "kind " << Kind;
    llvm::sys::fs::remove_directories(Base);
  }
}

TEST(Harness, ProgramRunsInAFreshDirectoryWithACopyOfItsOwn) {
  // The program reads ./data.txt from its own directory and writes
  // ./out.txt and ./data.txt: each variant reads the file, and neither the
  // caller's directory nor the program's is written.
  llvm::SmallString<256> Base;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("pkv-files", Base));
  std::string Src = std::string(Base) + "/src", Caller = std::string(Base) + "/caller";
  ASSERT_FALSE(llvm::sys::fs::create_directories(Src));
  ASSERT_FALSE(llvm::sys::fs::create_directories(Caller));
  ASSERT_FALSE(llvm::sys::fs::copy_file(PKV_TEST_DIR "/programs/prog_hostile.cu",
                                        Src + "/prog.cu"));
  {
    std::ofstream D(Src + "/data.txt");
    D << "input data\n";
  }
  llvm::SmallString<256> Was;
  ASSERT_FALSE(llvm::sys::fs::current_path(Was));
  ASSERT_FALSE(llvm::sys::fs::set_current_path(Caller));
  test::FakePortService PS;
  ValidateOptions O;
  O.Program = true;
  O.ProgramFile = Src + "/prog.cu";
  O.ProgramArgs = {"files"};
  O.Targets = {Target::CUDA};
  RunResult R = runIt(O, PS);
  ASSERT_FALSE(llvm::sys::fs::set_current_path(Was));
  EXPECT_EQ(R.Code, 0) << R.Out << R.Err;
  auto readFile = [](const std::string &P) {
    auto B = llvm::MemoryBuffer::getFile(P);
    return B ? (*B)->getBuffer().str() : std::string("<missing>");
  };
  EXPECT_EQ(readFile(Src + "/data.txt"), "input data\n");
  EXPECT_FALSE(llvm::sys::fs::exists(Src + "/out.txt"));
  std::error_code EC;
  llvm::sys::fs::directory_iterator I(Caller, EC);
  EXPECT_TRUE(!EC && I == llvm::sys::fs::directory_iterator())
      << "written to the caller's directory: " << I->path();
  llvm::sys::fs::remove_directories(Base);
}

TEST(Harness, ProgramHeapReusesFreedPages) {
  // A program that frees a buffer of 256 MiB and allocates another reuses
  // the freed pages (GLIBC_TUNABLES set by the runner): the second fill
  // takes almost no page faults, where glibc's default gives it a fresh
  // mapping to fault in and zero again.
  test::FakePortService PS;
  ValidateOptions O;
  O.Program = true;
  O.ProgramFile = PKV_TEST_DIR "/programs/prog_hostile.cu";
  O.ProgramArgs = {"heap-reuse"};
  O.Targets = {};
  O.Json = true;
  RunResult R = runIt(O, PS);
  EXPECT_EQ(R.Code, 0) << R.Out << R.Err;
  EXPECT_EQ(field(cell(R.Json, "prog_hostile.cu", "original"), "status"), "pass")
      << R.Out << R.Err;
}

TEST(Harness, ProgressLinesFollowTheTableOrder) {
  // The original sleeps, so its port finishes first: the progress lines
  // still come in the order of the table.
  test::FakePortService PS;
  ValidateOptions O;
  O.Program = true;
  O.ProgramFile = PKV_TEST_DIR "/programs/prog_hostile.cu";
  O.ProgramArgs = {"slow-original"};
  O.Targets = {Target::CUDA};
  O.Jobs = 2;
  RunResult R = runIt(O, PS);
  EXPECT_EQ(R.Code, 0) << R.Out << R.Err;
  size_t First = R.Err.find("[1/2] prog_hostile.cu (original): PASS");
  size_t Second = R.Err.find("[2/2] prog_hostile.cu (cuda): PASS");
  EXPECT_NE(First, std::string::npos) << R.Err;
  EXPECT_NE(Second, std::string::npos) << R.Err;
  EXPECT_LT(First, Second) << R.Err;
}

TEST(Harness, BadSpecIsReported) {
  llvm::SmallString<256> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("pkv-bad", Dir));
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(std::string(Dir) + "/case.yaml", EC);
    OS << "name: bad\nsource: k.cu\n";
  }
  test::FakePortService PS;
  ValidateOptions O;
  O.Paths = {std::string(Dir)};
  RunResult R = runIt(O, PS);
  EXPECT_EQ(R.Code, 1);
  EXPECT_NE(R.Err.find("case.yaml:2:9: error: cannot read 'k.cu' in the case directory"),
            std::string::npos)
      << R.Err;
  llvm::sys::fs::remove_directories(Dir);
}

TEST(Harness, ProgramMode) {
  test::FakePortService PS;
  ValidateOptions O;
  O.Program = true;
  O.ProgramFile = PKV_TEST_DIR "/programs/prog_ok.cu";
  O.Targets = {Target::CUDA};
  O.ProgramArgs = {"5"};
  O.Json = true;
  RunResult R = runIt(O, PS);
  EXPECT_EQ(R.Code, 0) << R.Out << R.Err;
  EXPECT_EQ(field(cell(R.Json, "prog_ok.cu", "original"), "status"), "pass") << R.Out;
  EXPECT_EQ(field(cell(R.Json, "prog_ok.cu", "cuda"), "status"), "pass") << R.Out;

  O.ProgramArgs = {"13"};
  O.Targets = {};
  R = runIt(O, PS);
  EXPECT_EQ(R.Code, 1);
  EXPECT_EQ(field(cell(R.Json, "prog_ok.cu", "original"), "reason"), "exit status 1");
  EXPECT_EQ(cell(R.Json, "prog_ok.cu", "cuda"), nullptr);
}

TEST(Harness, LanesSetsTheWarpSizeEnvironment) {
  test::FakePortService PS;
  ValidateOptions O;
  O.Program = true;
  O.ProgramFile = PKV_TEST_DIR "/programs/prog_ok.cu";
  O.Lanes = 64;
  O.ProgramArgs = {"5", "64"};
  O.Json = true;
  RunResult R = runIt(O, PS);
  EXPECT_EQ(R.Code, 0) << R.Out << R.Err;
  O.Lanes = 0;
  R = runIt(O, PS);
  EXPECT_EQ(R.Code, 1) << "PKEMU_WARP_SIZE must be unset when Lanes is 0";
}

// --timeout 0 (no limit) turns the emulator's per-launch limit off too
// (PKEMU_TIMEOUT_S=0), instead of leaving its default of 20 s; a limit
// gives the emulator a little less than the run has.
TEST(Harness, NoTimeoutTurnsTheEmulatorsLimitOff) {
  test::FakePortService PS;
  ValidateOptions O;
  O.Program = true;
  O.ProgramFile = PKV_TEST_DIR "/programs/prog_ok.cu";
  O.TimeoutSec = 0;
  O.ProgramArgs = {"5", "-", "0"};
  O.Json = true;
  RunResult R = runIt(O, PS);
  EXPECT_EQ(R.Code, 0) << R.Out << R.Err;
  O.TimeoutSec = 100;
  O.ProgramArgs = {"5", "-", "0"};
  R = runIt(O, PS);
  EXPECT_NE(R.Code, 0) << "with --timeout 100 the emulator's limit must be set, not 0";
}

// --- Bounds: --timeout, bounded output, scratch removal ---

/// A private TMPDIR for one test, so that the scratch directory of a run can
/// be checked for removal.
struct PrivateTmp {
  std::string Dir, Old;
  bool HadOld = false;
  PrivateTmp() {
    llvm::SmallString<256> D;
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("pkv-tmp", D));
    Dir = std::string(D);
    if (const char *T = std::getenv("TMPDIR")) {
      HadOld = true;
      Old = T;
    }
    setenv("TMPDIR", Dir.c_str(), 1);
  }
  ~PrivateTmp() {
    if (HadOld)
      setenv("TMPDIR", Old.c_str(), 1);
    else
      unsetenv("TMPDIR");
    llvm::sys::fs::remove_directories(Dir);
  }
  /// Entries left in the directory.
  std::vector<std::string> left() const {
    std::vector<std::string> L;
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator I(Dir, EC), E; I != E && !EC;
         I.increment(EC))
      L.push_back(I->path());
    return L;
  }
};

bool processGone(int Pid) {
  for (int I = 0; I < 100; ++I) {
    std::ifstream F("/proc/" + std::to_string(Pid) + "/stat");
    std::string S;
    if (!F || !std::getline(F, S))
      return true;
    size_t P = S.rfind(')');
    if (P != std::string::npos && S.size() > P + 2 && S[P + 2] == 'Z')
      return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

TEST(HarnessBounds, TimeoutKillsTheProcessGroupAndRemovesTheScratch) {
  PrivateTmp Tmp;
  test::FakePortService PS;
  std::string PidFile = Tmp.Dir + "/../pkv-hang-" + std::to_string(getpid());
  ValidateOptions O;
  O.Program = true;
  O.ProgramFile = PKV_TEST_DIR "/programs/prog_hostile.cu";
  O.ProgramArgs = {"hang", PidFile};
  O.TimeoutSec = 15; // covers compiling and linking it too
  O.Json = true;
  RunResult R = runIt(O, PS);
  EXPECT_EQ(R.Code, 1) << R.Out << R.Err;
  const llvm::json::Object *C = cell(R.Json, "prog_hostile.cu", "original");
  EXPECT_EQ(field(C, "kind"), "timeout") << R.Out;
  EXPECT_EQ(field(C, "reason"),
            "'prog_hostile.cu' (original) timed out while running: the limit "
            "is 15 s per case (--timeout 15); its process group was killed")
      << R.Out;
  std::ifstream F(PidFile);
  int Child = 0;
  ASSERT_TRUE(F >> Child) << "the program did not start its child";
  EXPECT_TRUE(processGone(Child)) << "child " << Child << " survived";
  std::remove(PidFile.c_str());
  EXPECT_TRUE(Tmp.left().empty()) << Tmp.left().front();
}

TEST(HarnessBounds, DaemonDiesWithTheProgram) {
  // The program double-forks a daemon into a session of its own and exits:
  // the daemon is killed and reaped before validate returns.
  PrivateTmp Tmp;
  test::FakePortService PS;
  std::string PidFile =
      Tmp.Dir + "/../pkv-daemon-" + std::to_string(getpid());
  ValidateOptions O;
  O.Program = true;
  O.ProgramFile = PKV_TEST_DIR "/programs/prog_hostile.cu";
  O.ProgramArgs = {"daemon", PidFile};
  O.Json = true;
  RunResult R = runIt(O, PS);
  EXPECT_EQ(R.Code, 0) << R.Out << R.Err;
  const llvm::json::Object *C = cell(R.Json, "prog_hostile.cu", "original");
  EXPECT_EQ(field(C, "status"), "pass") << R.Out;
  const llvm::json::Array *Notes = C ? C->getArray("notes") : nullptr;
  ASSERT_TRUE(Notes) << R.Out;
  ASSERT_EQ(Notes->size(), 1u) << R.Out;
  EXPECT_EQ((*Notes)[0].getAsString().value_or(""),
            "the program left 1 process running (a daemon, a child it did "
            "not wait for); killed when it ended");
  std::ifstream F(PidFile);
  int Daemon = 0;
  ASSERT_TRUE(F >> Daemon) << "the daemon did not start";
  // Gone, and reaped: no waiting.
  EXPECT_EQ(::kill(Daemon, 0), -1) << "daemon " << Daemon << " survived";
  EXPECT_EQ(errno, ESRCH);
  std::remove(PidFile.c_str());
  EXPECT_TRUE(Tmp.left().empty());
}

TEST(HarnessBounds, OutputIsKeptUpToTheLimit) {
  PrivateTmp Tmp;
  test::FakePortService PS;
  ValidateOptions O;
  O.Program = true;
  O.ProgramFile = PKV_TEST_DIR "/programs/prog_hostile.cu";
  O.ProgramArgs = {"flood", "64"};
  O.OutputLimit = 1 << 20;
  O.Json = true;
  struct rusage Before;
  getrusage(RUSAGE_SELF, &Before);
  RunResult R = runIt(O, PS);
  struct rusage After;
  getrusage(RUSAGE_SELF, &After);
  EXPECT_EQ(R.Code, 0) << R.Out.substr(0, 4000) << R.Err.substr(0, 4000);
  const llvm::json::Object *C = cell(R.Json, "prog_hostile.cu", "original");
  EXPECT_EQ(field(C, "status"), "pass");
  const llvm::json::Array *Notes = C ? C->getArray("notes") : nullptr;
  ASSERT_TRUE(Notes) << R.Out;
  ASSERT_EQ(Notes->size(), 2u) << R.Out;
  EXPECT_EQ((*Notes)[0].getAsString().value_or(""),
            "the program wrote 64 MB to stdout; kept the first and last 512 KB, "
            "discarded 63 MB");
  EXPECT_NE(R.Err.find("note: prog_hostile.cu (original): the program wrote "
                       "64 MB to stderr"),
            std::string::npos)
      << R.Err.substr(0, 2000);
  // 128 MB went through the pipes; the harness grew by far less (peak RSS in
  // KiB; a bound, not a timing).
  EXPECT_LT(After.ru_maxrss - Before.ru_maxrss, 48 * 1024);
  EXPECT_TRUE(Tmp.left().empty());
}

TEST(HarnessBounds, InterruptKillsRunsAndRemovesTheScratch) {
  PrivateTmp Tmp;
  test::FakePortService PS;
  ValidateOptions O;
  O.Paths = {PKV_TEST_DIR "/cases"};
  O.Targets = {Target::CUDA};
  setenv("PK_TEST_INTERRUPT_AFTER", "1", 1);
  RunResult R = runIt(O, PS);
  unsetenv("PK_TEST_INTERRUPT_AFTER");
  EXPECT_EQ(R.Code, 130) << R.Out << R.Err;
  EXPECT_NE(R.Err.find("port-kernel: validate interrupted after 1 of "),
            std::string::npos)
      << R.Err;
  EXPECT_NE(R.Err.find("scratch directory removed"), std::string::npos);
  EXPECT_EQ(R.Out, "") << "no table for an interrupted run";
  EXPECT_TRUE(Tmp.left().empty());
}

TEST(HarnessBounds, ScratchIsRemovedOnFailure) {
  PrivateTmp Tmp;
  test::FakePortService PS;
  ValidateOptions O;
  O.Paths = {PKV_TEST_DIR "/cases/m_compile_error"};
  RunResult R = runIt(O, PS);
  EXPECT_EQ(R.Code, 1) << R.Out << R.Err;
  EXPECT_TRUE(Tmp.left().empty());
}

} // namespace

// validate --stop-at: runBounded stops a program at the first stdout line
// the predicate accepts (a benchmark after its self-check), reading lines
// as they come; a program that never prints it runs to its end.
TEST(Harness, StopAtLineEndsTheRunAtTheMatchingLine) {
  using pk::validate::runBounded;
  std::vector<std::string> Args = {
      "-c", "echo checking; echo 'All results match'; sleep 60; echo late"};
  auto Start = std::chrono::steady_clock::now();
  auto R = runBounded("/bin/sh", Args, std::nullopt, 120, 1 << 20, false, "",
                      [](llvm::StringRef L) { return L == "All results match"; });
  double S = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
                 .count();
  EXPECT_TRUE(R.StoppedAtOutput);
  EXPECT_FALSE(R.TimedOut);
  EXPECT_LT(S, 50.0) << "the run was not stopped at the line";
  EXPECT_NE(R.Out.Text.find("All results match"), std::string::npos);
  EXPECT_EQ(R.Out.Text.find("late"), std::string::npos);

  std::vector<std::string> Other = {"-c", "echo one; echo two"};
  auto R2 = runBounded("/bin/sh", Other, std::nullopt, 120, 1 << 20, false, "",
                       [](llvm::StringRef L) { return L == "three"; });
  EXPECT_FALSE(R2.StoppedAtOutput);
  EXPECT_EQ(R2.Code, 0);
  EXPECT_EQ(R2.Out.Text, "one\ntwo\n");
}

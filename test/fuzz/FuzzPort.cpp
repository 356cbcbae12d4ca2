//===- FuzzPort.cpp - libFuzzer target: the whole `port` pipeline ---------===//
//
// Each input is a CUDA source.  It is placed on tmpfs (/dev/shm, memory)
// and translated to HIP and CUDA by the driver exactly as `port` does (parse,
// analysis, every pass, merge, render) and checked as `check` does; the
// outputs stay in memory: translate() computes them, nothing writes them.
// Crash recovery is off (PK_CRASH_RECOVERY=0) so that a crash in clang or a
// pass reaches the fuzzer.  Any input must give outputs or errors, never a
// crash, a hang or a sanitizer report.
//
//===----------------------------------------------------------------------===//
#include "pk/DataDir.h"
#include "pk/Driver.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fcntl.h>
#include <memory>
#include <string>
#include <unistd.h>

static std::unique_ptr<pk::Driver> D;
static std::string Input;

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  setenv("PK_CRASH_RECOVERY", "0", 1);
  std::string Dir = "/dev/shm/pk-fuzz-port-" + std::to_string(getpid());
  llvm::sys::fs::create_directories(Dir);
  Input = Dir + "/input.cu";
  pk::DriverOptions O;
  O.Targets = {pk::Target::HIP, pk::Target::CUDA};
  O.RulesDir = pk::dataPath("rules/cuda2hip");
  O.FE.CudaPath = "none"; // the bundled declarations: same on every machine
  O.Quiet = true;
  D = std::make_unique<pk::Driver>(O, llvm::nulls());
  if (llvm::Error E = D->init()) {
    llvm::errs() << llvm::toString(std::move(E)) << "\n";
    std::abort();
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  int FD = open(Input.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (FD < 0 || write(FD, Data, Size) != (ssize_t)Size)
    std::abort();
  close(FD);
  for (auto Mode : {pk::Driver::RunMode::Port, pk::Driver::RunMode::Check}) {
    std::vector<pk::FileFailure> Failed;
    auto Res = D->translate({Input}, {pk::Target::HIP, pk::Target::CUDA}, "",
                            Mode, &Failed);
    if (!Res)
      llvm::consumeError(Res.takeError());
  }
  return 0;
}

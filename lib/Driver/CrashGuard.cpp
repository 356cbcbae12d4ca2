//===- CrashGuard.cpp - one translation unit's work, isolated -------------===//
// Rules: PK9001
//
// llvm::CrashRecoveryContext turns a signal raised on the guarded thread
// into a return from RunSafelyOnThread.  Its handlers are installed without
// SA_ONSTACK, so a stack overflow could not be handled (the handler would
// need the stack that just ran out): SIGSEGV and SIGBUS are re-registered
// with SA_ONSTACK and every guarded thread gets an alternate signal stack.
//
//===----------------------------------------------------------------------===//
#include "pk/CrashGuard.h"

#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/thread.h"
#include <csignal>
#include <cstdlib>
#include <cstring>
#if defined(__GLIBC__)
#include <malloc.h>
#include <unistd.h>
#endif
#include <memory>
#include <mutex>
#include <optional>
#include <signal.h>

using namespace pk;

static void enableCrashRecovery() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    llvm::CrashRecoveryContext::Enable();
    for (int Sig : {SIGSEGV, SIGBUS}) {
      struct sigaction SA;
      if (sigaction(Sig, nullptr, &SA) == 0) {
        SA.sa_flags |= SA_ONSTACK;
        sigaction(Sig, &SA, nullptr);
      }
    }
  });
}

/// An alternate signal stack for the current thread while it lives.
namespace {
class AltStack {
public:
  AltStack() : Mem(new char[Size]) {
    stack_t SS{};
    SS.ss_sp = Mem.get();
    SS.ss_size = Size;
    Installed = sigaltstack(&SS, &Old) == 0;
  }
  ~AltStack() {
    if (Installed)
      sigaltstack(&Old, nullptr);
  }

private:
  static constexpr size_t Size = 256 * 1024;
  std::unique_ptr<char[]> Mem;
  stack_t Old{};
  bool Installed = false;
};
} // namespace

bool pk::runWithCrashRecovery(llvm::function_ref<void()> Fn, std::string &Why) {
  // PK_CRASH_RECOVERY=0 (the fuzz targets): the same large stack, but a
  // crash ends the process, so that the fuzzer and the sanitizers see it.
  if (const char *V = std::getenv("PK_CRASH_RECOVERY");
      V && llvm::StringRef(V) == "0") {
    llvm::thread T(std::optional<unsigned>(TUStackBytes), [&] { Fn(); });
    T.join();
    return true;
  }
  enableCrashRecovery();
  llvm::CrashRecoveryContext CRC;
  bool Ok = CRC.RunSafelyOnThread(
      [&] {
        AltStack Alt;
        Fn();
      },
      TUStackBytes);
  if (Ok)
    return true;
  // On POSIX systems the return code of a crash is 128 + the signal.
  int Sig = CRC.RetCode - 128;
  if (Sig > 0 && Sig < NSIG)
    Why = llvm::formatv("signal {0} ({1})", Sig, strsignal(Sig)).str();
  else
    Why = llvm::formatv("exit code {0}", CRC.RetCode).str();
  return false;
}

void pk::returnFreedMemory() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

bool pk::testCrashRequested(llvm::StringRef Path) {
  const char *V = std::getenv("PK_TEST_CRASH_IN");
  return V && *V && llvm::sys::path::filename(Path) == V;
}

void pk::signalForTestIfRequested(llvm::StringRef Path) {
  const char *V = std::getenv("PK_TEST_SIGTERM_IN");
  if (V && *V && llvm::sys::path::filename(Path) == V)
    ::kill(::getpid(), SIGTERM);
}

void pk::crashForTest() {
  volatile int *volatile Null = nullptr;
  *Null = 1; // SIGSEGV
  std::abort();
}

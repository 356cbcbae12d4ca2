//===- Trace.cpp - where a run's time goes, per phase ---------------------===//
// Rules: none (shared infrastructure)
#include "pk/Trace.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <atomic>
#include <cstdlib>

namespace pk::trace {

namespace tracestate {
std::atomic<bool> SessionOn{false};
} // namespace tracestate

const std::string &tracePath() {
  static const std::string P = [] {
    const char *E = std::getenv("PK_TIME_TRACE");
    return std::string(E ? E : "");
  }();
  return P;
}

Session::Session() {
  if (tracePath().empty() || llvm::timeTraceProfilerEnabled())
    return;
  // Granularity 0: every phase is kept, however short.
  llvm::timeTraceProfilerInitialize(0, "port-kernel");
  Active = true;
  tracestate::SessionOn = true;
}

Session::~Session() {
  if (!Active)
    return;
  tracestate::SessionOn = false;
  if (llvm::Error E = llvm::timeTraceProfilerWrite(tracePath(), tracePath()))
    llvm::errs() << "port-kernel: warning: cannot write the time trace "
                 << tracePath() << ": " << llvm::toString(std::move(E))
                 << "\n";
  llvm::timeTraceProfilerCleanup();
}

ThreadScope::ThreadScope() {
  if (!tracestate::SessionOn || llvm::timeTraceProfilerEnabled())
    return;
  llvm::timeTraceProfilerInitialize(0, "port-kernel");
  Active = true;
}

ThreadScope::~ThreadScope() {
  if (Active)
    llvm::timeTraceProfilerFinishThread();
}

} // namespace pk::trace

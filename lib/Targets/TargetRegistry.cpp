//===- TargetRegistry.cpp - the targets of pk/TargetList.def --------------===//
// Rules: none (shared infrastructure)
#include "llvm/Support/TimeProfiler.h"
#include "pk/Target.h"

using namespace pk;

const TargetBackend &pk::targetBackend(Target T) {
  static const std::vector<std::unique_ptr<TargetBackend>> All = [] {
    std::vector<std::unique_ptr<TargetBackend>> V;
#define PK_TARGET(ID, NAME, EMU, FACTORY) V.push_back(FACTORY());
#include "pk/TargetList.def"
    return V;
  }();
  return *All[static_cast<unsigned>(T)];
}

llvm::Error pk::runPasses(TargetContext &TC,
                          const std::vector<TargetPass> &Passes) {
  for (const TargetPass &P : Passes)
    if (llvm::Error E = [&] {
          // One event per pass (PK_TIME_TRACE, pk/Trace.h).
          llvm::TimeTraceScope Scope("pass", P.Name);
          return P.Run(TC);
        }()) {
      llvm::consumeError(TC.takeError());
      return E;
    }
  return TC.takeError();
}

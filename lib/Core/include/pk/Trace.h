//===- Trace.h - where a run's time goes, per phase ------------*- C++ -*-===//
// Rules: none (shared infrastructure)
//
// PK_TIME_TRACE=FILE makes `port` and `check` write a trace of their phases
// in the Chrome trace-event format (LLVM's time-trace profiler, the format of
// clang's -ftime-trace): one event per phase of each file (parse, the
// macro-depth scan, each target's passes by name, generating, writing the
// outputs), on the thread that ran it. scripts/bench-phases.sh sums them per
// phase (docs/performance.md, "Where the time goes"). Unset, every scope is a
// test of one thread-local pointer.
//
//===----------------------------------------------------------------------===//
#ifndef PK_CORE_TRACE_H
#define PK_CORE_TRACE_H

#include "llvm/Support/TimeProfiler.h"
#include <string>

namespace pk::trace {

/// The file PK_TIME_TRACE names, or "" when tracing is off.
const std::string &tracePath();

/// One run's trace: started on the thread that constructs it (the main
/// thread) and written to tracePath() when it is destroyed, with the events
/// of every thread that ended its ThreadScope. An error writing it is
/// reported on stderr; the run's outputs and exit status are unaffected.
class Session {
public:
  Session();
  ~Session();
  Session(const Session &) = delete;
  Session &operator=(const Session &) = delete;

private:
  bool Active = false;
};

/// The events of a worker thread: collected from construction to
/// destruction (when a Session is active and the thread has no profiler of
/// its own yet).
class ThreadScope {
public:
  ThreadScope();
  ~ThreadScope();
  ThreadScope(const ThreadScope &) = delete;
  ThreadScope &operator=(const ThreadScope &) = delete;

private:
  bool Active = false;
};

} // namespace pk::trace

#endif // PK_CORE_TRACE_H

// What every benchmark program of scripts/bench-programs.sh shares: a wall
// clock and the native-only mode.  The host reference of each program carries
// BENCH_NATIVE: no memory hooks, so it runs as plain compiled C++, and its
// instruction count measures the work the kernels do.
#pragma once
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cstdlib>

#define BENCH_NATIVE __attribute__((no_sanitize("thread"), noinline))

inline double benchNow() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// BENCH_NATIVE_REPS=N: the program runs only its native reference, N times,
// and exits before any kernel.  scripts/bench-programs.sh counts the
// instructions of runs with N = 1 and N = 2 under cachegrind: their
// difference is the instructions of one native run, the program's work.
inline int benchNativeReps() {
  const char *e = getenv("BENCH_NATIVE_REPS");
  return e ? atoi(e) : 0;
}

// Between repetitions of a reference: the compiler may not merge two calls of
// a function that only reads memory across it.
inline void benchClobber() { asm volatile("" ::: "memory"); }

inline void benchReport(const char *name, double emulated, double native) {
  printf("bench %s: emulated %.3f s, native %.3f s\n", name, emulated, native);
}

inline uint32_t benchLcg(uint32_t &s) {
  s = s * 1664525u + 1013904223u;
  return s;
}

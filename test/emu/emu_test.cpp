// Tests for the pkemu SIMT emulator. Each test compiles a CUDA/HIP program from programs/ with
// the emulator's compile/link flags (cached per program/language/width), runs it and checks its
// output, its pkemu error reports and its exit status.
#include <gtest/gtest.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace {

const std::string kSrc = PKEMU_TEST_SRC;
const std::string kOut = PKEMU_TEST_OUT;

struct Result {
  int rc = -1;
  std::string out, err;
};

std::string slurp(const std::string& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// Nanoseconds: a runtime rebuilt in the same second as a program is newer.
long long mtime(const std::string& p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0 ? (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec : -1;
}

Result shell(const std::string& cmd) {
  static int seq = 0;
  mkdir(kOut.c_str(), 0755);
  std::string base = kOut + "/run-" + std::to_string(getpid()) + "-" + std::to_string(seq++);
  std::string full = "( " + cmd + " ) >" + base + ".out 2>" + base + ".err";
  int st = std::system(full.c_str());
  Result r;
  r.rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  r.out = slurp(base + ".out");
  r.err = slurp(base + ".err");
  unlink((base + ".out").c_str());
  unlink((base + ".err").c_str());
  return r;
}

// Compile programs/<name>.cpp for `lang` ("cuda"/"hip") with PKEMU_DEFAULT_WARP=warp.
std::string build(const std::string& name, const std::string& lang, int warp, const std::string& extra = "") {
  mkdir(kOut.c_str(), 0755);
  std::string src = kSrc + "/programs/" + name + ".cpp";
  std::string exe = kOut + "/" + name + "-" + lang + "-" + std::to_string(warp) + (extra.empty() ? "" : "-x");
  int lock = open((exe + ".lock").c_str(), O_CREAT | O_RDWR, 0644);
  flock(lock, LOCK_EX);
  long long t = mtime(exe);
  std::string tmp = exe + ".tmp";
  std::string cmd = std::string(PKEMU_TEST_CXX) + " " + PKEMU_TEST_CFLAGS + " -DPKEMU_LANG_" +
                    (lang == "hip" ? "HIP" : "CUDA") + " -DPKEMU_DEFAULT_WARP=" + std::to_string(warp) + " " + extra + " " + src +
                    " -o " + tmp + " " + PKEMU_TEST_LFLAGS;
  // Rebuild when the source, the runtime, any shim header (cuda/barrier has no extension) or the
  // command line changed.
  Result newest = shell("find " + std::string(PKEMU_TEST_SHIM) + " " + std::string(PKEMU_TEST_SHIM) +
                        "/../include -newer " + exe +
                        " -type f \\( -name '*.h' -o -name '*.inc' -o ! -name '*.*' \\) 2>/dev/null | head -1");
  if (t < 0 || t < mtime(src) || t < mtime(PKEMU_TEST_LIB) || !newest.out.empty() || slurp(exe + ".cmd") != cmd) {
    unlink(exe.c_str());
    Result r = shell(cmd);
    EXPECT_EQ(r.rc, 0) << cmd << "\n" << r.err;
    if (r.rc == 0) {
      rename(tmp.c_str(), exe.c_str());
      std::ofstream(exe + ".cmd") << cmd;
    }
  }
  flock(lock, LOCK_UN);
  close(lock);
  return exe;
}

Result run(const std::string& exe, const std::string& args = "", const std::string& env = "") {
  return shell("env " + env + " " + exe + " " + args);
}

// Line number of the first source line containing `marker`.
int line_of(const std::string& name, const std::string& marker) {
  std::ifstream f(kSrc + "/programs/" + name + ".cpp");
  std::string l;
  for (int n = 1; std::getline(f, l); ++n)
    if (l.find(marker) != std::string::npos) return n;
  return -1;
}

std::string at(const std::string& name, const std::string& marker) {
  return name + ".cpp:" + std::to_string(line_of(name, marker));
}

int count(const std::string& s, const std::string& sub) {
  int n = 0;
  for (size_t p = s.find(sub); p != std::string::npos; p = s.find(sub, p + 1)) ++n;
  return n;
}

// The IR of a test program as the emulator compiles it (the plugin's passes applied, the
// instrumentation in), checked by the LLVM verifier; empty (with a failure) when it does not
// compile or verify.
std::string emulator_ir(const std::string& name, const std::string& extra = "") {
  std::string ir = kOut + "/" + name + ".ll";
  std::string cmd = std::string(PKEMU_TEST_CXX) + " " + PKEMU_TEST_CFLAGS + " " + extra +
                    " -DPKEMU_LANG_CUDA -DPKEMU_DEFAULT_WARP=32 -S -emit-llvm " + kSrc + "/programs/" + name +
                    ".cpp -o " + ir;
  Result c = shell(cmd);
  EXPECT_EQ(c.rc, 0) << cmd << "\n" << c.err;
  if (c.rc != 0) return "";
  Result v = shell(std::string(PKEMU_TEST_OPT) + " -passes=verify " + ir + " -o /dev/null");
  EXPECT_EQ(v.rc, 0) << v.err;
  return v.rc == 0 ? slurp(ir) : "";
}

// The body of the first function whose definition line contains `prefix`.
std::string ir_body(const std::string& ir, const std::string& prefix) {
  size_t f = ir.find(prefix);
  EXPECT_NE(f, std::string::npos) << "no " << prefix << " in the IR";
  return f == std::string::npos ? std::string() : ir.substr(f, ir.find("\n}\n", f) - f);
}

#define EXPECT_HAS(hay, needle) EXPECT_NE((hay).find(needle), std::string::npos) << "missing: " << (needle) << "\n" << (hay)

// ---------------------------------------------------------------------------------------------
// Parsing with the shims in clang's CUDA/HIP modes (translator front end).
TEST(Parse, CudaOriginalSource) {
  Result r = shell(std::string(PKEMU_TEST_CXX) + " -fsyntax-only -Wno-unknown-cuda-version -D PKEMU_PARSE -x cuda " +
                   "-nocudainc -nocudalib --cuda-host-only -I" + PKEMU_TEST_SHIM + " -include pkemu/prelude.h " +
                   kSrc + "/parse/original.cu");
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.err.find("error"), std::string::npos) << r.err;
}

TEST(Parse, HipOriginalSource) {
  Result r = shell(std::string(PKEMU_TEST_CXX) + " -fsyntax-only -D PKEMU_PARSE -x hip -nogpuinc -nogpulib " +
                   "--cuda-host-only -I" + PKEMU_TEST_SHIM + " " + kSrc + "/parse/original.hip");
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.err.find("error"), std::string::npos) << r.err;
}

TEST(Parse, PreparedSources) {
  for (const char* p : {"errors", "features", "wmma", "device_bounds"}) {
    Result r = shell(std::string(PKEMU_TEST_CXX) + " -fsyntax-only -Wno-unknown-cuda-version -D PKEMU_PARSE " +
                     "-x cuda -nocudainc -nocudalib --cuda-host-only -I" + PKEMU_TEST_SHIM +
                     " -include pkemu/prelude.h " + kSrc + "/programs/" + p + ".cpp");
    EXPECT_EQ(r.rc, 0) << p << ": " << r.err;
  }
  for (const char* p : {"hazards", "mfma", "hip_host", "hip_votes"}) {
    Result r = shell(std::string(PKEMU_TEST_CXX) + " -fsyntax-only -D PKEMU_PARSE -x hip -nogpuinc -nogpulib " +
                     "--cuda-host-only -I" + PKEMU_TEST_SHIM + " -include pkemu/prelude.h " + kSrc + "/programs/" +
                     p + ".cpp");
    EXPECT_EQ(r.rc, 0) << p << ": " << r.err;
  }
}

// ---------------------------------------------------------------------------------------------
// Matrix-core lane tables.
TEST(Lanes, MfmaMatchesAmdTablesAndFormulas) {
  Result r = run(build("mfma", "hip", 64), kSrc + "/data");
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  for (const char* s : {"16x16x16f16: ok", "32x32x8f16: ok", "16x16x16bf16_1k: ok", "32x32x8bf16_1k: ok",
                        "16x16x4f32: ok", "32x32x2f32: ok", "PASS"})
    EXPECT_HAS(r.out, s);
}

TEST(Lanes, MfmaAtWarp32IsReported) {
  Result r = run(build("mfma", "hip", 64), kSrc + "/data", "PKEMU_WARP_SIZE=32");
  EXPECT_EQ(r.rc, 86);
  EXPECT_HAS(r.err, "pkemu: error: MFMA at warp width 32");
}

TEST(Lanes, MfmaModifiersAreReported) {
  Result r = run(build("mfma", "hip", 64), kSrc + "/data modifier");
  EXPECT_EQ(r.rc, 86);
  EXPECT_HAS(r.err, "cbsz=1");
}

TEST(Lanes, WmmaMatchesSm90Observation) {
  Result r = run(build("wmma", "cuda", 32), kSrc + "/data/wmma_m16n16k16_sm90_observed.txt");
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  EXPECT_HAS(r.out, "layout elements checked: 2304");
  EXPECT_HAS(r.out, "PASS");
}

TEST(Lanes, WmmaAtWarp64IsReported) {
  Result r = run(build("wmma", "cuda", 32), kSrc + "/data/wmma_m16n16k16_sm90_observed.txt", "PKEMU_WARP_SIZE=64");
  EXPECT_EQ(r.rc, 86);
  EXPECT_HAS(r.err, "pkemu: error: WMMA at warp width 64");
}

// ---------------------------------------------------------------------------------------------
// Shuffle and vote semantics (widths < warp, partial warps, __shfl source masking, ballot size).
TEST(Shuffle, CudaSyncFormsAtWarp32) {
  std::string exe = build("shuffle", "cuda", 32);
  for (const char* b : {"96", "50", "32"}) {
    Result r = run(exe, b);
    EXPECT_EQ(r.rc, 0) << b << r.out << r.err;
    EXPECT_HAS(r.out, "PASS");
  }
}

TEST(Shuffle, HipFormsAtWave64) {
  std::string exe = build("shuffle", "hip", 64);
  for (const char* b : {"128", "96", "48"}) {
    Result r = run(exe, b);
    EXPECT_EQ(r.rc, 0) << b << r.out << r.err;
    EXPECT_HAS(r.out, "PASS");
  }
}

TEST(Shuffle, HipFormsForcedToWarp32) {
  std::string exe = build("shuffle", "hip", 64);
  for (const char* b : {"96", "40"}) {
    Result r = run(exe, b, "PKEMU_WARP_SIZE=32");
    EXPECT_EQ(r.rc, 0) << b << r.out << r.err;
    EXPECT_HAS(r.out, "PASS");
  }
}

TEST(Shuffle, CudaFullMaskAtWarp64IsReported) {
  Result r = run(build("shuffle", "cuda", 32), "96", "PKEMU_WARP_SIZE=64");
  EXPECT_EQ(r.rc, 86);
  EXPECT_HAS(r.err, "warp collective with inconsistent participation");
  EXPECT_HAS(r.err, "does not include its own lane");
}

// ---------------------------------------------------------------------------------------------
// Warp-32 hazards: right at 32, wrong at 64.
TEST(Hazards, RightAtWarp32WrongAtWarp64) {
  std::string exe = build("hazards", "hip", 64);
  Result r32 = run(exe, "", "PKEMU_WARP_SIZE=32");
  EXPECT_EQ(r32.rc, 0) << r32.out << r32.err;
  EXPECT_HAS(r32.out, "hazard warp_reduce: RIGHT");
  EXPECT_HAS(r32.out, "hazard ballot_count: RIGHT");
  EXPECT_HAS(r32.out, "hazard block_sum: RIGHT");
  EXPECT_EQ(r32.err.find("pkemu: error"), std::string::npos) << r32.err;
  Result r64 = run(exe);
  EXPECT_HAS(r64.out, "hazard warp_reduce: WRONG");
  EXPECT_HAS(r64.out, "hazard ballot_count: WRONG");
  EXPECT_HAS(r64.out, "hazard block_sum: WRONG");
  // block_sum at 64 also reads partial sums that no 64-lane wave wrote.
  EXPECT_EQ(r64.rc, 86);
  EXPECT_HAS(r64.err, "pkemu: error: uninitialised shared memory read: kernel 'block_sum");
}

// ---------------------------------------------------------------------------------------------
// Error detection.
TEST(Errors, WarpSynchronousTailRace) {
  Result r = run(build("errors", "cuda", 32), "race");
  EXPECT_EQ(r.rc, 86);
  EXPECT_HAS(r.err, "pkemu: error: data race: kernel 'racy_reduce(float const*, float*)' at ");
  EXPECT_HAS(r.err, at("errors", "vs[tid] += vs[tid + 32];"));
  EXPECT_HAS(r.err, "thread 1 (threadIdx (1,0,0), warp 0 lane 1) writes 4 bytes at 'sdata'+4");
  EXPECT_HAS(r.err, "thread 0 (threadIdx (0,0,0), warp 0 lane 0) read them at");
  EXPECT_EQ(count(r.err, "pkemu: error: data race"), 1) << "reported once per location:\n" << r.err;
}

TEST(Errors, SyncwarpFixedReductionIsClean) {
  Result r = run(build("errors", "cuda", 32), "fixed");
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_HAS(r.out, "sum=2016");
  EXPECT_EQ(r.err.find("pkemu: error"), std::string::npos) << r.err;
}

TEST(Errors, PartialBarrierDeadlock) {
  Result r = run(build("errors", "cuda", 32), "deadlock");
  EXPECT_EQ(r.rc, 86);
  EXPECT_EQ(r.out.find("not reached"), std::string::npos);
  EXPECT_HAS(r.err, "pkemu: error: barrier divergence: kernel 'partial_barrier(int*)' at ");
  EXPECT_HAS(r.err, at("errors", "DEADLOCK_LINE") + ": barrier reached by only part of block (0,0,0)");
  EXPECT_HAS(r.err, "threads 0-15 waiting at __syncthreads");
  EXPECT_HAS(r.err, "threads 16-63 exited");
}

TEST(Errors, BarrierAfterEarlyExit) {
  Result r = run(build("errors", "cuda", 32), "exit");
  EXPECT_EQ(r.rc, 86);
  EXPECT_HAS(r.err, "barrier divergence: kernel 'early_exit_barrier(int*, int)' at ");
  EXPECT_HAS(r.err, at("errors", "EXIT_LINE") + ": barrier reached by only part of block");
  EXPECT_HAS(r.err, "threads 40-63 exited");
}

TEST(Errors, OutOfBoundsShared) {
  Result r = run(build("errors", "cuda", 32), "oob");
  EXPECT_EQ(r.rc, 86);
  EXPECT_HAS(r.err, "pkemu: error: out-of-bounds shared memory access: kernel 'oob_shared(int*)' at ");
  EXPECT_HAS(r.err, at("errors", "OOB_LINE") + ": out-of-bounds");
  EXPECT_HAS(r.err, "thread 32 (threadIdx (32,0,0), warp 1 lane 0) writes 4 bytes at 'small'+128");
}

TEST(Errors, UninitialisedSharedRead) {
  Result r = run(build("errors", "cuda", 32), "uninit");
  EXPECT_EQ(r.rc, 86);
  EXPECT_HAS(r.err, "pkemu: error: uninitialised shared memory read: kernel 'uninit_shared(int*)' at ");
  EXPECT_HAS(r.err, at("errors", "UNINIT_LINE") + ": read of uninitialised");
  EXPECT_HAS(r.err, "'buf'+252");
}

// The shared-memory shadow is kept per 4-byte word and split into bytes where accesses cover
// part of a word: the reports are those of a shadow per byte.
TEST(SharedWords, ByteWriterOfAWordReadWholeIsTheRace) {
  Result r = run(build("shared_words", "cuda", 32), "bytes-then-word");
  EXPECT_EQ(r.rc, 86) << r.err;
  EXPECT_HAS(r.err, "pkemu: error: data race: kernel 'bytes_then_word(int*)' at ");
  EXPECT_HAS(r.err, at("shared_words", "WORD_READ_LINE") + ": data race");
  EXPECT_HAS(r.err, "thread 32 (threadIdx (32,0,0), warp 1 lane 0) reads 4 bytes at 'bytes'+0");
  EXPECT_HAS(r.err, "thread 0 (threadIdx (0,0,0), warp 0 lane 0) wrote them");
  EXPECT_EQ(count(r.err, "pkemu: error:"), 1) << r.err;
}

TEST(SharedWords, BytesThenWordsThenBytesAreClean) {
  Result r = run(build("shared_words", "cuda", 32), "clean");
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_HAS(r.out, "total=44784");
  EXPECT_EQ(r.err.find("pkemu: error"), std::string::npos) << r.err;
}

TEST(SharedWords, ByteReadOfAJoinedWordSeesItsWriter) {
  Result r = run(build("shared_words", "cuda", 32), "join-then-byte");
  EXPECT_EQ(r.rc, 86) << r.err;
  EXPECT_HAS(r.err, at("shared_words", "BYTE_READ_LINE") + ": data race");
  EXPECT_HAS(r.err, "thread 70 (threadIdx (70,0,0), warp 2 lane 6) reads 1 bytes at 'words'+2");
  EXPECT_HAS(r.err, "thread 5 (threadIdx (5,0,0), warp 0 lane 5) wrote them");
  EXPECT_EQ(count(r.err, "pkemu: error:"), 1) << r.err;
}

TEST(SharedWords, EveryWordOfAFloat4IsRecorded) {
  Result r = run(build("shared_words", "cuda", 32), "float4");
  EXPECT_EQ(r.rc, 86) << r.err;
  EXPECT_HAS(r.err, "thread 33 (threadIdx (33,0,0), warp 1 lane 1) writes 4 bytes at 'v'+8");
  EXPECT_HAS(r.err, "thread 1 (threadIdx (1,0,0), warp 0 lane 1) read them at");
  EXPECT_HAS(r.err, at("shared_words", "FLOAT4_READ_LINE"));
  EXPECT_EQ(count(r.err, "pkemu: error:"), 1) << r.err;
}

TEST(SharedWords, WordPartlyOutsideItsObject) {
  Result r = run(build("shared_words", "cuda", 32), "odd-dynamic");
  EXPECT_EQ(r.rc, 86) << r.err;
  EXPECT_HAS(r.err, at("shared_words", "ODD_READ_LINE") + ": out-of-bounds shared memory access");
  EXPECT_HAS(r.err, "reads 4 bytes at 'dynamic shared memory'+4");
  EXPECT_EQ(r.err.find("uninitialised"), std::string::npos) << r.err;
  EXPECT_EQ(count(r.err, "pkemu: error:"), 1) << r.err;
}

TEST(Errors, DivergentShuffle) {
  Result r = run(build("errors", "cuda", 32), "divergent");
  EXPECT_EQ(r.rc, 86);
  EXPECT_HAS(r.err, "pkemu: error: warp collective with inconsistent participation: kernel 'divergent_shfl(int*)'");
}

// Two *_sync collectives, each waiting for a lane that waits in the other, are reported when
// the second one starts; two that overlap without such a cycle are not (the two sides of a
// binary_partition, Features.*).
TEST(Errors, CrossedShufflesAreReported) {
  Result r = run(build("errors", "cuda", 32), "crossed");
  EXPECT_EQ(r.rc, 86) << r.out << r.err;
  EXPECT_HAS(r.err, "pkemu: error: warp collective with inconsistent participation: kernel 'crossed_shfl(int*)'");
  EXPECT_HAS(r.err, "waiting at __shfl_sync (mask 0xffffffff");
  EXPECT_EQ(r.out.find("not reached"), std::string::npos);
}

// An atomic writes its bytes; an exchange initialises (its new value does not depend on the old).
TEST(Errors, AtomicExchangeInitialisesShared) {
  Result r = run(build("errors", "cuda", 32), "exch_init");
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  EXPECT_HAS(r.out, "exch_init: 64");
  EXPECT_EQ(r.err.find("pkemu: error"), std::string::npos) << r.err;
  Result a = run(build("errors", "cuda", 32), "add_first");
  EXPECT_EQ(a.rc, 86) << a.out << a.err;
  EXPECT_EQ(count(a.err, "pkemu: error:"), 1) << a.err;
  EXPECT_HAS(a.err, "uninitialised shared memory read: kernel 'shared_counter(int*, int)' at " + kSrc +
                        "/programs/" + at("errors", "COUNT_LINE"));
  EXPECT_HAS(a.err, "performs an atomic on 4 bytes at 'hits'+0");
}

TEST(Errors, HangTimesOut) {
  Result r = run(build("errors", "cuda", 32), "timeout", "PKEMU_TIMEOUT_S=1");
  EXPECT_EQ(r.rc, 86);
  EXPECT_HAS(r.err, "pkemu: error: timeout: kernel 'hang(int volatile*)'");
  EXPECT_HAS(r.err, "PKEMU_TIMEOUT_S); no block finished: it hangs, or each block runs longer than that.");
}

// A kernel that makes progress but not enough: the timeout says how far it got.
TEST(Errors, SlowKernelTimesOutWithItsProgress) {
  Result r = run(build("errors", "cuda", 32), "slow", "PKEMU_TIMEOUT_S=1");
  EXPECT_EQ(r.rc, 86);
  EXPECT_HAS(r.err, "pkemu: error: timeout: kernel 'slow_blocks(long*)'");
  EXPECT_HAS(r.err, " of 1000000 blocks finished, so at this pace it needs about ");
  EXPECT_EQ(r.err.find("no block finished"), std::string::npos) << r.err;
}

// ---------------------------------------------------------------------------------------------
// Device-memory bounds (cudaMalloc'd buffers; runtime/device_memory.cpp).
TEST(DeviceBounds, ReadThousandFloatsPastSixteenFloatBuffer) {
  Result r = run(build("device_bounds", "cuda", 32), "past");
  EXPECT_EQ(r.rc, 86) << r.out << r.err;
  EXPECT_HAS(r.err, "pkemu: error: out-of-bounds device memory access: kernel 'read_past(float const*, float*)' at ");
  EXPECT_HAS(r.err, at("device_bounds", "PAST_LINE") + ": out-of-bounds device memory access in block (0,0,0): ");
  EXPECT_HAS(r.err, "thread 0 (threadIdx (0,0,0), warp 0 lane 0) reads 4 bytes at 3936 bytes past the end of "
                    "device buffer #1 (64 bytes, allocated at ");
  EXPECT_HAS(r.err, at("device_bounds", "ALLOC_LINE") + ")");
  EXPECT_EQ(count(r.err, "pkemu: error: out-of-bounds device memory access"), 1) << r.err;
  EXPECT_HAS(r.out, "done");  // the program continues; the exit status says it failed
}

TEST(DeviceBounds, WriteBeforeStart) {
  Result r = run(build("device_bounds", "cuda", 32), "before");
  EXPECT_EQ(r.rc, 86) << r.err;
  EXPECT_HAS(r.err, "kernel 'write_before(float*)' at ");
  EXPECT_HAS(r.err, at("device_bounds", "BEFORE_LINE") + ": out-of-bounds device memory access");
  EXPECT_HAS(r.err, "thread 3 (threadIdx (3,0,0), warp 0 lane 3) writes 4 bytes at 8 bytes before the start of "
                    "device buffer #1 (64 bytes");
}

TEST(DeviceBounds, UseAfterFree) {
  Result r = run(build("device_bounds", "cuda", 32), "freed");
  EXPECT_EQ(r.rc, 86) << r.err;
  EXPECT_HAS(r.err, "kernel 'read_all(float const*, float*, int)'");
  EXPECT_HAS(r.err, "reads 4 bytes at offset 0 of the freed device buffer #1 (64 bytes");
}

TEST(DeviceBounds, AtomicPastEnd) {
  Result r = run(build("device_bounds", "cuda", 32), "atomic");
  EXPECT_EQ(r.rc, 86) << r.err;
  EXPECT_HAS(r.err, "kernel 'atomic_past(int*)' at ");
  EXPECT_HAS(r.err, at("device_bounds", "ATOMIC_LINE") + ": out-of-bounds device memory access");
  EXPECT_HAS(r.err, "thread 8 (threadIdx (8,0,0), warp 0 lane 8) performs an atomic on 4 bytes at 0 bytes past "
                    "the end of device buffer #3 (32 bytes");
}

TEST(DeviceBounds, HostCopyPastEndIsRefused) {
  Result r = run(build("device_bounds", "cuda", 32), "memcpy");
  EXPECT_EQ(r.rc, 86) << r.err;
  EXPECT_HAS(r.out, "memcpy: error");
  EXPECT_HAS(r.err, "in host code: a memory copy writes 4064 bytes at offset 0 (running 4000 bytes past the end) of "
                    "device buffer #1 (64 bytes");
  EXPECT_HAS(r.err, at("device_bounds", "MEMCPY_LINE"));
}

TEST(DeviceBounds, InBoundsReuseAndManagedAreClean) {
  Result r = run(build("device_bounds", "cuda", 32), "ok");
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  EXPECT_HAS(r.out, "ok");
  EXPECT_EQ(r.err.find("pkemu: error"), std::string::npos) << r.err;
}

TEST(DeviceBounds, BufferOverTwoGiBIsCheckedAtSixtyFourBitOffsets) {
  // 3 GiB spans two slots: accesses, an atomic and host copies in the second one are in bounds.
  Result r = run(build("device_bounds", "cuda", 32), "big");
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  EXPECT_HAS(r.out, "big: ok");
  EXPECT_EQ(r.err.find("pkemu: error"), std::string::npos) << r.err;
}

TEST(DeviceBounds, LargeBuffersAreBackedByHugePages) {
  // A 64 MiB buffer's mapping is madvise(MADV_HUGEPAGE)d, so that the
  // buffers of gigabytes that real programs fill fault in 2 MiB at a time,
  // wherever transparent huge pages are not off.
  std::string thp = slurp("/sys/kernel/mm/transparent_hugepage/enabled");
  if (thp.empty() || thp.find("[never]") != std::string::npos)
    GTEST_SKIP() << "transparent huge pages are off on this system";
  Result r = run(build("device_bounds", "cuda", 32), "huge");
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  EXPECT_HAS(r.out, "huge: THPeligible 1");
}

// Loops that walk memory get one bounds check per entry (the range-checks plugin); results and
// reports stay those of one hook per access.
TEST(RangeChecks, LoopAccessesAreCheckedOncePerEntry) {
  // The plugin marks the loop's loads nosanitize, calls __pkemu_range_ok in the preheader and
  // keeps each hook behind the flag.
  std::string text = emulator_ir("range_checks");
  std::string body = ir_body(text, "define dso_local void @_Z8row_dots");
  EXPECT_HAS(body, "call i1 @__pkemu_range_ok(");
  EXPECT_HAS(body, "!nosanitize");
  EXPECT_HAS(body, "call void @__tsan_read4(");
  // The block-stride loop (`i += blockDim.x` on an int): checked once too, its counter tested
  // at run time not to wrap.
  body = ir_body(text, "define dso_local void @_Z12stride_scale");
  EXPECT_HAS(body, "call i1 @__pkemu_range_ok(");
  EXPECT_HAS(body, "!nosanitize");
}

// Host-only code runs as native code (HostCode.cpp): its OpenMP regions (functions clang
// outlines) and the inline functions it calls carry no hooks, while a checked function's
// regions and device code keep theirs. Accesses inside a global variable, the built-in index
// variables included, are not instrumented (GlobalAccesses.cpp), volatile ones excepted.
TEST(HostCode, HostOnlyCodeIsNotInstrumented) {
  std::string text = emulator_ir("host_code", "-fopenmp");
  ASSERT_FALSE(text.empty());
  auto body_of = [&](const std::string& prefix) { return ir_body(text, prefix); };
  std::string host = body_of("define internal void @_Z10host_scalePfPKfi.omp_outlined");
  std::string checked = body_of("define internal void @_Z13checked_scalePfPKfi.omp_outlined");
  EXPECT_EQ(host.find("@__tsan_"), std::string::npos) << host;
  EXPECT_HAS(checked, "call void @__tsan_read4(");
  EXPECT_HAS(checked, "call void @__tsan_write4(");
  // count_wrong: operator[], isfinite and twice_at inlined, no hook anywhere.
  std::string wrong = body_of("@_Z11count_wrong");
  EXPECT_EQ(wrong.find("@__tsan_"), std::string::npos) << wrong;
  std::istringstream lines(wrong);
  for (std::string l; std::getline(lines, l);)
    if (l.find("call ") != std::string::npos) EXPECT_HAS(l, "@llvm.");  // intrinsics only
  // doubled: hooks for in[i] and out[i] only; spin: its volatile poll keeps its hook.
  std::string kernel = body_of("@_Z7doubledPfPKfi");
  EXPECT_EQ(count(kernel, "call void @__tsan_"), 2) << kernel;
  EXPECT_HAS(kernel, "call void @__tsan_read4(");
  EXPECT_HAS(kernel, "call void @__tsan_write4(");
  EXPECT_HAS(body_of("@_Z4spinPi"), "call void @__tsan_volatile_read4(");
}

TEST(HostCode, OpenMPThreadsRunAndAreChecked) {
  std::string exe = build("host_code", "cuda", 32, "-fopenmp");
  Result ok = run(exe, "ok");
  EXPECT_EQ(ok.rc, 0) << ok.out << ok.err;
  EXPECT_HAS(ok.out, "ok: team 2, 0 wrong");
  EXPECT_EQ(ok.err.find("pkemu: error"), std::string::npos) << ok.err;
  // The last OpenMP thread's share of a checked loop runs past the input: reported as host code.
  Result past = run(exe, "past");
  EXPECT_EQ(past.rc, 86) << past.out << past.err;
  EXPECT_HAS(past.err, "pkemu: error: out-of-bounds device memory access: host code at " + kSrc +
                          "/programs/" + at("host_code", "CHECKED_LINE") +
                          ": out-of-bounds device memory access in host code: ");
  EXPECT_HAS(past.err, " bytes at 0 bytes past the end of device buffer #1 (4000 bytes, allocated at ");
  EXPECT_HAS(past.out, "past: done");
}

TEST(RangeChecks, InBoundsLoopsComputeTheirResults) {
  std::string exe = build("range_checks", "cuda", 32);
  for (const char* s : {"dots", "down", "stride"}) {
    Result r = run(exe, s);
    EXPECT_EQ(r.rc, 0) << s << "\n" << r.out << r.err;
    EXPECT_HAS(r.out, std::string(s) + ": ok");
    EXPECT_EQ(r.err.find("pkemu: error"), std::string::npos) << r.err;
  }
}

TEST(RangeChecks, LoopPastTheEndIsReportedAtItsAccess) {
  Result r = run(build("range_checks", "cuda", 32), "dots_past");
  EXPECT_EQ(r.rc, 86) << r.out << r.err;
  EXPECT_HAS(r.err, at("range_checks", "DOT_LINE") + ": out-of-bounds device memory access in block (3,0,0): ");
  EXPECT_HAS(r.err, "reads 4 bytes at 0 bytes past the end of device buffer #1 (32768 bytes, allocated at ");
  EXPECT_HAS(r.err, at("range_checks", "A_LINE") + ")");
  EXPECT_HAS(r.out, "dots_past: ok");  // the rows inside the buffer are right
}

TEST(RangeChecks, BlockStrideLoopPastTheEndIsReportedAtItsAccess) {
  Result r = run(build("range_checks", "cuda", 32), "stride_past");
  EXPECT_EQ(r.rc, 86) << r.out << r.err;
  EXPECT_HAS(r.err, at("range_checks", "STRIDE_LINE") + ": out-of-bounds device memory access in block (0,0,0): ");
  EXPECT_HAS(r.err, "reads 4 bytes at 0 bytes past the end of device buffer #4 (4000 bytes, allocated at ");
  EXPECT_HAS(r.err, at("range_checks", "X_LINE") + ")");
  EXPECT_HAS(r.out, "stride_past: ok");
}

TEST(RangeChecks, LoopOverHostMemoryIsReported) {
  Result r = run(build("range_checks", "cuda", 32), "host");
  EXPECT_EQ(r.rc, 86) << r.out << r.err;
  EXPECT_HAS(r.err, at("range_checks", "DOT_LINE") + ": out-of-bounds device memory access");
  EXPECT_HAS(r.err, "which is not device memory");
}

TEST(RangeChecks, LoopsOverSharedMemoryKeepTheRaceCheck) {
  Result r = run(build("range_checks", "cuda", 32), "shared");
  EXPECT_EQ(r.rc, 86) << r.out << r.err;
  EXPECT_HAS(r.err, "pkemu: error: data race");
  EXPECT_HAS(r.err, at("range_checks", "SHARED_READ_LINE"));
  EXPECT_HAS(r.err, at("range_checks", "SHARED_WRITE_LINE"));
}

// Unrolled runs of reads at constant offsets from one address are checked by
// one call each (the plugin's read groups); results and reports stay those of
// one hook per read.
TEST(ReadGroups, UnrolledReadsAreCheckedOncePerGroup) {
  std::string text = emulator_ir("read_groups");
  std::string body = ir_body(text, "define dso_local void @_Z5tiled");
  // A row of As and a column of Bs: two groups of 16, each read behind its
  // hook.
  EXPECT_EQ(count(body, "call i1 @__pkemu_reads_quiet("), 2) << body;
  EXPECT_HAS(body, "!nosanitize");
  EXPECT_GE(count(body, "call void @__tsan_read4("), 32) << body;
  body = ir_body(text, "define dso_local void @_Z5eight");
  EXPECT_EQ(count(body, "call i1 @__pkemu_reads_quiet("), 1) << body;
}

TEST(ReadGroups, TiledProductIsRightAndClean) {
  Result r = run(build("read_groups", "cuda", 32), "tile");
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  EXPECT_HAS(r.out, "tile: 0 wrong");
  EXPECT_EQ(r.err.find("pkemu: error"), std::string::npos) << r.err;
  Result e = run(build("read_groups", "cuda", 32), "eight");
  EXPECT_EQ(e.rc, 0) << e.out << e.err;
  EXPECT_HAS(e.out, "eight: 0 wrong");
}

TEST(ReadGroups, RaceWithAGroupsReadIsReportedAtBothLines) {
  Result r = run(build("read_groups", "cuda", 32), "race");
  EXPECT_EQ(r.rc, 86) << r.out << r.err;
  EXPECT_HAS(r.err, "pkemu: error: data race");
  EXPECT_HAS(r.err, at("read_groups", "PRODUCT_LINE"));
  EXPECT_HAS(r.err, at("read_groups", "LATE_WRITE_LINE"));
}

TEST(ReadGroups, UninitialisedWordInAGroupIsReportedAtItsRead) {
  Result r = run(build("read_groups", "cuda", 32), "uninit");
  EXPECT_EQ(r.rc, 86) << r.out << r.err;
  EXPECT_HAS(r.err, "pkemu: error: uninitialised shared memory read: kernel "
                    "'half_row(float*)' at ");
  EXPECT_HAS(r.err, at("read_groups", "HALF_READ_LINE"));
  EXPECT_HAS(r.out, "uninit: done");
}

TEST(ReadGroups, GroupPastTheEndOfADeviceBufferIsReportedAtItsRead) {
  Result r = run(build("read_groups", "cuda", 32), "past");
  EXPECT_EQ(r.rc, 86) << r.out << r.err;
  EXPECT_HAS(r.err, at("read_groups", "EIGHT_LINE") +
                        ": out-of-bounds device memory access");
  EXPECT_HAS(r.err, "reads 4 bytes at 0 bytes past the end of device buffer #1 "
                    "(1024 bytes, allocated at ");
  EXPECT_HAS(r.err, at("read_groups", "P_LINE") + ")");
  EXPECT_HAS(r.out, "past: 0 wrong"); // the threads inside the buffer are right
}

// 32-bit divisions by launch constants go through a cache of their reciprocals (the plugin's
// fast division): bit-identical to the divide for every operand.
TEST(FastDivision, DivisionsByArgumentsUseTheReciprocalCache) {
  std::string body = ir_body(emulator_ir("fast_division"), "define dso_local void @_Z6divide");
  EXPECT_EQ(count(body, "call void @__pkemu_div_prepare("), 4) << body;
  EXPECT_HAS(body, "mul i128");
}

TEST(FastDivision, QuotientsAndRemaindersMatchTheHost) {
  Result r = run(build("fast_division", "cuda", 32));
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  EXPECT_HAS(r.out, "fast division: ok (0 wrong)");
  EXPECT_EQ(r.err.find("pkemu: error"), std::string::npos) << r.err;
}

TEST(DeviceBounds, PastTheEndOfBufferOverTwoGiB) {
  Result r = run(build("device_bounds", "cuda", 32), "big_past");
  EXPECT_EQ(r.rc, 86) << r.out << r.err;
  EXPECT_HAS(r.err, at("device_bounds", "BIG_LINE") + ": out-of-bounds device memory access");
  EXPECT_HAS(r.err, "reads 4 bytes at 4 bytes past the end of device buffer #4 (3221225472 bytes, allocated at ");
  // 2 GiB + 1 byte: its last byte (offset 2 GiB) is fine, the next one is reported.
  EXPECT_HAS(r.err, at("device_bounds", "BYTE_LINE") + ": out-of-bounds device memory access");
  EXPECT_HAS(r.err, "reads 1 bytes at 0 bytes past the end of device buffer #6 (2147483649 bytes");
  EXPECT_EQ(count(r.err, "pkemu: error: out-of-bounds device memory access"), 2) << r.err;
  EXPECT_HAS(r.out, "done");
}

TEST(DeviceBounds, PinnedHostMemoryAndDeviceVariablesAreAllowed) {
  // cudaMallocHost / cudaHostAlloc memory is device-accessible; so are __device__ variables.
  Result r = run(build("device_bounds", "cuda", 32), "pinned");
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  EXPECT_HAS(r.out, "pinned: ok");
  EXPECT_EQ(r.err.find("pkemu: error"), std::string::npos) << r.err;
}

TEST(DeviceBounds, HostMemoryFromMallocOrNewIsReported) {
  // A std::vector's data and a new'd int passed to kernels: no device memory.
  Result r = run(build("device_bounds", "cuda", 32), "host");
  EXPECT_EQ(r.rc, 86) << r.out << r.err;
  EXPECT_HAS(r.err, "pkemu: error: out-of-bounds device memory access: kernel 'read_host(float const*, float*)' at " +
                        kSrc + "/programs/" + at("device_bounds", "HOST_READ_LINE") +
                        ": out-of-bounds device memory access in block (0,0,0): thread 0 (threadIdx (0,0,0), warp 0 "
                        "lane 0) reads 4 bytes at 0x");
  EXPECT_HAS(r.err, ", which is not device memory: no cudaMalloc'd/hipMalloc'd buffer, pinned or registered host "
                    "memory, __device__ or __constant__ variable, shared memory or thread stack holds it");
  EXPECT_HAS(r.err, "kernel 'atomic_host(int*)' at " + kSrc + "/programs/" + at("device_bounds", "HOST_ATOMIC_LINE") +
                        ": out-of-bounds device memory access in block (0,0,0): thread 0 (threadIdx (0,0,0), warp 0 "
                        "lane 0) performs an atomic on 4 bytes at 0x");
  EXPECT_EQ(count(r.err, "pkemu: error:"), 2) << r.err;  // once per location
  EXPECT_HAS(r.out, "host: counter=4");
}

TEST(DeviceBounds, LocalsParametersSharedKernelMallocAndRegisteredHostMemoryAreAllowed) {
  Result r = run(build("device_bounds", "cuda", 32), "legal");
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  EXPECT_HAS(r.out, "legal: ok");
  EXPECT_EQ(r.err.find("pkemu: error"), std::string::npos) << r.err;
}

TEST(DeviceBounds, DeviceAndConstantArraysAreBoundsChecked) {
  std::string exe = build("device_bounds", "cuda", 32);
  Result ok = run(exe, "device_array");
  EXPECT_EQ(ok.rc, 0) << ok.out << ok.err;
  EXPECT_HAS(ok.out, "device array: 11 22 40 40 size=64");
  Result r = run(exe, "device_array_past");
  EXPECT_EQ(r.rc, 86) << r.out << r.err;
  EXPECT_HAS(r.err, "kernel 'read_device_array(float*, int)' at " + kSrc + "/programs/" +
                        at("device_bounds", "LUT_READ_LINE") +
                        ": out-of-bounds device memory access in block (0,0,0): thread 16 (threadIdx (16,0,0), warp 0 "
                        "lane 16) reads 4 bytes at 0 bytes past the end of the __device__/__constant__ variable "
                        "'dev_lut' (64 bytes, defined at " +
                        kSrc + "/programs/" + at("device_bounds", "LUT_LINE") + ")");
  EXPECT_HAS(r.err, "kernel 'write_constant_past(int)' at " + kSrc + "/programs/" +
                        at("device_bounds", "TAPS_WRITE_LINE") +
                        ": out-of-bounds device memory access in block (0,0,0): thread 0 (threadIdx (0,0,0), warp 0 "
                        "lane 0) writes 4 bytes at 0 bytes past the end of the __device__/__constant__ variable "
                        "'const_taps' (16 bytes");
}

TEST(DeviceBounds, CheckCanBeDisabled) {
  Result r = run(build("device_bounds", "cuda", 32), "past", "PKEMU_DEVICE_CHECK=0");
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.err.find("pkemu: error"), std::string::npos) << r.err;
}

// ---------------------------------------------------------------------------------------------
// Host API, atomics, dynamic shared memory, cudaLaunchKernel, cooperative groups.
TEST(Features, CudaHostApiAtomicsDynamicSharedLaunchKernelCg) {
  Result r = run(build("features", "cuda", 32));
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  EXPECT_HAS(r.out, "histogram: ok");
  EXPECT_HAS(r.out, "dynamic shared: ok");
  EXPECT_HAS(r.out, "cudaLaunchKernel result: ok");
  EXPECT_HAS(r.out, "cg reduce: ok");
  EXPECT_HAS(r.out, "cg binary/labeled partition: ok");
  EXPECT_HAS(r.out, "memory pools: ok");
  EXPECT_HAS(r.out, "PASS");
}

TEST(Features, HipHostApi) {
  std::string exe = build("hip_host", "hip", 64);
  for (const char* env : {"", "PKEMU_WARP_SIZE=32"}) {
    Result r = run(exe, "", env);
    EXPECT_EQ(r.rc, 0) << env << r.out << r.err;
    EXPECT_HAS(r.out, "PASS");
  }
}

TEST(Bench, ProgramRuns) {
  Result r = run(build("bench", "cuda", 32), "64 50 2 1");
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_HAS(r.out, "barrier_ns_per_thread=");
  EXPECT_HAS(r.out, "shuffle_ns_per_thread=");
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Blocks that wait on each other: resident blocks are scheduled cooperatively
// (runtime/workers.cpp); a grid that can only deadlock gets a report.
TEST(BlocksWait, GridBarrierOverCoResidentGridCompletes) {
  Result r = run(build("blocks_wait", "cuda", 32), "barrier", "PKEMU_TIMEOUT_S=60 PKEMU_WORKERS=2");
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  EXPECT_HAS(r.out, "arrived=40 passed=40");
}

TEST(BlocksWait, MoreBlocksThanResidentIsReportedAsDeadlock) {
  // Reported as a deadlock once nothing changes for a second, long before
  // the timeout.
  Result r = run(build("blocks_wait", "cuda", 32), "too_many", "PKEMU_TIMEOUT_S=60 PKEMU_WORKERS=2");
  EXPECT_EQ(r.rc, 86) << r.out << r.err;
  EXPECT_HAS(r.out, "resident=64");
  EXPECT_HAS(r.err, "pkemu: error: deadlock: kernel 'grid_barrier(unsigned int*, unsigned int*)' at " + kSrc + "/programs/" +
                        at("blocks_wait", "SPIN_LINE") + ": no thread can make progress");
  EXPECT_HAS(r.err, "64 resident blocks");
  EXPECT_HAS(r.err, at("blocks_wait", "SPIN_LINE") + "), waiting for a write that no running block makes");
  EXPECT_HAS(r.err, "0 of the grid's 65 blocks finished and 1 never started");
  EXPECT_HAS(r.err, "holds at most 64 resident blocks of 64 threads");
  EXPECT_HAS(r.err, "blocks that wait on each other deadlock unless the whole grid is resident at once");
}

TEST(BlocksWait, FlagNobodyWritesIsReportedAsDeadlock) {
  Result r = run(build("blocks_wait", "cuda", 32), "nobody", "PKEMU_TIMEOUT_S=60");
  EXPECT_EQ(r.rc, 86) << r.out << r.err;
  EXPECT_HAS(r.err, "pkemu: error: deadlock: kernel 'wait_flag(int volatile*, int*)'");
  EXPECT_HAS(r.err, "3 resident blocks (");
  EXPECT_HAS(r.err, "the program deadlocks");
}

TEST(BlocksWait, PlainMemoryPollingIsReportedEarly) {
  // while (flag[0] == 0) {} on an int*: the compiler reads the flag once and
  // the thread loops without a scheduling point; its registers never change.
  Result r = run(build("blocks_wait", "cuda", 32), "plain_poll", "PKEMU_TIMEOUT_S=60");
  EXPECT_EQ(r.rc, 86) << r.out << r.err;
  EXPECT_HAS(r.err, "pkemu: error: deadlock: kernel 'plain_poll(int*, int*)' at " + kSrc + "/programs/" + at("blocks_wait", "POLL_LINE") +
                        ": thread 0 (threadIdx (0,0,0)) of block (0,0,0) loops at " + kSrc + "/programs/" +
                        at("blocks_wait", "POLL_LINE"));
  EXPECT_HAS(r.err, "is a data race in CUDA and HIP");
  EXPECT_HAS(r.err, "declare the flag volatile, read it with an atomic, or put __threadfence() in the loop");
  EXPECT_EQ(r.out.find("not reached"), std::string::npos);
}

TEST(BlocksWait, GridSyncInCooperativeLaunch) {
  for (const char* env : {"PKEMU_WORKERS=2", "PKEMU_WORKERS=1"}) {
    Result r = run(build("blocks_wait", "cuda", 32), "grid_sync", env);
    EXPECT_EQ(r.rc, 0) << env << r.out << r.err;
    EXPECT_HAS(r.out, "coop attr=1 grid=24: ok");
  }
}

TEST(BlocksWait, CooperativeGridThatCannotBeResidentIsRefused) {
  Result r = run(build("blocks_wait", "cuda", 32), "coop_too_large", "PKEMU_WORKERS=2");
  EXPECT_EQ(r.rc, 86) << r.out << r.err;
  EXPECT_HAS(r.out, "resident=64 launch: cudaErrorCooperativeLaunchTooLarge");
  EXPECT_HAS(r.err, "pkemu: error: cooperative launch too large: kernel 'grid_phases(int*, int*, int*)' at " + kSrc + "/programs/" +
                        at("blocks_wait", "TOO_LARGE_LINE") +
                        ": cooperative launch of 65 blocks of 64 threads refused: the emulated device holds at most 64");
}

TEST(BlocksWait, GridSyncOutsideCooperativeLaunchIsReported) {
  Result r = run(build("blocks_wait", "cuda", 32), "grid_sync_plain");
  EXPECT_EQ(r.rc, 86) << r.out << r.err;
  EXPECT_HAS(r.err, "pkemu: error: unsupported launch: kernel 'grid_phases(int*, int*, int*)' at ");
  EXPECT_HAS(r.err, "grid_group::sync (this_grid().sync()) in block (");
  EXPECT_HAS(r.err, "not launched with cudaLaunchCooperativeKernel / hipLaunchCooperativeKernel");
}

TEST(BlocksWait, GridSyncNotReachedByEveryBlockIsReported) {
  Result r = run(build("blocks_wait", "cuda", 32), "grid_sync_partial", "PKEMU_TIMEOUT_S=60");
  EXPECT_EQ(r.rc, 86) << r.out << r.err;
  EXPECT_HAS(r.err, "pkemu: error: barrier divergence: kernel 'grid_partial(int*)' at " + kSrc + "/programs/" +
                        at("blocks_wait", "PARTIAL_LINE") + ": grid_group::sync reached by only part of the grid: ");
  EXPECT_HAS(r.err, "1 block finished without reaching it");
}

TEST(BlocksWait, CoalescedGroupsPerBranch) {
  Result r = run(build("blocks_wait", "cuda", 32), "coalesced");
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  // 13 odd lanes (1, 4, 6, ...) and 19 even ones (0, 2, 3, ...), each its own group.
  EXPECT_HAS(r.out, "0:-19,0,30,1f 1:13,0,1,1555 2:-19,1,30,1f ");
  EXPECT_HAS(r.out, "31:13,12,1,1555 ");
}

// The shims are no more permissive than ROCm's headers: a HIP port that calls
// rsqrtf from host code or assigns a float to hip_bfloat16 does not parse.
TEST(Parse, HipNoMorePermissiveThanRocm) {
  Result r = shell(std::string(PKEMU_TEST_CXX) + " -fsyntax-only -Wno-unknown-cuda-version -D PKEMU_PARSE -x hip " +
                   "-DPKEMU_LANG_HIP -nogpuinc -nogpulib --cuda-host-only -I" + PKEMU_TEST_SHIM +
                   " -include pkemu/prelude.h " + kSrc + "/parse/hip_permissive.hip");
  EXPECT_NE(r.rc, 0) << r.err;
  EXPECT_HAS(r.err, "hip_permissive.hip:10:12: error: no viable overloaded '='");  // BF16_ASSIGN_LINE
  EXPECT_HAS(r.err, "hip_permissive.hip:14:15: error: no matching function for call to 'rsqrtf'");  // HOST_RSQRT_LINE
}

// Disjoint lane groups each in a collective of their own: up to one pending
// collective per lane pair (W/2) in one warp.
TEST(Collectives, SixteenAndThirtyTwoGroupsInFlight) {
  struct Case {
    const char* lang;
    int build_warp;
    const char* env;
    int width;
  };
  for (Case c : {Case{"cuda", 32, "", 32}, Case{"hip", 64, "", 64}, Case{"hip", 64, "PKEMU_WARP_SIZE=32", 32}}) {
    std::string exe = build("many_collectives", c.lang, c.build_warp);
    for (int g : {16, 32}) {
      Result r = run(exe, std::to_string(g), c.env);
      EXPECT_EQ(r.rc, 0) << c.lang << " " << c.env << " " << g << "\n" << r.out << r.err;
      EXPECT_HAS(r.out, "groups=" + std::to_string(g) + " width=" + std::to_string(c.width) + " PASS");
      EXPECT_EQ(r.err.find("pkemu: error"), std::string::npos) << r.err;
    }
  }
}

// -ftrivial-auto-var-init=pattern (PKEMU_COMPILE_FLAGS): a local that only
// lane 0 assigns is broadcast exactly, so only lane 0 does the work.
TEST(GpuMeaning, LocalAssignedByOneLaneIsBroadcast) {
  for (const char* env : {"", "PKEMU_WORKERS=1"}) {
    Result r = run(build("gpu_meaning", "cuda", 32), "aggregate", env);
    EXPECT_EQ(r.rc, 0) << r.out << r.err;
    EXPECT_HAS(r.out, "aggregate: counter=128 slots=128");
    EXPECT_HAS(r.out, "aggregate_ballot: counter=40");
    EXPECT_EQ(r.err.find("pkemu: error"), std::string::npos) << r.err;
  }
}

// __activemask() after `if (i >= n) return;` holds only the surviving lanes
// (a warp-aggregated atomic over them), and per branch only that branch's.
TEST(GpuMeaning, ActiveMaskHoldsTheLanesThatReachIt) {
  for (const char* env : {"", "PKEMU_WORKERS=1"}) {
    Result r = run(build("gpu_meaning", "cuda", 32), "activemask", env);
    EXPECT_EQ(r.rc, 0) << r.out << r.err;
    EXPECT_HAS(r.out, "activemask: counter=70 after_exit=1 branches=116/16 PASS");
    EXPECT_EQ(r.err.find("pkemu: error"), std::string::npos) << r.err;
  }
}

// HIP's __ballot/__any/__all in the two branches of an if: each sees only its
// branch's lanes (AMD's EXEC mask), and after an early return only the lanes
// that stayed.
TEST(GpuMeaning, HipVotesHoldTheirBranchOnly) {
  for (const char* env : {"", "PKEMU_WORKERS=1"}) {
    Result r = run(build("hip_votes", "hip", 64), "", env);
    EXPECT_EQ(r.rc, 0) << r.out << r.err;
    EXPECT_HAS(r.out, "branch_votes: ballot=16/148 all=1 any=0");
    EXPECT_HAS(r.out, "ragged_ballot: 40");
    EXPECT_HAS(r.out, "hip_votes: PASS");
    EXPECT_EQ(r.err.find("pkemu: error"), std::string::npos) << r.err;
  }
}

// The pattern, not zero: a sum over an uninitialised accumulator stays wrong.
TEST(GpuMeaning, UninitialisedLocalIsAPatternNotZero) {
  Result r = run(build("gpu_meaning", "cuda", 32), "uninit_sum");
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  EXPECT_HAS(r.out, "uninit_sum: nan");
}

// helper_cuda.h-style host code: the __DRIVER_TYPES_H__ and
// __CUDA_RUNTIME_H__ guards, the attributes device selection reads, the
// three-argument cudaMallocHost, and cg::block_tile_memory.
TEST(Features, HelperHeaderStyleHostCode) {
  Result r = run(build("helper_style", "cuda", 32));
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  EXPECT_HAS(r.out, "device 0: mode 0 sm_90 ");
  EXPECT_HAS(r.out, " integrated 0");
  EXPECT_HAS(r.out, "using device 0: compute capability 9.0");
  EXPECT_HAS(r.out, "PASS");
  EXPECT_EQ(r.err.find("pkemu: error"), std::string::npos) << r.err;
}

// cuSPARSE and hipSPARSE (pkemu/sparse.h): CSR and COO, 32/64-bit indices,
// both bases, SpMV N/T, SpMM over both dense orders, bad calls' statuses.
TEST(Features, SparseLibraries) {
  for (auto lw : {std::pair<const char*, int>{"cuda", 32}, {"hip", 64}}) {
    Result r = run(build("sparse", lw.first, lw.second));
    EXPECT_EQ(r.rc, 0) << lw.first << "\n" << r.out << r.err;
    EXPECT_HAS(r.out, "coo spmv T, beta 0 over NaN: ok");
    EXPECT_HAS(r.out, "spmm T T, coo: ok");
    EXPECT_HAS(r.out, "column index out of range: invalid value: ok");
    EXPECT_HAS(r.out, "PASS");
    EXPECT_EQ(r.out.find("WRONG"), std::string::npos) << r.out;
  }
}

// PKEMU_ALLOW relaxes a check: its reports are still printed, with where they
// fire, as "allowed", and leave the exit status alone; other checks stay.
TEST(Errors, AllowRelaxesNamedChecksOnly) {
  std::string exe = build("errors", "cuda", 32);
  Result race = run(exe, "race", "PKEMU_ALLOW=race-shared");
  EXPECT_EQ(race.rc, 0) << race.err;
  EXPECT_HAS(race.err, "pkemu: allowed (race-shared): data race: kernel 'racy_reduce(float const*, float*)' at " +
                           kSrc + "/programs/" + at("errors", "vs[tid] += vs[tid + 32];") + ": data race");
  EXPECT_EQ(race.err.find("pkemu: error"), std::string::npos) << race.err;
  Result uninit = run(exe, "uninit", "PKEMU_ALLOW=race-shared,uninit-shared");
  EXPECT_EQ(uninit.rc, 0) << uninit.err;
  EXPECT_HAS(uninit.err, "pkemu: allowed (uninit-shared): uninitialised shared memory read: kernel 'uninit_shared(int*)' at " +
                             kSrc + "/programs/" + at("errors", "UNINIT_LINE") + ": read of uninitialised");
  // Not relaxed: the other check, and out-of-bounds accesses.
  Result strict = run(exe, "uninit", "PKEMU_ALLOW=race-shared");
  EXPECT_EQ(strict.rc, 86) << strict.err;
  EXPECT_HAS(strict.err, "pkemu: error: uninitialised shared memory read: kernel 'uninit_shared(int*)'");
  Result oob = run(exe, "oob", "PKEMU_ALLOW=race-shared,uninit-shared");
  EXPECT_EQ(oob.rc, 86) << oob.err;
  Result bad = run(exe, "race", "PKEMU_ALLOW=race-shared,races");
  EXPECT_EQ(bad.rc, 2) << bad.err;
  EXPECT_HAS(bad.err, "pkemu: error: PKEMU_ALLOW=race-shared,races: unknown check 'races' (checks that can be relaxed: "
                      "race-shared, uninit-shared)");
}

// Launches that repeat an earlier one exactly are replayed (runtime/replay.cpp): the
// results stay those of running every launch, and what is not a function of the kernel,
// configuration, arguments and device memory always runs.
namespace {
struct Replayed {
  Result r;
  long long replayed = -1;
};
Replayed run_replay(const std::string& scenario, const std::string& env = "") {
  std::string stats = kOut + "/replay-" + scenario + "-" + std::to_string(getpid()) + ".stats";
  Replayed out;
  // PKEMU_REPLAY=always: what is replayed does not depend on how long a launch took.
  out.r = run(build("replay", "cuda", 32), scenario,
              "PKEMU_STATS_FILE=" + stats + " " + (env.empty() ? "PKEMU_REPLAY=always" : env));
  std::string text = slurp(stats);
  size_t p = text.find(" replayed ");
  if (p != std::string::npos) out.replayed = std::atoll(text.c_str() + p + 10);
  unlink(stats.c_str());
  return out;
}
}  // namespace

TEST(Replay, IdenticalLaunchesAreReplayedWithTheSameResults) {
  Replayed x = run_replay("same");
  EXPECT_EQ(x.r.rc, 0) << x.r.out << x.r.err;
  EXPECT_HAS(x.r.out, "same: 0 wrong");
  EXPECT_EQ(x.replayed, 8);  // the first runs, the second is recorded
  Replayed off = run_replay("same", "PKEMU_REPLAY=0");
  EXPECT_HAS(off.r.out, "same: 0 wrong");
  EXPECT_EQ(off.replayed, 0);
}

TEST(Replay, ChangedMemoryOrArgumentsRunAgain) {
  Replayed c = run_replay("changed");
  EXPECT_EQ(c.r.rc, 0) << c.r.err;
  EXPECT_HAS(c.r.out, "changed: 0 wrong");
  EXPECT_GE(c.replayed, 1);
  Replayed k = run_replay("constant");  // a __constant__ variable written in between
  EXPECT_HAS(k.r.out, "constant: 0 wrong");
  EXPECT_EQ(k.replayed, 2);
  Replayed a = run_replay("args");
  EXPECT_HAS(a.r.out, "args: 0 wrong");
  EXPECT_EQ(a.replayed, 2);
  Replayed i = run_replay("inplace");  // reads what it wrote: never the same memory
  EXPECT_HAS(i.r.out, "inplace: 0 wrong");
  EXPECT_EQ(i.replayed, 0);
  Replayed v = run_replay("volatile");  // volatile shared memory is the block's own
  EXPECT_HAS(v.r.out, "volatile: 0 wrong");
  EXPECT_EQ(v.replayed, 4);
}

TEST(Replay, LaunchesWithEffectsAlwaysRun) {
  Replayed a = run_replay("atomic");
  EXPECT_HAS(a.r.out, "atomic: 24576");
  EXPECT_EQ(a.replayed, 0);
  Replayed p = run_replay("printf");
  EXPECT_EQ(count(p.r.out, "say 0"), 5) << p.r.out;
  EXPECT_EQ(p.replayed, 0);
  Replayed c = run_replay("clock");
  EXPECT_HAS(c.r.out, "clock: done");
  EXPECT_EQ(c.replayed, 0);
  Replayed h = run_replay("host");  // mapped host memory the host rewrites
  EXPECT_HAS(h.r.out, "host: 0 wrong");
  EXPECT_EQ(h.replayed, 0);
  Replayed sp = run_replay("spin");  // clock() in a kernel is the device's cycle counter
  EXPECT_EQ(sp.r.rc, 0) << sp.r.err;
  EXPECT_HAS(sp.r.out, "spin: waited enough, device clock in cycles, host clock in microseconds");
  Replayed f = run_replay("flag");  // a volatile read of device memory
  EXPECT_HAS(f.r.out, "flag: done");
  EXPECT_EQ(f.replayed, 0);
}

// The plugin's Effects pass marks calls outside the program (printf) and cycle-counter
// reads, and leaves a kernel of loads, arithmetic and stores alone.
TEST(Replay, EffectsPassMarksCallsOutsideTheProgram) {
  std::string text = emulator_ir("replay");
  std::string say = ir_body(text, "define dso_local void @_Z3sayPKf");
  EXPECT_HAS(say, "@pkemu_t_effects");
  EXPECT_HAS(say, "@printf(");
  std::string stamp = ir_body(text, "define dso_local void @_Z5stampPx");
  EXPECT_HAS(stamp, "@pkemu_t_effects");
  std::string spin = ir_body(text, "define dso_local void @_Z10spin_clockPl");
  EXPECT_HAS(spin, "call i64 @pkemu_clock()");
  EXPECT_EQ(spin.find("@clock()"), std::string::npos) << spin;
  std::string square = ir_body(text, "define dso_local void @_Z6squarePfPKfi");
  EXPECT_FALSE(square.empty());
  EXPECT_EQ(square.find("@pkemu_t_effects"), std::string::npos) << square;
  // The prelude's question is answered: this unit was built with the pass.
  EXPECT_EQ(text.find("call i32 @__pkemu_effects_pass_ran"), std::string::npos);
}

// CUDA's device assert (runtime/report.cpp, __assert_fail): the failing threads print in
// CUDA's format and stop, cudaErrorAssert is sticky, nothing launches after it; in host
// code assert stays the C library's.
TEST(DeviceAssert, FailingThreadsPrintAndTheErrorIsSticky) {
  for (int warp : {32, 64}) {
    Result r = run(build("device_assert", "cuda", warp), "fail");
    EXPECT_EQ(r.rc, 0) << r.out << r.err;
    EXPECT_EQ(count(r.err, "Assertion `v[i] < n` failed."), 4) << r.err;
    EXPECT_HAS(r.err, at("device_assert", "ASSERT_LINE") + ": void check(const int *, int, int *): block: [1,0,0], "
                                                           "thread: [28,0,0] Assertion `v[i] < n` failed.");
    EXPECT_HAS(r.out, "sync: cudaErrorAssert");
    EXPECT_HAS(r.out, "copy: cudaErrorAssert");
    EXPECT_HAS(r.out, "threads past the assert: 60");
    EXPECT_HAS(r.out, "relaunch: cudaErrorAssert");
    EXPECT_EQ(r.err.find("pkemu: error"), std::string::npos) << r.err;
  }
  Result ok = run(build("device_assert", "cuda", 32), "pass");
  EXPECT_EQ(ok.rc, 0) << ok.err;
  EXPECT_HAS(ok.out, "sync: cudaSuccess");
  EXPECT_HAS(ok.out, "threads past the assert: 64");
  EXPECT_HAS(ok.out, "relaunch: cudaSuccess");
}

TEST(DeviceAssert, HostAssertIsTheCLibrarys) {
  Result r = run(build("device_assert", "cuda", 32), "host");
  EXPECT_EQ(r.rc, 128 + 6) << r.out << r.err;  // SIGABRT
  EXPECT_HAS(r.err, at("device_assert", "HOST_ASSERT_LINE") + ": int main(int, char **): Assertion `argc > 5' failed.");
  EXPECT_EQ(r.out.find("not reached"), std::string::npos);
}

// Texture objects (pkemu/texture.h): each scenario compares the fetches with the CUDA
// Programming Guide's formulas computed on the host.
TEST(Texture, FetchesFollowTheGuidesFormulas) {
  std::string exe = build("texture", "cuda", 32);
  for (const char* s : {"point", "linear", "border", "wrap", "normalized_read", "linear_memory", "pitch2d", "volume"}) {
    Result r = run(exe, s);
    EXPECT_EQ(r.rc, 0) << s << "\n" << r.out << r.err;
    EXPECT_HAS(r.out, std::string(s) + ": 0 wrong");
    EXPECT_EQ(r.err.find("pkemu: error"), std::string::npos) << s << "\n" << r.err;
  }
}

TEST(Texture, LinearFilteringWeighsWithEightFractionalBits) {
  Result r = run(build("texture", "cuda", 32), "weights");
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_HAS(r.out, "weights: 0.33203125");  // 85/256, not 1/3
}

TEST(Texture, FetchThroughADestroyedObjectIsReported) {
  Result r = run(build("texture", "cuda", 32), "destroyed");
  EXPECT_EQ(r.rc, 86) << r.out << r.err;
  EXPECT_HAS(r.err, "pkemu: error: invalid texture object: kernel 'fetch_lin(int*, unsigned long long, int)'");
  EXPECT_HAS(r.err, "texture fetch through 1, which names no live texture object");
}

// libcu++'s cuda::barrier: phases order shared memory for the race checks as __syncthreads
// does, so an exchange through them is clean and one that skips a phase is a race.
TEST(CudaBarrier, PhasesOrderSharedMemory) {
  for (int warp : {32, 64}) {
    Result r = run(build("cuda_barrier", "cuda", warp), "rounds");
    EXPECT_EQ(r.rc, 0) << r.out << r.err;
    EXPECT_HAS(r.out, "rounds: 0 wrong");
    EXPECT_EQ(r.err.find("pkemu: error"), std::string::npos) << r.err;
  }
  Result racy = run(build("cuda_barrier", "cuda", 32), "racy");
  EXPECT_EQ(racy.rc, 86) << racy.out << racy.err;
  EXPECT_HAS(racy.err, "pkemu: error: data race");
  EXPECT_HAS(racy.err, at("cuda_barrier", "RACY_READ_LINE"));
  EXPECT_HAS(racy.err, at("cuda_barrier", "RACY_WRITE_LINE"));
}

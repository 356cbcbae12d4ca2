#!/usr/bin/env python3
# Builds and runs a GPU bundle written by `port-kernel validate --gpu-bundle`
# (or by `validate --gpu`, which runs it itself).  Needs only python3, bash and
# nvcc; no port-kernel and no LLVM.  See docs/validate.md, "On an NVIDIA GPU".
#
# For each entry of manifest.json and each variant (the original source and
# its CUDA port): build the driver with nvcc -O3 -arch=ARCH, run it on the
# GPU, read its result line (the comparison with the CPU reference) and its
# timing line (CUDA events, median of repeats), print a table and write
# results.json.  Programs (mode "program") are run whole, timed by wall
# clock, and kernel by kernel in their first run by the KPROF profiler.  Exit status: 0 every variant passed (or was skipped),
# 1 something failed, 2 usage error, 3 no nvcc or no usable NVIDIA GPU.
import argparse
import concurrent.futures
import datetime
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

PROBE = r"""
#include <cstdio>
#include <cuda_runtime.h>
int main() {
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    std::printf("{\"ok\":false,\"reason\":\"%s\"}\n", cudaGetErrorString(e));
    return 1;
  }
  if (n == 0) {
    std::printf("{\"ok\":false,\"reason\":\"no CUDA device\"}\n");
    return 1;
  }
  cudaDeviceProp p;
  if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) {
    std::printf("{\"ok\":false,\"reason\":\"cannot read device 0\"}\n");
    return 1;
  }
  int rt = 0, drv = 0;
  cudaRuntimeGetVersion(&rt);
  cudaDriverGetVersion(&drv);
  std::printf("{\"ok\":true,\"name\":\"%s\",\"major\":%d,\"minor\":%d,"
              "\"count\":%d,\"runtime\":%d,\"driver_api\":%d,"
              "\"memory_mib\":%llu}\n",
              p.name, p.major, p.minor, n, rt, drv,
              (unsigned long long)(p.totalGlobalMem >> 20));
  return 0;
}
"""


# The pair runner: one process per case that loads the drivers of the
# original and of the port (shared libraries built with -DPKV_GPU_PAIR, see
# pkv_gpu.h) and times their kernels interleaved.
PAIR = r"""
// The pair runner of a GPU bundle: loads the drivers of a case's variants
// (shared libraries built with -DPKV_GPU_PAIR) into one process, runs their
// mains in threads up to the timed launch, times the kernels interleaved
// (sample of one variant, sample of the other, order swapped every round),
// prints one timing line per variant and the pair's ratio, then lets each
// driver finish (compared launch, result line) one after the other.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

struct pkv_gpu_launcher {
  void *self;
  int (*run)(void *self, int n, cudaStream_t stream);
  int regs;
  long long local_bytes, static_shared_bytes;
};
typedef int (*pkv_gpu_hook)(void *ctx, const pkv_gpu_launcher *l);

namespace {

std::mutex M;
std::condition_variable CV;

struct Variant {
  std::string Name, Path;
  void *Lib = nullptr;
  int (*Main)() = nullptr;
  std::thread Thread;
  const pkv_gpu_launcher *L = nullptr;
  bool Posted = false, Finished = false, Go = false;
  int Rc = 0;
  std::vector<float> Ms;
};

int hook(void *Ctx, const pkv_gpu_launcher *L) {
  Variant &V = *static_cast<Variant *>(Ctx);
  std::unique_lock<std::mutex> G(M);
  V.L = L;
  V.Posted = true;
  CV.notify_all();
  CV.wait(G, [&] { return V.Go; });
  return 0;
}

int envInt(const char *Name, int Default) {
  const char *V = std::getenv(Name);
  return V && *V ? std::atoi(V) : Default;
}

bool ok(cudaError_t E, const char *What) {
  if (E == cudaSuccess)
    return true;
  std::fprintf(stderr, "pkv_pair: %s: %s\n", What, cudaGetErrorString(E));
  return false;
}

__global__ void spin(unsigned long long Ns) {
  unsigned long long T0, T;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(T0));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(T));
  } while (T - T0 < Ns);
}

void trace(const char *What) {
  static const bool On = std::getenv("PKV_PAIR_TRACE") != nullptr;
  if (On)
    std::fprintf(stderr, "pkv_pair: %s\n", What);
}

float median(std::vector<float> X) {
  if (X.empty())
    return 0;
  std::sort(X.begin(), X.end());
  size_t N = X.size();
  return N % 2 ? X[N / 2] : 0.5f * (X[N / 2 - 1] + X[N / 2]);
}

} // namespace

int main(int argc, char **argv) {
  // argv: NAME=LIBRARY ...
  std::vector<Variant> Vs(argc - 1);
  for (int I = 1; I < argc; ++I) {
    const char *Eq = std::strchr(argv[I], '=');
    if (!Eq) {
      std::fprintf(stderr, "usage: %s NAME=LIBRARY...\n", argv[0]);
      return 2;
    }
    Vs[I - 1].Name = std::string(argv[I], Eq - argv[I]);
    Vs[I - 1].Path = Eq + 1;
  }
  for (Variant &V : Vs) {
    V.Lib = dlopen(V.Path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!V.Lib) {
      std::printf("\n{\"pkv_pair_error\":1,\"variant\":\"%s\",\"message\":"
                  "\"cannot load the driver\"}\n",
                  V.Name.c_str());
      std::fprintf(stderr, "pkv_pair: %s\n", dlerror());
      return 4;
    }
    auto Set = (void (*)(pkv_gpu_hook, void *))dlsym(V.Lib,
                                                     "pkv_gpu_set_hook");
    V.Main = (int (*)())dlsym(V.Lib, "main");
    if (!Set || !V.Main) {
      std::fprintf(stderr, "pkv_pair: %s: no pkv_gpu_set_hook or main\n",
                   V.Path.c_str());
      return 4;
    }
    Set(&hook, &V);
  }
  trace("loaded");
  ok(cudaFree(nullptr), "initialising CUDA");
  trace("CUDA initialised");
  for (Variant &V : Vs)
    V.Thread = std::thread([&V] {
      int Rc = V.Main();
      std::lock_guard<std::mutex> G(M);
      V.Rc = Rc;
      V.Finished = true;
      CV.notify_all();
    });
  std::vector<Variant *> T; // the variants that reached their launch
  {
    std::unique_lock<std::mutex> G(M);
    const int WaitS = std::max(1, envInt("PKV_PAIR_WAIT_S", 300));
    if (!CV.wait_for(G, std::chrono::seconds(WaitS), [&] {
          for (Variant &V : Vs)
            if (!V.Posted && !V.Finished)
              return false;
          return true;
        })) {
      std::fprintf(stderr,
                   "pkv_pair: a driver neither reached its launch nor "
                   "finished within %d s\n",
                   WaitS);
      std::fflush(stdout);
      std::_Exit(4);
    }
    for (Variant &V : Vs)
      if (V.Posted)
        T.push_back(&V);
  }
  trace("every driver at its launch");

  const int Warmup = std::max(0, envInt("PKV_GPU_WARMUP", 5));
  const int Repeats = std::max(0, envInt("PKV_GPU_REPEATS", 41));
  int Batch = std::max(0, envInt("PKV_GPU_BATCH", 0));
  const int WarmupMs = std::max(0, envInt("PKV_GPU_WARMUP_MS", 100));
  const int SpinMs = std::max(0, envInt("PKV_GPU_SPIN_MS", 3));
  const cudaStream_t S = 0;
  cudaEvent_t E0, E1;
  bool Ok = !T.empty() && ok(cudaEventCreate(&E0), "cudaEventCreate") &&
            ok(cudaEventCreate(&E1), "cudaEventCreate");
  auto Launch = [&](Variant *V, int N) {
    return V->L->run(V->L->self, N, S) == 0;
  };
  // Warm-up: every variant, alternating, at least Warmup launches each and
  // WarmupMs milliseconds in all.
  const auto T0 = std::chrono::steady_clock::now();
  for (Variant *V : T)
    Ok = Ok && Launch(V, Warmup);
  Ok = Ok && ok(cudaStreamSynchronize(S), "warm-up run");
  while (Ok && std::chrono::duration<double, std::milli>(
                   std::chrono::steady_clock::now() - T0)
                       .count() < WarmupMs) {
    for (Variant *V : T)
      Ok = Ok && Launch(V, 32);
    Ok = Ok && ok(cudaStreamSynchronize(S), "warm-up run");
  }
  auto Sample = [&](Variant *V, int N, float &Ms) {
    if (SpinMs)
      spin<<<1, 1, 0, S>>>(1000000ull * (unsigned long long)SpinMs);
    cudaEventRecord(E0, S);
    if (!Launch(V, N))
      return false;
    cudaEventRecord(E1, S);
    if (!ok(cudaEventSynchronize(E1), "timed run") ||
        !ok(cudaGetLastError(), "timed launch"))
      return false;
    float Tm = 0;
    cudaEventElapsedTime(&Tm, E0, E1);
    Ms = Tm / (float)N;
    return true;
  };
  if (Ok && Batch == 0) {
    // About half a millisecond of the fastest variant's kernels per sample,
    // the same count for every variant.
    float Fastest = 0;
    for (Variant *V : T) {
      float One = 0;
      Ok = Ok && Sample(V, 1, One);
      if (Ok && One > 0 && (Fastest == 0 || One < Fastest))
        Fastest = One;
    }
    Batch = Fastest > 0 ? (int)std::ceil(0.5f / Fastest) : 200;
    Batch = std::min(200, std::max(1, Batch));
  }
  std::vector<float> Ratio; // first variant's time / last variant's, per round
  for (int R = 0; Ok && R < Repeats; ++R) {
    std::vector<Variant *> Order = T;
    if (R % 2)
      std::reverse(Order.begin(), Order.end());
    for (Variant *V : Order) {
      float Ms = 0;
      Ok = Ok && Sample(V, Batch, Ms);
      if (Ok)
        V->Ms.push_back(Ms);
    }
    if (Ok && T.size() > 1 && T.back()->Ms.back() > 0)
      Ratio.push_back(T.front()->Ms.back() / T.back()->Ms.back());
  }
  if (Ok && Repeats > 0) {
    for (Variant *V : T) {
      const auto MM = std::minmax_element(V->Ms.begin(), V->Ms.end());
      std::printf("\n{\"pkv_gpu\":1,\"variant\":\"%s\",\"ms\":%.6g,"
                  "\"min\":%.6g,\"max\":%.6g,\"warmup\":%d,\"warmup_ms\":%d,"
                  "\"spin_ms\":%d,\"repeats\":%d,\"batch\":%d,\"regs\":%d,"
                  "\"local_bytes\":%lld,\"static_shared_bytes\":%lld,"
                  "\"in_process\":%d}\n",
                  V->Name.c_str(), median(V->Ms), *MM.first, *MM.second,
                  Warmup, WarmupMs, SpinMs, Repeats, Batch, V->L->regs,
                  V->L->local_bytes, V->L->static_shared_bytes,
                  (int)T.size());
    }
    if (!Ratio.empty()) {
      const auto MM = std::minmax_element(Ratio.begin(), Ratio.end());
      std::printf("\n{\"pkv_gpu_pair\":1,\"first\":\"%s\",\"last\":\"%s\","
                  "\"ratio\":%.6g,\"min\":%.6g,\"max\":%.6g,\"rounds\":%d,"
                  "\"batch\":%d}\n",
                  T.front()->Name.c_str(), T.back()->Name.c_str(),
                  median(Ratio), *MM.first, *MM.second, (int)Ratio.size(),
                  Batch);
    }
    std::fflush(stdout);
  }
  trace("timed");
  if (T.size())
    cudaEventDestroy(E0), cudaEventDestroy(E1);
  // Each driver finishes in turn: restores its buffers, runs the compared
  // launch, prints its result line.
  int Rc = 0;
  for (Variant &V : Vs) {
    {
      std::unique_lock<std::mutex> G(M);
      V.Go = true;
      CV.notify_all();
      CV.wait(G, [&] { return V.Finished; });
    }
    V.Thread.join();
    trace("a driver finished");
    std::fflush(stdout);
    Rc = std::max(Rc, V.Rc);
  }
  trace("done");
  return Ok || T.empty() ? Rc : std::max(Rc, 3);
}
"""

# The kernel profiler of program mode: a library put in front of the CUDA
# runtime with LD_PRELOAD (programs are built with -cudart shared) that times
# every kernel launch with CUDA events on the launch's stream and, at exit,
# writes one JSON line per kernel to $PKV_KPROF_OUT.
KPROF = r"""
// pkv_kprof: per-kernel timing of a whole program.  Wraps cudaLaunchKernel,
// cudaLaunchKernelExC and, what <<<>>> calls from CUDA 13 on,
// __cudaLaunchKernel (and their _ptsz forms): an event is recorded on the
// launch's stream before and after the real call; kernels are named with
// cudaFuncGetName (CUDA >= 12.3), for a kernel handle with the driver's
// cuKernelGetName, demangled; else by address.  Finished events
// are harvested at later launches; the rest at exit (and before
// cudaDeviceReset), when one JSON line per kernel goes to $PKV_KPROF_OUT:
// {"pkv_kprof":1,"kernel":...,"launches":N,"timed":K,"total_ms":...,
//  "median_ms":...,"min_ms":...,"max_ms":...}
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <cxxabi.h>
#include <deque>
#include <dlfcn.h>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace {

struct Pending {
  const void *Func;
  cudaEvent_t Start, Stop;
};
struct Kernel {
  std::string Name;
  long long Launches = 0;
  std::vector<float> Ms;
};

std::recursive_mutex M;
std::deque<Pending> Queue;
std::vector<cudaEvent_t> Free;
std::map<const void *, Kernel> Kernels;
bool Registered = false, Flushed = false, Busy = false;

// The kernel's name. Handle is true when F is a cudaKernel_t (a CUkernel,
// named through the driver's cuKernelGetName), false when F is the address
// of a host stub (named through cudaFuncGetName).
std::string nameOf(const void *F, bool Handle) {
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, "kernel@%p", F);
  std::string N = Buf;
#if CUDART_VERSION >= 12030
  const char *S = nullptr;
  bool Got = false;
  if (Handle) {
    using GetName = int (*)(const char **, const void *);
    static GetName G = [] {
      void *L = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
      if (!L)
        L = dlopen("libcuda.so.1", RTLD_NOW);
      return L ? reinterpret_cast<GetName>(dlsym(L, "cuKernelGetName"))
               : nullptr;
    }();
    Got = G && G(&S, F) == 0;
  }
  if (!Got)
    Got = cudaFuncGetName(&S, F) == cudaSuccess;
  if (Got && S && *S) {
    int St = 0;
    char *D = abi::__cxa_demangle(S, nullptr, nullptr, &St);
    N = (D && St == 0) ? D : S;
    std::free(D);
  }
#endif
  return N;
}

cudaEvent_t event() {
  if (!Free.empty()) {
    cudaEvent_t E = Free.back();
    Free.pop_back();
    return E;
  }
  cudaEvent_t E = nullptr;
  if (cudaEventCreate(&E) != cudaSuccess)
    return nullptr;
  return E;
}

// Moves finished launches (or, with Wait, all of them) into Kernels.
void harvest(bool Wait) {
  while (!Queue.empty()) {
    Pending P = Queue.front();
    cudaError_t Q = Wait ? cudaEventSynchronize(P.Stop)
                         : cudaEventQuery(P.Stop);
    if (Q == cudaErrorNotReady)
      return;
    Queue.pop_front();
    float Ms = 0;
    if (Q == cudaSuccess && cudaEventElapsedTime(&Ms, P.Start, P.Stop) ==
                                cudaSuccess)
      Kernels[P.Func].Ms.push_back(Ms);
    Free.push_back(P.Start);
    Free.push_back(P.Stop);
  }
}

std::string jsonString(const std::string &S) {
  std::string O = "\"";
  for (unsigned char C : S) {
    if (C == '"' || C == '\\') {
      O += '\\';
      O += (char)C;
    } else if (C < 0x20) {
      char B[8];
      std::snprintf(B, sizeof B, "\\u%04x", C);
      O += B;
    } else {
      O += (char)C;
    }
  }
  return O + "\"";
}

void flush() {
  std::lock_guard<std::recursive_mutex> L(M);
  if (Flushed)
    return;
  Flushed = true;
  harvest(true);
  const char *Path = std::getenv("PKV_KPROF_OUT");
  if (!Path || !*Path)
    return;
  FILE *F = std::fopen(Path, "a");
  if (!F)
    return;
  for (auto &KV : Kernels) {
    Kernel &K = KV.second;
    std::vector<float> V = K.Ms;
    std::sort(V.begin(), V.end());
    double Total = 0;
    for (float X : V)
      Total += X;
    double Med = 0;
    if (!V.empty())
      Med = V.size() % 2 ? V[V.size() / 2]
                         : (V[V.size() / 2 - 1] + V[V.size() / 2]) / 2.0;
    std::fprintf(F,
                 "{\"pkv_kprof\":1,\"kernel\":%s,\"launches\":%lld,"
                 "\"timed\":%zu,\"total_ms\":%.6f,\"median_ms\":%.6f,"
                 "\"min_ms\":%.6f,\"max_ms\":%.6f}\n",
                 jsonString(K.Name).c_str(), K.Launches, V.size(), Total, Med,
                 V.empty() ? 0.0 : V.front(), V.empty() ? 0.0 : V.back());
  }
  std::fclose(F);
}

// The output file exists from the start: a program that launches nothing
// leaves it empty; a missing file means the profiler was not loaded.
__attribute__((constructor)) void start() {
  const char *Path = std::getenv("PKV_KPROF_OUT");
  if (Path && *Path)
    if (FILE *F = std::fopen(Path, "w"))
      std::fclose(F);
}

template <typename Fn> Fn real(const char *Name) {
  return reinterpret_cast<Fn>(dlsym(RTLD_NEXT, Name));
}

// Records around Call() on Stream; Call returns the launch's status.
template <typename CallT>
cudaError_t timed(const void *Func, cudaStream_t Stream, CallT Call,
                  bool Handle = false) {
  std::lock_guard<std::recursive_mutex> L(M);
  if (Busy || Flushed)
    return Call(); // a launch from inside our own calls, or after exit
  Busy = true;
  if (!Registered) {
    // After the runtime's own exit handlers were registered (it is
    // initialised by now), so that this one runs before them.
    Registered = true;
    std::atexit(flush);
  }
  harvest(false);
  Kernel &K = Kernels[Func];
  if (K.Name.empty())
    K.Name = nameOf(Func, Handle);
  cudaEvent_t A = event(), B = A ? event() : nullptr;
  bool Rec = A && B && cudaEventRecord(A, Stream) == cudaSuccess;
  cudaError_t R = Call();
  if (R == cudaSuccess) {
    ++K.Launches;
    if (Rec && cudaEventRecord(B, Stream) == cudaSuccess)
      Queue.push_back({Func, A, B});
    else
      Rec = false;
  } else {
    Rec = false;
  }
  if (!Rec) {
    if (A)
      Free.push_back(A);
    if (B)
      Free.push_back(B);
  }
  Busy = false;
  return R;
}

} // namespace

extern "C" {

cudaError_t cudaLaunchKernel(const void *F, dim3 G, dim3 B, void **Args,
                             size_t Sh, cudaStream_t S) {
  using Fn = cudaError_t (*)(const void *, dim3, dim3, void **, size_t,
                             cudaStream_t);
  static Fn Real = real<Fn>("cudaLaunchKernel");
  return timed(F, S, [&] { return Real(F, G, B, Args, Sh, S); });
}

cudaError_t cudaLaunchKernel_ptsz(const void *F, dim3 G, dim3 B, void **Args,
                                  size_t Sh, cudaStream_t S) {
  using Fn = cudaError_t (*)(const void *, dim3, dim3, void **, size_t,
                             cudaStream_t);
  static Fn Real = real<Fn>("cudaLaunchKernel_ptsz");
  // Stream 0 of a per-thread default stream build: record on the
  // per-thread stream.
  cudaStream_t On = S ? S : cudaStreamPerThread;
  return timed(F, On, [&] { return Real(F, G, B, Args, Sh, S); });
}

cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *C, const void *F,
                                void **Args) {
  using Fn = cudaError_t (*)(const cudaLaunchConfig_t *, const void *,
                             void **);
  static Fn Real = real<Fn>("cudaLaunchKernelExC");
  return timed(F, C ? C->stream : nullptr,
               [&] { return Real(C, F, Args); });
}

#if CUDART_VERSION >= 12000
cudaError_t __cudaLaunchKernel(cudaKernel_t K, dim3 G, dim3 B, void **Args,
                               size_t Sh, cudaStream_t S) {
  using Fn = cudaError_t (*)(cudaKernel_t, dim3, dim3, void **, size_t,
                             cudaStream_t);
  static Fn Real = real<Fn>("__cudaLaunchKernel");
  return timed(
      (const void *)K, S, [&] { return Real(K, G, B, Args, Sh, S); }, true);
}

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t K, dim3 G, dim3 B,
                                    void **Args, size_t Sh, cudaStream_t S) {
  using Fn = cudaError_t (*)(cudaKernel_t, dim3, dim3, void **, size_t,
                             cudaStream_t);
  static Fn Real = real<Fn>("__cudaLaunchKernel_ptsz");
  return timed(
      (const void *)K, S ? S : cudaStreamPerThread,
      [&] { return Real(K, G, B, Args, Sh, S); }, true);
}
#endif

cudaError_t cudaDeviceReset() {
  using Fn = cudaError_t (*)();
  static Fn Real = real<Fn>("cudaDeviceReset");
  flush();
  return Real();
}

} // extern "C"
"""


def eprint(*a):
    print(*a, file=sys.stderr, flush=True)


def find_nvcc(given):
    if given:  # an explicit choice, no fallback
        w = shutil.which(given)
        return w if w and os.access(w, os.X_OK) else None
    cands = []
    if os.environ.get("NVCC"):
        cands.append(os.environ["NVCC"])
    w = shutil.which("nvcc")
    if w:
        cands.append(w)
    for var in ("CUDA_HOME", "CUDA_PATH"):
        if os.environ.get(var):
            cands.append(os.path.join(os.environ[var], "bin", "nvcc"))
    cands.append("/usr/local/cuda/bin/nvcc")
    for c in cands:
        if os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return None


def nvcc_version(nvcc):
    try:
        out = subprocess.run([nvcc, "--version"], capture_output=True,
                             text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return ""
    m = re.search(r"release ([0-9.]+), (V[0-9.]+)", out)
    return m.group(1) + " (" + m.group(2) + ")" if m else out.strip()[-40:]


def nvidia_smi():
    """GPU name, driver and compute capability as nvidia-smi reports them."""
    smi = shutil.which("nvidia-smi")
    if not smi:
        return None
    try:
        r = subprocess.run([smi, "--query-gpu=name,driver_version,compute_cap",
                            "--format=csv,noheader"], capture_output=True,
                           text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if r.returncode != 0 or not r.stdout.strip():
        return None
    parts = [p.strip() for p in r.stdout.strip().splitlines()[0].split(",")]
    return {"name": parts[0], "driver": parts[1] if len(parts) > 1 else "",
            "compute_cap": parts[2] if len(parts) > 2 else ""}


def probe(nvcc, build):
    """Builds and runs a device query; returns (info, reason)."""
    os.makedirs(build, exist_ok=True)
    src = os.path.join(build, "probe.cu")
    exe = os.path.join(build, "probe")
    with open(src, "w") as f:
        f.write(PROBE)
    r = subprocess.run([nvcc, "-o", exe, src], capture_output=True, text=True)
    if r.returncode != 0:
        return None, "nvcc cannot build a device query: " + \
            (r.stderr.strip().splitlines() or ["?"])[-1]
    try:
        r = subprocess.run([exe], capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return None, "the device query hung"
    line = (r.stdout.strip().splitlines() or [""])[-1]
    try:
        info = json.loads(line)
    except ValueError:
        info = {"ok": False, "reason": "device query exit status %d" %
                r.returncode}
    if not info.get("ok"):
        return None, info.get("reason", "unknown")
    return info, ""


def run_bounded(cmd, cwd, env, timeout):
    """(returncode, stdout, stderr, timed_out)"""
    try:
        r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True,
                           text=True, errors="replace",
                           timeout=timeout or None)
        return r.returncode, r.stdout, r.stderr, False
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(
            e.stdout, bytes) else (e.stdout or "")
        err = e.stderr.decode(errors="replace") if isinstance(
            e.stderr, bytes) else (e.stderr or "")
        return None, out, err, True


def json_lines(text, key):
    found = None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("{\"" + key + "\":"):
            try:
                found = json.loads(line)
            except ValueError:
                pass
    return found


def error_summary(log, n=6):
    lines = [l.rstrip() for l in log.splitlines() if "error" in l]
    if not lines:
        lines = [l.rstrip() for l in log.splitlines() if l.strip()][-n:]
    return "\n".join(lines[:n])


def num(x):
    if isinstance(x, str):
        return {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}.get(x, 0)
    return x


def jnum(x):
    if isinstance(x, float) and not math.isfinite(x):
        return "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf")
    return x


class Cell:
    def __init__(self, variant):
        self.variant = variant
        self.status = "fail"
        self.kind = ""
        self.reason = ""
        self.detail = ""
        self.outputs = []
        self.timing = None
        self.exit_code = 0
        self.seconds = 0.0
        self.exe = None
        self.ms_runs = []
        self.kernels = None
        self.kernels_unavailable = ""

    def json(self):
        o = {"variant": self.variant, "status": self.status}
        for k in ("kind", "reason", "detail"):
            if getattr(self, k):
                o[k] = getattr(self, k)
        if self.outputs:
            o["max_abs"] = jnum(max(num(x["max_abs"]) for x in self.outputs))
            o["max_rel"] = jnum(max(num(x["max_rel"]) for x in self.outputs))
            o["outputs"] = [{k: x[k] for k in (
                "name", "count", "mismatches", "nan_mismatches", "max_abs",
                "max_rel", "first_bad") if k in x} for x in self.outputs]
        if self.timing:
            o["ms"] = self.timing["ms"]
            o["timing"] = self.timing
        if self.kernels is not None:
            o["kernels"] = self.kernels
        o["exit_code"] = self.exit_code
        o["seconds"] = round(self.seconds, 3)
        return o


def cuda_lib_dir(nvcc):
    """The toolkit's library directory (rpath of what nvcc links here)."""
    root = os.path.dirname(os.path.dirname(os.path.realpath(nvcc)))
    for d in ("lib64", "lib", os.path.join("targets", "x86_64-linux", "lib")):
        if os.path.isdir(os.path.join(root, d)):
            return os.path.join(root, d)
    return os.path.join(root, "lib64")


def shared_flags(nvcc):
    """One CUDA runtime for every library of the pair runner's process."""
    lib = cuda_lib_dir(nvcc)
    return ["-cudart", "shared", "-Xlinker", "-rpath", "-Xlinker", lib]


def build_pair(args, nvcc, arch):
    """Builds the pair runner; returns (executable, error summary)."""
    os.makedirs(args.build_dir, exist_ok=True)
    src = os.path.join(args.build_dir, "pkv_pair.cu")
    exe = os.path.join(args.build_dir, "pkv_pair")
    with open(src, "w") as f:
        f.write(PAIR)
    cmd = [nvcc, "-O3", "-std=c++17", "-arch=" + arch, "-o", exe] + \
        shared_flags(nvcc) + [src, "-ldl", "-lpthread"]
    rc, out, err, to = run_bounded(cmd, args.build_dir, None, args.timeout)
    with open(exe + ".log", "w") as f:
        f.write(" ".join(cmd) + "\n" + out + err)
    if to:
        return None, "nvcc timed out after %d s building the pair runner" % \
            args.timeout
    if rc != 0:
        return None, "the pair runner does not compile: " + \
            (error_summary(out + err).splitlines() or ["nvcc exit %d" % rc])[0]
    return exe, ""


def build_kprof(args, nvcc, arch):
    """Builds the kernel profiler of program mode (KPROF); returns (shared
    library, error summary)."""
    os.makedirs(args.build_dir, exist_ok=True)
    src = os.path.join(args.build_dir, "pkv_kprof.cu")
    lib = os.path.join(args.build_dir, "pkv_kprof.so")
    with open(src, "w") as f:
        f.write(KPROF)
    cmd = [nvcc, "-O2", "-std=c++17", "-arch=" + arch, "-shared",
           "-Xcompiler", "-fPIC", "-o", lib] + shared_flags(nvcc) + \
        [src, "-ldl"]
    rc, out, err, to = run_bounded(cmd, args.build_dir, None, args.timeout)
    with open(lib + ".log", "w") as f:
        f.write(" ".join(cmd) + "\n" + out + err)
    if to:
        return None, "nvcc timed out after %d s building the kernel " \
            "profiler" % args.timeout
    if rc != 0:
        return None, "the kernel profiler does not compile: " + \
            (error_summary(out + err).splitlines() or ["nvcc exit %d" % rc])[0]
    return lib, ""


def read_kprof(path):
    """The profiler's lines: [{kernel, launches, timed, total_ms, ...}];
    None when it wrote no file (it was not loaded)."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return None
    out = []
    for line in text.splitlines():
        if line.startswith("{\"pkv_kprof\":"):
            try:
                d = json.loads(line)
            except ValueError:
                continue
            if isinstance(d, dict) and isinstance(d.get("kernel"), str):
                out.append({k: d[k] for k in (
                    "kernel", "launches", "timed", "total_ms", "median_ms",
                    "min_ms", "max_ms") if k in d})
    return out


def kernel_rows(orig, port, port_name):
    """Per-kernel comparison of two variants' profiles, by kernel name:
    [{kernel, original, PORT_NAME, ratio original / port of the medians}]."""
    a = {k["kernel"]: k for k in (orig or [])}
    b = {k["kernel"]: k for k in (port or [])}
    rows = []
    for name in sorted(set(a) | set(b)):
        r = {"kernel": name, "original": a.get(name), port_name: b.get(name),
             "ratio": None}
        x, y = a.get(name), b.get(name)
        if x and y and x.get("timed") and y.get("timed") and \
                y["median_ms"] > 0:
            r["ratio"] = round(x["median_ms"] / y["median_ms"], 4)
        rows.append(r)
    return rows


SAFE_ARG = re.compile(r"^[A-Za-z0-9._/-]+$")


def build_one(args, nvcc, arch, entry, var, program):
    """Builds one driver (kernel mode: a shared library for the pair
    runner); returns (cell or None on success, exe)."""
    cell = Cell(var["variant"])
    rel = var["driver"]
    # nvcc runs its sub-tools through a shell: only names made of safe
    # characters (the bundle writes them so) may reach its command line.
    eid = entry.get("id", entry["name"])
    for part in [eid, var["variant"], rel] + var.get("nvcc_flags", []):
        if not SAFE_ARG.match(part):
            cell.kind = "run"
            cell.reason = ("refused: %r is not a safe name for nvcc's "
                           "command line (the bundle was altered?)" % part)
            return cell, None
    exe = os.path.join(args.build_dir, eid, var["variant"])
    os.makedirs(os.path.dirname(exe), exist_ok=True)
    # Programs: the shared CUDA runtime, so that the kernel profiler
    # (LD_PRELOAD) sees their launches.
    extra = shared_flags(nvcc)
    if not program:
        exe += ".so"
        # -fno-gnu-unique: the static locals of inline functions (of the
        # runtime headers, of the case's sources) stay each library's own
        # when the pair runner loads two drivers into one process.
        extra = ["-shared", "-Xcompiler", "-fPIC,-fno-gnu-unique",
                 "-DPKV_GPU_PAIR", "-Xlinker", "-Bsymbolic"] + \
            shared_flags(nvcc)
    cmd = [nvcc, "-O3", "-std=c++17", "-arch=" + arch, "-o", exe] + \
        extra + var.get("nvcc_flags", []) + [os.path.join(args.bundle, rel)]
    t0 = time.time()
    rc, out, err, to = run_bounded(cmd, args.bundle, None, args.timeout)
    cell.seconds = time.time() - t0
    with open(exe + ".log", "w") as f:
        f.write(" ".join(cmd) + "\n" + out + err)
    if to:
        cell.kind = "timeout"
        cell.reason = "nvcc timed out after %d s" % args.timeout
        return cell, None
    if rc != 0:
        cell.kind = "compile"
        cell.detail = error_summary(out + err)
        cell.reason = "compile error: " + \
            (cell.detail.splitlines() or ["nvcc exit %d" % rc])[0]
        return cell, None
    return None, exe


def variant_lines(text, key):
    """{variant: the last JSON line that starts with {"KEY": and names it}"""
    found = {}
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("{\"" + key + "\":"):
            try:
                d = json.loads(line)
            except ValueError:
                continue
            if isinstance(d, dict):
                found[d.get("variant", "")] = d
    return found


def judge(args, cell, res, rc, tail):
    """Sets cell's status from the driver's result line res."""
    if not res:
        cell.kind = "run"
        cell.reason = "no result (exit status %d)" % rc
        cell.detail = tail
        return
    cell.outputs = res.get("outputs", [])
    if res.get("status") == "error":
        cell.kind = "run"
        cell.reason = "runtime error: " + res.get("message", "")
        cell.detail = tail
        return
    if res.get("status") == "mismatch":
        cell.kind = "mismatch"
        parts = []
        for o in cell.outputs:
            if o.get("mismatches"):
                parts.append("%s[%d] = %.7g (want %.7g); %d of %d differ" % (
                    o["name"], o["first_bad"], num(o.get("got", 0)),
                    num(o.get("want", 0)), o["mismatches"], o["count"]))
        cell.reason = "mismatch: " + "; ".join(parts)
        return
    if rc not in (0, 1):
        cell.kind = "run"
        cell.reason = "exit status %d after a passing comparison" % rc
        cell.detail = tail
        return
    if cell.timing is None and args.repeats > 0:
        cell.kind = "run"
        cell.reason = "no timing line (the timed launches failed)"
        cell.detail = tail
        return
    cell.status = "pass"


def run_pair(args, pair, entry, libs):
    """Runs the pair runner on libs [(variant, library)]: the variants'
    kernels timed interleaved in one process.  Returns ({variant: Cell},
    the pair line or None, whole-process failure or False)."""
    env = dict(os.environ)
    env["PKV_GPU_WARMUP"] = str(args.warmup)
    env["PKV_GPU_REPEATS"] = str(args.repeats)
    env["PKV_GPU_BATCH"] = str(args.batch)
    env["PKV_GPU_WARMUP_MS"] = str(args.warmup_ms)
    env["PKV_GPU_SPIN_MS"] = str(args.spin_ms)
    t0 = time.time()
    rc, out, err, to = run_bounded([pair] + ["%s=%s" % (v, l)
                                             for v, l in libs],
                                   args.bundle, env, args.timeout)
    dt = time.time() - t0
    tail = "\n".join(err.strip().splitlines()[-8:])
    res = variant_lines(out, "pkv")
    timing = variant_lines(out, "pkv_gpu")
    cells = {}
    for v, _ in libs:
        c = Cell(v)
        c.seconds = dt / len(libs)
        c.exit_code = rc if rc is not None else -1
        c.timing = timing.get(v)
        if to:
            c.kind = "timeout"
            c.reason = "timed out after %d s" % args.timeout
            c.detail = tail
        elif rc < 0:
            c.kind = "crash"
            c.reason = "crashed: signal %d" % -rc
            c.detail = tail
        else:
            judge(args, c, res.get(v), rc, tail)
        cells[v] = c
    # A driver that stops the process (a host-API failure exits, a crash,
    # a fault in the timed launches) takes the others with it.
    whole = to or rc is None or rc < 0 or rc > 1 or \
        any(v not in res for v, _ in libs)
    return cells, json_lines(out, "pkv_gpu_pair"), whole


def run_program(args, entry, cell, exe, kprof=None):
    """A self-checking program: passes when it exits 0 (and its output
    matches the expected/failure expressions); timed as whole runs.  The
    first run (a warm-up run, never wall-timed) carries the kernel profiler
    kprof when there is one: its per-kernel lines go to cell.kernels."""
    runs = []
    warm = max(1, args.prog_warmup) if kprof else args.prog_warmup
    total = warm + max(1, args.prog_repeats)
    for i in range(total):
        env = None
        prof_out = exe + ".kprof"
        if i == 0 and kprof:
            env = dict(os.environ)
            env["LD_PRELOAD"] = kprof + (
                ":" + env["LD_PRELOAD"] if env.get("LD_PRELOAD") else "")
            env["PKV_KPROF_OUT"] = prof_out
            # Modules loaded when the context is made, not inside the
            # first timed launch of each kernel.
            env.setdefault("CUDA_MODULE_LOADING", "EAGER")
            if os.path.exists(prof_out):
                os.remove(prof_out)
        t0 = time.time()
        rc, out, err, to = run_bounded([exe] + entry.get("args", []),
                                       args.bundle, env, args.timeout)
        dt = time.time() - t0
        cell.seconds += dt
        cell.exit_code = rc if rc is not None else -1
        tail = "\n".join((out + err).strip().splitlines()[-6:])
        if to:
            cell.kind, cell.reason = "timeout", "timed out after %d s" % \
                args.timeout
            cell.detail = tail
            return
        if rc != 0:
            cell.kind = "crash" if rc < 0 else "run"
            cell.reason = ("crashed: signal %d" % -rc) if rc < 0 else \
                "exit status %d" % rc
            cell.detail = tail
            return
        fo = entry.get("fail_output")
        if fo:
            m = re.search(fo, out, re.M)
            if m:
                s = out.rfind("\n", 0, m.start()) + 1
                cell.kind = "run"
                cell.reason = "output matches --fail-output: " + \
                    out[s:].split("\n")[0]
                return
        eo = entry.get("expect_output")
        if eo and not re.search(eo, out, re.M):
            cell.kind = "run"
            cell.reason = "output does not match --expect-output '%s'" % eo
            cell.detail = tail
            return
        if i == 0 and kprof:
            cell.kernels = read_kprof(prof_out)
            if cell.kernels is None:
                cell.kernels_unavailable = (
                    "the profiler was not loaded (no %s; a program linked "
                    "with the static CUDA runtime cannot be profiled)" %
                    os.path.basename(prof_out))
        if i >= warm:
            runs.append(dt * 1000.0)
    cell.timing = {"ms": round(statistics.median(runs), 3),
                   "min": round(min(runs), 3), "max": round(max(runs), 3),
                   "warmup": warm, "repeats": len(runs),
                   "what": "whole program (wall clock)"}
    cell.status = "pass"


def fmt_ms(c):
    if c is None or c.status != "pass" or not c.timing:
        return "-"
    return "%.4f" % c.timing["ms"]


def err_cell(c):
    if c.status == "skip":
        return "SKIP"
    if c.status == "pass":
        if not c.outputs:
            return "PASS"
        a = max(num(x["max_abs"]) for x in c.outputs)
        r = max(num(x["max_rel"]) for x in c.outputs)
        return "PASS %.1e/%.1e" % (a, r)
    return "FAIL " + c.kind


def same_sources(bundle, entry, a, b):
    """True when variants a and b of a case have byte-identical sources (the
    port changed nothing): their speed differs only by measurement noise."""
    def files(v):
        root = os.path.join(bundle, "cases", entry.get("id", entry["name"]), v)
        out = {}
        for d, _, names in os.walk(root):
            for n in names:
                p = os.path.join(d, n)
                with open(p, "rb") as f:
                    out[os.path.relpath(p, root)] = f.read()
        return out
    fa = files(a)
    return bool(fa) and fa == files(b)


def speed(orig, port):
    if not orig or not port or orig.status != "pass" or \
            port.status != "pass" or not orig.timing or not port.timing:
        return None
    if port.timing["ms"] <= 0:
        return None
    return orig.timing["ms"] / port.timing["ms"]


def print_kernels(entries, rows, variants):
    """The per-kernel table of program mode."""
    port = variants[-1] if len(variants) > 1 else None
    for e, r in zip(entries, rows):
        ks = r.get("kernels")
        if ks is None:
            if r.get("kernels_unavailable"):
                print("\nkernels of %s: not timed: %s" % (
                    e["name"], r["kernels_unavailable"]))
            continue
        print("\nkernels of %s (CUDA events, first run of each variant; "
              "median ms over the program's launches):" % e["name"])
        if not ks:
            print("  (no kernel launches seen)")
            continue
        w = max(len("kernel"), max(len(k["kernel"]) for k in ks)) + 2
        head = "  " + "kernel".ljust(w) + "launches".rjust(10) + \
            "original ms".rjust(14)
        if port:
            head += ("%s ms" % port).rjust(14) + "ratio".rjust(8)
        print(head)

        def ms(x):
            return "%.4f" % x["median_ms"] if x and x.get("timed") else "-"
        for k in ks:
            o, p = k.get("original"), k.get(port) if port else None
            n = "/".join(str(x["launches"]) if x else "-"
                         for x in ([o, p] if port else [o]))
            line = "  " + k["kernel"].ljust(w) + n.rjust(10) + ms(o).rjust(14)
            if port:
                line += ms(p).rjust(14) + ("%.2f" % k["ratio"]
                                           if k["ratio"] is not None
                                           else "n/a").rjust(8)
            print(line)


def main():
    ap = argparse.ArgumentParser(
        description="Build and run a port-kernel GPU bundle on an NVIDIA GPU")
    ap.add_argument("--nvcc", help="nvcc to use (default: $NVCC, PATH, "
                    "$CUDA_HOME/bin, /usr/local/cuda/bin)")
    ap.add_argument("--arch", help="sm_XX (default: the GPU's, else sm_90)")
    ap.add_argument("--warmup", type=int, default=5,
                    help="untimed launches before timing (default 5)")
    ap.add_argument("--repeats", type=int, default=41,
                    help="timed samples of each variant per process, "
                    "original and port interleaved in one process (default "
                    "41)")
    ap.add_argument("--batch", type=int, default=0,
                    help="launches per timed sample (default 0: about "
                    "0.5 ms of kernels, at most 200)")
    ap.add_argument("--warmup-ms", dest="warmup_ms", type=int, default=100,
                    help="and at least this many milliseconds of warm-up "
                    "launches (default 100)")
    ap.add_argument("--spin-ms", dest="spin_ms", type=int, default=3,
                    help="each sample's launches are queued behind a kernel "
                    "that spins this long, so that the host's launch rate "
                    "does not limit them (default 3; 0: no spin)")
    ap.add_argument("--rounds", type=int, default=3,
                    help="processes per case, each timing original and port "
                    "interleaved; the median is reported (default 3)")
    ap.add_argument("--program-warmup", dest="prog_warmup", type=int,
                    default=1, help="untimed program runs (default 1, at "
                    "least 1: the first carries the kernel profiler)")
    ap.add_argument("--program-repeats", dest="prog_repeats", type=int,
                    default=5, help="timed program runs (default 5)")
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1,
                    help="parallel nvcc builds (runs are one at a time)")
    ap.add_argument("--timeout", type=int, default=600,
                    help="seconds per build and per run (0: none)")
    ap.add_argument("--build-dir", help="where executables go (default "
                    "BUNDLE/build)")
    ap.add_argument("--results", help="results file (default "
                    "BUNDLE/results.json)")
    ap.add_argument("--json", action="store_true",
                    help="print the results document instead of the table")
    ap.add_argument("--compile-only", action="store_true",
                    help="build every driver (-arch default sm_90) and stop; "
                    "no GPU needed")
    ap.add_argument("--probe", action="store_true",
                    help="print one JSON line about nvcc and the GPU; exit 0 "
                    "when both are usable, 3 otherwise")
    ap.add_argument("names", nargs="*", help="only these cases or programs")
    args = ap.parse_args()
    args.bundle = HERE
    args.build_dir = os.path.abspath(args.build_dir or
                                     os.path.join(HERE, "build"))
    results_path = args.results or os.path.join(HERE, "results.json")
    if min(args.repeats, args.warmup, args.batch, args.warmup_ms,
           args.spin_ms) < 0 or \
            args.rounds < 1:
        eprint("run.sh: error: --warmup, --warmup-ms, --repeats and --batch "
               "must be >= 0, --rounds >= 1")
        return 2

    nvcc = find_nvcc(args.nvcc)
    if not nvcc:
        msg = ("no nvcc: %s is not an executable" % args.nvcc) if \
            args.nvcc else ("no nvcc found ($NVCC, PATH, $CUDA_HOME/bin, "
                            "/usr/local/cuda/bin)")
        if args.probe:
            print(json.dumps({"ok": False, "reason": msg}))
        else:
            eprint("run.sh: error: " + msg)
        return 3
    gpu = {"nvcc": nvcc, "nvcc_version": nvcc_version(nvcc)}
    arch = args.arch
    if not args.compile_only:
        info, why = probe(nvcc, args.build_dir)
        if not info:
            msg = "no NVIDIA GPU: " + why
            if args.probe:
                print(json.dumps({"ok": False, "reason": msg}))
            else:
                eprint("run.sh: error: " + msg)
            return 3
        smi = nvidia_smi() or {}
        gpu.update({"name": smi.get("name") or info["name"],
                    "driver": smi.get("driver", ""),
                    "compute_cap": "%d.%d" % (info["major"], info["minor"]),
                    "count": info["count"],
                    "cuda_runtime": info["runtime"],
                    "cuda_driver_api": info["driver_api"],
                    "memory_mib": info["memory_mib"]})
        arch = arch or "sm_%d%d" % (info["major"], info["minor"])
    arch = arch or "sm_90"
    gpu["arch"] = arch
    if args.probe:
        print(json.dumps(dict(gpu, ok=True)))
        return 0

    try:
        with open(os.path.join(HERE, "manifest.json")) as f:
            man = json.load(f)
    except (OSError, ValueError) as e:
        eprint("run.sh: error: cannot read manifest.json: %s" % e)
        return 2
    entries = man.get("entries", [])
    if args.names:
        unknown = [n for n in args.names
                   if n not in [e["name"] for e in entries]]
        if unknown:
            eprint("run.sh: error: no such case: " + ", ".join(unknown))
            return 2
        entries = [e for e in entries if e["name"] in args.names]


    variants = man.get("variants", ["original", "cuda"])
    program = man.get("mode") == "program"
    cells = {}  # (name, variant) -> Cell
    todo = []
    for e in entries:
        for v in e["variants"]:
            c = Cell(v["variant"])
            cells[(e["name"], v["variant"])] = c
            if v.get("status") in ("fail", "skip"):
                c.status = v["status"]
                c.kind = v.get("kind", "")
                c.reason = v.get("reason", "")
                c.detail = v.get("detail", "")
            else:
                todo.append((e, v))

    # Builds in parallel.
    n = len(todo)
    eprint("building %d driver%s with %s -arch=%s (%d jobs)" % (
        n, "" if n == 1 else "s", nvcc, arch, max(1, args.jobs)))
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        pair_fut = None if program else pool.submit(build_pair, args, nvcc,
                                                    arch)
        kprof_fut = pool.submit(build_kprof, args, nvcc, arch) if program \
            else None
        futs = {pool.submit(build_one, args, nvcc, arch, e, v, program):
                (e, v) for e, v in todo}
        done = 0
        built = []
        for f in concurrent.futures.as_completed(futs):
            e, v = futs[f]
            bad, exe = f.result()
            done += 1
            if bad:
                cells[(e["name"], v["variant"])] = bad
                eprint("[%d/%d] %s (%s): FAIL %s" % (done, n, e["name"],
                                                     v["variant"], bad.kind))
            else:
                eprint("[%d/%d] %s (%s): built" % (done, n, e["name"],
                                                   v["variant"]))
                cells[(e["name"], v["variant"])].exe = exe
                built.append((e, v))

    pair, pair_err = (None, "") if program else pair_fut.result()
    kprof, kprof_err = kprof_fut.result() if program else (None, "")
    if program:
        eprint("kernel profiler: %s" % ("built" if kprof else
                                        "FAIL " + kprof_err))
    if not program:
        eprint("pair runner: %s" % ("built" if pair else "FAIL " + pair_err))
    if not program and not pair:
        # Nothing of kernel mode runs without it.
        for k, c in cells.items():
            if c.exe:
                bad = Cell(k[1])
                bad.kind = "compile"
                bad.reason = pair_err
                cells[k] = bad
    if args.compile_only:
        failed = [k for k, c in cells.items()
                  if c.status == "fail" and not c.exe]
        for k in sorted(failed):
            c = cells[k]
            eprint("  %s [%s]: %s" % (k[0], k[1], c.reason))
            if c.detail:
                for l in c.detail.splitlines():
                    eprint("      " + l)
        print("%d built, %d failed (nvcc -arch=%s)%s" % (
            sum(1 for c in cells.values() if c.exe), len(failed), arch,
            ("; kernel profiler " + ("built" if kprof else "FAILED: " +
                                     kprof_err)) if program else
            "; pair runner " +
            ("built" if pair else "FAILED: " + pair_err)))
        return 1 if failed or (not program and not pair) or \
            (program and not kprof) else 0

    # Runs one at a time so that timings do not overlap.  Kernel mode: per
    # case, --rounds processes of the pair runner, each loading the
    # original's and the port's driver and timing both kernels interleaved
    # (--repeats rounds of one sample each, the order swapped every round;
    # the processes alternate the order too); a variant's time is the median
    # over the processes of its median sample, the speed the median over the
    # processes of the median of the per-round ratios original / port.
    # Where a variant stops the process, each variant runs alone once, so
    # that the failure is attributed to the variant that caused it.
    # Programs: whole runs, timed from outside.
    pairs = {}  # name -> [ratio original/port of each process]
    total = sum(1 for e, v in todo if cells[(e["name"], v["variant"])].exe)
    i = 0
    for e in entries:
        vs = [v["variant"] for v in e["variants"]
              if cells.get((e["name"], v["variant"])) is not None and
              cells[(e["name"], v["variant"])].exe]
        runs = {v: [] for v in vs}
        if program:
            for v in vs:
                t = Cell(v)
                t.exe = cells[(e["name"], v)].exe
                run_program(args, e, t, t.exe, kprof)
                runs[v] = [t] if t.status == "pass" else None
                if t.status != "pass":
                    cells[(e["name"], v)] = t
        else:
            ratios = []
            for r in range(max(1, args.rounds) if vs else 0):
                live = [v for v in vs if runs[v] is not None]
                if not live:
                    break
                order = live if r % 2 == 0 else live[::-1]
                got, line, whole = run_pair(
                    args, pair, e,
                    [(v, cells[(e["name"], v)].exe) for v in order])
                if whole and len(order) > 1:
                    # Attribute: each variant alone.
                    got = {}
                    for v in order:
                        g, _, _ = run_pair(args, pair, e,
                                           [(v, cells[(e["name"], v)].exe)])
                        got[v] = g[v]
                    line = None
                for v in order:
                    t = got[v]
                    t.exe = cells[(e["name"], v)].exe
                    if t.status != "pass":
                        cells[(e["name"], v)] = t
                        runs[v] = None
                    else:
                        runs[v].append(t)
                if line and all(runs[v] is not None for v in order) and \
                        line.get("ratio"):
                    x = float(line["ratio"])
                    if line.get("first") != "original" and x > 0:
                        x = 1.0 / x
                    if "original" in (line.get("first"), line.get("last")):
                        ratios.append(x)
            if ratios and all(runs[v] for v in vs):
                pairs[e["name"]] = ratios
        for v in vs:
            key = (e["name"], v)
            if runs[v]:
                c = runs[v][0]
                c.seconds = sum(t.seconds for t in runs[v])
                if c.timing and len(runs[v]) > 1:
                    ms = [t.timing["ms"] for t in runs[v] if t.timing]
                    c.timing = dict(c.timing)
                    c.timing["ms"] = statistics.median(ms)
                    c.timing["min"] = min(t.timing["min"] for t in runs[v])
                    c.timing["max"] = max(t.timing["max"] for t in runs[v])
                    c.timing["rounds"] = ms
                cells[key] = c
            i += 1
            c = cells[key]
            eprint("[%d/%d] %s (%s): %s%s" % (
                i, total, e["name"], v,
                {"pass": "PASS", "skip": "SKIP"}.get(c.status, "FAIL"),
                " %s ms" % fmt_ms(c) if c.status == "pass" and c.timing
                else ""))
        if e["name"] in pairs:
            eprint("    speed (in-process, interleaved): %.4f" %
                   statistics.median(pairs[e["name"]]))

    # Results.
    passed = sum(1 for c in cells.values() if c.status == "pass")
    skipped = sum(1 for c in cells.values() if c.status == "skip")
    failed = len(cells) - passed - skipped
    rows = []
    for e in entries:
        rc = [cells[(e["name"], v)] for v in variants
              if (e["name"], v) in cells]
        r = {"name": e["name"], "path": e.get("path", ""),
             "status": "fail" if any(c.status == "fail" for c in rc)
             else "pass",
             "results": [c.json() for c in rc]}
        s = speed(cells.get((e["name"], "original")),
                  cells.get((e["name"], variants[-1])))
        if e["name"] in pairs:
            r["speed_ratio"] = round(statistics.median(pairs[e["name"]]), 4)
            r["speed_ratios"] = [round(x, 4) for x in pairs[e["name"]]]
            r["speed_method"] = "in-process interleaved"
        else:
            r["speed_ratio"] = round(s, 4) if s is not None else None
            if s is not None:
                r["speed_method"] = "separate processes"
        if program:
            co = cells.get((e["name"], "original"))
            cp = cells.get((e["name"], variants[-1])) if len(variants) > 1 \
                else None
            ko = co.kernels if co and co.status == "pass" else None
            kp = cp.kernels if cp and cp.status == "pass" else None
            if ko is not None or kp is not None:
                r["kernels"] = kernel_rows(ko, kp, variants[-1]) if \
                    len(variants) > 1 else kernel_rows(ko, None, "port")
            else:
                why = [c.kernels_unavailable for c in (co, cp)
                       if c and c.kernels_unavailable]
                r["kernels_unavailable"] = why[0] if why else (
                    kprof_err or "no profiler" if not kprof else
                    "no variant passed")
        r["same_source"] = (not program) and len(variants) > 1 and \
            same_sources(args.bundle, e, "original", variants[-1])
        rows.append(r)
    doc = {"mode": "gpu-program" if program else "gpu",
           "date": datetime.datetime.now(datetime.timezone.utc)
           .strftime("%Y-%m-%d %H:%M UTC"),
           "gpu": gpu,
           "timing": ({"warmup_runs": max(1, args.prog_warmup),
                       "repeats": args.prog_repeats,
                       "what": "whole program runs, median wall clock",
                       "kernels": "CUDA events around every kernel launch "
                       "(cudaLaunchKernel, cudaLaunchKernelExC) in one run "
                       "per variant, the first warm-up run, under the "
                       "LD_PRELOAD profiler; median_ms: the median over the "
                       "program's own launches of that kernel (warm-up is "
                       "the program's own business); ratio: original / port "
                       "median_ms"}
                      if program else
                      {"warmup_launches": args.warmup,
                       "warmup_ms": args.warmup_ms,
                       "repeats": args.repeats,
                       "batch": args.batch or "auto (about 0.5 ms of "
                       "kernels, at most 200 launches)",
                       "spin_ms": args.spin_ms,
                       "rounds": args.rounds,
                       "what": "CUDA events, ms per launch: original and "
                       "port loaded into one process and sampled "
                       "alternately; per variant the median over processes "
                       "of the median sample; speed: the median over "
                       "processes of the median per-round ratio original / "
                       "port"}),
           "variants": variants,
           ("programs" if program else "cases"): rows,
           "summary": {"passed": passed, "failed": failed,
                       "skipped": skipped},
           "ok": failed == 0}
    try:
        with open(results_path, "w") as f:
            json.dump(doc, f, indent=2)
            f.write("\n")
    except OSError as ex:
        eprint("run.sh: error: cannot write %s: %s" % (results_path, ex))
        return 2

    if args.json:
        print(json.dumps(doc, indent=2))
        return 1 if failed else 0

    print("GPU: %s (%s), driver %s, nvcc %s" % (
        gpu.get("name", "?"), arch, gpu.get("driver") or "?",
        gpu.get("nvcc_version", "?")))
    print("date: %s; %s" % (doc["date"], (
        "median wall time of %d program runs after %d warm-up (the "
        "first run carries the kernel profiler)" % (
            args.prog_repeats, max(1, args.prog_warmup))) if program else (
        "CUDA events; original and port in one process, %d samples of %s "
        "launches each, alternating; median of %d processes; after %d "
        "warm-up launches and %d ms" % (args.repeats, args.batch or "auto",
                                        args.rounds, args.warmup,
                                        args.warmup_ms))))
    namew = max([len("program" if program else "case")] +
                [len(e["name"]) for e in entries]) + 2
    head = ("program" if program else "case").ljust(namew)
    for v in variants:
        head += (v + " (32)").ljust(22) if v != "original" else \
            "original".ljust(22)
    for v in variants:
        head += (v + " ms").rjust(12)
    head += "  speed"
    print(head)
    for e, r in zip(entries, rows):
        line = e["name"].ljust(namew)
        for v in variants:
            c = cells.get((e["name"], v))
            line += (err_cell(c) if c else "-").ljust(22)
        for v in variants:
            line += fmt_ms(cells.get((e["name"], v))).rjust(12)
        s = r["speed_ratio"]
        line += "  " + ("%.2f" % s if s is not None else "n/a")
        if r.get("same_source") and s is not None:
            line += " ="
        print(line)
    print("(PASS a/r: largest absolute / relative error over the outputs; "
          "ms: median %s; speed: %s, the port's speed relative to the "
          "original%s)" % (
              "wall time per program run" if program else "time per launch",
              ("original ms / %s ms" % variants[-1]) if program else
              "median ratio original / %s of samples taken alternately in "
              "one process" % variants[-1], "" if program else
              "; =: the port's sources are identical to the original's, "
              "the difference is measurement noise"))
    if program:
        print_kernels(entries, rows, variants)
    header = False
    for e in entries:
        for v in variants:
            c = cells.get((e["name"], v))
            if not c or c.status == "pass":
                continue
            if not header:
                print("\nFailures:")
                header = True
            if c.status == "skip":
                print("  %s [%s] skipped: %s" % (e["name"], v, c.reason))
                continue
            print("  %s [%s]: %s" % (e["name"], v, c.reason))
            for l in (c.detail or "").splitlines():
                if l.strip() and l.strip() not in c.reason:
                    print("      " + l)
    print("\n%d passed, %d failed%s (%d %s%s x %d variant%s)" % (
        passed, failed, ", %d skipped" % skipped if skipped else "",
        len(entries), "program" if program else "case",
        "" if len(entries) == 1 else "s", len(variants),
        "" if len(variants) == 1 else "s"))
    print("results: " + results_path)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

//===- pkv_gpu.h - timed launches for validation drivers on NVIDIA GPUs ---===//
//
// CUDA only (nvcc).  `port-kernel validate --gpu` and `--gpu-bundle` write
// this header into the bundle; each case's launch.h defines
// PKV_GPU_ARG_BYTES (the bytes of each argument's buffer, 0 for scalars) and
// includes it; the generated driver (the same one the emulator runs, see
// DriverGen.cpp) includes launch.h first and calls pkemu::launch once.
//
// pkemu::launch here times the kernel with CUDA events before the launch
// whose outputs are compared: every buffer is saved, the kernel runs at least
// PKV_GPU_WARMUP times and PKV_GPU_WARMUP_MS milliseconds, then
// PKV_GPU_REPEATS samples of PKV_GPU_BATCH back-to-back launches are timed
// (batch 0: about half a millisecond of kernels, at most 200 launches), each
// sample queued behind a kernel that spins PKV_GPU_SPIN_MS milliseconds (so
// that the host's launch rate does not limit it), every buffer is restored,
// and the compared launch runs on the initial contents.  It prints one line
//   {"pkv_gpu":1,"ms":median per launch,"min":...,"max":...,...}
// before the driver's result line.
//
// Built with -DPKV_GPU_PAIR into a shared library (run.sh does that), the
// driver does not time itself: pkemu::launch saves the buffers and hands a
// pkv_gpu_launcher (launch the kernel N times on a stream) to the hook that
// the bundle's pair runner (run.py's PAIR) set with pkv_gpu_set_hook, and
// waits there; the runner loads the original's and the port's library into
// one process and times both kernels interleaved, sample by sample.  When
// the hook returns, the buffers are restored and the compared launch runs.
//
//===----------------------------------------------------------------------===//
#ifndef PKV_GPU_H
#define PKV_GPU_H

#include "pkv_rt.h"
#include <algorithm>
#include <chrono>
#include <cuda_runtime.h>
#include <tuple>
#include <type_traits>
#include <vector>

#ifndef PKV_GPU_ARG_BYTES
#error "PKV_GPU_ARG_BYTES must be defined (bytes of each argument's buffer)"
#endif

namespace pkvgpu {

static const std::size_t ArgBytes[] = PKV_GPU_ARG_BYTES;

inline int envInt(const char *Name, int Default) {
  const char *V = std::getenv(Name);
  return V && *V ? std::atoi(V) : Default;
}

inline bool ok(cudaError_t E, const char *What) {
  if (E == cudaSuccess)
    return true;
  std::fprintf(stderr, "pkv_gpu: %s: %s\n", What, cudaGetErrorString(E));
  return false;
}

/// Keeps the stream busy for \p Ns nanoseconds (the GPU's global timer), so
/// that the launches queued behind it run back to back, whatever the host's
/// launch rate: the timed sample then measures the kernels, not the time the
/// host takes to enqueue them.
__global__ void spin(unsigned long long Ns) {
  unsigned long long T0, T;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(T0));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(T));
  } while (T - T0 < Ns);
}

/// Saves (Save) or restores (!Save) the buffers of pointer arguments.
struct Buffers {
  std::vector<std::vector<unsigned char>> Saved;
  bool Ok = true;

  template <typename T> void one(std::size_t I, T A, bool Save) {
    if constexpr (std::is_pointer<T>::value) {
      if (I >= sizeof(ArgBytes) / sizeof(ArgBytes[0]) || !ArgBytes[I] || !A)
        return;
      if (Saved.size() <= I)
        Saved.resize(I + 1);
      std::vector<unsigned char> &S = Saved[I];
      if (Save) {
        S.resize(ArgBytes[I]);
        Ok &= ok(cudaMemcpy(S.data(), (const void *)A, S.size(),
                            cudaMemcpyDeviceToHost),
                 "saving a buffer");
      } else if (!S.empty()) {
        Ok &= ok(
            cudaMemcpy((void *)A, S.data(), S.size(), cudaMemcpyHostToDevice),
            "restoring a buffer");
      }
    } else {
      (void)I;
      (void)A;
      (void)Save;
    }
  }

  template <typename... A> void all(bool Save, A... Args) {
    std::size_t I = 0;
    (one(I++, Args, Save), ...);
  }
};

} // namespace pkvgpu

/// What a driver built with -DPKV_GPU_PAIR hands to the pair runner: its
/// kernel, launchable N times on a stream, and the kernel's attributes.
struct pkv_gpu_launcher {
  void *self;
  int (*run)(void *self, int n, cudaStream_t stream); ///< 0: launched
  int regs;
  long long local_bytes, static_shared_bytes;
};
typedef int (*pkv_gpu_hook)(void *ctx, const pkv_gpu_launcher *l);

#ifdef PKV_GPU_PAIR
namespace pkvgpu {
// Internal linkage, not static locals of inline functions: those are
// STB_GNU_UNIQUE objects, which the dynamic linker makes one for every
// library of the process (RTLD_LOCAL and -Bsymbolic notwithstanding), so
// both drivers of a pair would share one hook context.
static pkv_gpu_hook Hook = nullptr;
static void *HookCtx = nullptr;
inline pkv_gpu_hook hookFn() { return Hook; }
inline void *hookCtx() { return HookCtx; }
} // namespace pkvgpu

/// Called by the pair runner (dlsym) before the driver's main.
extern "C" void pkv_gpu_set_hook(pkv_gpu_hook h, void *ctx) {
  pkvgpu::Hook = h;
  pkvgpu::HookCtx = ctx;
}
/// The context set by pkv_gpu_set_hook (for the bundle's tests).
extern "C" void *pkv_gpu_hook_ctx() { return pkvgpu::HookCtx; }
#endif

namespace pkemu {

#ifdef PKV_GPU_PAIR
template <typename K, typename... A>
void launch(K Kernel, dim3 Grid, dim3 Block, std::size_t Shared,
            cudaStream_t Stream, A... Args) {
  if (pkvgpu::hookFn()) {
    pkvgpu::Buffers B;
    B.all(true, Args...);
    struct Closure {
      K Kernel;
      dim3 Grid, Block;
      std::size_t Shared;
      std::tuple<A...> Args;
      static int run(void *Self, int N, cudaStream_t S) {
        Closure &C = *static_cast<Closure *>(Self);
        for (int I = 0; I < N; ++I)
          std::apply(
              [&](auto... X) {
                C.Kernel<<<C.Grid, C.Block, C.Shared, S>>>(X...);
              },
              C.Args);
        return cudaGetLastError() == cudaSuccess ? 0 : 1;
      }
    } C{Kernel, Grid, Block, Shared, std::tuple<A...>(Args...)};
    cudaFuncAttributes Attr{};
    const bool HaveAttr = cudaFuncGetAttributes(&Attr, Kernel) == cudaSuccess;
    pkv_gpu_launcher L{&C, &Closure::run, HaveAttr ? Attr.numRegs : -1,
                       HaveAttr ? (long long)Attr.localSizeBytes : -1LL,
                       HaveAttr ? (long long)Attr.sharedSizeBytes : -1LL};
    if (B.Ok)
      pkvgpu::hookFn()(pkvgpu::hookCtx(), &L);
    pkvgpu::ok(cudaDeviceSynchronize(), "timed launches");
    B.all(false, Args...);
  }
  // The launch whose outputs the driver compares, on the initial contents.
  Kernel<<<Grid, Block, Shared, Stream>>>(Args...);
}
#else

template <typename K, typename... A>
void launch(K Kernel, dim3 Grid, dim3 Block, std::size_t Shared,
            cudaStream_t Stream, A... Args) {
  const int Warmup = std::max(0, pkvgpu::envInt("PKV_GPU_WARMUP", 5));
  const int Repeats = std::max(0, pkvgpu::envInt("PKV_GPU_REPEATS", 21));
  int Batch = std::max(0, pkvgpu::envInt("PKV_GPU_BATCH", 0));
  const int WarmupMs = std::max(0, pkvgpu::envInt("PKV_GPU_WARMUP_MS", 100));
  cudaFuncAttributes Attr{};
  const bool HaveAttr = cudaFuncGetAttributes(&Attr, Kernel) == cudaSuccess;
  if (Repeats > 0) {
    pkvgpu::Buffers B;
    B.all(true, Args...);
    cudaEvent_t E0, E1;
    bool Ok = B.Ok && pkvgpu::ok(cudaEventCreate(&E0), "cudaEventCreate") &&
              pkvgpu::ok(cudaEventCreate(&E1), "cudaEventCreate");
    // Warm-up: at least Warmup launches and WarmupMs milliseconds, so that
    // the GPU has left its idle clocks when the timed samples start.
    const auto T0 = std::chrono::steady_clock::now();
    for (int I = 0; Ok && I < Warmup; ++I)
      Kernel<<<Grid, Block, Shared, Stream>>>(Args...);
    Ok = Ok && pkvgpu::ok(cudaGetLastError(), "warm-up launch") &&
         pkvgpu::ok(cudaStreamSynchronize(Stream), "warm-up run");
    while (Ok && std::chrono::duration<double, std::milli>(
                     std::chrono::steady_clock::now() - T0)
                         .count() < WarmupMs) {
      for (int I = 0; I < 64; ++I)
        Kernel<<<Grid, Block, Shared, Stream>>>(Args...);
      Ok = pkvgpu::ok(cudaGetLastError(), "warm-up launch") &&
           pkvgpu::ok(cudaStreamSynchronize(Stream), "warm-up run");
    }
    // One timed sample of N launches, in milliseconds per launch; the N
    // launches are queued behind a spin of SpinNs.
    const unsigned long long SpinNs =
        1000000ull *
        (unsigned long long)std::max(0, pkvgpu::envInt("PKV_GPU_SPIN_MS", 3));
    auto Sample = [&](int N, float &Ms) {
      if (SpinNs)
        pkvgpu::spin<<<1, 1, 0, Stream>>>(SpinNs);
      cudaEventRecord(E0, Stream);
      for (int I = 0; I < N; ++I)
        Kernel<<<Grid, Block, Shared, Stream>>>(Args...);
      cudaEventRecord(E1, Stream);
      if (!pkvgpu::ok(cudaEventSynchronize(E1), "timed run") ||
          !pkvgpu::ok(cudaGetLastError(), "timed launch"))
        return false;
      float T = 0;
      cudaEventElapsedTime(&T, E0, E1);
      Ms = T / (float)N;
      return true;
    };
    if (Ok && Batch == 0) {
      float One = 0;
      Ok = Sample(1, One);
      // About half a millisecond of kernels per sample, and few enough
      // launches to be queued within the spin.
      Batch = One > 0 ? (int)std::ceil(0.5f / One) : 200;
      Batch = std::min(200, std::max(1, Batch));
    }
    std::vector<float> Ms;
    for (int R = 0; Ok && R < Repeats; ++R) {
      float T = 0;
      Ok = Sample(Batch, T);
      if (Ok)
        Ms.push_back(T);
    }
    B.all(false, Args...);
    if (Ok && B.Ok && !Ms.empty()) {
      std::sort(Ms.begin(), Ms.end());
      const float Median =
          Ms.size() % 2 ? Ms[Ms.size() / 2]
                        : 0.5f * (Ms[Ms.size() / 2 - 1] + Ms[Ms.size() / 2]);
      std::printf("\n{\"pkv_gpu\":1,\"ms\":%.6g,\"min\":%.6g,\"max\":%.6g,"
                  "\"warmup\":%d,\"warmup_ms\":%d,\"spin_ms\":%d,"
                  "\"repeats\":%d,"
                  "\"batch\":%d,\"regs\":%d,"
                  "\"local_bytes\":%lld,\"static_shared_bytes\":%lld}\n",
                  Median, Ms.front(), Ms.back(), Warmup, WarmupMs,
                  (int)(SpinNs / 1000000ull), Repeats, Batch,
                  HaveAttr ? Attr.numRegs : -1,
                  HaveAttr ? (long long)Attr.localSizeBytes : -1LL,
                  HaveAttr ? (long long)Attr.sharedSizeBytes : -1LL);
      std::fflush(stdout);
    }
    cudaEventDestroy(E0);
    cudaEventDestroy(E1);
  }
  // The launch whose outputs the driver compares, on the initial contents.
  Kernel<<<Grid, Block, Shared, Stream>>>(Args...);
}
#endif // PKV_GPU_PAIR

} // namespace pkemu

#endif // PKV_GPU_H

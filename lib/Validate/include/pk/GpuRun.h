//===- GpuRun.h - validate on a real NVIDIA GPU, or write a GPU bundle ----===//
// Rules: none (validation harness)
//
// `port-kernel validate --gpu` builds each case's original source and its
// CUDA port with nvcc, runs both on an NVIDIA GPU against the case's CPU
// reference and times the kernel with CUDA events.  `--gpu-bundle DIR`
// writes the same drivers, sources and references with a runner (run.sh) to
// DIR instead, for a GPU machine that has nvcc, bash and python3 but no
// port-kernel.  See docs/validate.md, "On an NVIDIA GPU".
//
//===----------------------------------------------------------------------===//
#ifndef PK_GPURUN_H
#define PK_GPURUN_H

#include "pk/Validate.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace pk {

struct GpuOptions {
  /// --gpu-bundle DIR: write the bundle there and stop (no nvcc or GPU
  /// needed).  Empty: build and run now (--gpu).
  std::string BundleDir;
  std::string Nvcc;      ///< --nvcc; empty: $NVCC, PATH, /usr/local/cuda/bin
  std::string Arch;      ///< --gpu-arch sm_XX; empty: the GPU's, else sm_90
  unsigned Warmup = 5;   ///< untimed launches before timing
  unsigned Repeats = 21; ///< timed samples; the median is reported
  unsigned Batch = 0;    ///< launches per sample; 0: about 0.5 ms a sample
  std::string Python;    ///< python3 that runs the bundle's runner
};

/// `validate --gpu` / `--gpu-bundle`: \p Opts as for runValidate (its
/// Targets may hold only CUDA).  Returns 0 when every cell passed or was
/// skipped (no nvcc or no GPU: every cell is skipped, with the reason), 1 when
/// something failed, 2 on usage errors.
int runGpuValidate(const ValidateOptions &Opts, const GpuOptions &G,
                   PortService &PS, llvm::raw_ostream &Out,
                   llvm::raw_ostream &Err);

namespace validate {

/// \p Main and the local files it includes with `#include "..."`,
/// recursively (resolved against the including file's directory; names that
/// do not resolve are left to the compiler's search path), as absolute
/// paths, \p Main first.
std::vector<std::string> localIncludeClosure(llvm::StringRef Main);

/// The runner written into every bundle (run.py, started by run.sh).
llvm::StringRef gpuRunnerScript();
/// pkv_gpu.h: the timed pkemu::launch of GPU drivers.
llvm::StringRef gpuLaunchHeader();

} // namespace validate
} // namespace pk

#endif // PK_GPURUN_H

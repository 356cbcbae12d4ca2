// PK1036: texture and surface fetches are flagged in the HIP output: MI300-class
// GPUs (gfx940-gfx942) have no texture units, and ROCm 6 declares the
// functions unavailable in their device code. The port compiles for gfx90a.
// RUN: rm -rf %t && %pk port --to hip -o %t/o %s 2>&1 | FileCheck %s --check-prefix=DIAG
// DIAG: PK1036.cu:[[@LINE+17]]:{{[0-9]+}}: warning: tex2D: MI300-class GPUs (gfx940, gfx941, gfx942) have no texture units
// DIAG: PK1036.cu:[[@LINE+17]]:{{[0-9]+}}: warning: tex1Dfetch: MI300-class GPUs
// DIAG-NOT: warning: tex2D
// DIAG: 2 warnings
// The report names the rule:
// RUN: %pk port -q --to hip --report %t/r.json -o %t/r %s
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/r.json
// REPORT: "rule": "PK1036"
// RUN: %hip6 --offload-arch=gfx90a --offload-device-only %t/o/hip/PK1036.hip
// RUN: %hip6 --offload-host-only %t/o/hip/PK1036.hip
// For gfx942 ROCm 6.3 refuses the fetches, as the warning says:
// RUN: not %hip6 --offload-arch=gfx942 --offload-device-only %t/o/hip/PK1036.hip 2>&1 | FileCheck %s --check-prefix=MI300
// MI300: The image/texture API not supported on the device
#include <cuda_runtime.h>

__global__ void sample(float *out, cudaTextureObject_t img, cudaTextureObject_t lut) {
  int x = threadIdx.x;
  float v = tex2D<float>(img, x + 0.5f, 0.5f);
  out[x] = v + (float)tex1Dfetch<int>(lut, x);
}

// The program's own function of the same name is not a texture fetch.
__device__ float tex2Dsum(float a) { return a; }
struct Sampler {
  __device__ float tex2D(float a) const { return 2.0f * a; }
};
__global__ void own(float *out) { out[0] = Sampler().tex2D(tex2Dsum(1.0f)); }

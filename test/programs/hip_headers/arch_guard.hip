// A HIP program tuned for MI200 only: its device code refuses to compile for
// any other GPU.  validate --program checks the device side for gfx942 too,
// so it fails there (test/programs/hip_headers/check.sh).
#include <hip/hip_runtime.h>

#if defined(__HIP_DEVICE_COMPILE__) && !defined(__gfx90a__)
#error "tuned for gfx90a (MI200) only"
#endif

__global__ void fill(int *out) { out[threadIdx.x] = threadIdx.x; }

int main() {
  int *d = nullptr;
  if (hipMalloc(&d, 64 * sizeof(int)) != hipSuccess)
    return 1;
  hipLaunchKernelGGL(fill, dim3(1), dim3(64), 0, 0, d);
  return hipDeviceSynchronize() == hipSuccess ? 0 : 1;
}

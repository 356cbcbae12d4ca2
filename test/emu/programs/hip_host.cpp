// HIP host API spellings: hipMalloc/hipMemcpy/hipLaunchKernelGGL/hipLaunchKernel/HIP_SYMBOL,
// properties and errors; ROCm 6's typed hipMallocPitch and hipFuncGetAttributes.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstring>

__constant__ int c_add[1];

template <typename T>
__global__ void add(const T* x, T* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] + (T)c_add[0];
}

static int g_bad = 0;
static void check(const char* name, bool ok) {
  printf("%s: %s\n", name, ok ? "ok" : "FAIL");
  if (!ok) ++g_bad;
}

int main() {
  hipDeviceProp_t p;
  check("props", hipGetDeviceProperties(&p, 0) == hipSuccess && p.warpSize == warpSize);
  int ws = 0;
  hipDeviceGetAttribute(&ws, hipDeviceAttributeWarpSize, 0);
  check("attribute", ws == warpSize);
  const int n = 300;
  float *x, *y, hx[n], hy[n];
  check("hipMalloc", hipMalloc((void**)&x, n * sizeof(float)) == hipSuccess && hipMalloc((void**)&y, n * 4) == 0);
  for (int i = 0; i < n; ++i) hx[i] = (float)i;
  hipMemcpy(x, hx, sizeof hx, hipMemcpyHostToDevice);
  int three = 3;
  hipMemcpyToSymbol(HIP_SYMBOL(c_add), &three, sizeof(int));
  hipLaunchKernelGGL(HIP_KERNEL_NAME(add<float>), dim3((n + 127) / 128), dim3(128), 0, 0, x, y, n);
  hipDeviceSynchronize();
  hipMemcpy(hy, y, sizeof hy, hipMemcpyDeviceToHost);
  check("hipLaunchKernelGGL", hy[0] == 3.f && hy[299] == 302.f);
  int nn = n;
  void* args[] = {&y, &x, &nn};
  check("hipLaunchKernel", hipLaunchKernel(add<float>, dim3(3), dim3(128), args, 0, 0) == hipSuccess);
  hipMemcpyDtoH(hx, x, sizeof hx);
  check("hipLaunchKernel result", hx[10] == 16.f);
  hipLaunchKernelGGL(add<float>, dim3(1), dim3(1025), 0, 0, x, y, n);
  hipError_t e = hipGetLastError();
  check("invalid config", e == hipErrorInvalidConfiguration && !strcmp(hipGetErrorName(e), "hipErrorInvalidConfiguration"));
  hipEvent_t a, b;
  hipEventCreate(&a);
  hipEventCreate(&b);
  hipEventRecord(a, 0);
  hipEventRecord(b, 0);
  float ms = -1;
  check("events", hipEventElapsedTime(&ms, a, b) == hipSuccess && ms >= 0);
  float* pitched = nullptr;
  size_t pitch = 0;
  check("hipMallocPitch typed", hipMallocPitch(&pitched, &pitch, 100 * sizeof(float), 7) == hipSuccess &&
                                    pitched && pitch >= 100 * sizeof(float));
  check("pitched free", hipFree(pitched) == hipSuccess);
  hipFuncAttributes fa;
  check("hipFuncSetAttribute", hipFuncSetAttribute(add<float>, hipFuncAttributeMaxDynamicSharedMemorySize,
                                                   8192) == hipSuccess);
  check("hipFuncGetAttributes", hipFuncGetAttributes(&fa, add<float>) == hipSuccess &&
                                    fa.maxThreadsPerBlock >= 256 && fa.maxDynamicSharedSizeBytes == 8192);
  // Memory pools and stream-ordered allocation.
  hipMemPool_t pool, cur;
  hipMemPoolProps props = {};
  props.allocType = hipMemAllocationTypePinned;
  props.location.type = hipMemLocationTypeDevice;
  props.location.id = 0;
  check("hipMemPoolCreate", hipMemPoolCreate(&pool, &props) == hipSuccess);
  unsigned long long thr = 1 << 20, got = 0;
  check("pool attribute", hipMemPoolSetAttribute(pool, hipMemPoolAttrReleaseThreshold, &thr) == hipSuccess &&
                              hipMemPoolGetAttribute(pool, hipMemPoolAttrReleaseThreshold, &got) == hipSuccess &&
                              got == thr);
  check("device pool", hipDeviceSetMemPool(0, pool) == hipSuccess && hipDeviceGetMemPool(&cur, 0) == hipSuccess &&
                           cur == pool);
  float* fp = nullptr;
  check("hipMallocFromPoolAsync", hipMallocFromPoolAsync((void**)&fp, 256, pool, 0) == hipSuccess && fp &&
                                      hipFreeAsync(fp, 0) == hipSuccess);
  check("hipMemPoolDestroy", hipMemPoolDestroy(pool) == hipSuccess && hipDeviceGetMemPool(&cur, 0) == hipSuccess &&
                                 hipDeviceGetDefaultMemPool(&pool, 0) == hipSuccess && cur == pool);
  check("free", hipFree(x) == hipSuccess && hipFree(y) == hipSuccess);
  printf(g_bad ? "FAIL\n" : "PASS\n");
  return g_bad ? 1 : 0;
}

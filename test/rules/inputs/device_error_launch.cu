// Device management, error handling, kernel launch, function attributes and
// occupancy.
#include <cuda_runtime.h>
#include <cuda_profiler_api.h>
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                              \
  do {                                                                           \
    cudaError_t err_ = (call);                                                   \
    if (err_ != cudaSuccess) {                                                   \
      fprintf(stderr, "%s:%d: %s (%s)\n", __FILE__, __LINE__,                    \
              cudaGetErrorString(err_), cudaGetErrorName(err_));                 \
      exit(1);                                                                   \
    }                                                                            \
  } while (0)

extern __shared__ float dynSmem[];

__global__ void __launch_bounds__(256, 2) saxpy(float a, const float *__restrict__ x,
                                                float *__restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  dynSmem[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  if (i < n) y[i] = a * dynSmem[threadIdx.x] + y[i];
}

__global__ void coopKernel(int *p) { p[threadIdx.x] = (int)gridDim.x; }

static const char *errorKind(cudaError_t e) {
  switch (e) {
  case cudaErrorInvalidValue: return "invalid value";
  case cudaErrorMemoryAllocation: return "out of memory";
  case cudaErrorInitializationError: return "init";
  case cudaErrorInvalidDevice: return "device";
  case cudaErrorNoDevice: return "no device";
  case cudaErrorInvalidDevicePointer: return "pointer";
  case cudaErrorInvalidConfiguration: return "config";
  case cudaErrorLaunchFailure: return "launch";
  case cudaErrorLaunchOutOfResources: return "resources";
  case cudaErrorIllegalAddress: return "address";
  case cudaErrorInvalidResourceHandle: return "handle";
  case cudaErrorNotReady: return "not ready";
  case cudaErrorNotSupported: return "unsupported";
  case cudaErrorPeerAccessAlreadyEnabled: return "peer";
  case cudaErrorCooperativeLaunchTooLarge: return "coop";
  case cudaErrorInvalidDeviceFunction: return "function";
  case cudaErrorNoKernelImageForDevice: return "image";
  case cudaErrorUnknown: return "unknown";
  default: return "other";
  }
}

int main() {
  int count = 0, dev = 0;
  CHECK(cudaGetDeviceCount(&count));
  CHECK(cudaSetDevice(0));
  CHECK(cudaGetDevice(&dev));
  CHECK(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync | cudaDeviceMapHost));
  unsigned int devFlags = 0;
  cudaGetDeviceFlags(&devFlags);
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, dev));
  printf("%s sm_%d%d smem %zu warp %d sms %d\n", prop.name, prop.major, prop.minor,
         prop.sharedMemPerBlock, prop.warpSize, prop.multiProcessorCount);
  int smCount = 0, maxThreads = 0, cc = 0, l2 = 0, optin = 0, warp = 0;
  cudaDeviceGetAttribute(&smCount, cudaDevAttrMultiProcessorCount, dev);
  cudaDeviceGetAttribute(&maxThreads, cudaDevAttrMaxThreadsPerBlock, dev);
  cudaDeviceGetAttribute(&cc, cudaDevAttrComputeCapabilityMajor, dev);
  cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev);
  cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
  cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, dev);
  int canPeer = 0;
  if (count > 1) {
    cudaDeviceCanAccessPeer(&canPeer, 0, 1);
    if (canPeer) {
      cudaDeviceEnablePeerAccess(1, 0);
      cudaDeviceDisablePeerAccess(1);
    }
  }
  cudaDeviceSetCacheConfig(cudaFuncCachePreferShared);
  size_t heap = 0;
  cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize);
  int drv = 0, rt = 0;
  cudaDriverGetVersion(&drv);
  cudaRuntimeGetVersion(&rt);

  const int n = 1 << 16;
  float *x, *y;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&y, n * sizeof(float)));

  cudaFuncAttributes fa;
  CHECK(cudaFuncGetAttributes(&fa, saxpy));
  printf("regs %d maxThreads %d\n", fa.numRegs, fa.maxThreadsPerBlock);
  CHECK(cudaFuncSetAttribute(saxpy, cudaFuncAttributeMaxDynamicSharedMemorySize, 48 * 1024));
  CHECK(cudaFuncSetAttribute((const void *)saxpy, cudaFuncAttributePreferredSharedMemoryCarveout, 50));
  CHECK(cudaFuncSetCacheConfig(saxpy, cudaFuncCachePreferL1));

  int minGrid = 0, block = 0, active = 0;
  CHECK(cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, saxpy, 256 * sizeof(float), 0));
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&active, saxpy, 256, 256 * sizeof(float)));
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&active, saxpy, 256, 0,
                                                               cudaOccupancyDefault));

  cudaProfilerStart();
  saxpy<<<n / 256, 256, 256 * sizeof(float)>>>(2.0f, x, y, n);
  CHECK(cudaGetLastError());
  CHECK(cudaPeekAtLastError());

  float a = 3.0f;
  int nn = n;
  void *args[] = {&a, &x, &y, &nn};
  CHECK(cudaLaunchKernel((const void *)saxpy, dim3(n / 256), dim3(256), args,
                         256 * sizeof(float), 0));
  CHECK(cudaLaunchKernel(saxpy, dim3(n / 256), dim3(256), args, 256 * sizeof(float)));
  int *ip = (int *)x;
  void *cargs[] = {&ip};
  cudaError_t ce = cudaLaunchCooperativeKernel((const void *)coopKernel, dim3(1), dim3(32), cargs,
                                               0, 0);
  printf("%s\n", errorKind(ce));
  cudaProfilerStop();

  CHECK(cudaDeviceSynchronize());
  cudaFree(x);
  cudaFree(y);
  CHECK(cudaDeviceReset());
  return 0;
}

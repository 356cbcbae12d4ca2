// Memory management: device, managed, pinned, pitched, 3D, arrays, symbols,
// memset/memcpy variants, pools and pointer queries.
#include <cuda_runtime.h>
#include <cstdio>

__constant__ float kScale[16];
__device__ int gCounter;

__global__ void scale(float *data, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) data[i] *= kScale[i % 16];
  if (i == 0) atomicAdd(&gCounter, 1);
}

int main() {
  const size_t n = 1 << 20;
  float *d = nullptr, *h = nullptr, *m = nullptr, *pinned = nullptr;
  cudaMalloc(&d, n * sizeof(float));
  cudaMalloc((void **)&d, n * sizeof(float));
  cudaMallocHost(&h, n * sizeof(float));
  cudaHostAlloc((void **)&pinned, n * sizeof(float), cudaHostAllocPortable | cudaHostAllocMapped);
  cudaMallocManaged(&m, n * sizeof(float), cudaMemAttachGlobal);
  float *mapped = nullptr;
  cudaHostGetDevicePointer((void **)&mapped, pinned, 0);
  unsigned int hflags = 0;
  cudaHostGetFlags(&hflags, pinned);

  float scaleHost[16] = {1};
  cudaMemcpyToSymbol(kScale, scaleHost, sizeof(scaleHost));
  cudaMemcpyToSymbolAsync(kScale, scaleHost, sizeof(scaleHost), 0, cudaMemcpyHostToDevice, 0);
  int counter = 0;
  cudaMemcpyFromSymbol(&counter, gCounter, sizeof(int));
  cudaMemcpyFromSymbolAsync(&counter, gCounter, sizeof(int), 0, cudaMemcpyDeviceToHost, 0);
  void *symAddr = nullptr;
  size_t symSize = 0;
  cudaGetSymbolAddress(&symAddr, gCounter);
  cudaGetSymbolSize(&symSize, kScale);

  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, 0);
  cudaMemcpy(d, d, 0, cudaMemcpyDeviceToDevice);
  cudaMemcpy(h, h, 0, cudaMemcpyHostToHost);
  cudaMemcpy(m, d, 16, cudaMemcpyDefault);
  cudaMemset(d, 0, n * sizeof(float));
  cudaMemsetAsync(d, 0, n * sizeof(float), 0);

  float *pitched = nullptr;
  size_t pitch = 0;
  cudaMallocPitch(&pitched, &pitch, 64 * sizeof(float), 64);
  cudaMemcpy2D(pitched, pitch, h, 64 * sizeof(float), 64 * sizeof(float), 64,
               cudaMemcpyHostToDevice);
  cudaMemcpy2DAsync(h, 64 * sizeof(float), pitched, pitch, 64 * sizeof(float), 64,
                    cudaMemcpyDeviceToHost, 0);
  cudaMemset2D(pitched, pitch, 0, 64 * sizeof(float), 64);
  cudaMemset2DAsync(pitched, pitch, 0, 64 * sizeof(float), 64, 0);

  cudaExtent ext = make_cudaExtent(32 * sizeof(float), 32, 32);
  cudaPitchedPtr p3 = make_cudaPitchedPtr(nullptr, 0, 0, 0);
  cudaMalloc3D(&p3, ext);
  cudaMemset3D(p3, 0, ext);
  cudaMemset3DAsync(p3, 0, ext, 0);
  cudaMemcpy3DParms parms = {};
  parms.srcPtr = make_cudaPitchedPtr(h, 32 * sizeof(float), 32, 32);
  parms.dstPtr = p3;
  parms.srcPos = make_cudaPos(0, 0, 0);
  parms.extent = ext;
  parms.kind = cudaMemcpyHostToDevice;
  cudaMemcpy3D(&parms);
  cudaMemcpy3DAsync(&parms, 0);

  cudaChannelFormatDesc desc = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
  cudaChannelFormatDesc desc2 = cudaCreateChannelDesc<float>();
  (void)desc2;
  cudaArray_t arr = nullptr, arr3 = nullptr;
  cudaMallocArray(&arr, &desc, 64, 64);
  cudaMalloc3DArray(&arr3, &desc, make_cudaExtent(8, 8, 8), cudaArrayDefault);
  cudaMemcpy2DToArray(arr, 0, 0, h, 64 * sizeof(float), 64 * sizeof(float), 64,
                      cudaMemcpyHostToDevice);
  cudaMemcpy2DToArrayAsync(arr, 0, 0, h, 64 * sizeof(float), 64 * sizeof(float), 64,
                           cudaMemcpyHostToDevice, 0);
  cudaMemcpy2DFromArray(h, 64 * sizeof(float), arr, 0, 0, 64 * sizeof(float), 64,
                        cudaMemcpyDeviceToHost);
  cudaMemcpy2DFromArrayAsync(h, 64 * sizeof(float), arr, 0, 0, 64 * sizeof(float), 64,
                             cudaMemcpyDeviceToHost, 0);
  cudaFreeArray(arr);
  cudaFreeArray(arr3);

  size_t freeB = 0, totalB = 0;
  cudaMemGetInfo(&freeB, &totalB);
  cudaMemAdvise(m, n * sizeof(float), cudaMemAdviseSetReadMostly, cudaMemLocation{cudaMemLocationTypeDevice, 0});
  cudaMemPrefetchAsync(m, n * sizeof(float), cudaMemLocation{cudaMemLocationTypeDevice, 0}, 0, 0);
  int readMostly = 0;
  cudaMemRangeGetAttribute(&readMostly, sizeof(readMostly), cudaMemRangeAttributeReadMostly, m,
                           n * sizeof(float));
  cudaPointerAttributes attrs;
  cudaPointerGetAttributes(&attrs, d);
  if (attrs.type == cudaMemoryTypeDevice || attrs.type == cudaMemoryTypeManaged) printf("dev\n");

  cudaMemcpyPeer(d, 0, d, 0, 16);
  cudaMemcpyPeerAsync(d, 0, d, 0, 16, 0);

  float *async = nullptr;
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMallocAsync(&async, 1024, s);
  cudaFreeAsync(async, s);
  cudaMemPool_t pool;
  cudaDeviceGetDefaultMemPool(&pool, 0);
  cudaMemPoolTrimTo(pool, 0);
  cudaStreamDestroy(s);

  float local[8];
  cudaHostRegister(local, sizeof(local), cudaHostRegisterDefault);
  cudaHostUnregister(local);

  scale<<<(unsigned)((n + 255) / 256), 256>>>(d, n);
  cudaFree(d);
  cudaFree(m);
  cudaFree(pitched);
  cudaFreeHost(h);
  cudaFreeHost(pinned);
  return 0;
}

#include <cooperative_groups.h>
#include <cuda_runtime.h>
__global__ void k(int *x) { x[threadIdx.x] = 2; }

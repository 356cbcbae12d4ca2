#include <cstdlib>
#include <cuda_runtime.h>
#include <cooperative_groups.h>
__global__ void k(int *x) { x[threadIdx.x] = 1; }

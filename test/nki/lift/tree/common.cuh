#pragma once
#include <cuda_runtime.h>

__device__ __forceinline__ float twice(float v) { return 2.0f * v; }

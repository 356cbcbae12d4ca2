#pragma once
#include <cuda_runtime.h>
#include <device_launch_parameters.h>

#define STREAM_T cudaStream_t
#define CHECK_LAST() (void)cudaGetLastError()

__device__ __forceinline__ float util_square(float x) { return x * x; }

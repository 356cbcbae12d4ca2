#pragma once
#include <hip/hip_runtime.h>

#define STREAM_T hipStream_t
#define CHECK_LAST() (void)hipGetLastError()

__device__ __forceinline__ float util_square(float x) { return x * x; }

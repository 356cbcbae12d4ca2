/*===- cuda_profiler_api.h - profiler control --------------------------------===*
 * cudaProfilerStart/cudaProfilerStop are declared with the runtime API. */
#ifndef __PK_CUDA_PROFILER_API_H
#define __PK_CUDA_PROFILER_API_H
#include "cuda_runtime_api.h"
#endif

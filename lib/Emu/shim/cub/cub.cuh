//===- cub/cub.cuh - CUB for the emulator ------------------------*- C++ -*-===//
// Rules: none (emulator runtime)
//
// CUB's collectives with CUB's defaults (a 32-thread logical warp); see
// pkemu/cub_impl.h.
//
//===----------------------------------------------------------------------===//
#ifndef PKEMU_CUB_CUH
#define PKEMU_CUB_CUH
#include "../cuda_runtime.h"
#define PKEMU_CUB_NS cub
#define PKEMU_CUB_WARP 32
#define PKEMU_CUB_ERROR_T cudaError_t
#define PKEMU_CUB_STREAM_T cudaStream_t
#include "../pkemu/cub_impl.h"
#undef PKEMU_CUB_NS
#undef PKEMU_CUB_WARP
#undef PKEMU_CUB_ERROR_T
#undef PKEMU_CUB_STREAM_T
#endif

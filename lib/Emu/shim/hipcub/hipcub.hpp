//===- hipcub/hipcub.hpp - hipCUB for the emulator ---------------*- C++
//-*-===//
// Rules: none (emulator runtime)
//
// hipCUB's collectives with hipCUB's defaults: the logical warp of
// WarpReduce and WarpScan is the wave (PKEMU_DEFAULT_WARP: 64 for HIP), as
// on AMD GPUs; see pkemu/cub_impl.h.
//
//===----------------------------------------------------------------------===//
#ifndef PKEMU_HIPCUB_HPP
#define PKEMU_HIPCUB_HPP
#include "../hip/hip_runtime.h"
#define PKEMU_CUB_NS hipcub
#define PKEMU_CUB_WARP PKEMU_DEFAULT_WARP
#define PKEMU_CUB_ERROR_T hipError_t
#define PKEMU_CUB_STREAM_T hipStream_t
#include "../pkemu/cub_impl.h"
#undef PKEMU_CUB_NS
#undef PKEMU_CUB_WARP
#undef PKEMU_CUB_ERROR_T
#undef PKEMU_CUB_STREAM_T
#endif

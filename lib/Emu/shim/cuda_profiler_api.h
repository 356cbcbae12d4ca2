//===- cuda_profiler_api.h - emulator shim ----------------------*- C++ -*-===//
// Rules: none (emulator runtime)
//
// pkemu shim for CUDA's <cuda_profiler_api.h>: cudaProfilerStart and
// cudaProfilerStop come with the runtime API (pkemu/cuda_api.h).
//
//===----------------------------------------------------------------------===//
#pragma once
#include "pkemu/prelude.h"

//===- device_functions.h - emulator shim -----------------------*- C++ -*-===//
// Rules: none (emulator runtime)
//
// pkemu shim for ROCm's <hip/device_functions.h> (the port of CUDA's
// <device_functions.h>): the device functions come with the prelude.
//
//===----------------------------------------------------------------------===//
#pragma once
#include "../pkemu/prelude.h"

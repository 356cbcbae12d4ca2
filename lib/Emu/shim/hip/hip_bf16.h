//===- hip_bf16.h - emulator shim -------------------------------*- C++ -*-===//
// Rules: none (emulator runtime)
//
// pkemu shim header (see lib/Emu/shim/pkemu/prelude.h).
//
//===----------------------------------------------------------------------===//
#pragma once
#include "../pkemu/prelude.h"

#include "../pkemu/fp16.h"

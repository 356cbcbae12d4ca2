//===- hip_cooperative_groups.h - emulator shim -----------------*- C++ -*-===//
// Rules: none (emulator runtime)
//
// pkemu shim header (see lib/Emu/shim/pkemu/prelude.h).
//
//===----------------------------------------------------------------------===//
#pragma once
#include "../pkemu/prelude.h"

#include "../cooperative_groups.h"

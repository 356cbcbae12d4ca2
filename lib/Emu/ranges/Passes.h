//===- Passes.h - the passes of the emulator's compiler plugin -*- C++ -*-===//
// Rules: none (emulator build: libpkemu-ranges.so)
//===----------------------------------------------------------------------===//
#ifndef PKEMU_RANGES_PASSES_H
#define PKEMU_RANGES_PASSES_H

#include "llvm/IR/PassManager.h"

namespace pkemu_ranges {

/// 32-bit divisions by launch-invariant divisors through a per-thread cache
/// of their reciprocals (FastDivision.cpp).
struct FastDivisionPass : llvm::PassInfoMixin<FastDivisionPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

/// OpenMP regions outlined from functions that are not instrumented (host-only
/// functions) are not instrumented either (HostRegions.cpp).
struct HostRegionsPass : llvm::PassInfoMixin<HostRegionsPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

} // namespace pkemu_ranges

#endif

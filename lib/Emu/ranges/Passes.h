//===- Passes.h - the passes of the emulator's compiler plugin -*- C++ -*-===//
// Rules: none (emulator build: libpkemu-ranges.so)
//===----------------------------------------------------------------------===//
#ifndef PKEMU_RANGES_PASSES_H
#define PKEMU_RANGES_PASSES_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class Value;
}

namespace pkemu_ranges {

/// Whether \p Obj (an underlying object) is the block's shared memory: a
/// static __shared__ object (the runtime's shared_alloc) or the dynamic
/// part (the thread's pkemu_t_dyn_base), as the emulator preparation
/// (PKEMU_SHARED, PKEMU_DYNAMIC_SHARED) writes them (ReadGroups.cpp).
bool isSharedMemory(const llvm::Value *Obj);

/// 32-bit divisions by launch-invariant divisors through a per-thread cache
/// of their reciprocals (FastDivision.cpp).
struct FastDivisionPass : llvm::PassInfoMixin<FastDivisionPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

/// Host-only code (PKEMU_HOST_FN), its OpenMP regions and what it calls,
/// compiled without the memory hooks (HostCode.cpp).
struct HostCodePass : llvm::PassInfoMixin<HostCodePass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

/// Loads and stores at constant offsets inside a global or thread-local
/// variable (the built-in index variables) are not instrumented
/// (GlobalAccesses.cpp).
struct GlobalAccessesPass : llvm::PassInfoMixin<GlobalAccessesPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

/// Plain reads at constant offsets from one base, in a stretch of a block
/// with no call or store between them, checked by one runtime call instead
/// of one hook each (ReadGroups.cpp).
struct ReadGroupsPass : llvm::PassInfoMixin<ReadGroupsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

struct ProgramGlobalsPass : llvm::PassInfoMixin<ProgramGlobalsPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

struct EffectsPass : llvm::PassInfoMixin<EffectsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace pkemu_ranges

#endif

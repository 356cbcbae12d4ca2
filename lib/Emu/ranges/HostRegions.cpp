//===- HostRegions.cpp - OpenMP regions of host-only functions ------------===//
// Rules: none (emulator build: part of the pass plugin libpkemu-ranges.so)
//
// Host-only functions of a program prepared by validate carry
// PKEMU_HOST_FN (no_sanitize("thread")): the program's own host code runs as
// native code, without the memory hooks. With -fopenmp, clang outlines the
// body of each `#pragma omp parallel` (and task) into a function of its own
// that does not inherit the attribute, so a CPU reference's parallel loop
// would pay a hook per access (several times slower than natively) while
// the same loop without the pragma runs free. This pass runs before the
// instrumentation and gives each region outlined from a function that is
// not instrumented that function's treatment: every local function passed
// to an OpenMP runtime entry (__kmpc_fork_call, __kmpc_fork_teams, task
// allocation, ...) by such a function loses `sanitize_thread`, and so, in
// turn, do the regions nested in it and the local helpers it calls whose
// names say they are outlined (clang's debug wrappers).
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace pkemu_ranges {
namespace {

// A local function that an OpenMP runtime call takes as the region to run.
void regionsOf(CallBase &CB, SmallVectorImpl<Function *> &Out) {
  const Function *Callee = CB.getCalledFunction();
  if (!Callee || !Callee->getName().starts_with("__kmpc_"))
    return;
  for (Value *Arg : CB.args())
    if (auto *F = dyn_cast<Function>(Arg->stripPointerCasts()))
      if (F->hasLocalLinkage() && !F->isDeclaration())
        Out.push_back(F);
}

// A local helper an outlined region calls that clang outlined too.
bool isOutlinedHelper(const Function *F) {
  if (!F || !F->hasLocalLinkage() || F->isDeclaration())
    return false;
  StringRef N = F->getName();
  return N.contains("omp_outlined") || N.contains("omp_task_entry") ||
         N.contains("omp.reduction");
}

} // namespace

PreservedAnalyses HostRegionsPass::run(Module &M, ModuleAnalysisManager &) {
  SmallVector<Function *, 16> Work;
  for (Function &F : M) {
    if (F.isDeclaration() || F.hasFnAttribute(Attribute::SanitizeThread))
      continue;
    for (Instruction &I : instructions(F))
      if (auto *CB = dyn_cast<CallBase>(&I))
        regionsOf(*CB, Work);
  }
  SmallPtrSet<Function *, 16> Done;
  bool Changed = false;
  while (!Work.empty()) {
    Function *F = Work.pop_back_val();
    if (!Done.insert(F).second)
      continue;
    if (F->hasFnAttribute(Attribute::SanitizeThread)) {
      F->removeFnAttr(Attribute::SanitizeThread);
      Changed = true;
    }
    for (Instruction &I : instructions(*F))
      if (auto *CB = dyn_cast<CallBase>(&I)) {
        regionsOf(*CB, Work);
        if (isOutlinedHelper(CB->getCalledFunction()))
          Work.push_back(CB->getCalledFunction());
      }
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace pkemu_ranges

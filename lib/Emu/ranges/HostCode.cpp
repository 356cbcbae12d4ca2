//===- HostCode.cpp - host-only code compiled as native code --------------===//
// Rules: none (emulator build: part of the pass plugin libpkemu-ranges.so)
//
// Host-only functions of a program prepared by validate carry PKEMU_HOST_FN
// (PK9901: no_sanitize("thread") and the annotation "pkemu_host"): the
// program's own host code runs without the memory hooks, which check device
// code. Two things the attribute alone does not reach:
//
//  - OpenMP regions. With -fopenmp clang outlines each `#pragma omp
//    parallel` body (and task) into a function of its own that does not
//    inherit the attribute, so a CPU reference's parallel loop paid a hook
//    per access. Every local function that host-only code hands to an
//    OpenMP runtime entry (__kmpc_fork_call, __kmpc_fork_teams, task
//    allocation, ...) is host-only code too, and so are the regions nested
//    in it and the outlined helpers it calls.
//
//  - Inline functions host code calls (std::vector's operator[],
//    std::isfinite, a program's small helpers, __host__ __device__
//    functions). They are instrumented for their device callers, and LLVM
//    does not inline a function with sanitize_thread into one without it, so
//    every such call from host code stayed a call, with hooks inside. Each
//    call from host-only code to a function defined in this module that is
//    instrumented goes to a copy of that function without instrumentation
//    (internal, named NAME.pkemu_host), made once per function, whose own
//    calls are treated the same way; device code keeps the original.
//
// The pass runs at the start of the optimisation pipeline, so the inliner
// and the vectorisers then see host code as a native build would.
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace pkemu_ranges {
namespace {

// The functions annotated "pkemu_host" (llvm.global.annotations).
void annotatedHostFunctions(Module &M, SmallVectorImpl<Function *> &Out) {
  GlobalVariable *GA = M.getNamedGlobal("llvm.global.annotations");
  if (!GA || !GA->hasInitializer())
    return;
  auto *Arr = dyn_cast<ConstantArray>(GA->getInitializer());
  if (!Arr)
    return;
  for (const Use &U : Arr->operands()) {
    auto *CS = dyn_cast<ConstantStruct>(U.get());
    if (!CS || CS->getNumOperands() < 2)
      continue;
    auto *F = dyn_cast<Function>(CS->getOperand(0)->stripPointerCasts());
    auto *Str =
        dyn_cast<GlobalVariable>(CS->getOperand(1)->stripPointerCasts());
    if (!F || F->isDeclaration() || !Str || !Str->hasInitializer())
      continue;
    auto *Data = dyn_cast<ConstantDataSequential>(Str->getInitializer());
    if (Data && Data->isCString() && Data->getAsCString() == "pkemu_host")
      Out.push_back(F);
  }
}

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

// A local helper of a region that clang outlined too (debug wrappers,
// task entries, reductions): part of the region.
bool isOutlinedHelper(const Function *F) {
  if (!F || !F->hasLocalLinkage() || F->isDeclaration())
    return false;
  StringRef N = F->getName();
  return N.contains("omp_outlined") || N.contains("omp_task_entry") ||
         N.contains("omp.reduction");
}

} // namespace

PreservedAnalyses HostCodePass::run(Module &M, ModuleAnalysisManager &) {
  SmallVector<Function *, 32> Work;
  annotatedHostFunctions(M, Work);
  if (Work.empty())
    return PreservedAnalyses::all();
  SmallPtrSet<Function *, 32> Done;
  DenseMap<Function *, Function *> Copies;
  bool Changed = false;
  while (!Work.empty()) {
    Function *F = Work.pop_back_val();
    if (!Done.insert(F).second)
      continue;
    if (F->hasFnAttribute(Attribute::SanitizeThread)) {
      F->removeFnAttr(Attribute::SanitizeThread);
      Changed = true;
    }
    for (Instruction &I : instructions(*F)) {
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB)
        continue;
      regionsOf(*CB, Work);
      Function *G = CB->getCalledFunction();
      if (!G || G->isDeclaration() || G->isIntrinsic())
        continue;
      if (isOutlinedHelper(G)) {
        Work.push_back(G);
        continue;
      }
      if (!G->hasFnAttribute(Attribute::SanitizeThread) ||
          G->isInterposable() || G->hasFnAttribute(Attribute::Naked))
        continue;
      Function *&C = Copies[G];
      if (!C) {
        ValueToValueMapTy VMap;
        C = CloneFunction(G, VMap);
        C->setName(G->getName() + ".pkemu_host");
        C->setLinkage(GlobalValue::InternalLinkage);
        C->setVisibility(GlobalValue::DefaultVisibility);
        C->setComdat(nullptr);
        C->setDSOLocal(true);
        Work.push_back(C);
      }
      CB->setCalledFunction(C);
      Changed = true;
    }
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace pkemu_ranges

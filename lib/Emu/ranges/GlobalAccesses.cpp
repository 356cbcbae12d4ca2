//===- GlobalAccesses.cpp - accesses that cannot leave a global variable --===//
// Rules: none (emulator build: part of the pass plugin libpkemu-ranges.so)
//
// A kernel reads its built-in variables (threadIdx, blockIdx, blockDim,
// gridDim: thread-local variables of the runtime) several times per thread,
// and each read was instrumented: a hook call that tested the address
// against the shared-memory arena, the device heap and, last, the known
// memory ranges, to find nothing to report. The same holds for any access at
// a constant offset inside a global or thread-local variable of the
// program's image: it can be neither shared nor device memory, and it stays
// inside its object. Such loads and stores are marked nosanitize, so the
// instrumentation leaves them alone. Volatile accesses keep their hooks:
// they are the emulator's scheduling points in spin loops.
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace pkemu_ranges {

namespace {
// The global variable an access at Ptr lies inside, with its whole extent
// [Offset, Offset + Size) known at compile time.
const GlobalVariable *insideGlobal(Value *Ptr, uint64_t Size,
                                   const DataLayout &DL) {
  APInt Off(DL.getIndexTypeSizeInBits(Ptr->getType()), 0);
  Value *Base = Ptr->stripAndAccumulateInBoundsConstantOffsets(DL, Off);
  if (auto *II = dyn_cast<IntrinsicInst>(Base))
    if (II->getIntrinsicID() == Intrinsic::threadlocal_address)
      Base = II->getArgOperand(0);
  // Defined here or declared (a runtime variable): its type gives its size.
  auto *GV = dyn_cast<GlobalVariable>(Base);
  if (!GV)
    return nullptr;
  Type *T = GV->getValueType();
  if (!T->isSized() || Off.isNegative())
    return nullptr;
  uint64_t Extent = DL.getTypeAllocSize(T);
  uint64_t O = Off.getZExtValue();
  if (O > Extent || Size > Extent - O)
    return nullptr;
  return GV;
}
} // namespace

PreservedAnalyses GlobalAccessesPass::run(Function &F,
                                          FunctionAnalysisManager &) {
  if (!F.hasFnAttribute(Attribute::SanitizeThread))
    return PreservedAnalyses::all();
  const DataLayout &DL = F.getParent()->getDataLayout();
  bool Changed = false;
  for (Instruction &I : instructions(F)) {
    Value *Ptr = nullptr;
    Type *T = nullptr;
    if (auto *L = dyn_cast<LoadInst>(&I)) {
      if (L->isVolatile() || L->isAtomic())
        continue;
      Ptr = L->getPointerOperand();
      T = L->getType();
    } else if (auto *S = dyn_cast<StoreInst>(&I)) {
      if (S->isVolatile() || S->isAtomic())
        continue;
      Ptr = S->getPointerOperand();
      T = S->getValueOperand()->getType();
    } else {
      continue;
    }
    if (I.hasMetadata(LLVMContext::MD_nosanitize) || !T->isSized())
      continue;
    if (!insideGlobal(Ptr, DL.getTypeStoreSize(T), DL))
      continue;
    I.setMetadata(LLVMContext::MD_nosanitize, MDNode::get(F.getContext(), {}));
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace pkemu_ranges

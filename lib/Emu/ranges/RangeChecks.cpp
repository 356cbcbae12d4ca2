//===- RangeChecks.cpp - one bounds check per loop, not per access --------===//
// Rules: none (emulator build: a clang pass plugin, -fpass-plugin)
//
// Every load and store of an emulated kernel calls a memory hook
// (__tsan_readN / __tsan_writeN, runtime/hooks.cpp), which for device memory
// only tests the access against its buffer's bounds. In a loop that walks a
// buffer (`for (i = 0; i < n; ++i) s += a[i] * b[i]`) those calls are most
// of the kernel's time. This pass, run before ThreadSanitizer's
// instrumentation, gives such a loop one test per entry instead:
//
//  - For each innermost loop with a preheader and a computable (symbolic)
//    maximum trip count, and each plain load or store in it (not volatile,
//    not atomic, of 1, 2, 4, 8 or 16 bytes, not of a local or a global)
//    whose address is an affine recurrence of the loop that does not wrap
//    (SCEV {start,+,step}<nw>), the addresses it can take lie between its
//    values at the first and the last possible iteration.
//  - The preheader asks the runtime, once per access, whether that whole
//    range (plus the access's size) lies inside one live device buffer
//    (__pkemu_range_ok, hooks.cpp: the hooks' own test, over the range); the
//    answers are combined into one flag.
//  - The access is marked nosanitize (ThreadSanitizer leaves it alone) and
//    gets, in front of it, the hook it would have had, called only when the
//    flag is false.
//
// When the flag is true every access the loop can make is inside a live
// device buffer, where the hook would have found nothing; when it is false
// (shared memory, which the hooks check for races; host or stack memory; a
// range that leaves its buffer) every access goes through its hook as
// before, at its own place and line. So the reports and the program's
// behaviour are those without the pass. docs/emulator.md, "Bounds checks
// hoisted out of loops".
//
//===----------------------------------------------------------------------===//
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;

namespace {

struct Access {
  Instruction *I;
  Value *Ptr;
  unsigned Size;
  bool Write;
};

struct LoopPlan {
  Loop *L;
  SmallVector<Access, 8> Accesses;
  SmallVector<std::pair<const SCEV *, const SCEV *>, 8> Ends; // first, last
};

bool hookedSize(unsigned N) {
  return N == 1 || N == 2 || N == 4 || N == 8 || N == 16;
}

struct RangeChecksPass : PassInfoMixin<RangeChecksPass> {
  PreservedAnalyses run(Function &F, FunctionAnalysisManager &AM) {
    if (F.isDeclaration() || !F.hasFnAttribute(Attribute::SanitizeThread) ||
        F.hasFnAttribute(Attribute::DisableSanitizerInstrumentation))
      return PreservedAnalyses::all();
    LoopInfo &LI = AM.getResult<LoopAnalysis>(F);
    if (LI.empty())
      return PreservedAnalyses::all();
    ScalarEvolution &SE = AM.getResult<ScalarEvolutionAnalysis>(F);
    const DataLayout &DL = F.getParent()->getDataLayout();

    SmallVector<LoopPlan, 8> Plans;
    for (Loop *L : LI.getLoopsInPreorder()) {
      if (!L->isInnermost() || !L->getLoopPreheader())
        continue;
      const SCEV *BTC = SE.getSymbolicMaxBackedgeTakenCount(L);
      if (isa<SCEVCouldNotCompute>(BTC))
        continue;
      LoopPlan P;
      P.L = L;
      SCEVExpander Probe(SE, DL, "pk.range");
      Instruction *At = L->getLoopPreheader()->getTerminator();
      for (BasicBlock *BB : L->blocks())
        for (Instruction &I : *BB) {
          Value *Ptr = nullptr;
          Type *Ty = nullptr;
          bool Write = false;
          if (auto *LD = dyn_cast<LoadInst>(&I)) {
            if (!LD->isSimple())
              continue;
            Ptr = LD->getPointerOperand();
            Ty = LD->getType();
          } else if (auto *ST = dyn_cast<StoreInst>(&I)) {
            if (!ST->isSimple())
              continue;
            Ptr = ST->getPointerOperand();
            Ty = ST->getValueOperand()->getType();
            Write = true;
          } else
            continue;
          if (I.hasMetadata(LLVMContext::MD_nosanitize) ||
              Ptr->getType()->getPointerAddressSpace() != 0)
            continue;
          TypeSize TS = DL.getTypeStoreSize(Ty);
          if (TS.isScalable() || !hookedSize((unsigned)TS.getFixedValue()))
            continue;
          // Locals and globals keep their hooks (the instrumentation
          // skips some of them itself; none of them is device memory).
          const Value *Obj = getUnderlyingObject(Ptr);
          if (isa<AllocaInst>(Obj) || isa<GlobalValue>(Obj))
            continue;
          const auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Ptr));
          if (!AR || AR->getLoop() != L || !AR->isAffine() ||
              !AR->hasNoSelfWrap() || !SE.isLoopInvariant(AR->getStart(), L) ||
              !SE.isLoopInvariant(AR->getStepRecurrence(SE), L))
            continue;
          const SCEV *Last = AR->evaluateAtIteration(BTC, SE);
          if (isa<SCEVCouldNotCompute>(Last) ||
              !Probe.isSafeToExpandAt(AR->getStart(), At) ||
              !Probe.isSafeToExpandAt(Last, At))
            continue;
          P.Accesses.push_back({&I, Ptr, (unsigned)TS.getFixedValue(), Write});
          P.Ends.push_back({AR->getStart(), Last});
        }
      if (!P.Accesses.empty())
        Plans.push_back(std::move(P));
    }
    if (Plans.empty())
      return PreservedAnalyses::all();

    Module &M = *F.getParent();
    LLVMContext &Ctx = M.getContext();
    Type *PtrTy = PointerType::get(Ctx, 0);
    Type *I64 = Type::getInt64Ty(Ctx);
    FunctionCallee RangeOk = M.getOrInsertFunction(
        "__pkemu_range_ok", Type::getInt1Ty(Ctx), PtrTy, PtrTy, I64);
    if (auto *RF = dyn_cast<Function>(RangeOk.getCallee()))
      RF->addFnAttr(Attribute::NoUnwind);
    MDNode *NoSan = MDNode::get(Ctx, {});
    // Rarely taken: the hook is the slow path.
    MDNode *Unlikely = MDBuilder(Ctx).createBranchWeights(1, 1 << 20);

    // The flags first (the expander inserts into the preheaders only), then
    // the hooks (which split the loops' blocks).
    SmallVector<Value *, 8> Slow;
    for (LoopPlan &P : Plans) {
      Instruction *At = P.L->getLoopPreheader()->getTerminator();
      SCEVExpander Ex(SE, DL, "pk.range");
      IRBuilder<> B(At);
      Value *All = nullptr;
      for (unsigned K = 0; K < P.Accesses.size(); ++K) {
        Value *First = Ex.expandCodeFor(P.Ends[K].first, PtrTy, At);
        Value *Last = Ex.expandCodeFor(P.Ends[K].second, PtrTy, At);
        B.SetInsertPoint(At);
        Value *Ok = B.CreateCall(RangeOk,
                                 {First, Last, B.getInt64(P.Accesses[K].Size)});
        All = All ? B.CreateAnd(All, Ok) : Ok;
      }
      Slow.push_back(B.CreateNot(All, "pk.range.slow"));
    }
    for (unsigned N = 0; N < Plans.size(); ++N)
      for (Access &A : Plans[N].Accesses) {
        std::string Name =
            std::string(A.Write ? "__tsan_write" : "__tsan_read") +
            std::to_string(A.Size);
        FunctionCallee Hook =
            M.getOrInsertFunction(Name, Type::getVoidTy(Ctx), PtrTy);
        Instruction *Then =
            SplitBlockAndInsertIfThen(Slow[N], A.I, false, Unlikely);
        IRBuilder<> H(Then);
        CallInst *C = H.CreateCall(Hook, {A.Ptr});
        C->setDebugLoc(A.I->getDebugLoc());
        A.I->setMetadata(LLVMContext::MD_nosanitize, NoSan);
      }
    return PreservedAnalyses::none();
  }
};

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK ::llvm::PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return {
      LLVM_PLUGIN_API_VERSION, "pkemu-range-checks", "1", [](PassBuilder &PB) {
        PB.registerOptimizerLastEPCallback([](ModulePassManager &MPM,
                                              OptimizationLevel Level) {
          if (Level != OptimizationLevel::O0)
            MPM.addPass(createModuleToFunctionPassAdaptor(RangeChecksPass()));
        });
      }};
}

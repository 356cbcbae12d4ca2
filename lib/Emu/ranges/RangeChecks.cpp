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
// hoisted out of loops". PKEMU_RANGES_DEBUG=1 in clang's environment prints
// each loop's trip count and the addresses it rewrites.
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"
#include <memory>
#include <optional>

using namespace llvm;

namespace {

struct Access {
  Instruction *I;
  Value *Ptr;
  unsigned Size;
  bool Write;
};

bool hookedSize(unsigned N) {
  return N == 1 || N == 2 || N == 4 || N == 8 || N == 16;
}

// A loop counted by `iv < bound` at its latch (signed or unsigned), with a
// positive constant step: the usual `for (i = tid; i < n; i += blockDim.x)`,
// whose 32-bit counter SCEV cannot prove free of wrapping (the step is
// unsigned), so it has no trip count. Where bound <= MAX - step + 1 and
// start <= MAX - step (tested at run time), the counter never wraps, the
// loop takes its backedge at most (max(bound, next0) - next0 + step - 1) /
// step times (next0: the counter's value after the first step), and a
// sign or zero extension of the counter is a recurrence of the wider type.
struct CountedLoop {
  const SCEVAddRecExpr *IV = nullptr; // the counter at the top of the body
  const SCEV *Bound = nullptr;
  bool Signed = false;
  const SCEV *BTC = nullptr; // in 64 bits, valid under the run-time test
  // Whether the latch compares the counter's next value (the rotated form):
  // then that value cannot wrap either and may be widened too; where it
  // compares the counter itself, the next value of the last iteration may.
  bool NextOk = false;
};

std::optional<CountedLoop> countedLoop(Loop *L, ScalarEvolution &SE) {
  ICmpInst *Cmp = L->getLatchCmpInst();
  BasicBlock *Latch = L->getLoopLatch();
  if (!Cmp || !Latch)
    return std::nullopt;
  auto *Br = dyn_cast<BranchInst>(Latch->getTerminator());
  if (!Br || !Br->isConditional() || Br->getCondition() != Cmp)
    return std::nullopt;
  ICmpInst::Predicate Pred = Cmp->getPredicate();
  if (!L->contains(Br->getSuccessor(0)))
    Pred = ICmpInst::getInversePredicate(Pred);
  const SCEV *X = SE.getSCEV(Cmp->getOperand(0));
  const SCEV *Bound = SE.getSCEV(Cmp->getOperand(1));
  if (!isa<SCEVAddRecExpr>(X)) {
    std::swap(X, Bound);
    Pred = ICmpInst::getSwappedPredicate(Pred);
  }
  if (Pred != ICmpInst::ICMP_SLT && Pred != ICmpInst::ICMP_ULT)
    return std::nullopt;
  const auto *Next = dyn_cast<SCEVAddRecExpr>(X);
  if (!Next || Next->getLoop() != L || !Next->isAffine() ||
      !Next->getType()->isIntegerTy() ||
      Next->getType()->getIntegerBitWidth() > 64 ||
      !SE.isLoopInvariant(Bound, L))
    return std::nullopt;
  // A constant step must be positive; an invariant one (blockDim.x) is
  // tested at run time.
  const SCEV *Step = Next->getStepRecurrence(SE);
  if (!SE.isLoopInvariant(Step, L))
    return std::nullopt;
  if (const auto *K = dyn_cast<SCEVConstant>(Step))
    if (!K->getAPInt().isStrictlyPositive())
      return std::nullopt;
  CountedLoop C;
  C.Signed = Pred == ICmpInst::ICMP_SLT;
  C.Bound = Bound;
  // The counter at the top of the body: the compared value one step back
  // (the compare may test it before or after its step).
  const SCEV *Start = Next->getStart();
  if (Cmp->getOperand(0) != Cmp->getOperand(1)) {
    Value *V = isa<SCEVAddRecExpr>(SE.getSCEV(Cmp->getOperand(0)))
                   ? Cmp->getOperand(0)
                   : Cmp->getOperand(1);
    if (!isa<PHINode>(V) || cast<PHINode>(V)->getParent() != L->getHeader()) {
      Start = SE.getMinusSCEV(Start, Step);
      C.NextOk = true;
    }
  }
  C.IV =
      cast<SCEVAddRecExpr>(SE.getAddRecExpr(Start, Step, L, SCEV::FlagAnyWrap));
  Type *I64 = Type::getInt64Ty(L->getHeader()->getContext());
  auto Wide = [&](const SCEV *V) {
    return C.Signed ? SE.getSignExtendExpr(V, I64)
                    : SE.getZeroExtendExpr(V, I64);
  };
  const SCEV *N0 = Wide(Next->getStart());
  const SCEV *B = Wide(Bound);
  const SCEV *Hi = C.Signed ? SE.getSMaxExpr(B, N0) : SE.getUMaxExpr(B, N0);
  const SCEV *S64 = Wide(Step);
  // umax(step, 1): the division is safe to expand for any step (the fast
  // path requires step > 0 anyway).
  C.BTC = SE.getUDivExpr(SE.getAddExpr(SE.getMinusSCEV(Hi, N0),
                                       SE.getMinusSCEV(S64, SE.getOne(I64))),
                         SE.getUMaxExpr(S64, SE.getOne(I64)));
  return C;
}

// Rewrites extensions of the counter (or of its next value) into
// recurrences of the wider type: right where the counter does not wrap.
struct WidenCounter : SCEVRewriteVisitor<WidenCounter> {
  const CountedLoop &C;
  bool Bad = false;
  WidenCounter(ScalarEvolution &SE, const CountedLoop &C)
      : SCEVRewriteVisitor(SE), C(C) {}
  const SCEV *widen(const SCEVAddRecExpr *AR, Type *Ty, bool Signed) {
    if (Signed != C.Signed)
      return nullptr;
    const SCEV *Step = AR->getStepRecurrence(SE);
    const SCEV *Off = SE.getMinusSCEV(AR->getStart(), C.IV->getStart());
    if (Step != C.IV->getStepRecurrence(SE) ||
        (!Off->isZero() && (Off != Step || !C.NextOk)))
      return nullptr;
    auto Ext = [&](const SCEV *V) {
      return Signed ? SE.getSignExtendExpr(V, Ty) : SE.getZeroExtendExpr(V, Ty);
    };
    return SE.getAddRecExpr(SE.getAddExpr(Ext(C.IV->getStart()), Ext(Off)),
                            Ext(Step), AR->getLoop(), SCEV::FlagNW);
  }
  const SCEV *visitSignExtendExpr(const SCEVSignExtendExpr *E) {
    if (auto *AR = dyn_cast<SCEVAddRecExpr>(E->getOperand()))
      if (AR->getLoop() == C.IV->getLoop()) {
        if (const SCEV *W = widen(AR, E->getType(), true))
          return W;
        Bad = true;
      }
    return SCEVRewriteVisitor::visitSignExtendExpr(E);
  }
  const SCEV *visitZeroExtendExpr(const SCEVZeroExtendExpr *E) {
    if (auto *AR = dyn_cast<SCEVAddRecExpr>(E->getOperand()))
      if (AR->getLoop() == C.IV->getLoop()) {
        if (const SCEV *W = widen(AR, E->getType(), false))
          return W;
        Bad = true;
      }
    return SCEVRewriteVisitor::visitZeroExtendExpr(E);
  }
};

struct LoopPlan {
  Loop *L;
  std::unique_ptr<PredicatedScalarEvolution> PSE;
  std::optional<CountedLoop> Counted;
  SmallVector<Access, 8> Accesses;
  SmallVector<std::pair<const SCEV *, const SCEV *>, 8> Ends; // first, last
};

// Whether the address recurrence AR cannot wrap around the address space
// while the counter of C does not wrap: the counter, of 32 bits at most,
// moves less than 2^33 in all, so an address step of K times the counter's
// step (K a constant below 2^28), or a constant below 2^28, moves less
// than 2^61 bytes.
bool smallMultipleOfStep(ScalarEvolution &SE, const CountedLoop &C,
                         const SCEVAddRecExpr *AR) {
  if (C.IV->getType()->getIntegerBitWidth() > 32)
    return false;
  const APInt Lim = APInt(64, 1) << 28;
  const SCEV *S = AR->getStepRecurrence(SE);
  if (const auto *K = dyn_cast<SCEVConstant>(S))
    return K->getAPInt().getBitWidth() <= 64 &&
           K->getAPInt().sextOrTrunc(64).abs().ult(Lim);
  const SCEV *CS = C.IV->getStepRecurrence(SE);
  auto IsCounterStep = [&](const SCEV *X) {
    if (const auto *E = dyn_cast<SCEVCastExpr>(X))
      X = E->getOperand();
    return X == CS;
  };
  if (IsCounterStep(S))
    return true;
  if (const auto *M = dyn_cast<SCEVMulExpr>(S))
    if (M->getNumOperands() == 2)
      if (const auto *K = dyn_cast<SCEVConstant>(M->getOperand(0)))
        return IsCounterStep(M->getOperand(1)) &&
               K->getAPInt().getBitWidth() <= 64 &&
               K->getAPInt().sextOrTrunc(64).abs().ult(Lim);
  return false;
}

struct RangeChecksPass : PassInfoMixin<RangeChecksPass> {
  PreservedAnalyses run(Function &F, FunctionAnalysisManager &AM) {
    if (F.isDeclaration() || !F.hasFnAttribute(Attribute::SanitizeThread) ||
        F.hasFnAttribute(Attribute::DisableSanitizerInstrumentation))
      return PreservedAnalyses::all();
    LoopInfo &LI = AM.getResult<LoopAnalysis>(F);
    if (LI.empty())
      return PreservedAnalyses::all();
    // A loop entered from the function's entry (no block of its own before
    // it) gets a preheader, where its checks go.
    bool Changed = false;
    DominatorTree &DT = AM.getResult<DominatorTreeAnalysis>(F);
    for (Loop *L : LI.getLoopsInPreorder())
      if (L->isInnermost() && !L->getLoopPreheader())
        Changed |=
            InsertPreheaderForLoop(L, &DT, &LI, nullptr, false) != nullptr;
    ScalarEvolution &SE = AM.getResult<ScalarEvolutionAnalysis>(F);
    const DataLayout &DL = F.getParent()->getDataLayout();

    SmallVector<LoopPlan, 8> Plans;
    for (Loop *L : LI.getLoopsInPreorder()) {
      if (!L->isInnermost() || !L->getLoopPreheader())
        continue;
      // The trip count and the recurrences may hold only under run-time
      // predicates (a 32-bit counter stepped by an unsigned amount, the
      // usual `i += blockDim.x`, that must not wrap): they are tested with
      // the ranges.
      auto PSE = std::make_unique<PredicatedScalarEvolution>(SE, *L);
      const SCEV *BTC = PSE->getSymbolicMaxBackedgeTakenCount();
      if (isa<SCEVCouldNotCompute>(BTC))
        BTC = PSE->getBackedgeTakenCount();
      std::optional<CountedLoop> Counted;
      if (isa<SCEVCouldNotCompute>(BTC) && (Counted = countedLoop(L, SE))) {
        // Its run-time test is computed in the preheader.
        Instruction *PT = L->getLoopPreheader()->getTerminator();
        SCEVExpander Probe(SE, DL, "pk.range");
        if (Probe.isSafeToExpandAt(Counted->Bound, PT) &&
            Probe.isSafeToExpandAt(Counted->IV->getStart(), PT) &&
            Probe.isSafeToExpandAt(Counted->IV->getStepRecurrence(SE), PT))
          BTC = Counted->BTC;
        else
          Counted.reset();
      }
      const bool HaveBTC = !isa<SCEVCouldNotCompute>(BTC);
      if (getenv("PKEMU_RANGES_DEBUG"))
        errs() << F.getName() << ": loop " << L->getHeader()->getName()
               << " btc " << *BTC << "\n";
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
          // Shared memory is never inside a device buffer: the check
          // would send every access to its hook (the read groups,
          // ReadGroups.cpp, check runs of its reads).
          if (pkemu_ranges::isSharedMemory(Obj))
            continue;
          const SCEV *S = SE.getSCEV(Ptr);
          const SCEV *First = nullptr, *Last = nullptr;
          if (SE.isLoopInvariant(S, L)) {
            // The same address on every iteration.
            First = Last = S;
          } else {
            if (!HaveBTC)
              continue;
            const SCEVAddRecExpr *AR = nullptr;
            if (Counted) {
              // Only through the counter, widened where it cannot wrap.
              WidenCounter W(SE, *Counted);
              const SCEV *R = W.visit(S);
              if (getenv("PKEMU_RANGES_DEBUG"))
                errs() << "  " << *S << "\n   -> " << *R << " bad " << W.Bad
                       << "\n";
              if (W.Bad)
                continue;
              AR = dyn_cast<SCEVAddRecExpr>(R);
              // The addresses must not wrap around the address space.
              if (AR && !AR->hasNoSelfWrap() &&
                  !smallMultipleOfStep(SE, *Counted, AR))
                AR = nullptr;
            } else {
              AR = dyn_cast<SCEVAddRecExpr>(S);
              if (!AR)
                AR = PSE->getAsAddRec(Ptr);
            }
            if (!AR || AR->getLoop() != L || !AR->isAffine() ||
                !SE.isLoopInvariant(AR->getStart(), L) ||
                !SE.isLoopInvariant(AR->getStepRecurrence(SE), L))
              continue;
            // The addresses must not wrap around the address space, so
            // that they lie between the first and the last.
            if (!Counted && !AR->hasNoSelfWrap() &&
                !PSE->hasNoOverflow(Ptr, SCEVWrapPredicate::IncrementNUSW))
              PSE->setNoOverflow(Ptr, SCEVWrapPredicate::IncrementNUSW);
            First = AR->getStart();
            Last = AR->evaluateAtIteration(BTC, SE);
          }
          if (isa<SCEVCouldNotCompute>(Last) ||
              !Probe.isSafeToExpandAt(First, At) ||
              !Probe.isSafeToExpandAt(Last, At))
            continue;
          P.Accesses.push_back({&I, Ptr, (unsigned)TS.getFixedValue(), Write});
          P.Ends.push_back({First, Last});
        }
      if (!P.Accesses.empty()) {
        P.PSE = std::move(PSE);
        P.Counted = Counted;
        Plans.push_back(std::move(P));
      }
    }
    if (Plans.empty())
      return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();

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
      Value *SlowV = B.CreateNot(All, "pk.range.slow");
      // The predicates the ranges were computed under: where one fails
      // (the check is true), every access takes its hook.
      if (!P.PSE->getPredicate().isAlwaysTrue()) {
        Value *Fails = Ex.expandCodeForPredicate(&P.PSE->getPredicate(), At);
        B.SetInsertPoint(At);
        SlowV = B.CreateOr(SlowV, Fails, "pk.range.slow");
      }
      if (P.Counted) {
        // The counter must not wrap: bound <= MAX - step + 1 and
        // start <= MAX - step.
        // The counter must not wrap: 0 < step (as a signed number),
        // bound <= MAX - step + 1 and start <= MAX - step.
        const CountedLoop &C = *P.Counted;
        Type *Ty = C.IV->getType();
        unsigned Bits = Ty->getIntegerBitWidth();
        Constant *Max =
            ConstantInt::get(Ty, C.Signed ? APInt::getSignedMaxValue(Bits)
                                          : APInt::getMaxValue(Bits));
        Value *Step = Ex.expandCodeFor(C.IV->getStepRecurrence(SE), Ty, At);
        Value *Bnd = Ex.expandCodeFor(C.Bound, Ty, At);
        Value *St = Ex.expandCodeFor(C.IV->getStart(), Ty, At);
        B.SetInsertPoint(At);
        auto Pred = C.Signed ? ICmpInst::ICMP_SGT : ICmpInst::ICMP_UGT;
        Value *Room = B.CreateSub(Max, Step);
        Value *Wraps = B.CreateOr(
            B.CreateICmpSLE(Step, ConstantInt::get(Ty, 0)),
            B.CreateOr(B.CreateICmp(Pred, Bnd,
                                    B.CreateAdd(Room, ConstantInt::get(Ty, 1))),
                       B.CreateICmp(Pred, St, Room)));
        SlowV = B.CreateOr(SlowV, Wraps, "pk.range.slow");
      }
      Slow.push_back(SlowV);
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
  return {LLVM_PLUGIN_API_VERSION, "pkemu-range-checks", "1",
          [](PassBuilder &PB) {
            // `opt -load-pass-plugin=... -passes=pkemu-range-checks` (or
            // pkemu-read-groups, pkemu-fast-division, pkemu-effects) runs one
            // alone.
            PB.registerPipelineParsingCallback(
                [](StringRef Name, FunctionPassManager &FPM,
                   ArrayRef<PassBuilder::PipelineElement>) {
                  if (Name == "pkemu-range-checks")
                    FPM.addPass(RangeChecksPass());
                  else if (Name == "pkemu-global-accesses")
                    FPM.addPass(pkemu_ranges::GlobalAccessesPass());
                  else if (Name == "pkemu-fast-division")
                    FPM.addPass(pkemu_ranges::FastDivisionPass());
                  else if (Name == "pkemu-read-groups")
                    FPM.addPass(pkemu_ranges::ReadGroupsPass());
                  else if (Name == "pkemu-effects")
                    FPM.addPass(pkemu_ranges::EffectsPass());
                  else
                    return false;
                  return true;
                });
            PB.registerPipelineParsingCallback(
                [](StringRef Name, ModulePassManager &MPM,
                   ArrayRef<PassBuilder::PipelineElement>) {
                  if (Name == "pkemu-host-code")
                    MPM.addPass(pkemu_ranges::HostCodePass());
                  else if (Name == "pkemu-program-globals")
                    MPM.addPass(pkemu_ranges::ProgramGlobalsPass());
                  else
                    return false;
                  return true;
                });
            PB.registerPipelineStartEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel Level) {
                  if (Level != OptimizationLevel::O0)
                    MPM.addPass(pkemu_ranges::HostCodePass());
                });
            PB.registerOptimizerLastEPCallback([](ModulePassManager &MPM,
                                                  OptimizationLevel Level) {
              if (Level == OptimizationLevel::O0)
                return;
              FunctionPassManager FPM;
              FPM.addPass(pkemu_ranges::GlobalAccessesPass());
              FPM.addPass(RangeChecksPass());
              FPM.addPass(pkemu_ranges::ReadGroupsPass());
              FPM.addPass(pkemu_ranges::FastDivisionPass());
              FPM.addPass(pkemu_ranges::EffectsPass());
              MPM.addPass(createModuleToFunctionPassAdaptor(std::move(FPM)));
              MPM.addPass(pkemu_ranges::ProgramGlobalsPass());
            });
          }};
}

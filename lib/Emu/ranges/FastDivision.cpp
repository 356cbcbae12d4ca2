//===- FastDivision.cpp - 32-bit division by launch constants -------------===//
// Rules: none (emulator build: part of the pass plugin libpkemu-ranges.so)
//
// Kernels index with divisions by the launch's dimensions and arguments
// (`b = i / (T * V)`, `v = i % V`): the same divisor for every thread of a
// launch, which the compiler does not know and divides by with the CPU's
// divide instruction, most of such a kernel's own time. This pass gives each
// 32-bit division or remainder (signed or not) whose divisor is computed
// only from the function's arguments, blockDim and gridDim a per-thread
// cache of the divisor and its reciprocal M = ceil(2^64 / |d|), which makes
// the quotient of every 32-bit |n| exact as (M * |n|) >> 64 (Lemire, Kaser
// and Kurz, "Faster Remainder by Direct Computation", 2019):
//
//   if (cache.key == d | 1 << 32)  q = fast(n, cache.M)      (no divide)
//   else                           q = n / d; __pkemu_div_prepare(&cache, d)
//
// The slow path is the original instruction, so a zero divisor and
// INT_MIN / -1 behave as they did; the runtime fills the cache only for
// |d| >= 2 (1 and -1 keep the divide). The remainder is n - q * d. Results
// are bit-identical to the divide's for every operand.
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace pkemu_ranges {
namespace {

// A load of blockDim or gridDim (a thread-local the runtime sets per
// launch), or of one of their fields.
bool launchDimension(const Value *V) {
  const auto *LD = dyn_cast<LoadInst>(V);
  if (!LD)
    return false;
  const Value *P = LD->getPointerOperand()->stripInBoundsConstantOffsets();
  if (const auto *II = dyn_cast<IntrinsicInst>(P))
    if (II->getIntrinsicID() == Intrinsic::threadlocal_address)
      P = II->getArgOperand(0);
  const auto *G = dyn_cast<GlobalVariable>(P);
  return G && (G->getName() == "blockDim" || G->getName() == "gridDim");
}

// Whether the divisor depends only on arguments, launch dimensions and
// constants (so that it is the same for many threads in a row).
bool launchInvariant(const SCEV *S) {
  struct Check {
    bool Ok = true;
    bool follow(const SCEV *S) {
      if (isa<SCEVAddRecExpr>(S))
        Ok = false;
      if (const auto *U = dyn_cast<SCEVUnknown>(S))
        if (!isa<Argument>(U->getValue()) && !launchDimension(U->getValue()))
          Ok = false;
      return Ok;
    }
    bool isDone() const { return !Ok; }
  } C;
  SCEVTraversal<Check> T(C);
  T.visitAll(S);
  return C.Ok;
}

} // namespace

PreservedAnalyses FastDivisionPass::run(Function &F,
                                        FunctionAnalysisManager &AM) {
  if (F.isDeclaration() || !F.hasFnAttribute(Attribute::SanitizeThread))
    return PreservedAnalyses::all();
  ScalarEvolution &SE = AM.getResult<ScalarEvolutionAnalysis>(F);
  SmallVector<BinaryOperator *, 8> Work;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      auto *BO = dyn_cast<BinaryOperator>(&I);
      if (!BO || !BO->getType()->isIntegerTy(32))
        continue;
      switch (BO->getOpcode()) {
      case Instruction::SDiv:
      case Instruction::SRem:
      case Instruction::UDiv:
      case Instruction::URem:
        break;
      default:
        continue;
      }
      if (isa<Constant>(BO->getOperand(1)) ||
          !launchInvariant(SE.getSCEV(BO->getOperand(1))))
        continue;
      Work.push_back(BO);
    }
  if (Work.empty())
    return PreservedAnalyses::all();
  Module &M = *F.getParent();
  LLVMContext &Ctx = M.getContext();
  Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx),
       *I128 = Type::getInt128Ty(Ctx);
  auto *CacheTy = ArrayType::get(I64, 2); // key, M
  Type *PtrTy = PointerType::get(Ctx, 0);
  FunctionCallee Prepare =
      M.getOrInsertFunction("__pkemu_div_prepare", Type::getVoidTy(Ctx), PtrTy,
                            I32, Type::getInt1Ty(Ctx));
  MDNode *NoSan = MDNode::get(Ctx, {});
  MDNode *Likely = MDBuilder(Ctx).createBranchWeights(1 << 20, 1);
  for (BinaryOperator *BO : Work) {
    const bool Signed = BO->getOpcode() == Instruction::SDiv ||
                        BO->getOpcode() == Instruction::SRem;
    const bool Rem = BO->getOpcode() == Instruction::SRem ||
                     BO->getOpcode() == Instruction::URem;
    auto *Cache =
        new GlobalVariable(M, CacheTy, false, GlobalValue::InternalLinkage,
                           ConstantAggregateZero::get(CacheTy), "pk.div.cache",
                           nullptr, GlobalValue::InitialExecTLSModel);
    Value *N = BO->getOperand(0), *D = BO->getOperand(1);
    IRBuilder<> B(BO);
    B.SetCurrentDebugLocation(BO->getDebugLoc());
    Value *C = B.CreateThreadLocalAddress(Cache);
    auto *Key = B.CreateLoad(I64, C);
    Key->setMetadata(LLVMContext::MD_nosanitize, NoSan);
    Value *Want = B.CreateOr(B.CreateZExt(D, I64), B.getInt64(1ull << 32));
    Value *Hit = B.CreateICmpEQ(Key, Want);
    // hit: the fast path; miss: the divide itself, then the cache.
    Instruction *ThenT, *ElseT;
    SplitBlockAndInsertIfThenElse(Hit, BO, &ThenT, &ElseT, Likely);
    BasicBlock *Join = BO->getParent();
    IRBuilder<> Fast(ThenT);
    auto *MLoad =
        Fast.CreateLoad(I64, Fast.CreateConstInBoundsGEP2_32(CacheTy, C, 0, 1));
    MLoad->setMetadata(LLVMContext::MD_nosanitize, NoSan);
    Value *AbsN = N;
    if (Signed)
      AbsN = Fast.CreateSelect(Fast.CreateICmpSLT(N, Fast.getInt32(0)),
                               Fast.CreateNeg(N), N);
    Value *Prod = Fast.CreateMul(Fast.CreateZExt(AbsN, I128),
                                 Fast.CreateZExt(MLoad, I128));
    Value *UQ = Fast.CreateTrunc(Fast.CreateLShr(Prod, 64), I32);
    Value *Q = UQ;
    if (Signed) {
      Value *Neg = Fast.CreateICmpSLT(Fast.CreateXor(N, D), Fast.getInt32(0));
      Q = Fast.CreateSelect(Neg, Fast.CreateNeg(UQ), UQ);
    }
    Value *FastR = Rem ? Fast.CreateSub(N, Fast.CreateMul(Q, D)) : Q;
    // The miss: the original instruction, moved, then the cache.
    BO->moveBefore(ElseT);
    IRBuilder<> Slow(ElseT);
    Slow.CreateCall(Prepare, {C, D, Slow.getInt1(Signed)});
    IRBuilder<> J(&*Join->getFirstInsertionPt());
    PHINode *Phi = J.CreatePHI(I32, 2);
    BO->replaceAllUsesWith(Phi);
    Phi->addIncoming(FastR, ThenT->getParent());
    Phi->addIncoming(BO, ElseT->getParent());
  }
  return PreservedAnalyses::none();
}

} // namespace pkemu_ranges

//===- ReadGroups.cpp - one check for a group of reads, not one per read --===//
// Rules: none (emulator build: part of the pass plugin libpkemu-ranges.so)
//
// A tiled kernel's inner product reads its shared-memory tiles in an
// unrolled run of loads (`#pragma unroll for (k...) c += As[ty][k] *
// Bs[k][tx]`: 64 loads in one basic block), and each load called a memory
// hook that found the runtime's state, checked the word's shadow for a race
// and recorded the read: three quarters of such a kernel's time. This pass
// (run after the range checks, before ThreadSanitizer's instrumentation)
// groups the plain loads of a basic block that
//  - lie in one stretch of the block with no call (intrinsics that touch no
//    memory aside), no store but to a local, no atomic, volatile access or
//    fence between them: nothing there can change the shared-memory shadow
//    or switch to another fiber;
//  - read 4, 8 or 16 bytes at addresses that differ by constants (the same
//    root pointer and variable part through GEPs: `&As[ty][k]` for each k);
//  - share one source location (the copies of an unrolled loop's load do):
//    the shadow remembers where each read was, and the group's is that of
//    the call below, at the same location.
// In front of a group's first load, one call, __pkemu_reads_quiet
// (runtime/hooks.cpp), is given the base, the offsets (a constant table),
// their count, size, least and greatest. It returns true when every read is
// one its hook would pass in silence (all in one live device buffer, or all
// of initialised shared words no other thread wrote since the last barrier,
// whose cells it then updates as the hooks would have), and false, changing
// nothing, otherwise. Each load of the group is marked nosanitize and gets
// its hook in front of it, called only when the group's answer was false:
// the reports and their locations are those without the pass.
// docs/emulator.md, "Reads checked as a group". PKEMU_RANGES_DEBUG=1 in
// clang's environment prints the groups.
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include <cstdlib>
#include <map>
#include <tuple>

using namespace llvm;

namespace pkemu_ranges {

namespace {

struct Member {
  LoadInst *LD;
  int64_t Off;
};

struct Group {
  Value *Base; // the first member's address; offsets are relative to it
  unsigned Size;
  SmallVector<Member, 16> Members;
};

/// Whether \p I ends a stretch in which reads may be grouped: it may write
/// memory other than a local, synchronise, or call anything (a call may be
/// a barrier, a collective, or a scheduling point).
bool endsStretch(const Instruction &I) {
  if (auto *CB = dyn_cast<CallBase>(&I)) {
    if (auto *II = dyn_cast<IntrinsicInst>(CB))
      if (!II->mayWriteToMemory() && !II->mayHaveSideEffects())
        return false; // fmuladd, sqrt, ...
    if (isa<DbgInfoIntrinsic>(CB))
      return false;
    if (auto *II = dyn_cast<IntrinsicInst>(CB))
      if (II->isLifetimeStartOrEnd() || II->isAssumeLikeIntrinsic())
        return false;
    return true;
  }
  if (auto *ST = dyn_cast<StoreInst>(&I))
    return !ST->isSimple() ||
           !isa<AllocaInst>(getUnderlyingObject(ST->getPointerOperand()));
  if (auto *LD = dyn_cast<LoadInst>(&I))
    return !LD->isSimple();
  return I.isAtomic() || isa<FenceInst>(I) || I.mayWriteToMemory();
}

/// An address as root + sum(variable * scale) + constant, through GEPs
/// (`&As[ty][k]` of an unrolled loop: the same root and variable part, k in
/// the constant).
struct Decomposed {
  Value *Root = nullptr;
  SmallVector<std::pair<Value *, int64_t>, 4> Vars; // sorted
  int64_t Const = 0;
  bool Ok = true;
};

Decomposed decompose(Value *Ptr, const DataLayout &DL) {
  Decomposed D;
  unsigned Bits = DL.getIndexTypeSizeInBits(Ptr->getType());
  MapVector<Value *, APInt> Vars;
  APInt Const(Bits, 0);
  for (int Depth = 0; Depth < 16; ++Depth) {
    Ptr = Ptr->stripPointerCasts();
    auto *GEP = dyn_cast<GEPOperator>(Ptr);
    if (!GEP)
      break;
    if (!GEP->collectOffset(DL, Bits, Vars, Const)) {
      D.Ok = false;
      return D;
    }
    Ptr = GEP->getPointerOperand();
  }
  D.Root = Ptr;
  // An index `x + c` (an add, or an or of disjoint bits, at the index's
  // width: the address arithmetic wraps the same way) is x with c * scale
  // in the constant: the unrolled copies of `p[i * 8 + k]`.
  MapVector<Value *, APInt> Peeled;
  for (auto &[V0, S] : Vars) {
    Value *V = V0;
    for (int Depth = 0; Depth < 8; ++Depth) {
      auto *BO = dyn_cast<BinaryOperator>(V);
      auto *C = BO ? dyn_cast<ConstantInt>(BO->getOperand(1)) : nullptr;
      if (!C || C->getBitWidth() != Bits ||
          !(BO->getOpcode() == Instruction::Add ||
            (BO->getOpcode() == Instruction::Or &&
             cast<PossiblyDisjointInst>(BO)->isDisjoint())))
        break;
      Const += C->getValue() * S;
      V = BO->getOperand(0);
    }
    auto It = Peeled.find(V);
    if (It == Peeled.end())
      Peeled.insert({V, S});
    else
      It->second += S;
  }
  for (auto &[V, S] : Peeled) {
    if (S.getSignificantBits() > 64) {
      D.Ok = false;
      return D;
    }
    if (!S.isZero())
      D.Vars.push_back({V, S.getSExtValue()});
  }
  llvm::sort(D.Vars);
  if (Const.getSignificantBits() > 64) {
    D.Ok = false;
    return D;
  }
  D.Const = Const.getSExtValue();
  return D;
}

/// The source location a hook call records, ignoring discriminators.
std::tuple<unsigned, unsigned, const MDNode *, const MDNode *>
locKey(const Instruction *I) {
  const DILocation *L = I->getDebugLoc().get();
  if (!L)
    return {0, 0, nullptr, nullptr};
  return {L->getLine(), L->getColumn(), L->getScope(), L->getInlinedAt()};
}

} // namespace

bool isSharedMemory(const Value *Obj) {
  if (const auto *CB = dyn_cast<CallBase>(Obj)) {
    const Function *F = CB->getCalledFunction();
    return F && F->getName().contains("pkemu6detail12shared_alloc");
  }
  if (const auto *LD = dyn_cast<LoadInst>(Obj)) {
    const Value *P = LD->getPointerOperand();
    if (const auto *II = dyn_cast<IntrinsicInst>(P))
      if (II->getIntrinsicID() == Intrinsic::threadlocal_address)
        P = II->getArgOperand(0);
    return isa<GlobalValue>(P) &&
           cast<GlobalValue>(P)->getName().contains("pkemu_t_dyn_base");
  }
  return false;
}

PreservedAnalyses ReadGroupsPass::run(Function &F, FunctionAnalysisManager &) {
  if (F.isDeclaration() || !F.hasFnAttribute(Attribute::SanitizeThread) ||
      F.hasFnAttribute(Attribute::DisableSanitizerInstrumentation))
    return PreservedAnalyses::all();
  const DataLayout &DL = F.getParent()->getDataLayout();
  SmallVector<Group, 8> Groups;
  for (BasicBlock &BB : F) {
    // Groups of the current stretch, by (root, variable part, size,
    // location); the constant parts of the first member's address.
    std::map<std::tuple<Value *, SmallVector<std::pair<Value *, int64_t>, 4>,
                        unsigned, unsigned, unsigned, const MDNode *,
                        const MDNode *>,
             std::pair<unsigned, int64_t>>
        Open;
    auto Close = [&] { Open.clear(); };
    for (Instruction &I : BB) {
      if (endsStretch(I)) {
        Close();
        continue;
      }
      auto *LD = dyn_cast<LoadInst>(&I);
      if (!LD || LD->hasMetadata(LLVMContext::MD_nosanitize) ||
          LD->getPointerAddressSpace() != 0)
        continue;
      TypeSize TS = DL.getTypeStoreSize(LD->getType());
      if (TS.isScalable())
        continue;
      unsigned Size = (unsigned)TS.getFixedValue();
      if (Size != 4 && Size != 8 && Size != 16)
        continue;
      Value *Ptr = LD->getPointerOperand();
      const Value *Obj = getUnderlyingObject(Ptr);
      if (isa<AllocaInst>(Obj) || isa<GlobalValue>(Obj))
        continue; // locals and globals: neither shared nor device memory
      Decomposed D = decompose(Ptr, DL);
      if (!D.Ok)
        continue;
      auto [Line, Col, Scope, InlinedAt] = locKey(LD);
      auto Key =
          std::make_tuple(D.Root, D.Vars, Size, Line, Col, Scope, InlinedAt);
      auto It = Open.find(Key);
      if (It == Open.end()) {
        It = Open.emplace(Key, std::make_pair((unsigned)Groups.size(), D.Const))
                 .first;
        Groups.push_back({Ptr, Size, {}});
      }
      int64_t Off = D.Const - It->second.second;
      if (Off < INT32_MIN || Off > INT32_MAX)
        continue;
      Groups[It->second.first].Members.push_back({LD, Off});
    }
  }
  // A group of one gains nothing over its hook.
  llvm::erase_if(Groups, [](const Group &G) { return G.Members.size() < 2; });
  if (Groups.empty())
    return PreservedAnalyses::all();

  Module &M = *F.getParent();
  LLVMContext &Ctx = M.getContext();
  Type *PtrTy = PointerType::get(Ctx, 0);
  Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
  FunctionCallee Quiet =
      M.getOrInsertFunction("__pkemu_reads_quiet", Type::getInt1Ty(Ctx), PtrTy,
                            PtrTy, I32, I32, I64, I64);
  if (auto *QF = dyn_cast<Function>(Quiet.getCallee())) {
    QF->addFnAttr(Attribute::NoUnwind);
    // It reads the table only; the shadow it writes is the runtime's.
    QF->addParamAttr(1, Attribute::ReadOnly);
  }
  MDNode *NoSan = MDNode::get(Ctx, {});
  MDNode *Unlikely = MDBuilder(Ctx).createBranchWeights(1, 1 << 20);
  const bool Debug = getenv("PKEMU_RANGES_DEBUG") != nullptr;

  // Every group's call first (in front of its first load, before any block
  // is split), then the guarded hooks.
  SmallVector<Value *, 8> Slow;
  for (Group &G : Groups) {
    SmallVector<Constant *, 16> Offs;
    int64_t Lo = G.Members[0].Off, Hi = Lo;
    for (const Member &Mb : G.Members) {
      Offs.push_back(ConstantInt::get(I32, Mb.Off));
      Lo = std::min(Lo, Mb.Off);
      Hi = std::max(Hi, Mb.Off);
    }
    auto *Ty = ArrayType::get(I32, Offs.size());
    auto *Table = new GlobalVariable(M, Ty, /*isConstant=*/true,
                                     GlobalValue::PrivateLinkage,
                                     ConstantArray::get(Ty, Offs), "pk.reads");
    Table->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
    LoadInst *First = G.Members[0].LD;
    IRBuilder<> B(First);
    CallInst *C = B.CreateCall(
        Quiet, {G.Base, Table, B.getInt32(G.Members.size()), B.getInt32(G.Size),
                B.getInt64(Lo), B.getInt64(Hi)});
    C->setDebugLoc(First->getDebugLoc());
    Slow.push_back(B.CreateNot(C, "pk.reads.slow"));
    if (Debug)
      errs() << F.getName() << ": " << G.Members.size() << " reads of "
             << G.Size << " bytes at " << *G.Base << " + [" << Lo << ", " << Hi
             << "]\n";
  }
  for (unsigned N = 0; N < Groups.size(); ++N)
    for (Member &Mb : Groups[N].Members) {
      FunctionCallee Hook =
          M.getOrInsertFunction("__tsan_read" + std::to_string(Groups[N].Size),
                                Type::getVoidTy(Ctx), PtrTy);
      Instruction *Then =
          SplitBlockAndInsertIfThen(Slow[N], Mb.LD, false, Unlikely);
      IRBuilder<> H(Then);
      CallInst *C = H.CreateCall(Hook, {Mb.LD->getPointerOperand()});
      C->setDebugLoc(Mb.LD->getDebugLoc());
      Mb.LD->setMetadata(LLVMContext::MD_nosanitize, NoSan);
    }
  return PreservedAnalyses::none();
}

} // namespace pkemu_ranges

//===- Effects.cpp - calls whose result is not a function of memory ------===//
// Rules: none (emulator build: part of the pass plugin libpkemu-ranges.so)
//
// The emulator replays a launch that repeats an earlier one exactly (the
// same kernel, configuration and arguments over the same device memory):
// it writes what the earlier run wrote instead of running it again
// (lib/Emu/runtime/replay.cpp). That is only the kernel's meaning when the
// run's outcome is a function of device memory and its arguments. A kernel
// that prints, reads a clock, allocates, asserts or calls anything else
// outside the program is not such a function, and the runtime must learn
// that it did so.
//
// This pass marks those calls: before every call to a function that is
// only declared in the module (defined by a library) and not known to be
// pure (the math library, memcpy/memset, the emulator's own hooks and
// runtime), before every inline-assembly call and every read of a cycle
// counter, it stores 1 to the thread-local flag pkemu_t_effects. The runtime
// clears the flag when a worker starts a launch and reads it when the
// launch ends. Every function with a body is marked, host code too: a store
// in host code is harmless (the flag is cleared at each launch), and a
// device function compiled without the hooks would otherwise escape.
//
// ProgramGlobalsPass: device code reads a global variable of the program's
// image at a constant offset without a hook (GlobalAccesses.cpp), so such
// a read is no effect the runtime sees. A __device__, __constant__ or
// __managed__ variable that the preparation left in its original storage
// (or any global a kernel reads so) is device memory the host may change
// between launches: every writable global that instrumented code accesses
// without a hook is registered at start-up (pkemu_register_region), and
// replay compares it with the device buffers.
//
// The pass also sends every call of the C library's clock() to the
// runtime's pkemu_clock (the device's cycle counter inside a kernel).
//
// Atomics, volatile accesses and accesses to host memory set the same flag
// in the runtime's hooks. Each translation unit's prelude asks
// __pkemu_effects_pass_ran(), which this pass replaces by 1: a unit built
// without the pass (the runtime's definition answers 0) turns replay off.
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace pkemu_ranges {

namespace {

// C library functions whose result depends on their arguments alone (and
// on memory they are given): the math library in its float, double and
// long double forms, and the memory functions.
const StringSet<> &pureLibraryFunctions() {
  static const StringSet<> S = [] {
    StringSet<> Set;
    const char *Math[] = {
        "acos",      "acosh",     "asin",       "asinh",   "atan",
        "atan2",     "atanh",     "cbrt",       "ceil",    "copysign",
        "cos",       "cosh",      "erf",        "erfc",    "exp",
        "exp2",      "exp10",     "expm1",      "fabs",    "fdim",
        "floor",     "fma",       "fmax",       "fmin",    "fmod",
        "frexp",     "hypot",     "ilogb",      "ldexp",   "lgamma",
        "llrint",    "llround",   "log",        "log10",   "log1p",
        "log2",      "logb",      "lrint",      "lround",  "modf",
        "nearbyint", "nextafter", "nexttoward", "pow",     "remainder",
        "remquo",    "rint",      "round",      "scalbln", "scalbn",
        "sin",       "sincos",    "sinh",       "sqrt",    "tan",
        "tanh",      "tgamma",    "trunc",      "j0",      "j1",
        "jn",        "y0",        "y1",         "yn",      "significand"};
    for (const char *M : Math) {
      Set.insert(M);
      Set.insert((std::string(M) + "f").c_str());
      Set.insert((std::string(M) + "l").c_str());
    }
    for (const char *F :
         {"memcpy", "memmove", "memset", "memcmp", "strlen", "abs", "labs",
          "llabs", "__isnan", "__isnanf", "__isinf", "__isinff", "__finite",
          "__finitef", "__fpclassify", "__fpclassifyf", "__signbit",
          "__signbitf"})
      Set.insert(F);
    return Set;
  }();
  return S;
}

// Whether a call to F may make the caller's outcome depend on more than
// memory and arguments. Functions defined in the module are judged by their
// own calls; the emulator's hooks and runtime are pure (what they do that
// is not is flagged by the runtime itself).
bool hasEffects(const Function &F) {
  if (F.isIntrinsic()) {
    switch (F.getIntrinsicID()) {
    case Intrinsic::readcyclecounter:
    case Intrinsic::readsteadycounter:
      return true;
    default:
      return false;
    }
  }
  if (!F.isDeclaration())
    return false;
  StringRef N = F.getName();
  if (N.starts_with("__tsan_") || N.starts_with("__pkemu_") ||
      N.starts_with("pkemu_") || N.starts_with("_ZN5pkemu"))
    return false;
  return !pureLibraryFunctions().contains(N);
}

} // namespace

PreservedAnalyses EffectsPass::run(Function &F, FunctionAnalysisManager &) {
  if (F.isDeclaration())
    return PreservedAnalyses::all();
  SmallVector<CallBase *, 8> Marked, Ran;
  Module &M = *F.getParent();
  for (Instruction &I : instructions(F)) {
    auto *CB = dyn_cast<CallBase>(&I);
    if (!CB)
      continue;
    // clock() counts the device's cycles in a kernel (pkemu_clock), where
    // the C library's counts the process's CPU time in microseconds: a
    // kernel that spins for clockRate x 10 ms of ticks spun for minutes.
    if (const Function *Callee = CB->getCalledFunction())
      if (Callee->getName() == "clock" && Callee->isDeclaration() &&
          CB->arg_empty()) {
        CB->setCalledFunction(
            M.getOrInsertFunction("pkemu_clock", Callee->getFunctionType()));
        Marked.push_back(CB);
        continue;
      }
    if (const Function *Callee = CB->getCalledFunction())
      if (Callee->getName() == "__pkemu_effects_pass_ran" &&
          isa<CallInst>(CB)) {
        Ran.push_back(CB);
        continue;
      }
    if (CB->isInlineAsm()) {
      Marked.push_back(CB);
      continue;
    }
    const Function *Callee = CB->getCalledFunction();
    if (Callee && hasEffects(*Callee))
      Marked.push_back(CB);
  }
  // The prelude tells the runtime whether this pass saw its translation
  // unit: the call answers 0 unless the pass replaced it by 1.
  for (CallBase *CB : Ran) {
    CB->replaceAllUsesWith(ConstantInt::get(CB->getType(), 1));
    CB->eraseFromParent();
  }
  if (Marked.empty())
    return Ran.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
  LLVMContext &Ctx = M.getContext();
  Type *I8 = Type::getInt8Ty(Ctx);
  auto *Flag =
      dyn_cast_or_null<GlobalVariable>(M.getNamedValue("pkemu_t_effects"));
  if (!Flag) {
    Flag = new GlobalVariable(M, I8, false, GlobalValue::ExternalLinkage,
                              nullptr, "pkemu_t_effects", nullptr,
                              GlobalValue::InitialExecTLSModel);
  }
  MDNode *NoSan = MDNode::get(Ctx, {});
  for (CallBase *CB : Marked) {
    IRBuilder<> B(CB);
    Value *Addr = B.CreateThreadLocalAddress(Flag);
    StoreInst *S = B.CreateStore(ConstantInt::get(I8, 1), Addr);
    S->setMetadata(LLVMContext::MD_nosanitize, NoSan);
  }
  return PreservedAnalyses::none();
}

PreservedAnalyses ProgramGlobalsPass::run(Module &M, ModuleAnalysisManager &) {
  SetVector<GlobalVariable *> Found;
  for (Function &F : M) {
    if (F.isDeclaration() || !F.hasFnAttribute(Attribute::SanitizeThread))
      continue;
    for (Instruction &I : instructions(F)) {
      if (!I.hasMetadata(LLVMContext::MD_nosanitize))
        continue;
      Value *Ptr = nullptr;
      if (auto *L = dyn_cast<LoadInst>(&I))
        Ptr = L->getPointerOperand();
      else if (auto *S = dyn_cast<StoreInst>(&I))
        Ptr = S->getPointerOperand();
      else
        continue;
      Value *Base = getUnderlyingObject(Ptr);
      if (auto *II = dyn_cast<IntrinsicInst>(Base))
        if (II->getIntrinsicID() == Intrinsic::threadlocal_address)
          continue;
      auto *GV = dyn_cast<GlobalVariable>(Base);
      if (!GV || GV->isConstant() || GV->isThreadLocal() ||
          !GV->getValueType()->isSized() ||
          GV->getName().starts_with("llvm.") ||
          GV->getName().starts_with("pkemu_") ||
          GV->getName().starts_with("_ZN5pkemu"))
        continue;
      Found.insert(GV);
    }
  }
  if (Found.empty())
    return PreservedAnalyses::all();
  LLVMContext &Ctx = M.getContext();
  const DataLayout &DL = M.getDataLayout();
  Type *Ptr = PointerType::getUnqual(Ctx);
  Type *I64 = Type::getInt64Ty(Ctx);
  FunctionCallee Reg = M.getOrInsertFunction("pkemu_register_region",
                                             Type::getVoidTy(Ctx), Ptr, I64);
  Function *Ctor = Function::Create(
      FunctionType::get(Type::getVoidTy(Ctx), false),
      GlobalValue::InternalLinkage, "pkemu.register_globals", M);
  IRBuilder<> B(BasicBlock::Create(Ctx, "", Ctor));
  for (GlobalVariable *GV : Found)
    B.CreateCall(Reg, {GV, ConstantInt::get(
                               I64, DL.getTypeAllocSize(GV->getValueType()))});
  B.CreateRetVoid();
  appendToGlobalCtors(M, Ctor, 65535);
  return PreservedAnalyses::none();
}

} // namespace pkemu_ranges

//===- KernelModelCall.cpp - calls in the kernel model -------------------===//
// Rules: none (shared analysis)
//
// Calls (KernelModelEval.cpp evaluates the other expressions): device
// functions are executed inline, with their reference parameters bound
// anew per call; CUDA's math, conversion, shuffle, vote, atomic, barrier,
// cache-hint load/store and assert intrinsics have their meaning here.  A
// shuffle evaluates its operand for every lane first, then each lane takes
// its source's.
//
//===----------------------------------------------------------------------===//
#include "KernelModelImpl.h"
#include "pk/BuiltinVars.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include <cmath>
#include <set>

using namespace pk;
using namespace pk::km;
using namespace clang;

Vals Exec::evalShuffle(const CallExpr *C, llvm::StringRef Kind, unsigned First,
                       const Mask &M, int64_t DefWidth) {
  Vals R(Th.size());
  if (C->getNumArgs() < First + 2) {
    fail(Failure::Unsupported, C->getBeginLoc(), "a shuffle without a lane");
    return R;
  }
  Vals V = eval(C->getArg(First), M), L = eval(C->getArg(First + 1), M);
  Vals W;
  if (C->getNumArgs() > First + 2)
    W = eval(C->getArg(First + 2), M);
  if (failed())
    return V;
  ++Tr.Shuffles;
  std::vector<char> Active(Th.size(), 0);
  for (unsigned T : M)
    Active[T] = 1;
  for (unsigned T : M) {
    int64_t Width = W.empty() ? (DefWidth ? DefWidth : int64_t(Wave))
                              : (W[T]->K == SK::Int ? W[T]->I : -1);
    if (Width > int64_t(Wave) && L[T]->K == SK::Int) {
      fail(Failure::Unsupported, C->getBeginLoc(),
           llvm::formatv("a shuffle over {0} lanes, more than a warp of {1}",
                         Width, Wave)
               .str());
      return R;
    }
    if (L[T]->K != SK::Int || Width <= 0 || (Width & (Width - 1))) {
      fail(P.containsKind(L[T], SK::Load) ? Failure::DataDependent
                                          : Failure::Unsupported,
           C->getBeginLoc(),
           "a shuffle whose source lane or width is not decided by the "
           "thread index and the block shape");
      return R;
    }
    int64_t Lane = T % Wave, Seg = Lane & ~(Width - 1), X = L[T]->I, Src = Lane;
    if (Kind == "idx")
      Src = Seg + (X % Width);
    else if (Kind == "down")
      Src = Lane + X < Seg + Width ? Lane + X : Lane;
    else if (Kind == "up")
      Src = Lane - X >= Seg ? Lane - X : Lane;
    else
      Src = (Lane ^ X) < Seg + Width && (Lane ^ X) >= Seg ? Lane ^ X : Lane;
    int64_t ST = int64_t(T) - Lane + Src;
    R[T] = ST >= 0 && size_t(ST) < Th.size() && Active[ST] ? V[ST]
                                                           : P.undef(V[T]->T);
  }
  return R;
}

Vals Exec::inlineCall(const FunctionDecl *F, const CallExpr *C, const Mask &M,
                      std::vector<Vals> *Lanes) {
  // Undefined where the call fails: callers combine the values before they
  // look at failed().
  Vals R(Th.size(), P.undef(tyOf(C->getType())));
  if (Depth >= 16) {
    fail(Failure::Unsupported, C->getBeginLoc(),
         "device functions nested more than 16 deep (or recursive)");
    return R;
  }
  F = F->getDefinition();
  if (F->getNumParams() != C->getNumArgs()) {
    fail(Failure::Unsupported, C->getBeginLoc(),
         "a call with default or "
         "variadic arguments");
    return R;
  }
  std::vector<std::pair<const VarDecl *, Vals>> Bind;
  std::vector<std::pair<const VarDecl *, std::vector<Vals>>> RecBind;
  for (unsigned I = 0; I < F->getNumParams(); ++I) {
    const ParmVarDecl *PV = F->getParamDecl(I);
    if (PV->getType()->isReferenceType()) {
      const VarDecl *Tgt = localVar(C->getArg(I));
      // A record of one scalar type (float4 &): its lanes.
      if (!Tgt)
        if (auto *DR = dyn_cast<DeclRefExpr>(
                stripE(C->getArg(I))->IgnoreParenImpCasts()))
          if (auto *V = dyn_cast<VarDecl>(DR->getDecl()))
            if (lanesOf(V->getType()) && Th[M[0]].Arrays.count(V))
              Tgt = V;
      // This call's binding only: a reference parameter bound by an
      // earlier call (to a local, or to memory) is bound anew, after the
      // argument is evaluated.
      if (!Tgt && bindRef(PV, C->getArg(I), M)) {
        Alias.erase(PV);
        continue;
      }
      if (failed())
        return R;
      if (!Tgt) {
        fail(Failure::Unsupported, C->getArg(I)->getExprLoc(),
             llvm::formatv("argument bound to the reference parameter '{0}' "
                           "of '{1}' is not a local variable nor memory the "
                           "model follows",
                           PV->getName(), F->getName())
                 .str());
        return R;
      }
      RefAddr.erase(PV);
      Alias[PV] = Tgt;
      continue;
    }
    // A record of one scalar type by value (float3 u): its lanes, bound
    // like a local's.
    QualType LE;
    if (unsigned N = lanesOf(PV->getType(), &LE)) {
      std::vector<Vals> Lanes;
      if (!evalLanes(C->getArg(I), N, LE, M, Lanes))
        return R;
      RecBind.emplace_back(PV, std::move(Lanes));
      continue;
    }
    if (!PV->getType()->isPointerType() && !isScalarType(PV->getType())) {
      fail(Failure::Unsupported, C->getArg(I)->getExprLoc(),
           llvm::formatv("parameter '{0}' of '{1}' of type {2}", PV->getName(),
                         F->getName(), PV->getType().getAsString())
               .str());
      return R;
    }
    Vals V = eval(C->getArg(I), M);
    for (unsigned T : M)
      V[T] = convert(V[T], PV->getType());
    Bind.emplace_back(PV, std::move(V));
  }
  if (failed())
    return R;
  for (auto &[PV, V] : Bind)
    for (unsigned T : M)
      Th[T].Env[PV] = V[T];
  for (auto &[PV, Lanes] : RecBind)
    for (unsigned T : M) {
      std::vector<SymP> &A = Th[T].Arrays[PV];
      A.clear();
      for (const Vals &L : Lanes)
        A.push_back(L[T]);
    }
  Frames.push_back(Frame{Vals(Th.size()), std::vector<char>(Th.size(), 0)});
  if (Lanes) {
    Frame &Fr = Frames.back();
    Fr.Lanes = lanesOf(F->getReturnType(), &Fr.LaneElem);
    Fr.RetLanes.assign(Fr.Lanes, Vals(Th.size()));
  }
  ++Depth;
  exec(F->getBody(), M);
  --Depth;
  Frame Fr = std::move(Frames.back());
  Frames.pop_back();
  if (Lanes) {
    // A thread that returned no record reads undefined lanes.
    *Lanes = std::move(Fr.RetLanes);
    for (Vals &L : *Lanes)
      for (unsigned T : M)
        if (!L[T])
          L[T] = P.undef(tyOf(Fr.LaneElem));
    return R;
  }
  for (unsigned T : M)
    R[T] = Fr.Ret[T] ? Fr.Ret[T] : P.undef(tyOf(F->getReturnType()));
  return R;
}

Vals Exec::evalCall(const CallExpr *C, const Mask &M) {
  Vals R(Th.size());
  auto All = [&](SymP V) {
    for (unsigned T : M)
      R[T] = V;
    return R;
  };
  if (groupCall(C, M, R) || wmmaCall(C, M, R))
    return R;
  // Operators of class types (__half arithmetic).
  if (auto *OC = dyn_cast<CXXOperatorCallExpr>(C)) {
    OverloadedOperatorKind K = OC->getOperator();
    if (OC->getNumArgs() == 2) {
      const char *Op = nullptr;
      bool Assign = false;
      switch (K) {
      case OO_Plus:
        Op = "+";
        break;
      case OO_Minus:
        Op = "-";
        break;
      case OO_Star:
        Op = "*";
        break;
      case OO_Slash:
        Op = "/";
        break;
      case OO_PlusEqual:
        Op = "+";
        Assign = true;
        break;
      case OO_MinusEqual:
        Op = "-";
        Assign = true;
        break;
      case OO_StarEqual:
        Op = "*";
        Assign = true;
        break;
      case OO_SlashEqual:
        Op = "/";
        Assign = true;
        break;
      case OO_Less:
        Op = "<";
        break;
      case OO_Greater:
        Op = ">";
        break;
      case OO_LessEqual:
        Op = "<=";
        break;
      case OO_GreaterEqual:
        Op = ">=";
        break;
      case OO_EqualEqual:
        Op = "==";
        break;
      case OO_ExclaimEqual:
        Op = "!=";
        break;
      case OO_Equal: {
        QualType LE;
        if (unsigned N = lanesOf(OC->getArg(0)->getType(), &LE)) {
          std::vector<Vals> Lanes;
          if (evalLanes(OC->getArg(1), N, LE, M, Lanes))
            storeLanes(OC->getArg(0), Lanes, LE, M);
          return Vals(Th.size(), P.undef());
        }
        Vals V = eval(OC->getArg(1), M);
        for (unsigned T : M)
          V[T] = convert(V[T], OC->getArg(0)->getType());
        assign(OC->getArg(0), V, M);
        return V;
      }
      default:
        break;
      }
      if (Op) {
        Vals A = eval(OC->getArg(0), M), B = eval(OC->getArg(1), M);
        for (unsigned T : M)
          R[T] =
              llvm::StringRef(Op).find_first_of("<>=!") != llvm::StringRef::npos
                  ? P.cmp(Op, A[T], B[T])
                  : P.bin(Op, A[T], B[T]);
        if (Assign)
          assign(OC->getArg(0), R, M);
        return R;
      }
    }
    if (OC->getNumArgs() == 1 && K == OO_Minus) {
      Vals A = eval(OC->getArg(0), M);
      for (unsigned T : M)
        R[T] = P.un("neg", A[T]);
      return R;
    }
  }
  if (auto *MC = dyn_cast<CXXMemberCallExpr>(C))
    if (isa_and_nonnull<CXXConversionDecl>(MC->getMethodDecl())) {
      Vals X = eval(MC->getImplicitObjectArgument(), M);
      for (unsigned T : M)
        R[T] = convert(X[T], C->getType());
      return R;
    }

  llvm::StringRef N = calleeName(C);
  unsigned NA = C->getNumArgs();
  if (N == "__syncthreads") {
    barrier(M, C->getBeginLoc());
    return All(P.intc(0));
  }
  if (NA == 0 && (N == "__builtin_inff" || N == "__builtin_inf" ||
                  N == "__builtin_huge_valf" || N == "__builtin_huge_val"))
    return All(P.flt(INFINITY, tyOf(C->getType())));
  if (N == "__syncwarp") {
    std::set<unsigned> Warps;
    for (unsigned T : M)
      Warps.insert(T / Wave);
    for (unsigned W : Warps)
      ++WarpSync[W];
    return All(P.intc(0));
  }
  if (N.starts_with("__threadfence"))
    return All(P.intc(0));
  for (auto [Name, Kind, First] : {std::tuple{"__shfl_sync", "idx", 1u},
                                   {"__shfl_down_sync", "down", 1u},
                                   {"__shfl_up_sync", "up", 1u},
                                   {"__shfl_xor_sync", "xor", 1u},
                                   {"__shfl", "idx", 0u},
                                   {"__shfl_down", "down", 0u},
                                   {"__shfl_up", "up", 0u},
                                   {"__shfl_xor", "xor", 0u}})
    if (N == Name)
      return evalShuffle(C, Kind, First, M);
  if ((N.starts_with("atomicAdd") || N.starts_with("atomicMax") ||
       N.starts_with("atomicMin")) &&
      NA == 2) {
    Vals A = eval(C->getArg(0), M), V = eval(C->getArg(1), M);
    const char *Acc = N.starts_with("atomicAdd")   ? "+"
                      : N.starts_with("atomicMax") ? "max"
                                                   : "min";
    for (unsigned T : M) {
      if (failed())
        break;
      // The old contents: memory another thread may have updated, so a
      // value read at run time (a counter's position is data-dependent).
      if (A[T]->K == SK::Ptr && isa<ParmVarDecl>(A[T]->D))
        R[T] = P.load(A[T]->D, A[T]->Ops[0], tyOf(C->getType()));
      else
        R[T] = P.undef(tyOf(C->getType()));
      writePtr(A[T], T, V[T], C->getBeginLoc(), Acc);
    }
    return R;
  }
  if (N == "__float_as_int" || N == "__float_as_uint" ||
      N == "__int_as_float" || N == "__uint_as_float") {
    fail(Failure::NoTile, C->getBeginLoc(),
         llvm::formatv("{0}: a float's bits read as an integer (or back) have "
                       "no tile operation; an atomicMax/atomicMin of a "
                       "float's bits orders the floats only when none is "
                       "negative, which is not known when the kernel is "
                       "traced",
                       N)
             .str());
    return R;
  }
  // A failed assert() traps the kernel: nothing it computes is defined
  // then, so the model follows the threads for which the assertion holds.
  if (N == "__assert_fail" || N == "__assertfail" || N == "__assert_rtn" ||
      N == "_wassert")
    return All(P.intc(0));
  // Loads and stores with cache hints (the CUDA C++ Programming Guide's
  // "Load Functions Using Cache Hints" and "Store Functions Using Cache
  // Hints"): a read or write of *p.
  if (isCacheHintLoad(N) && NA == 1) {
    Vals A = eval(C->getArg(0), M);
    for (unsigned T : M)
      if (!failed())
        R[T] = readPtr(A[T], T, C->getBeginLoc());
    return R;
  }
  if (isCacheHintStore(N) && NA == 2) {
    QualType LE;
    if (unsigned N2 = lanesOf(C->getArg(1)->getType(), &LE)) {
      std::vector<Vals> Lanes;
      if (evalLanes(C->getArg(1), N2, LE, M, Lanes)) {
        Vals A = eval(C->getArg(0), M);
        if (!failed())
          storeLanesAt(A, Lanes, LE, M, C->getBeginLoc());
      }
      return All(P.intc(0));
    }
    Vals A = eval(C->getArg(0), M), V = eval(C->getArg(1), M);
    for (unsigned T : M)
      if (!failed())
        writePtr(A[T], T, convert(V[T], C->getArg(1)->getType()),
                 C->getBeginLoc());
    return All(P.intc(0));
  }
  Ty RT = tyOf(C->getType());
  if (NA == 1) {
    llvm::StringRef Cv = llvm::StringSwitch<llvm::StringRef>(N)
                             .Cases("__half2float", "__bfloat162float",
                                    "__int2float_rn", "float")
                             .Cases("__float2half", "__float2half_rn", "half")
                             .StartsWith("__float2bfloat16", "bf16")
                             .Default("");
    if (!Cv.empty()) {
      Vals X = eval(C->getArg(0), M);
      Ty To = Cv == "float" ? Ty::F32 : Cv == "half" ? Ty::F16 : Ty::BF16;
      for (unsigned T : M)
        R[T] = P.cast(To, X[T]);
      return R;
    }
    // cosh has no activation: cosh x = e^(x - ln 2) + e^(-x - ln 2), which
    // overflows where cosh does (a half of e^x would overflow first) and
    // adds two positive terms (no cancellation).
    if (N == "coshf" || N == "cosh") {
      Vals X = eval(C->getArg(0), M);
      for (unsigned T : M) {
        SymP A = isFloatTy(X[T]->T) ? X[T] : P.cast(Ty::F32, X[T]);
        SymP Ln2 = P.flt(0.69314718055994531, A->T);
        R[T] = P.bin("+", P.un("exp", P.bin("-", A, Ln2)),
                     P.un("exp", P.bin("-", P.un("neg", A), Ln2)));
      }
      return R;
    }
    llvm::StringRef U = mathUnaryOp(N);
    if (!U.empty()) {
      Vals X = eval(C->getArg(0), M);
      for (unsigned T : M) {
        SymP A =
            isFloatTy(X[T]->T) || U == "abs" ? X[T] : P.cast(Ty::F32, X[T]);
        R[T] = U == "recip" ? P.bin("/", P.flt(1.0, A->T), A) : P.un(U, A);
      }
      return R;
    }
  }
  if (NA == 2) {
    llvm::StringRef B = mathBinaryOp(N);
    if (!B.empty()) {
      Vals X = eval(C->getArg(0), M), Y = eval(C->getArg(1), M);
      for (unsigned T : M) {
        if (B == "pow") {
          if (Y[T]->isConst() && (Y[T]->K == SK::Int ? Y[T]->I : Y[T]->F) == 2)
            R[T] = P.bin("*", X[T], X[T]);
          else
            R[T] = P.bin("pow", X[T], Y[T]);
          continue;
        }
        SymP A = X[T], Bv = Y[T];
        if (A->T != Bv->T && isFloatTy(RT)) {
          A = P.cast(RT, A);
          Bv = P.cast(RT, Bv);
        }
        R[T] = P.bin(B, A, Bv);
      }
      return R;
    }
  }
  if (NA == 3 && (N == "fmaf" || N == "fma" || N == "__fmaf_rn")) {
    Vals X = eval(C->getArg(0), M), Y = eval(C->getArg(1), M),
         Z = eval(C->getArg(2), M);
    for (unsigned T : M)
      R[T] = P.bin("+", P.bin("*", X[T], Y[T]), Z[T]);
    return R;
  }
  const FunctionDecl *F = C->getDirectCallee();
  if (F && F->getDefinition() && F->getDefinition()->hasBody() &&
      !F->hasAttr<CUDAGlobalAttr>() && !isa<CXXMethodDecl>(F))
    return inlineCall(F, C, M);
  std::string Of;
  if (auto *MC = dyn_cast<CXXMemberCallExpr>(C))
    if (const Expr *O = MC->getImplicitObjectArgument())
      Of = " (a member of " +
           O->IgnoreParenImpCasts()->getType().getAsString() + ")";
  fail(Failure::Unsupported, C->getBeginLoc(),
       llvm::formatv("call to '{0}'{1}: the model knows CUDA's math, "
                     "shuffle, atomic, barrier and cooperative-groups "
                     "intrinsics and executes device functions with a body, "
                     "not this",
                     N.empty() ? "(indirect)" : N, Of)
           .str());
  return All(P.undef());
}

llvm::StringRef km::mathUnaryOp(llvm::StringRef N) {
  return llvm::StringSwitch<llvm::StringRef>(N)
      .Cases("expf", "__expf", "exp", "exp")
      .Cases("logf", "__logf", "log", "log")
      .Cases("sqrtf", "sqrt", "__fsqrt_rn", "sqrt")
      .Cases("rsqrtf", "rsqrt", "rsqrt")
      .Cases("tanhf", "tanh", "tanh")
      .Cases("fabsf", "fabs", "abs", "abs")
      .Cases("erff", "erf", "erf")
      .Cases("sinf", "__sinf", "sin", "sin")
      .Cases("cosf", "__cosf", "cos", "cos")
      .Cases("exp2f", "exp2", "exp2")
      .Cases("log2f", "log2", "log2")
      .Cases("__frcp_rn", "__frcp_rz", "recip")
      .Default("");
}

llvm::StringRef km::mathBinaryOp(llvm::StringRef N) {
  return llvm::StringSwitch<llvm::StringRef>(N)
      .Cases("fmaxf", "fmax", "max", "__hmax", "max")
      .Cases("fminf", "fmin", "min", "__hmin", "min")
      .Cases("__fdividef", "fdividef", "__fdiv_rn", "/")
      .Cases("powf", "pow", "pow")
      .Cases("__hadd", "__fadd_rn", "+")
      .Cases("__hmul", "__fmul_rn", "*")
      .Cases("__hsub", "__fsub_rn", "-")
      .Default("");
}

//===- WarpRowEval.cpp - values of the warp-row lifter --------------------===//
// Rules: PK5004, PK5009
//
// The warp-row lifter (WarpRow.h) on values: communicating calls,
// barriers, warp reductions (loops and device functions), inlined calls
// and the per-thread values of block row programs.
//
//===----------------------------------------------------------------------===//
#include "WarpRow.h"

using namespace pk;
using namespace pk::nki;
using namespace clang;

namespace pk {
namespace nki {
namespace lift {

bool WarpRowLifter::communicates(const FunctionDecl *Fn) {
  Fn = Fn ? Fn->getDefinition() : nullptr;
  if (!Fn || !Fn->hasBody() || Fn->hasAttr<CUDAGlobalAttr>())
    return false;
  auto It = Communicates.find(Fn);
  if (It != Communicates.end())
    return It->second;
  Communicates[Fn] = false; // recursion
  bool R = false;
  std::function<void(const clang::Stmt *)> Walk = [&](const clang::Stmt *S) {
    if (!S || R)
      return;
    if (auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (D->hasAttr<CUDASharedAttr>())
          R = true;
    if (auto *C = dyn_cast<CallExpr>(S))
      if (auto *Callee = C->getDirectCallee()) {
        std::string NS = Callee->getNameAsString();
        llvm::StringRef N(NS);
        if (N.starts_with("__shfl") || N == "__syncthreads" ||
            communicates(Callee))
          R = true;
      }
    for (const clang::Stmt *Ch : S->children())
      Walk(Ch);
  };
  Walk(Fn->getBody());
  Communicates[Fn] = R;
  return R;
}

void WarpRowLifter::noteAssign(const VarDecl *V) {
  auto It = DeclDepth.find(V);
  unsigned D = It == DeclDepth.end() ? 0 : It->second;
  if (D < Depth && !AssignedOuter.empty())
    AssignedOuter.back().insert(V);
}

bool WarpRowLifter::barrier(Ctx C, SourceLocation Loc) {
  if (!C.all())
    return fail(Loc, "__syncthreads() under a condition: only some threads "
                     "reach the barrier");
  for (auto &[V, Sa] : Sh) {
    Sa.Pending = false;
    Sa.ReadAll = false;
    Sa.ReadW0 = -1;
  }
  return true;
}

std::string WarpRowLifter::combine(const std::string &Tile,
                                   const std::string &Fn,
                                   const std::string &With) {
  if (Fn == "nl.add" && (With == "0.0" || With == "0"))
    return Tile;
  std::string T = B.alloc("c", Mem::SBUF, DType::F32, {"128", "1"});
  Op O;
  O.Kind = OpKind::TensorScalar;
  O.Fn = Fn;
  O.Dst = Access{T, {{"0", "np_"}, {"0", "1"}}, {}};
  O.Srcs = {Operand::tile(Access{Tile, {{"0", "np_"}, {"0", "1"}}, {}}),
            Operand::scalar(With)};
  B.op(O);
  return T;
}

/// for (o = 16; o > 0; o >>= 1) v = op(v, __shfl_{xor,down}_sync(~0, v, o))
bool WarpRowLifter::matchWarpLoop(const ForStmt *Fo, const VarDecl *&V,
                                  std::string &Op, bool &Xor) {
  auto *DS = dyn_cast_or_null<DeclStmt>(Fo->getInit());
  auto *O = DS && DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl())
                                     : nullptr;
  if (!O || !O->getInit() || constInt(O->getInit()) != 16)
    return false;
  auto *Cond = dyn_cast_or_null<BinaryOperator>(Fo->getCond());
  if (!Cond || varOf(Cond->getLHS()) != O ||
      !((Cond->getOpcode() == BO_GT && isInt(Cond->getRHS(), 0)) ||
        (Cond->getOpcode() == BO_GE && isInt(Cond->getRHS(), 1))))
    return false;
  auto *Inc = dyn_cast_or_null<CompoundAssignOperator>(Fo->getInc());
  if (!Inc || varOf(Inc->getLHS()) != O ||
      !((Inc->getOpcode() == BO_ShrAssign && isInt(Inc->getRHS(), 1)) ||
        (Inc->getOpcode() == BO_DivAssign && isInt(Inc->getRHS(), 2))))
    return false;
  const clang::Stmt *S = Fo->getBody();
  if (auto *CS = dyn_cast<CompoundStmt>(S)) {
    if (CS->size() != 1)
      return false;
    S = CS->body_front();
  }
  const Expr *E;
  if (!accumulation(S, V, Op, E))
    return false;
  auto *Call = dyn_cast<CallExpr>(strip(E));
  auto *Fn = Call ? Call->getDirectCallee() : nullptr;
  if (!Fn || Call->getNumArgs() < 3 || varOf(Call->getArg(1)) != V ||
      varOf(Call->getArg(2)) != O)
    return false;
  std::string N = Fn->getNameAsString();
  if (N != "__shfl_xor_sync" && N != "__shfl_down_sync")
    return false;
  Xor = N == "__shfl_xor_sync";
  auto Mask = constInt(Call->getArg(0));
  if (!Mask || (uint64_t(*Mask) & 0xffffffffu) != 0xffffffffu)
    return fail(Call->getBeginLoc(), "warp reduction with a partial lane "
                                     "mask"),
           false;
  if (Call->getNumArgs() > 3 && !isa<CXXDefaultArgExpr>(Call->getArg(3)) &&
      constInt(Call->getArg(3)) != 32)
    return fail(Call->getBeginLoc(), "warp reduction over a sub-warp width"),
           false;
  return true;
}

/// A device function `T f(T v) { <warp loop on v>; return v; }`.
bool WarpRowLifter::isWarpReduceFn(const FunctionDecl *Fn, std::string &Op,
                                   bool &Xor) {
  Fn = Fn->getDefinition();
  auto *Body = Fn ? dyn_cast_or_null<CompoundStmt>(Fn->getBody()) : nullptr;
  if (!Body || Fn->getNumParams() != 1 || Body->size() != 2)
    return false;
  const clang::Stmt *S0 = Body->body_front();
  if (auto *A = dyn_cast<AttributedStmt>(S0))
    S0 = A->getSubStmt();
  auto *Fo = dyn_cast<ForStmt>(S0);
  auto *R = dyn_cast<ReturnStmt>(Body->body_back());
  const VarDecl *V = nullptr;
  if (!Fo || !R || !R->getRetValue() || !matchWarpLoop(Fo, V, Op, Xor))
    return false;
  return V == Fn->getParamDecl(0) && varOf(R->getRetValue()) == V;
}

std::optional<Value> WarpRowLifter::applyWarpReduce(Value V,
                                                    const std::string &Op,
                                                    bool Xor, Ctx C,
                                                    SourceLocation Loc) {
  UsesWarps = true;
  if (C.L0) {
    fail(Loc, "warp shuffle executed by one lane per warp");
    return std::nullopt;
  }
  if (V.K == Value::Partial && C.all()) {
    if (V.Op != Op) {
      fail(Loc, "warp reduction with another operation than the partial "
                "results it combines");
      return std::nullopt;
    }
    V.K = Value::WarpTot;
    V.AllLanes = Xor;
    ++WarpSyncs;
    return V;
  }
  if (V.K == Value::W0Part && C.W0) {
    if (V.Op != Op) {
      fail(Loc, "warp reduction with another operation than the per-warp "
                "results it combines");
      return std::nullopt;
    }
    Value R;
    R.K = Value::Total0;
    R.Tile = combine(V.Tile, Op, V.Pad);
    R.AllLanes = Xor;
    ++WarpSyncs;
    return R;
  }
  fail(Loc, "warp reduction of a value that is not the threads' partial "
            "results of the row (in every warp) or the warps' results (in "
            "warp 0)");
  return std::nullopt;
}

std::optional<Value> WarpRowLifter::inlineCall(const CallExpr *Ca,
                                               const FunctionDecl *Fn, Ctx C) {
  std::string Op;
  bool Xor = false;
  if (isWarpReduceFn(Fn, Op, Xor)) {
    auto A = evalValue(Ca->getArg(0), C);
    if (!A)
      return std::nullopt;
    return applyWarpReduce(*A, Op, Xor, C, Ca->getBeginLoc());
  }
  if (F)
    return std::nullopt;
  const FunctionDecl *Def = Fn->getDefinition();
  auto *Body = Def ? dyn_cast_or_null<CompoundStmt>(Def->getBody()) : nullptr;
  if (!Body || Body->size() == 0 || InlineDepth > 4 ||
      Def->getNumParams() != Ca->getNumArgs()) {
    fail(Ca->getBeginLoc(), "call of a device function that communicates "
                            "and is not inlined");
    return std::nullopt;
  }
  for (unsigned I = 0; I < Ca->getNumArgs(); ++I) {
    auto A = evalValue(Ca->getArg(I), C);
    if (!A)
      return std::nullopt;
    L.Env[Def->getParamDecl(I)] = *A;
    DeclDepth[Def->getParamDecl(I)] = Depth;
  }
  ++InlineDepth;
  std::optional<Value> R;
  size_t N = Body->size(), I = 0;
  for (const clang::Stmt *S : Body->body()) {
    if (++I < N) {
      if (!bstmt(S, C)) {
        --InlineDepth;
        return std::nullopt;
      }
      continue;
    }
    auto *Ret = dyn_cast<ReturnStmt>(S);
    if (!Ret || !Ret->getRetValue()) {
      fail(S->getBeginLoc(), "device function that does not end with the "
                             "return of its value");
    } else {
      R = evalValue(Ret->getRetValue(), C);
    }
  }
  --InlineDepth;
  return R;
}

std::optional<Value> WarpRowLifter::evalValue(const Expr *E, Ctx C) {
  const Expr *X = E->IgnoreParenImpCasts();
  if (auto *Ca = dyn_cast<CallExpr>(X))
    if (auto *Fn = Ca->getDirectCallee())
      if (communicates(Fn))
        return inlineCall(Ca, Fn, C);
  // lane < nwarps ? s[lane] : pad, in warp 0.
  if (auto *Co = dyn_cast<ConditionalOperator>(X)) {
    auto *Cond = dyn_cast<BinaryOperator>(strip(Co->getCond()));
    auto *A =
        dyn_cast<ArraySubscriptExpr>(Co->getTrueExpr()->IgnoreParenImpCasts());
    const VarDecl *Arr = A ? sharedVar(A->getBase()) : nullptr;
    auto Pad = L.scalarExpr(Co->getFalseExpr());
    if (!Cond || !Arr) {
      fail(Co->getBeginLoc(), "conditional expression: only `lane < nwarps "
                              "? shared[lane] : value` is lifted");
      return std::nullopt;
    }
    const Expr *Lo = Cond->getLHS(), *Hi = Cond->getRHS();
    bool Ok = Cond->getOpcode() == BO_LT;
    if (Cond->getOpcode() == BO_GT) {
      std::swap(Lo, Hi);
      Ok = true;
    }
    Ok = Ok && LaneV.count(varOf(Lo)) && NWarpsV.count(varOf(Hi)) &&
         LaneV.count(varOf(A->getIdx())) && Pad;
    ShArr &Sa = Sh[Arr];
    if (!Ok || !C.W0 || C.L0 || Sa.K != ShArr::PerWarp || Sa.Pending) {
      fail(Co->getBeginLoc(),
           "read of the warps' results that is not `lane < nwarps ? "
           "s[lane] : value` by the lanes of warp 0 after a barrier");
      return std::nullopt;
    }
    readShared(Sa, C);
    Value R;
    R.K = Value::W0Part;
    R.Op = Sa.Op;
    R.Tile = Sa.Tile;
    R.Pad = *Pad;
    return R;
  }
  // s[tid] + s[tid + 32] in warp 0: the last step of a shared tree.
  if (auto *Bo = dyn_cast<BinaryOperator>(X)) {
    auto *A1 =
        dyn_cast<ArraySubscriptExpr>(Bo->getLHS()->IgnoreParenImpCasts());
    auto *A2 =
        dyn_cast<ArraySubscriptExpr>(Bo->getRHS()->IgnoreParenImpCasts());
    const VarDecl *S1 = A1 ? sharedVar(A1->getBase()) : nullptr;
    const VarDecl *S2 = A2 ? sharedVar(A2->getBase()) : nullptr;
    if (S1 || S2) {
      auto *Off = A2 ? dyn_cast<BinaryOperator>(strip(A2->getIdx())) : nullptr;
      bool Ok = Bo->getOpcode() == BO_Add && S1 && S1 == S2 &&
                isTid(A1->getIdx()) && Off && Off->getOpcode() == BO_Add &&
                isTid(Off->getLHS()) && constInt(Off->getRHS()) == 32;
      ShArr &Sa = Sh[S1 ? S1 : S2];
      if (!Ok || !C.W0 || C.L0 || Sa.K != ShArr::PerThread || Sa.Pending ||
          Sa.M != 64 || Sa.Op != "nl.add") {
        fail(Bo->getBeginLoc(), "read of a shared tree that is not `s[tid] + "
                                "s[tid + 32]` by warp 0 when 64 partial sums "
                                "are left, after a barrier");
        return std::nullopt;
      }
      readShared(Sa, C);
      Value R;
      R.K = Value::W0Part;
      R.Op = "nl.add";
      R.Tile = Sa.Tile;
      R.Pad = "0.0";
      return R;
    }
  }
  if (auto *A = dyn_cast<ArraySubscriptExpr>(X))
    if (const VarDecl *Arr = sharedVar(A->getBase())) {
      ShArr &Sa = Sh[Arr];
      if (Sa.K != ShArr::Bcast || Sa.Pending || constInt(A->getIdx()) != 0) {
        fail(A->getBeginLoc(),
             llvm::formatv("read of '{0}' that is not slot 0 holding a value "
                           "for the whole row, after a barrier",
                           Arr->getName())
                 .str());
        return std::nullopt;
      }
      readShared(Sa, C);
      Value R;
      R.K = Value::Elem;
      R.N = Sa.N;
      return R;
    }
  if (auto *D = dyn_cast<DeclRefExpr>(X))
    if (auto *V = dyn_cast<VarDecl>(D->getDecl())) {
      auto It = L.Env.find(V);
      if (It != L.Env.end() &&
          (It->second.K == Value::Partial || It->second.K == Value::WarpTot ||
           It->second.K == Value::W0Part ||
           (It->second.K == Value::Total0 &&
            !(C.W0 && (C.L0 || It->second.AllLanes)))))
        return It->second;
    }
  // A per-row value: communicating calls inside it first.
  std::function<bool(const clang::Stmt *)> Pre = [&](const clang::Stmt *S) {
    if (!S)
      return true;
    if (auto *Ca = dyn_cast<CallExpr>(S))
      if (auto *Fn = Ca->getDirectCallee())
        if (communicates(Fn)) {
          auto R = inlineCall(Ca, Fn, C);
          if (!R)
            return false;
          if (R->K != Value::Elem)
            return fail(Ca->getBeginLoc(), "the result of this reduction is "
                                           "not the same in every thread "
                                           "where it is used");
          L.Precomputed[Ca] = R->N;
          return true;
        }
    for (const clang::Stmt *Ch : S->children())
      if (!Pre(Ch))
        return false;
    return true;
  };
  if (!Pre(X))
    return std::nullopt;
  // Lane 0 of warp 0 (every lane of warp 0 after a butterfly) holds the
  // row's reduction: a per-row value there.
  std::vector<std::pair<const VarDecl *, Value>> Saved;
  for (auto &[V, Val] : L.Env)
    if (Val.K == Value::Total0 && C.W0 && (C.L0 || Val.AllLanes)) {
      Saved.push_back({V, Val});
      auto R = std::make_shared<Node>();
      R->K = Node::Ref;
      R->Name = Val.Tile;
      Value U;
      U.K = Value::Elem;
      U.N = R;
      Val = U;
    }
  NodeP N = L.elem(E);
  for (auto &[V, Val] : Saved)
    L.Env[V] = Val;
  if (!N) {
    failElem(E->getExprLoc(), "per-row value not lifted");
    return std::nullopt;
  }
  if (N->K != Node::Scalar) {
    N = column(N, E->getExprLoc());
    if (!N)
      return std::nullopt;
  }
  Value R;
  R.K = Value::Elem;
  R.N = N;
  return R;
}

} // namespace lift
} // namespace nki
} // namespace pk

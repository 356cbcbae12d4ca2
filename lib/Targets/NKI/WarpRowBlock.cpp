//===- WarpRowBlock.cpp - statements of block row programs ----------------===//
// Rules: PK5009
//
// The warp-row lifter (WarpRow.h) on the statements of block row programs:
// shared and global stores, assignments, conditions, declarations, loops.
//
//===----------------------------------------------------------------------===//
#include "WarpRow.h"

using namespace pk;
using namespace pk::nki;
using namespace clang;

namespace pk {
namespace nki {
namespace lift {

//===----------------------------------------------------------------------===//
// Block row programs: one block per row.
//
//   row = blockIdx.x (or `if (row >= rows) return;` first)
//   for (c = threadIdx.x; c < cols; c += blockDim.x) acc += e;   (column
//                                                  loops, as above)
//   for (i = blockIdx.x * BS + tid; i < n; i += BS * gridDim.x)  (a grid-
//     acc += e(in[i]);                    stride loop: block b sums the
//                                         chunks b, b + G, ... of BS)
//   warp reductions (16 .. 1, __shfl_xor_sync or __shfl_down_sync, inline
//   or in a device function), `if (lane == 0) s[warp] = v;`, barriers,
//   `v = lane < nwarps ? s[lane] : pad;` and a second warp reduction in
//   warp 0, `s[tid] = acc;` and a shared-memory tree `for (s = BS/2; s >
//   32; s >>= 1) { if (tid < s) a[tid] += a[tid + s]; __syncthreads(); }`
//   finished by `a[tid] + a[tid + 32]` in warp 0, a loop over the warps'
//   slots, broadcasts through `s[0]`, device functions such as
//   blockReduceSum inlined; stores of the row's values by thread 0.
//
// Each per-thread value is followed abstractly: a thread's partial of the
// row's reduction (the column loop's (P, 1) accumulator holds the whole
// row's), each warp's reduction of it, the lanes of warp 0 holding the
// warps' results, the reduction in lane 0 of warp 0, a per-row value
// every thread holds.  Shared arrays are followed the same way, with the
// threads that wrote and read them since the last barrier: a read of
// unsynchronised data, a write that can overtake a read, a barrier or a
// shuffle under a condition, a reduction with the wrong operation or over
// the wrong threads is refused (PK5009).  The row's reduction is then the
// tensor_reduce over the free axis, as for one warp per row.
//===----------------------------------------------------------------------===//

bool WarpRowLifter::sharedStore(const ArraySubscriptExpr *A, const Expr *RHS,
                                Ctx C) {
  const VarDecl *Arr = sharedVar(A->getBase());
  ShArr &Sa = Sh[Arr];
  if (Sa.Size < 0 || Sa.K == ShArr::ColArr || Sa.K == ShArr::Staged)
    return fail(A->getBeginLoc(),
                llvm::formatv("store to '{0}' outside a column loop: a shared "
                              "row (dynamic shared memory, one value per "
                              "column, or a staged row) is written only at "
                              "the column of a column loop",
                              Arr->getName())
                    .str());
  auto Val = evalValue(RHS, C);
  if (!Val)
    return false;
  // A write must not overtake a read of the same phase: every reader has
  // passed a barrier, or the readers are warp 0 and a warp-synchronising
  // shuffle came between their read and this write, which warp 0 makes.
  bool Overtakes =
      Sa.ReadAll || (Sa.ReadW0 >= 0 && !(C.W0 && WarpSyncs > Sa.ReadW0));
  if (Sa.Pending || Overtakes)
    return fail(A->getBeginLoc(),
                llvm::formatv("'{0}' is written again before a barrier "
                              "separates the write from earlier reads or "
                              "writes of it",
                              Arr->getName())
                    .str());
  const Expr *I = A->getIdx();
  ShArr N;
  N.Size = Sa.Size;
  if (WarpV.count(varOf(I)) && C.L0 && !C.W0 && Val->K == Value::WarpTot) {
    N.K = ShArr::PerWarp;
    N.Op = Val->Op;
    N.Tile = Val->Tile;
    if (Sa.Size < 32)
      PerWarpSizes.insert(Sa.Size);
  } else if (constInt(I) == 0 && Val->K == Value::Elem) {
    N.K = ShArr::Bcast;
    N.N = Val->N;
  } else if (isTid(I) && C.all() && Val->K == Value::Partial) {
    if (!BlockSize || *BlockSize > Sa.Size)
      return fail(A->getBeginLoc(),
                  llvm::formatv("'{0}[tid]': the block size is not a known "
                                "constant within the array's {1} elements",
                                Arr->getName(), Sa.Size)
                      .str());
    N.K = ShArr::PerThread;
    N.Op = Val->Op;
    N.Tile = Val->Tile;
    N.M = *BlockSize;
  } else {
    return fail(A->getBeginLoc(),
                llvm::formatv("store to '{0}' that is not a warp's result "
                              "by lane 0 at [warp], a per-row value at [0] "
                              "or the threads' partial results at [tid]",
                              Arr->getName())
                    .str());
  }
  N.Pending = true;
  Sa = N;
  return true;
}

bool WarpRowLifter::globalStore(const ArraySubscriptExpr *A, const Expr *RHS,
                                Ctx C) {
  auto *D = dyn_cast<DeclRefExpr>(strip(A->getBase()));
  auto *P = D ? dyn_cast<ParmVarDecl>(D->getDecl()) : nullptr;
  if (!P || !P->getType()->isPointerType() || !isRow(A->getIdx()))
    return fail(A->getBeginLoc(), "store outside a column loop that is not "
                                  "p[row] (one value per row)");
  auto Ty = dtypeOf(P->getType()->getPointeeType());
  if (!Ty)
    return fail(A->getBeginLoc(), "element type without an NKI dtype");
  auto Val = evalValue(RHS, C);
  if (!Val)
    return false;
  if (Val->K != Value::Elem)
    return fail(A->getBeginLoc(), "the value stored for the row is not the "
                                  "row's value in the threads that store it");
  NodeP N = L.castTo(Val->N, P->getType()->getPointeeType(), A->getExprLoc());
  if (!N)
    return failElem(A->getExprLoc(), "stored value not lifted");
  open();
  Operand V;
  if (N->K == Node::Scalar) {
    std::string T = B.alloc("c", Mem::SBUF, *Ty, {"128", "1"});
    Op M;
    M.Kind = OpKind::Memset;
    M.Dst = Access{T, {{"0", "np_"}, {"0", "1"}}, {}};
    M.Srcs = {Operand::scalar(N->Val)};
    B.op(M);
    V = Operand::tile(M.Dst);
  } else {
    N = column(N, A->getExprLoc());
    if (!N)
      return false;
    V = Operand::tile(Access{N->Name, {{"0", "np_"}, {"0", "1"}}, {}});
  }
  TensorUse &U = L.use(P, A->getExprLoc());
  if (U.Read || U.Written)
    return fail(A->getBeginLoc(), "a tensor read and written, or written "
                                  "twice, is not lifted");
  U.Written = true;
  U.Layout = 'c';
  Op O;
  O.Kind = OpKind::DmaCopy;
  O.Dst = Access{OutName.count(P) ? OutName[P] : pyName(P->getName()),
                 {{"p0", "p1"}, {"0", "1"}},
                 {}};
  O.Srcs = {V};
  B.op(O);
  Pending.push_back({P, N});
  return true;
}

bool WarpRowLifter::bassign(const BinaryOperator *Bo, Ctx C) {
  const Expr *LHS = Bo->getLHS()->IgnoreParens();
  if (auto *A = dyn_cast<ArraySubscriptExpr>(LHS)) {
    if (Bo->getOpcode() != BO_Assign)
      return fail(Bo->getOperatorLoc(), "compound assignment to memory "
                                        "outside a loop the lifter "
                                        "recognises");
    if (sharedVar(A->getBase()))
      return sharedStore(A, Bo->getRHS(), C);
    return globalStore(A, Bo->getRHS(), C);
  }
  const VarDecl *V = varOf(LHS);
  if (V && Bo->getOpcode() == BO_Assign && !V->getType()->isIntegerType() &&
      !V->getType()->isPointerType()) {
    auto Val = evalValue(Bo->getRHS(), C);
    if (!Val)
      return false;
    L.Env[V] = *Val;
    noteAssign(V);
    return true;
  }
  return fail(Bo->getOperatorLoc(), "assignment that is not a store or a "
                                    "new value of a float local");
}

bool WarpRowLifter::bif(const IfStmt *I, Ctx C) {
  if (I->getElse() || I->getInit() || I->getConditionVariable())
    return fail(I->getIfLoc(), "if/else: only the thread conditions lane == "
                               "0, warp == 0, tid < 32 and tid == 0 are "
                               "lifted");
  const clang::Stmt *Then = I->getThen();
  if (auto *CS = dyn_cast<CompoundStmt>(Then))
    if (CS->size() == 1)
      Then = CS->body_front();
  if (isa<ReturnStmt>(Then)) {
    auto *Cond = dyn_cast<BinaryOperator>(strip(I->getCond()));
    if (Cond && Cond->getOpcode() == BO_GE && isRow(Cond->getLHS()) &&
        !Opened && !RowsBound && C.all() && Depth == 0 && InlineDepth == 0)
      if (auto R = L.scalarExpr(Cond->getRHS())) {
        Rows = *R;
        RowsBound = true;
        return true;
      }
    return fail(I->getIfLoc(), "early return that is not `if (row >= rows) "
                               "return;` first");
  }
  Ctx N = C;
  std::function<bool(const Expr *)> Parse = [&](const Expr *E) {
    auto *Bo = dyn_cast<BinaryOperator>(strip(E));
    if (!Bo)
      return false;
    if (Bo->getOpcode() == BO_LAnd)
      return Parse(Bo->getLHS()) && Parse(Bo->getRHS());
    const Expr *X = Bo->getLHS(), *Y = Bo->getRHS();
    if (Bo->getOpcode() == BO_EQ) {
      if (isInt(X, 0))
        std::swap(X, Y);
      if (!isInt(Y, 0))
        return false;
      if (LaneV.count(varOf(X)))
        N.L0 = true;
      else if (WarpV.count(varOf(X)))
        N.W0 = true;
      else if (isTid(X))
        N.W0 = N.L0 = true;
      else
        return false;
      return true;
    }
    if (Bo->getOpcode() == BO_LT && isTid(X) && constInt(Y) == 32) {
      N.W0 = true;
      return true;
    }
    return false;
  };
  if (!Parse(I->getCond()))
    return fail(I->getIfLoc(), "condition that is not lane == 0, warp == 0, "
                               "threadIdx.x < 32 or threadIdx.x == 0: "
                               "per-thread branches are not lifted");
  ++Depth;
  AssignedOuter.emplace_back();
  bool Ok = bstmt(I->getThen(), N);
  std::set<const VarDecl *> Out = AssignedOuter.back();
  AssignedOuter.pop_back();
  --Depth;
  // A variable assigned by some threads only holds different values in
  // different threads afterwards: not followed.
  for (const VarDecl *V : Out) {
    L.Env[V] = Value();
    noteAssign(V);
  }
  return Ok;
}

bool WarpRowLifter::bdecl(const DeclStmt *DS, Ctx C) {
  for (const Decl *D : DS->decls()) {
    auto *V = dyn_cast<VarDecl>(D);
    if (!V)
      continue;
    if (V->hasAttr<CUDASharedAttr>()) {
      auto *AT = FD->getASTContext().getAsConstantArrayType(V->getType());
      if (V->getType()->isIncompleteArrayType()) {
        // Dynamic shared memory (extern __shared__, sized by the launch):
        // followed as a row of values, one per column (s[c]).
        if (!V->getType()->getArrayElementTypeNoTypeQual()->isFloatingType() ||
            !dtypeOf(
                QualType(V->getType()->getArrayElementTypeNoTypeQual(), 0)))
          return fail(V->getLocation(),
                      llvm::formatv("dynamic shared memory '{0}' of a "
                                    "non-float element type",
                                    V->getName())
                          .str());
        if (!Sh.count(V))
          Sh[V].Size = -1;
        continue;
      }
      if (!AT ||
          !V->getType()->getArrayElementTypeNoTypeQual()->isFloatingType())
        return fail(V->getLocation(),
                    llvm::formatv("__shared__ '{0}': only fixed-size "
                                  "one-dimensional float arrays are followed",
                                  V->getName())
                        .str());
      if (!Sh.count(V))
        Sh[V].Size = AT->getSize().getSExtValue();
      continue;
    }
    if (!V->getInit())
      return fail(V->getLocation(), "declaration without an initial value");
    if (V->getType()->isIntegerType()) {
      if (C.all() && prologue(V))
        continue;
      return fail(V->getLocation(), "integer local that is not the thread, "
                                    "lane, warp, warp count or row index");
    }
    if (V->getType()->isPointerType()) {
      if (!rowPointer(V))
        return fail(V->getLocation(), "pointer local that is not a row "
                                      "`p + row * pitch`");
      continue;
    }
    auto Val = evalValue(V->getInit(), C);
    if (!Val)
      return false;
    L.Env[V] = *Val;
    DeclDepth[V] = Depth;
  }
  return true;
}

bool WarpRowLifter::bstmt(const clang::Stmt *S, Ctx C) {
  if (!S || isa<NullStmt>(S))
    return true;
  if (auto *A = dyn_cast<AttributedStmt>(S))
    return bstmt(A->getSubStmt(), C);
  if (auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (const clang::Stmt *X : CS->body())
      if (!bstmt(X, C))
        return false;
    return true;
  }
  if (auto *DS = dyn_cast<DeclStmt>(S))
    return bdecl(DS, C);
  if (auto *EW = dyn_cast<ExprWithCleanups>(S))
    S = EW->getSubExpr();
  if (auto *Ca = dyn_cast<CallExpr>(S)) {
    auto *Fn = Ca->getDirectCallee();
    if (Fn && Fn->getNameAsString() == "__syncthreads")
      return barrier(C, Ca->getBeginLoc());
    if (Fn && communicates(Fn))
      return inlineCall(Ca, Fn, C).has_value();
    return fail(Ca->getBeginLoc(), "call statement not lifted");
  }
  if (auto *Bo = dyn_cast<BinaryOperator>(S))
    if (Bo->isAssignmentOp())
      return bassign(Bo, C);
  if (auto *I = dyn_cast<IfStmt>(S))
    return bif(I, C);
  if (auto *Fo = dyn_cast<ForStmt>(S))
    return bfor(Fo, C);
  return fail(S->getBeginLoc(),
              llvm::formatv("statement ({0}) of a block row program not "
                            "lifted",
                            S->getStmtClassName())
                  .str());
}

bool WarpRowLifter::bfor(const ForStmt *Fo, Ctx C) {
  if (C.all() && Depth == 0 && columnLoop(Fo))
    return true;
  if (F)
    return false;
  const VarDecl *V = nullptr;
  std::string Op;
  bool Xor = false;
  if (matchWarpLoop(Fo, V, Op, Xor)) {
    auto It = L.Env.find(V);
    if (It == L.Env.end())
      return fail(Fo->getForLoc(), "warp reduction of an unknown value");
    auto R = applyWarpReduce(It->second, Op, Xor, C, Fo->getForLoc());
    if (!R)
      return false;
    L.Env[V] = *R;
    noteAssign(V);
    return true;
  }
  if (F)
    return false;
  if (gridLoop(Fo, C) || F)
    return !F;
  if (treeLoop(Fo, C) || F)
    return !F;
  if (warpsLoop(Fo, C) || F)
    return !F;
  return fail(Fo->getForLoc(), "loop that is not a column loop, a grid-"
                               "stride loop, a warp reduction, a shared "
                               "tree or a loop over the warps' results");
}
} // namespace lift
} // namespace nki
} // namespace pk

//===- WarpRowColumn.cpp - column loops of row programs -------------------===//
// Rules: PK5004, PK5009
//
// The warp-row lifter (WarpRow.h) on column loops: the columns of a row
// walked by the lanes or the threads of a block, their accumulations,
// stores and shared arrays, in chunks of 512 on the free axis.
//
//===----------------------------------------------------------------------===//
#include "WarpRow.h"

using namespace pk;
using namespace pk::nki;
using namespace clang;

namespace pk {
namespace nki {
namespace lift {

bool WarpRowLifter::columnLoop(const ForStmt *Fo) {
  auto *DS = dyn_cast_or_null<DeclStmt>(Fo->getInit());
  auto *C = DS && DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl())
                                     : nullptr;
  if (!C || !C->getInit() ||
      (Block ? !isTid(C->getInit()) : !LaneV.count(varOf(C->getInit()))))
    return false;
  auto *Cond = dyn_cast_or_null<BinaryOperator>(Fo->getCond());
  auto *Inc = dyn_cast_or_null<CompoundAssignOperator>(Fo->getInc());
  if (!Cond || Cond->getOpcode() != BO_LT || varOf(Cond->getLHS()) != C ||
      !Inc || Inc->getOpcode() != BO_AddAssign || varOf(Inc->getLHS()) != C ||
      (Block ? !isBuiltin(Inc->getRHS(), "blockDim")
             : !isInt(Inc->getRHS(), 32)))
    return fail(Fo->getForLoc(),
                Block ? "column loop that is not `for (c = threadIdx.x; c < "
                        "cols; c += blockDim.x)`"
                      : "column loop that is not `for (c = lane; c < cols; c "
                        "+= 32)`");
  auto Bound = L.scalarExpr(Cond->getRHS());
  std::vector<const clang::Stmt *> Body;
  if (auto *CS = dyn_cast<CompoundStmt>(Fo->getBody()))
    Body.assign(CS->body_begin(), CS->body_end());
  else
    Body.push_back(Fo->getBody());
  if (Block && Bound) {
    // s[d] = p[row * D + d] into a fixed-size shared array: a staged row.
    if (Body.size() == 1)
      if (auto *St = dyn_cast<BinaryOperator>(Body[0]);
          St && St->getOpcode() == BO_Assign)
        if (auto *SA = dyn_cast<ArraySubscriptExpr>(
                St->getLHS()->IgnoreParenImpCasts()))
          if (const VarDecl *Arr = sharedVar(SA->getBase());
              Arr && Sh[Arr].Size > 0)
            return stageLoop(Fo, C, *Bound, St);
    // Without row pointers the first column loop gives the row length.
    if (Cols.empty())
      Cols = *Bound;
  }
  if (!Bound || Cols.empty() || *Bound != Cols)
    return fail(Fo->getForLoc(), "column loop whose bound is not the row "
                                 "pitch of the row pointers");
  Recognised = Block;
  Value CV;
  CV.K = Value::ColVar;
  L.Env[C] = CV;
  CurCol = C;
  LoopSh.clear();
  LoopLocals.clear();
  struct Reset {
    const VarDecl *&V;
    ~Reset() { V = nullptr; }
  } ResetCol{CurCol};
  // Stores to shared arrays at the column: (array, value).
  std::vector<std::pair<const VarDecl *, NodeP>> ShStores;
  // First the element expressions (no ops yet), then the tile program.
  struct Acc {
    const VarDecl *V;
    std::string Op, Init;
    NodeP E;
  };
  std::vector<Acc> Accs;
  std::vector<std::pair<const ParmVarDecl *, NodeP>> Stores;
  for (const clang::Stmt *S0 : Body) {
    const clang::Stmt *S = S0;
    if (auto *EW = dyn_cast<ExprWithCleanups>(S))
      S = EW->getSubExpr();
    if (auto *D = dyn_cast<DeclStmt>(S)) {
      // const T *k = p + c * pitch: the row c of a matrix.
      if (D->isSingleDecl())
        if (auto *PV = dyn_cast<VarDecl>(D->getSingleDecl());
            PV && PV->getType()->isPointerType() && PV->getInit()) {
          if (!colPointer(PV, C))
            return fail(PV->getLocation(),
                        "pointer local of a column loop that is not `p + c * "
                        "pitch` (the row c of a matrix)");
          LoopLocals.insert(PV);
          continue;
        }
      if (!L.declare(D))
        return failElem(S->getBeginLoc(), "local of a column loop not lifted");
      for (const Decl *X : D->decls())
        if (auto *XV = dyn_cast<VarDecl>(X))
          LoopLocals.insert(XV);
      continue;
    }
    if (auto *Inner = dyn_cast<ForStmt>(S)) {
      if (!dotLoop(Inner))
        return F ? false
                 : fail(Inner->getForLoc(),
                        "loop in a column loop that is not a dot product "
                        "`for (d = 0; d < D; ++d) acc += s[d] * k[d]` of a "
                        "staged row and the row c of a matrix");
      continue;
    }
    // A new value of a local of this loop: v = e, v op= e.
    if (auto *Bo = dyn_cast<BinaryOperator>(S);
        Bo && Bo->isAssignmentOp() && LoopLocals.count(varOf(Bo->getLHS()))) {
      const VarDecl *V = varOf(Bo->getLHS());
      auto It = L.Env.find(V);
      if (It == L.Env.end() || It->second.K != Value::Elem ||
          !V->getType()->isRealFloatingType())
        return fail(Bo->getOperatorLoc(), "assignment to a local of a column "
                                          "loop that is not a float value");
      NodeP R = L.elem(Bo->getRHS());
      if (!R)
        return failElem(Bo->getOperatorLoc(), "assigned value not lifted");
      const char *Fn = nullptr;
      switch (Bo->getOpcode()) {
      case BO_AddAssign:
        Fn = "nl.add";
        break;
      case BO_SubAssign:
        Fn = "nl.subtract";
        break;
      case BO_MulAssign:
        Fn = "nl.multiply";
        break;
      case BO_DivAssign:
        Fn = "nl.divide";
        break;
      case BO_Assign:
        break;
      default:
        return fail(Bo->getOperatorLoc(), "compound assignment to a local "
                                          "without a tile operation");
      }
      NodeP N = Fn ? L.bin(Fn, It->second.N, R, false) : R;
      N = L.castTo(N, V->getType(), Bo->getExprLoc());
      if (!N)
        return failElem(Bo->getOperatorLoc(), "assigned value not lifted");
      It->second.N = N;
      continue;
    }
    const VarDecl *AV;
    std::string Op;
    const Expr *E;
    if (accumulation(S, AV, Op, E) && !LoopLocals.count(AV)) {
      auto It = L.Env.find(AV);
      if (It == L.Env.end() || It->second.K != Value::Elem ||
          It->second.N->K != Node::Scalar)
        return fail(S->getBeginLoc(), "accumulator that does not start from "
                                      "a constant before the column loop");
      // Every thread starts from the constant: a sum over the threads
      // counts it once per thread, so only 0 is the tile's start.
      if (Op == "nl.add" && !isZeroText(It->second.N->Val))
        return fail(S->getBeginLoc(), "sum that does not start from 0 in "
                                      "every thread");
      NodeP N = L.elem(E);
      if (!N)
        return fail(S->getBeginLoc(), "accumulated value not lifted");
      Accs.push_back({AV, Op, It->second.N->Val.py(), N});
      continue;
    }
    // y[c] = e (operator= on a class element type such as __half).
    const Expr *SL = nullptr, *SR = nullptr;
    if (auto *Bo = dyn_cast<BinaryOperator>(S);
        Bo && Bo->getOpcode() == BO_Assign) {
      SL = Bo->getLHS();
      SR = Bo->getRHS();
    } else if (auto *OC = dyn_cast<CXXOperatorCallExpr>(S);
               OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2) {
      SL = OC->getArg(0);
      SR = OC->getArg(1);
    }
    auto *A =
        SL ? dyn_cast<ArraySubscriptExpr>(SL->IgnoreParenImpCasts()) : nullptr;
    const VarDecl *PV = A ? varOf(A->getBase()) : nullptr;
    auto PIt = PV ? L.Env.find(PV) : L.Env.end();
    // s[c] = e: the column c of a shared row (dynamic shared memory, or a
    // fixed-size array of at least cols elements).
    if (const VarDecl *Arr = A ? sharedVar(A->getBase()) : nullptr) {
      ShArr &Sa = Sh[Arr];
      if (!Block || varOf(A->getIdx()) != C ||
          !(Sa.K == ShArr::Empty || Sa.K == ShArr::ColArr) ||
          (Sa.K == ShArr::Empty && (Sa.Pending || Sa.ReadAll)))
        return fail(A->getBeginLoc(),
                    llvm::formatv("store to shared '{0}' in a column loop "
                                  "that is not '{0}[c]' at the loop's "
                                  "column of an array holding one value per "
                                  "column",
                                  Arr->getName())
                        .str());
      NodeP N = L.elem(SR);
      if (!N)
        return failElem(S->getBeginLoc(), "stored value not lifted");
      N = L.castTo(N,
                   QualType(Arr->getType()->getArrayElementTypeNoTypeQual(), 0),
                   S->getBeginLoc());
      if (!N)
        return failElem(S->getBeginLoc(), "stored value not lifted");
      LoopSh[Arr] = N;
      ShStores.push_back({Arr, N});
      continue;
    }
    // p[row * cols + c] = e with p a pointer parameter: as a row pointer.
    const ParmVarDecl *DirectP = nullptr;
    if (auto *DP = dyn_cast_or_null<ParmVarDecl>(PV);
        DP && DP->getType()->isPointerType() && Block)
      if (auto Pitch = rowIndex(A->getIdx(), C); Pitch && *Pitch == Cols)
        DirectP = DP;
    if (DirectP || (PIt != L.Env.end() && PIt->second.K == Value::RowPtr &&
                    varOf(A->getIdx()) == C)) {
      const ParmVarDecl *P = DirectP ? DirectP : PIt->second.Ptr;
      NodeP N = L.elem(SR);
      if (!N)
        return failElem(S->getBeginLoc(), "stored value not lifted");
      N = L.castTo(N, P->getType()->getPointeeType(), S->getBeginLoc());
      if (!N)
        return false;
      TensorUse &U = L.use(P, A->getExprLoc());
      if (U.Read || U.Written)
        return fail(S->getBeginLoc(), "a row read and written, or written "
                                      "twice, is not lifted");
      U.Written = true;
      U.Layout = 'e';
      L.RowPitch[P] = Cols;
      Stores.push_back({P, N});
      continue;
    }
    return fail(S->getBeginLoc(), "statement of a column loop that is not an "
                                  "accumulation, a store of the row or a "
                                  "local");
  }
  // Accumulators: a (P, 1) column each, from the initial value.
  open();
  std::vector<std::string> AccTiles;
  for (const Acc &A : Accs) {
    std::string T = B.alloc("acc", Mem::SBUF, DType::F32, {"128", "1"});
    Op M;
    M.Kind = OpKind::Memset;
    M.Dst = Access{T, {{"0", "np_"}, {"0", "1"}}, {}};
    M.Srcs = {Operand::scalar(A.Init)};
    B.op(M);
    AccTiles.push_back(T);
  }
  // A shared row written here: a new SBUF tile [128, cols] (reads in this
  // loop saw the values it held before).
  std::map<const VarDecl *, std::string> ShTiles;
  for (auto &[Arr, N] : ShStores)
    if (!ShTiles.count(Arr))
      ShTiles[Arr] =
          B.alloc("sh", Mem::SBUF,
                  *dtypeOf(QualType(
                      Arr->getType()->getArrayElementTypeNoTypeQual(), 0)),
                  {"128", Cols});
  // A matmul chunk is transposed: at most 128 columns.
  std::function<bool(const NodeP &)> HasDot = [&](const NodeP &N) {
    return N && (N->K == Node::Dot || HasDot(N->A) || HasDot(N->B));
  };
  bool Narrow = false;
  for (const Acc &A : Accs)
    Narrow |= HasDot(A.E);
  for (auto &St : Stores)
    Narrow |= HasDot(St.second);
  for (auto &St : ShStores)
    Narrow |= HasDot(St.second);
  std::string Chunk = Narrow ? "128" : "512";
  B.chunks("f0", "f1", "nf_", Cols, Chunk);
  TileLowering TL(B, HbmName, true);
  TL.FSize = Chunk;
  for (size_t I = 0; I < Accs.size(); ++I) {
    Operand V = TL.lower(Accs[I].E);
    if (!V.IsTile || TileLowering::isCol(V))
      return fail(Fo->getForLoc(), "accumulated value that does not depend "
                                   "on the column");
    std::string R = B.alloc("red", Mem::SBUF, DType::F32, {"128", "1"});
    Access RA{R, {{"0", "np_"}, {"0", "1"}}, {}};
    Op Rd;
    Rd.Kind = OpKind::Reduce;
    Rd.Fn = Accs[I].Op;
    Rd.Dst = RA;
    Rd.Srcs = {V};
    B.op(Rd);
    Access AA{AccTiles[I], {{"0", "np_"}, {"0", "1"}}, {}};
    Op Cb;
    Cb.Kind = OpKind::TensorTensor;
    Cb.Fn = Accs[I].Op;
    Cb.Dst = AA;
    Cb.Srcs = {Operand::tile(AA), Operand::tile(RA)};
    B.op(Cb);
  }
  for (auto &[Arr, N] : ShStores) {
    Operand V = TL.lower(N);
    if (!V.IsTile || TileLowering::isCol(V))
      return fail(Fo->getForLoc(),
                  llvm::formatv("'{0}[c]' is stored a value that does not "
                                "depend on the column",
                                Arr->getName())
                      .str());
    Op O;
    O.Kind = OpKind::TensorCopy;
    O.Dst = Access{ShTiles[Arr], {{"0", "np_"}, {"f0", "f1"}}, {}};
    O.Srcs = {V};
    B.op(O);
  }
  for (auto &[P, N] : Stores) {
    Operand V = TL.lower(N);
    if (!V.IsTile || TileLowering::isCol(V)) {
      // A per-row value stored to every column: a full tile of it.
      Access D = TL.full(B.alloc("t", Mem::SBUF, N->Ty, TL.tileShape()));
      Op M;
      M.Kind = OpKind::Memset;
      M.Dst = D;
      M.Srcs = {Operand::scalar("0.0")};
      B.op(M);
      Op O;
      O.Kind = OpKind::TensorScalar;
      O.Fn = "nl.add";
      O.Dst = D;
      O.Srcs = {Operand::tile(D), V};
      B.op(O);
      V = Operand::tile(D);
    }
    Op O;
    O.Kind = OpKind::DmaCopy;
    O.Dst = TL.hbm(OutName.count(P) ? OutName[P] : pyName(P->getName()));
    O.Srcs = {V};
    B.op(O);
    Pending.push_back({P, N});
  }
  B.close();
  // Each thread reads back only the columns it wrote (every column loop
  // deals the columns to the threads alike): no barrier is needed.
  for (auto &[Arr, T] : ShTiles) {
    ShArr &Sa = Sh[Arr];
    if (Sa.K != ShArr::ColArr) {
      std::string What = llvm::formatv("a row of '{0}'", Arr->getName()).str();
      if (Sa.Size < 0) {
        SharedBytes = true;
        uint64_t Bytes =
            FD->getASTContext()
                .getTypeSizeInChars(
                    Arr->getType()->getArrayElementTypeNoTypeQual())
                .getQuantity();
        Checks.push_back(
            {PyExpr::compare(PyExpr::name("shared_bytes"), ">=",
                             PyExpr::integer(int64_t(Bytes)) * PyExpr(Cols)),
             "the launch's dynamic shared memory holds " + What});
      } else {
        Checks.push_back(
            {PyExpr::compare(PyExpr(Cols), "<=", PyExpr::integer(Sa.Size)),
             "'" + Arr->getName().str() + "' holds " + What});
      }
    }
    Sa.K = ShArr::ColArr;
    Sa.Tile = T;
    Sa.Pending = false;
  }
  // After the loop each accumulator is the thread's partial result.
  for (size_t I = 0; I < Accs.size(); ++I) {
    Value PV;
    PV.K = Value::Partial;
    PV.Op = Accs[I].Op;
    PV.Tile = AccTiles[I];
    L.Env[Accs[I].V] = PV;
  }
  return true;
}

} // namespace lift
} // namespace nki
} // namespace pk

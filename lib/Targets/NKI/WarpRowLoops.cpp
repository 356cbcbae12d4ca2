//===- WarpRowLoops.cpp - loops of block row programs ---------------------===//
// Rules: PK5004, PK5009
//
// The warp-row lifter (WarpRow.h) on the loops of block row programs:
// grid-stride loops, shared-memory trees, loops over the warps' results,
// rows staged in shared memory and dot products with a matrix.
//
//===----------------------------------------------------------------------===//
#include "WarpRow.h"

using namespace pk;
using namespace pk::nki;
using namespace clang;

namespace pk {
namespace nki {
namespace lift {

/// for (i = blockIdx.x * BS + tid; i < n; i += BS * gridDim.x) acc op= e
bool WarpRowLifter::gridLoop(const ForStmt *Fo, Ctx C) {
  auto *DS = dyn_cast_or_null<DeclStmt>(Fo->getInit());
  auto *I = DS && DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl())
                                     : nullptr;
  if (!I || !I->getInit())
    return false;
  auto *Add = dyn_cast<BinaryOperator>(strip(I->getInit()));
  if (!Add || Add->getOpcode() != BO_Add)
    return false;
  std::optional<int64_t> K1;
  for (int Side = 0; Side < 2 && !K1; ++Side) {
    const Expr *M = Side ? Add->getRHS() : Add->getLHS();
    const Expr *T = Side ? Add->getLHS() : Add->getRHS();
    auto *Mul = dyn_cast<BinaryOperator>(strip(M));
    if (!Mul || Mul->getOpcode() != BO_Mul || !isTid(T))
      continue;
    if (isBuiltin(Mul->getLHS(), "blockIdx"))
      K1 = constInt(Mul->getRHS());
    else if (isBuiltin(Mul->getRHS(), "blockIdx"))
      K1 = constInt(Mul->getLHS());
  }
  if (!K1)
    return false;
  Recognised = true;
  auto *Cond = dyn_cast_or_null<BinaryOperator>(Fo->getCond());
  auto *Inc = dyn_cast_or_null<CompoundAssignOperator>(Fo->getInc());
  std::optional<std::string> Bound =
      Cond && Cond->getOpcode() == BO_LT && varOf(Cond->getLHS()) == I
          ? L.scalarExpr(Cond->getRHS())
          : std::nullopt;
  auto *Step = Inc ? dyn_cast<BinaryOperator>(strip(Inc->getRHS())) : nullptr;
  bool StepOk = Step && Step->getOpcode() == BO_Mul &&
                ((isBuiltin(Step->getLHS(), "gridDim") &&
                  constInt(Step->getRHS()) == *K1) ||
                 (isBuiltin(Step->getRHS(), "gridDim") &&
                  constInt(Step->getLHS()) == *K1));
  if (!Bound || !Inc || Inc->getOpcode() != BO_AddAssign ||
      varOf(Inc->getLHS()) != I || !StepOk)
    return fail(Fo->getForLoc(),
                "loop from blockIdx.x * BS + tid that is not `i < n; i += "
                "BS * gridDim.x` with the same constant BS");
  if (!C.all() || Depth != 0 || RowsBound || *K1 <= 0 ||
      (BlockSize && *BlockSize != *K1) ||
      (!GridBound.empty() && GridBound != *Bound))
    return fail(Fo->getForLoc(), "grid-stride loop under a condition, after "
                                 "a row bound, or with another block size or "
                                 "bound than an earlier one");
  BlockSize = *K1;
  GridBound = *Bound;
  Value GV;
  GV.K = Value::GridCol;
  L.Env[I] = GV;
  std::vector<const clang::Stmt *> Body;
  if (auto *CS = dyn_cast<CompoundStmt>(Fo->getBody()))
    Body.assign(CS->body_begin(), CS->body_end());
  else
    Body.push_back(Fo->getBody());
  struct Acc {
    const VarDecl *V;
    std::string Op, Init;
    NodeP E;
  };
  std::vector<Acc> Accs;
  for (const clang::Stmt *S : Body) {
    if (auto *D = dyn_cast<DeclStmt>(S)) {
      if (!L.declare(D))
        return failElem(S->getBeginLoc(), "local of a grid-stride loop");
      continue;
    }
    const VarDecl *AV;
    std::string Op;
    const Expr *E;
    if (!accumulation(S, AV, Op, E))
      return fail(S->getBeginLoc(), "statement of a grid-stride loop that "
                                    "is not an accumulation or a local");
    auto It = L.Env.find(AV);
    if (It == L.Env.end() || It->second.K != Value::Elem ||
        It->second.N->K != Node::Scalar ||
        (Op == "nl.add" && !isZeroText(It->second.N->Val)))
      return fail(S->getBeginLoc(), "accumulator that does not start from "
                                    "0 (a sum) or a constant before the loop");
    NodeP N = L.elem(E);
    if (!N)
      return failElem(S->getBeginLoc(), "accumulated value not lifted");
    Accs.push_back({AV, Op, It->second.N->Val.py(), N});
  }
  if (Accs.empty())
    return fail(Fo->getForLoc(), "grid-stride loop that accumulates nothing");
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
  auto Reduce = [&](TileLowering &TL) {
    for (size_t J = 0; J < Accs.size(); ++J) {
      Operand V = TL.lower(Accs[J].E);
      if (!V.IsTile || TileLowering::isCol(V))
        return fail(Fo->getForLoc(), "accumulated value that does not "
                                     "depend on the element");
      std::string R = B.alloc("red", Mem::SBUF, DType::F32, {"128", "1"});
      Access RA{R, {{TL.PLo, TL.PHi}, {"0", "1"}}, {}};
      Op Rd;
      Rd.Kind = OpKind::Reduce;
      Rd.Fn = Accs[J].Op;
      Rd.Dst = RA;
      Rd.Srcs = {V};
      B.op(Rd);
      Access AA{AccTiles[J], {{TL.PLo, TL.PHi}, {"0", "1"}}, {}};
      Op Cb;
      Cb.Kind = OpKind::TensorTensor;
      Cb.Fn = Accs[J].Op;
      Cb.Dst = AA;
      Cb.Srcs = {Operand::tile(AA), Operand::tile(RA)};
      B.op(Cb);
    }
    return true;
  };
  // Whole chunks: round k0 deals chunks k0 .. k0 + grid_x - 1 to the
  // blocks; those of this tile's blocks are rows of one tile (the loop
  // over c0 runs at most once: it is empty when no chunk is whole).
  PyExpr Bd(*Bound), Kw = PyExpr::integer(*K1);
  PyExpr NFull = B.assign("nfull_", floorDiv(Bd, Kw));
  PyExpr K0 = B.open("k0", 0, NFull, PyExpr::name("grid_x"));
  PyExpr Hi = PyExpr::min(NFull, K0 + PyExpr::name("p1"));
  PyExpr C0 = B.open("c0", K0 + PyExpr::name("p0"), Hi, 128);
  PyExpr C1 = B.assign("c1", Hi);
  B.assign("nc_", C1 - C0);
  {
    TileLowering TL(B, HbmName, true);
    TL.PHi = PyExpr::name("nc_");
    TL.FHi = Kw;
    TL.FSize = Kw;
    TL.GridSrc = Access{"", {{C0 * Kw, C1 * Kw}}, {PyExpr::name("nc_"), Kw}};
    if (!Reduce(TL))
      return false;
  }
  B.close();
  B.close();
  // The last, partial chunk (if any) belongs to block nfull_ % grid_x: one
  // partition, when that block is in this tile.
  B.assign("qq_", "nfull_ % grid_x - p0");
  PyExpr Lo = B.open("lo", NFull * Kw, Bd, Kw);
  B.open("q0", "max(0, qq_)", "min(np_, qq_ + 1)", 1);
  B.assign("nt_", Bd - Lo);
  {
    TileLowering TL(B, HbmName, true);
    TL.PLo = "q0";
    TL.PHi = "q0 + 1";
    TL.FHi = "nt_";
    TL.FSize = Kw;
    TL.GridSrc = Access{"", {{Lo, Bd}}, {1, PyExpr::name("nt_")}};
    if (!Reduce(TL))
      return false;
  }
  B.close();
  B.close();
  for (size_t J = 0; J < Accs.size(); ++J) {
    Value PV;
    PV.K = Value::Partial;
    PV.Op = Accs[J].Op;
    PV.Tile = AccTiles[J];
    L.Env[Accs[J].V] = PV;
  }
  L.Env.erase(I);
  return true;
}

/// for (s = S0; s > E; s >>= 1) { if (tid < s) a[tid] += a[tid + s];
///                                __syncthreads(); }
bool WarpRowLifter::treeLoop(const ForStmt *Fo, Ctx C) {
  auto *DS = dyn_cast_or_null<DeclStmt>(Fo->getInit());
  auto *Sv = DS && DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl())
                                      : nullptr;
  auto S0 = Sv && Sv->getInit() ? constInt(Sv->getInit()) : std::nullopt;
  auto *Cond = dyn_cast_or_null<BinaryOperator>(Fo->getCond());
  auto End = Cond ? constInt(Cond->getRHS()) : std::nullopt;
  if (!S0 || !End || varOf(Cond->getLHS()) != Sv ||
      (Cond->getOpcode() != BO_GT && Cond->getOpcode() != BO_GE))
    return false;
  auto *Inc = dyn_cast_or_null<CompoundAssignOperator>(Fo->getInc());
  auto *CS = dyn_cast<CompoundStmt>(Fo->getBody());
  auto *If =
      CS && CS->size() == 2 ? dyn_cast<IfStmt>(CS->body_front()) : nullptr;
  auto *Sync =
      CS && CS->size() == 2 ? dyn_cast<CallExpr>(CS->body_back()) : nullptr;
  auto *IC = If ? dyn_cast<BinaryOperator>(strip(If->getCond())) : nullptr;
  const clang::Stmt *Then = If ? If->getThen() : nullptr;
  if (auto *TC = dyn_cast_or_null<CompoundStmt>(Then))
    Then = TC->size() == 1 ? TC->body_front() : nullptr;
  auto *Upd = dyn_cast_or_null<CompoundAssignOperator>(Then);
  auto *Dst = Upd ? dyn_cast<ArraySubscriptExpr>(Upd->getLHS()->IgnoreParens())
                  : nullptr;
  auto *Src =
      Upd ? dyn_cast<ArraySubscriptExpr>(Upd->getRHS()->IgnoreParenImpCasts())
          : nullptr;
  auto *Off = Src ? dyn_cast<BinaryOperator>(strip(Src->getIdx())) : nullptr;
  const VarDecl *Arr = Dst ? sharedVar(Dst->getBase()) : nullptr;
  bool Ok = Inc && varOf(Inc->getLHS()) == Sv &&
            ((Inc->getOpcode() == BO_ShrAssign && isInt(Inc->getRHS(), 1)) ||
             (Inc->getOpcode() == BO_DivAssign && isInt(Inc->getRHS(), 2))) &&
            If && !If->getElse() && IC && IC->getOpcode() == BO_LT &&
            isTid(IC->getLHS()) && varOf(IC->getRHS()) == Sv && Sync &&
            Sync->getDirectCallee() &&
            Sync->getDirectCallee()->getNameAsString() == "__syncthreads" &&
            Upd && Upd->getOpcode() == BO_AddAssign && Arr &&
            isTid(Dst->getIdx()) && sharedVar(Src->getBase()) == Arr && Off &&
            Off->getOpcode() == BO_Add && isTid(Off->getLHS()) &&
            varOf(Off->getRHS()) == Sv;
  if (!Ok)
    return fail(Fo->getForLoc(),
                "loop over a constant that is not a shared tree `if (tid < "
                "s) a[tid] += a[tid + s]; __syncthreads();` halving s");
  ShArr &Sa = Sh[Arr];
  if (!C.all() || Sa.K != ShArr::PerThread || Sa.Pending || Sa.Op != "nl.add")
    return fail(Fo->getForLoc(), "shared tree over an array that does not "
                                 "hold the threads' partial sums after a "
                                 "barrier");
  for (int64_t S = *S0; Cond->getOpcode() == BO_GT ? S > *End : S >= *End;
       S >>= 1) {
    if (S <= 0 || Sa.M != 2 * S)
      return fail(Fo->getForLoc(),
                  llvm::formatv("shared tree step s = {0} on {1} partial "
                                "sums: each step must fold the upper half",
                                S, Sa.M)
                      .str());
    Sa.M = S;
  }
  return barrier(C, Sync->getBeginLoc());
}

/// for (w = 0; w < nwarps; ++w) acc = op(acc, s[w])
bool WarpRowLifter::warpsLoop(const ForStmt *Fo, Ctx C) {
  auto *DS = dyn_cast_or_null<DeclStmt>(Fo->getInit());
  auto *W = DS && DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl())
                                     : nullptr;
  auto *Cond = dyn_cast_or_null<BinaryOperator>(Fo->getCond());
  if (!W || !W->getInit() || constInt(W->getInit()) != 0 || !Cond ||
      Cond->getOpcode() != BO_LT || varOf(Cond->getLHS()) != W ||
      !NWarpsV.count(varOf(Cond->getRHS())))
    return false;
  auto *Inc = dyn_cast_or_null<UnaryOperator>(Fo->getInc());
  const clang::Stmt *S = Fo->getBody();
  if (auto *CS = dyn_cast<CompoundStmt>(S))
    S = CS->size() == 1 ? CS->body_front() : nullptr;
  const VarDecl *AV = nullptr;
  std::string Op;
  const Expr *E = nullptr;
  bool Ok = Inc && Inc->isIncrementOp() && varOf(Inc->getSubExpr()) == W && S &&
            accumulation(S, AV, Op, E);
  auto *A =
      Ok ? dyn_cast<ArraySubscriptExpr>(E->IgnoreParenImpCasts()) : nullptr;
  const VarDecl *Arr = A ? sharedVar(A->getBase()) : nullptr;
  auto It = AV ? L.Env.find(AV) : L.Env.end();
  if (!Arr || varOf(A->getIdx()) != W || It == L.Env.end() ||
      It->second.K != Value::Elem || It->second.N->K != Node::Scalar)
    return fail(Fo->getForLoc(), "loop over the warps that is not `acc = "
                                 "op(acc, s[w])` from a constant");
  ShArr &Sa = Sh[Arr];
  if (Sa.K != ShArr::PerWarp || Sa.Pending || Sa.Op != Op)
    return fail(Fo->getForLoc(), "loop over the warps' results of another "
                                 "operation, or before a barrier");
  readShared(Sa, C);
  auto R = std::make_shared<Node>();
  R->K = Node::Ref;
  R->Name = combine(Sa.Tile, Op, It->second.N->Val.py());
  Value U;
  U.K = Value::Elem;
  U.N = R;
  L.Env[AV] = U;
  noteAssign(AV);
  return true;
}

NodeP WarpRowLifter::sharedRead(const ArraySubscriptExpr *A) {
  const VarDecl *Arr = sharedVar(A->getBase());
  RuleId R = Block ? RuleId::PK5009 : RuleId::PK5004;
  if (!CurCol || varOf(A->getIdx()) != CurCol) {
    L.fail(R, A->getBeginLoc(),
           llvm::formatv("read of shared '{0}' that is not '{0}[c]' at the "
                         "column c of a column loop",
                         Arr->getName())
               .str());
    return nullptr;
  }
  auto It = LoopSh.find(Arr);
  if (It != LoopSh.end())
    return It->second;
  ShArr &Sa = Sh[Arr];
  if (Sa.K != ShArr::ColArr) {
    L.fail(R, A->getBeginLoc(),
           llvm::formatv("read of '{0}[c]' before a column loop wrote the "
                         "row's columns to it",
                         Arr->getName())
               .str());
    return nullptr;
  }
  auto N = std::make_shared<Node>();
  N->K = Node::Row;
  N->Ty =
      *dtypeOf(QualType(Arr->getType()->getArrayElementTypeNoTypeQual(), 0));
  N->Name = Sa.Tile;
  return N;
}

/// for (d = threadIdx.x; d < D; d += blockDim.x) s[d] = p[row * D + d];
/// The block's threads stage the row `row` of p ([rows, D]) in s.  It is
/// used only as the stationary operand of a dot product, so it is loaded
/// and transposed once per tile of rows: [D, np_] in SBUF.
bool WarpRowLifter::stageLoop(const ForStmt *Fo, const VarDecl *C,
                              const std::string &Bound, const clang::Stmt *S) {
  auto *St = cast<BinaryOperator>(S);
  auto *SA = cast<ArraySubscriptExpr>(St->getLHS()->IgnoreParenImpCasts());
  const VarDecl *Arr = sharedVar(SA->getBase());
  auto *RA = dyn_cast<ArraySubscriptExpr>(St->getRHS()->IgnoreParenImpCasts());
  auto *D = RA ? dyn_cast<DeclRefExpr>(strip(RA->getBase())) : nullptr;
  auto *P = D ? dyn_cast<ParmVarDecl>(D->getDecl()) : nullptr;
  auto Pitch = RA ? rowIndex(RA->getIdx(), C) : std::nullopt;
  if (varOf(SA->getIdx()) != C || !P || !P->getType()->isPointerType() ||
      !Pitch || *Pitch != Bound)
    return fail(St->getBeginLoc(),
                llvm::formatv("staging of '{0}' that is not `{0}[d] = "
                              "p[row * D + d]` for d < D",
                              Arr->getName())
                    .str());
  Recognised = true;
  ShArr &Sa = Sh[Arr];
  if (Sa.Pending || Sa.ReadAll || Sa.ReadW0 >= 0)
    return fail(SA->getBeginLoc(),
                llvm::formatv("'{0}' is written again before a barrier "
                              "separates the write from earlier reads or "
                              "writes of it",
                              Arr->getName())
                    .str());
  auto Ty = dtypeOf(P->getType()->getPointeeType());
  if (Ty != DType::F32 ||
      dtypeOf(QualType(Arr->getType()->getArrayElementTypeNoTypeQual(), 0)) !=
          DType::F32)
    return fail(St->getBeginLoc(), "a staged row of another type than "
                                   "float: matmul operands are lifted in "
                                   "float32 only");
  if (!L.readAs(P, 's', RuleId::PK5009, RA->getBeginLoc()))
    return failElem(RA->getBeginLoc(), "staged row not lifted");
  Inner[P] = Bound;
  Checks.push_back(
      {PyExpr::compare(PyExpr(Bound),
                       "<=", PyExpr::integer(std::min<int64_t>(128, Sa.Size))),
       "the staged row fits '" + Arr->getName().str() +
           "' and the 128 partitions of a matmul"});
  open();
  std::string Qt = loadTransposed(
      B,
      Access{HbmName.at(P->getName().str()), {{"p0", "p1"}, {"0", Bound}}, {}},
      "np_", Bound, DType::F32, "q");
  ShArr N;
  N.K = ShArr::Staged;
  N.Size = Sa.Size;
  N.Tile = Qt;
  N.Depth = Bound;
  N.Src = P;
  N.Pending = true;
  Sa = N;
  return true;
}

/// for (d = 0; d < D; ++d) acc += s[d] * k[d]  (in a column loop; s a
/// staged row of length D, k = p + c * D the row c of p [cols, D], acc a
/// local of the loop starting from 0): acc = sum_d row[d] * p[c, d], the
/// nc_matmul of the staged rows with the matrix.
bool WarpRowLifter::dotLoop(const ForStmt *Fo) {
  auto *DS = dyn_cast_or_null<DeclStmt>(Fo->getInit());
  auto *D = DS && DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl())
                                     : nullptr;
  auto *Cond = dyn_cast_or_null<BinaryOperator>(Fo->getCond());
  if (!D || !D->getInit() || constInt(D->getInit()) != 0 || !Cond ||
      Cond->getOpcode() != BO_LT || varOf(Cond->getLHS()) != D)
    return false;
  auto Bound = L.scalarExpr(Cond->getRHS());
  const Expr *Inc = Fo->getInc() ? strip(Fo->getInc()) : nullptr;
  bool IncOk = false;
  if (auto *U = dyn_cast_or_null<UnaryOperator>(Inc))
    IncOk = U->isIncrementOp() && varOf(U->getSubExpr()) == D;
  else if (auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc))
    IncOk = CA->getOpcode() == BO_AddAssign && varOf(CA->getLHS()) == D &&
            isInt(CA->getRHS(), 1);
  const clang::Stmt *S = Fo->getBody();
  if (auto *CS = dyn_cast<CompoundStmt>(S))
    S = CS->size() == 1 ? CS->body_front() : nullptr;
  auto *Bo = dyn_cast_or_null<BinaryOperator>(S);
  if (!Bound || !IncOk || !Bo)
    return false;
  const VarDecl *Acc = varOf(Bo->getLHS());
  const Expr *Prod = nullptr;
  if (Bo->getOpcode() == BO_AddAssign)
    Prod = Bo->getRHS();
  else if (auto *Add = dyn_cast<BinaryOperator>(strip(Bo->getRHS()));
           Bo->getOpcode() == BO_Assign && Add && Add->getOpcode() == BO_Add) {
    if (varOf(Add->getLHS()) == Acc)
      Prod = Add->getRHS();
    else if (varOf(Add->getRHS()) == Acc)
      Prod = Add->getLHS();
  }
  auto *Mul = Prod ? dyn_cast<BinaryOperator>(strip(Prod)) : nullptr;
  if (!Acc || !LoopLocals.count(Acc) || !Mul || Mul->getOpcode() != BO_Mul)
    return false;
  auto It = L.Env.find(Acc);
  if (It == L.Env.end() || It->second.K != Value::Elem ||
      It->second.N->K != Node::Scalar || !isZeroText(It->second.N->Val))
    return fail(Bo->getBeginLoc(), "dot product into a local that does not "
                                   "start from 0");
  const ShArr *Row = nullptr;
  const Value *Mat = nullptr;
  for (const Expr *X : {Mul->getLHS(), Mul->getRHS()}) {
    auto *A = dyn_cast<ArraySubscriptExpr>(X->IgnoreParenImpCasts());
    if (!A || varOf(A->getIdx()) != D)
      return false;
    if (const VarDecl *Arr = sharedVar(A->getBase())) {
      auto SIt = Sh.find(Arr);
      if (SIt != Sh.end() && SIt->second.K == ShArr::Staged)
        Row = &SIt->second;
      continue;
    }
    auto PIt = L.Env.find(varOf(A->getBase()));
    if (PIt != L.Env.end() && PIt->second.K == Value::ColPtr)
      Mat = &PIt->second;
  }
  if (!Row || !Mat)
    return false;
  Recognised = true;
  if (Row->Pending)
    return fail(Fo->getForLoc(), "the staged row is read before a barrier "
                                 "publishes it");
  if (Row->Depth != *Bound || Mat->Pitch != *Bound)
    return fail(Fo->getForLoc(),
                llvm::formatv("dot product over {0} elements of a staged row "
                              "of {1} and matrix rows of pitch {2}: the "
                              "lengths must be the same",
                              *Bound, Row->Depth, Mat->Pitch)
                    .str());
  const ParmVarDecl *P = Mat->Ptr;
  if (dtypeOf(P->getType()->getPointeeType()) != DType::F32)
    return fail(Fo->getForLoc(), "a matrix of another type than float: "
                                 "matmul operands are lifted in float32 "
                                 "only");
  if (!L.readAs(P, 'k', RuleId::PK5009, Fo->getForLoc()))
    return failElem(Fo->getForLoc(), "dot product not lifted");
  Inner[P] = *Bound;
  readShared(const_cast<ShArr &>(*Row), Ctx());
  Dots = true;
  auto N = std::make_shared<Node>();
  N->K = Node::Dot;
  N->Ty = DType::F32;
  N->Name = P->getName().str();
  N->Stat = Row->Tile;
  N->Depth = *Bound;
  It->second.N = N;
  return true;
}

} // namespace lift
} // namespace nki
} // namespace pk

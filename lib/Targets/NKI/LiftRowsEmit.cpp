//===- LiftRowsEmit.cpp - a row program as NKI tile operations ------------===//
// Rules: PK5001, PK5002, PK5007, PK5008
//
// Rows go on the partitions (tiles of 128 rows), columns on the free axis
// in chunks of 512.  Each reduction over the row is computed once per tile
// of rows, inner reductions first: a loop over the column chunks lowers its
// body to a tile, tensor_reduce folds the chunk into a (P, 1) column, and
// the column accumulates the chunks.  Per-row values are (P, 1) columns
// (operands of tensor_scalar); row outputs are computed chunk by chunk and
// copied to HBM; per-row outputs are columns.  The launch must be one of
// the block shapes at which the kernel model proved the program, and the
// grid must reach every row: both are asserted when the kernel is traced.
//
//===----------------------------------------------------------------------===//
#include "LiftRowsEmit.h"

using namespace pk;
using namespace pk::nki;
using namespace pk::nki::rows;
using namespace pk::km;
using namespace clang;

namespace rowsemit {

std::optional<PyExpr> Emitter::py(SymP S) { return pySize(S); }

/// Whether \p S is one value per row (no column variable outside the
/// reductions it contains).
bool Emitter::closed(SymP S) {
  auto It = Closed.find(S);
  if (It != Closed.end())
    return It->second;
  bool R = closedNew(S);
  Closed[S] = R;
  return R;
}

bool Emitter::closedNew(SymP S) {
  if (S->K == SK::Reduce)
    return S->Op != "dot";
  if (S == Pr.Col)
    return false;
  if (S->K == SK::Load) {
    if (Pr.FieldLoads.count(S))
      return true;
    auto It = Pr.Uses.find(dyn_cast<ParmVarDecl>(S->D));
    return It != Pr.Uses.end() && It->second.K == rows::TensorUse::RowCol;
  }
  for (SymP O : S->Ops)
    if (!closed(O))
      return false;
  return true;
}

void Emitter::reductions(SymP S, std::vector<SymP> &Out,
                         std::set<SymP> &Seen) {
  if (!P.containsKind(S, SK::Reduce) || Visited.count(S))
    return;
  Visited.insert(S);
  for (SymP O : S->Ops)
    reductions(O, Out, Seen);
  if (S->K == SK::Reduce && S->Op != "dot" && Seen.insert(S).second)
    Out.push_back(S);
}


static const char *actOf(llvm::StringRef Op) {
  if (Op == "exp") return "nl.exp";
  if (Op == "log") return "nl.log";
  if (Op == "sqrt") return "nl.sqrt";
  if (Op == "rsqrt") return "nl.rsqrt";
  if (Op == "tanh") return "nl.tanh";
  if (Op == "abs") return "nl.abs";
  if (Op == "erf") return "nl.erf";
  if (Op == "sin") return "nl.sin";
  if (Op == "cos") return "nl.cos";
  return nullptr;
}

NodeP Emitter::node(SymP S) {
  auto M = Memo.find(S);
  if (M != Memo.end() && !ColTile.count(S))
    return M->second;
  NodeP R = nodeNew(S);
  if (R)
    Memo[S] = R;
  return R;
}

NodeP Emitter::nodeNew(SymP S) {
  auto N = std::make_shared<Node>();
  N->Ty = dtypeOfSym(S->T);
  auto CT = ColTile.find(S);
  if (CT != ColTile.end()) {
    N->K = Node::Ref;
    N->Name = CT->second;
    return N;
  }
  switch (S->K) {
  case SK::Flt:
    N->K = Node::Scalar;
    N->Val = PyExpr::real(S->F);
    return N;
  case SK::Int:
  case SK::Param:
  case SK::Cast:
    if (S->K != SK::Cast || S->Ops[0]->isInt()) {
      if (auto E = py(S->K == SK::Cast ? S->Ops[0] : S)) {
        N->K = Node::Scalar;
        N->Val = isFloatTy(S->T) || S->K == SK::Cast
                     ? PyExpr::call("float", {*E})
                     : *E;
        N->Ty = S->K == SK::Cast ? dtypeOfSym(S->T) : DType::F32;
        return N;
      }
      if (S->K != SK::Cast) {
        fail(RuleId::PK5007, "an integer value of the row or column index "
                             "used in arithmetic (no tile operation)");
        return nullptr;
      }
    }
    N->K = Node::Cast;
    N->A = node(S->Ops[0]);
    return N->A ? N : nullptr;
  case SK::Load: {
    auto *PV = cast<ParmVarDecl>(S->D);
    const rows::TensorUse &U = Pr.Uses.at(PV);
    N->K = Node::Load;
    N->Name = pyName(PV->getName());
    N->Ty = PTy.at(PV);
    N->Layout = U.K == rows::TensorUse::Matrix ? 'e' : 'r';
    if (U.K == rows::TensorUse::RowCol) {
      N->K = Node::Ref;
      N->Name = RowColTile.at(PV);
    }
    auto F = Pr.FieldLoads.find(S);
    if (F != Pr.FieldLoads.end()) {
      N->K = Node::Ref;
      N->Name = FieldTile.at({PV, F->second});
    }
    return N;
  }
  case SK::Bin: {
    const char *Fn = aluOf(S->Op);
    if (!isFloatTy(S->T) && (S->Op == "max" || S->Op == "min") &&
        !P.contains(S, P.intc(SymPool::ArgNone)) &&
        !P.contains(S, P.intc(SymPool::ArgLow)))
      Fn = nullptr; // int32 beyond 2^24: exact only inside reductions
    if (!Fn) {
      fail(RuleId::PK5007,
           llvm::formatv("operation '{0}' on element values has no tile "
                         "operation{1}",
                         S->Op,
                         std::getenv("PK_NKI_MODEL_DEBUG") ? ": " + P.str(S)
                                                           : std::string())
               .str());
      return nullptr;
    }
    N->K = Node::Bin;
    N->Fn = Fn;
    N->A = node(S->Ops[0]);
    N->B = node(S->Ops[1]);
    return N->A && N->B ? N : nullptr;
  }
  case SK::Un: {
    if (S->Op == "neg") {
      N->K = Node::Bin;
      N->Fn = "nl.multiply";
      N->A = node(S->Ops[0]);
      N->B = std::make_shared<Node>();
      N->B->K = Node::Scalar;
      N->B->Val = PyExpr::real(-1.0);
      return N->A ? N : nullptr;
    }
    const char *Fn = actOf(S->Op);
    if (!Fn) {
      fail(RuleId::PK5007,
           llvm::formatv("function '{0}' has no activation", S->Op).str());
      return nullptr;
    }
    N->K = Node::Unary;
    N->Fn = Fn;
    N->A = node(S->Ops[0]);
    return N->A ? N : nullptr;
  }
  case SK::Reduce:
    if (S->Op == "dot")
      return dotNode(S);
    fail(RuleId::PK5007, "a reduction other than a contraction in a row "
                         "value: " + P.str(S));
    return nullptr;
  case SK::Select:
    if (NodeP A = argPair(S))
      return A;
    if (NodeP C = causalSelect(S))
      return C;
    if (Why)
      return nullptr;
    [[fallthrough]];
  case SK::Cmp:
    fail(RuleId::PK5007,
         "a per-element condition in a row value (a select that is not a "
         "max or min, or a comparison used as a value): the current NKI "
         "dialect has no select operation, and a blend with a 0/1 mask is "
         "not exact for infinite values");
    return nullptr;
  default:
    fail(RuleId::PK5007, "a value with no tile equivalent: " + P.str(S));
    return nullptr;
  }
}

/// A contraction reduce("dot", k, A[row, k] * B(col, k)) (LiftRowsDot.cpp):
/// nc_matmul of the tile's transposed rows of A by B's columns f0:f1.
NodeP Emitter::dotNode(SymP S) {
  SymP Body = S->Ops[1];
  auto LoadOf = [](SymP X) {
    return X->K == SK::Cast ? X->Ops[0] : X;
  };
  SymP LA = LoadOf(Body->Ops[0]), LB = LoadOf(Body->Ops[1]);
  auto *PA = cast<ParmVarDecl>(LA->D), *PB = cast<ParmVarDecl>(LB->D);
  if (Pr.Uses.at(PA).K != rows::TensorUse::Stat)
    std::swap(PA, PB);
  const rows::TensorUse &UB = Pr.Uses.at(PB);
  if (PTy.at(PA) != PTy.at(PB)) {
    fail(RuleId::PK5007, "a contraction of operands of different types "
                         "(nc_matmul multiplies one type)");
    return nullptr;
  }
  auto N = std::make_shared<Node>();
  N->K = Node::Dot;
  N->Ty = PTy.at(PB);
  N->Name = pyName(PB->getName());
  N->Stat = StatTile.at(PA);
  N->Depth = *py(UB.Depth);
  N->Layout = UB.K == rows::TensorUse::Mov ? 'k' : 'e';
  return N;
}

/// Computes the reduction \p R over the row into a (P, 1) column.
bool Emitter::reduce(SymP R) {
  llvm::StringRef ROp = R->Op;
  if ((ROp == "min" || ROp == "max") && R->Ops[1]->K == SK::Select &&
      R->Ops[1]->Ops[1] == R->Ops[0] &&
      R->Ops[1]->Ops[2] == P.intc(ROp == "min" ? SymPool::ArgNone
                                               : SymPool::ArgLow) &&
      R->Ops[1]->Ops[0]->K == SK::Cmp && R->Ops[1]->Ops[0]->Op == "==")
    return argReduce(R);
  const char *Fn = aluOf(ROp);
  SymP Id = P.identity(ROp, Ty::F32);
  if (!Fn || !Id || ROp == "*")
    return fail(RuleId::PK5007,
                llvm::formatv("a reduction with '{0}'", ROp).str());
  if (P.contains(R->Ops[0], P.atom(rows::RowAtom)) && !isFloatTy(R->T))
    return fail(RuleId::PK5007, "an integer reduction over a causal range "
                                "(c < row + k)");
  if (!isFloatTy(R->T))
    return intReduce(R);
  std::string Acc = B.alloc("acc", Mem::SBUF, DType::F32, {"128", "1"});
  Access AA{Acc, {{"0", "np_"}, {"0", "1"}}, {}};
  Op M;
  M.Kind = OpKind::Memset;
  M.Dst = AA;
  M.Srcs = {Operand::scalar(ROp == "+" ? "0.0"
                            : ROp == "max" ? "-3.4028234663852886e38"
                                          : "3.4028234663852886e38")};
  B.op(M);
  B.chunks("f0", "f1", "nf_", ColsE, Chunk);
  TileLowering TL(B, HbmName, true);
  TL.FSize = Chunk;
  NodeP Body = node(R->Ops[1]);
  if (!Body)
    return false;
  Operand V = TL.lower(Body);
  if (!V.IsTile || TileLowering::isCol(V))
    return fail(RuleId::PK5007, "a reduction whose terms do not depend on "
                                "the column");
  // A causal range c < row + k: the terms of the other columns are the
  // identity (affine_select).
  if (P.contains(R->Ops[0], P.atom(rows::RowAtom))) {
    PyExpr Offset;
    std::string MFn;
    if (!rowColPredicate(P.bin("-", R->Ops[0]->Ops[1], R->Ops[0]), "<", Offset,
                         MFn))
      return fail(RuleId::PK5007, "a column range that depends on the row "
                                  "other than as c < row + k");
    V = TL.affineSelect(V, DType::F32, Offset, MFn,
                        ROp == "+"     ? PyExpr::real(0.0)
                        : ROp == "max" ? PyExpr("-3.4028234663852886e38")
                                       : PyExpr("3.4028234663852886e38"));
  }
  std::string Red = B.alloc("red", Mem::SBUF, DType::F32, {"128", "1"});
  Access RA{Red, {{"0", "np_"}, {"0", "1"}}, {}};
  Op Rd;
  Rd.Kind = OpKind::Reduce;
  Rd.Fn = Fn;
  Rd.Dst = RA;
  Rd.Srcs = {V};
  B.op(Rd);
  Op Cb;
  Cb.Kind = OpKind::TensorTensor;
  Cb.Fn = Fn;
  Cb.Dst = AA;
  Cb.Srcs = {Operand::tile(AA), Operand::tile(RA)};
  B.op(Cb);
  B.close();
  ColTile[R] = Acc;
  return true;
}

/// A (P, 1) column holding \p O (a column tile already, or a scalar).
std::string Emitter::column(const Operand &O, DType Ty) {
  if (O.IsTile)
    return O.Tile.Tensor;
  std::string T = B.alloc("c", Mem::SBUF, Ty, {"128", "1"});
  Op M;
  M.Kind = OpKind::Memset;
  M.Dst = Access{T, {{"0", "np_"}, {"0", "1"}}, {}};
  M.Srcs = {Operand::scalar(O.Scalar)};
  B.op(M);
  return T;
}

bool Emitter::run(const std::vector<std::pair<BlockShape, int64_t>> &Shapes0,
                  bool DimY, bool SharedBytes) {
  K.Name = FD->getNameAsString();
  // The rows per block as a launch expression; the shapes it fits.
  struct Form {
    const char *Py;
    std::function<int64_t(const BlockShape &)> F;
  };
  std::vector<Form> Forms = {
      {"1", [](const BlockShape &) { return 1; }},
      {"block_y", [](const BlockShape &S) { return int64_t(S.Y); }},
      {"(block_x // 32)",
       [](const BlockShape &S) { return int64_t(S.X / 32); }},
      {"(block_x * block_y // 32)",
       [](const BlockShape &S) { return int64_t(S.X * S.Y / 32); }},
      // One 64-lane wave per row (HIP sources on CDNA).
      {"(block_x // 64)",
       [](const BlockShape &S) { return int64_t(S.X / 64); }},
      {"(block_x * block_y // 64)",
       [](const BlockShape &S) { return int64_t(S.X * S.Y / 64); }},
      // One thread per row.
      {"block_x", [](const BlockShape &S) { return int64_t(S.X); }},
      {"(block_x * block_y)",
       [](const BlockShape &S) { return int64_t(S.X * S.Y); }}};
  const Form *Best = nullptr;
  std::vector<BlockShape> Shapes;
  for (const Form &F : Forms) {
    std::vector<BlockShape> Fit;
    for (auto &[S, A] : Shapes0)
      if (F.F(S) == A)
        Fit.push_back(S);
    if (Fit.size() > Shapes.size()) {
      Shapes = Fit;
      Best = &F;
    }
  }
  // Else a constant number of rows per block, the same at every shape.
  std::string ConstA;
  if (!Best && !Shapes0.empty()) {
    int64_t A0 = Shapes0.front().second;
    bool Same = true;
    for (auto &[S, A] : Shapes0)
      Same &= A == A0;
    if (Same) {
      ConstA = std::to_string(A0);
      for (auto &[S, A] : Shapes0)
        Shapes.push_back(S);
    }
  }
  if (!Best && ConstA.empty())
    return fail(RuleId::PK5007, "the rows each block handles do not follow "
                                "the block shape");
  std::string AE = Best ? Best->Py : ConstA;
  auto Rows = Pr.Rows
                  ? py(Pr.Rows)
                  : std::optional<PyExpr>(PyExpr::name("grid_x") * PyExpr(AE));
  // A program of a record's fields only has no column count.
  auto Cols = Pr.Cols ? py(Pr.Cols) : std::optional<PyExpr>(PyExpr::integer(1));
  if (!Rows || !Cols)
    return fail(RuleId::PK5008, "the row or column count is not an "
                                "expression of the scalar parameters");
  RowsE = *Rows;
  ColsE = *Cols;
  // Parameters.
  for (const ParmVarDecl *PV : FD->parameters()) {
    Here = PV->getLocation();
    Param Pa;
    Pa.Name = PV->getName().str();
    Pa.PyName = pyName(PV->getName());
    QualType Q = PV->getType();
    if (Q->isPointerType()) {
      // A pointer to a record of one scalar type (float4 *) is its
      // scalars: the model's offsets count them.
      QualType LE = Q->getPointeeType();
      km::lanesOf(LE, &LE);
      auto DT = dtypeOf(LE);
      auto It = Pr.Uses.find(PV);
      if (It == Pr.Uses.end() || It->second.K == rows::TensorUse::None)
        return fail(RuleId::PK5008,
                    llvm::formatv("pointer parameter '{0}' is never accessed: "
                                  "its shape cannot be recovered",
                                  PV->getName())
                        .str());
      if (!DT) {
        // The kernel is understood; its data is what has no tile: the
        // reason stands over the other lifters' (Definite).
        QualType E = Q->getPointeeType();
        const bool Wide = E->isIntegerType() && !E->isDependentType() &&
                          TC.Ctx().getTypeSize(E) == 64;
        Here = PV->getLocation();
        fail(RuleId::PK5007,
             llvm::formatv("element type {0} of '{1}' has no NKI dtype{2}",
                           E.getAsString(), PV->getName(),
                           Wide ? " (a 64-bit integer: NKI tiles hold "
                                  "integers of 32 bits at most)"
                                : "")
                 .str());
        Why->Definite = true;
        return false;
      }
      const rows::TensorUse &U = It->second;
      Pa.IsTensor = true;
      Pa.Ty = *DT;
      PTy[PV] = *DT;
      std::optional<PyExpr> PitchE;
      if (U.K == rows::TensorUse::Matrix && !(PitchE = py(U.Pitch)))
        return fail(RuleId::PK5008, "a row length that is not an expression "
                                    "of the scalar parameters");
      Pa.Shape =
          U.K == rows::TensorUse::Matrix   ? std::vector<PyExpr>{RowsE, *PitchE}
          : U.K == rows::TensorUse::RowVec ? std::vector<PyExpr>{"1", ColsE}
                                           : std::vector<PyExpr>{RowsE, "1"};
      if (U.Depth) {
        auto DE = py(U.Depth);
        if (!DE)
          return fail(RuleId::PK5008, "the length of a contraction is not an "
                                      "expression of the scalar parameters");
        Pa.Shape =
            U.K == rows::TensorUse::Stat   ? std::vector<PyExpr>{RowsE, *DE}
            : U.K == rows::TensorUse::MovT ? std::vector<PyExpr>{ColsE, *DE}
                                           : std::vector<PyExpr>{*DE, ColsE};
        if (U.K == rows::TensorUse::MovT)
          Chunk = "128";
      }
      Pa.R = U.Written ? (U.Read || U.Accum ? Param::InOut : Param::Out)
                       : Param::In;
      HbmName[Pa.PyName] = Pa.PyName;
    } else {
      auto DT = dtypeOf(Q);
      Pa.Ty = DT ? *DT : DType::I32;
    }
    K.Params.push_back(Pa);
  }
  Here = FD->getLocation();
  K.Launch = {"grid_x", "block_x"};
  if (DimY) {
    K.Launch.push_back("grid_y");
    K.Launch.push_back("block_y");
  }
  if (Pr.RowGrid == "grid_y" && !DimY)
    K.Launch.push_back("grid_y");
  if (SharedBytes)
    K.Launch.push_back("shared_bytes");
  // The launch: a proven block shape, a grid that reaches every row.
  std::vector<std::string> Ss;
  for (const BlockShape &S : Shapes)
    Ss.push_back(DimY ? llvm::formatv("({0}, {1})", S.X, S.Y).str()
                      : std::to_string(S.X));
  B.check((DimY ? "(block_x, block_y) in (" : "block_x in (") +
              llvm::join(Ss, ", ") + (Ss.size() == 1 ? ",)" : ")"),
          "the block shapes at which the kernel was proven a row program");
  if (Pr.Rows && !Pr.RowGrid.empty())
    B.check(PyExpr::compare(PyExpr(Pr.RowGrid) * PyExpr(AE), ">=", RowsE),
            "the grid reaches every row");
  for (auto &[Lhs, E] : Pr.Reach) {
    auto Bound = py(E);
    if (!Bound)
      return fail(RuleId::PK5008, "the column count is not an expression of "
                                  "the scalar parameters");
    B.check(PyExpr::compare(PyExpr(Lhs), ">=", *Bound),
            "the grid reaches every column summed");
  }
  // A reduction whose first elements were read before its loop is one
  // reduction from column 0 only where that loop runs.
  for (auto &[X, A] : Pr.Multiples) {
    auto XE = py(X);
    if (!XE)
      return fail(RuleId::PK5008, "a column count that is not an expression "
                                  "of the scalar parameters");
    B.check(PyExpr::compare(mod(*XE, A), "==", 0),
            "the kernel reads rows as vectors of " + std::to_string(A) +
                " columns: the column count is a multiple of " +
                std::to_string(A));
  }
  for (auto &[X, A] : Pr.AtLeast) {
    auto XE = py(X);
    if (!XE)
      return fail(RuleId::PK5008, "a row length that is not an expression "
                                  "of the scalar parameters");
    B.check(PyExpr::compare(*XE, ">=", PyExpr::integer(A)),
            "the kernel reads column " + std::to_string(A - 1) +
                " of every row: rows of at least " + std::to_string(A) +
                " column(s)");
  }
  if (Pr.CausalK != INT64_MIN)
    B.check(
        PyExpr::compare(RowsE + PyExpr::integer(Pr.CausalK - 1), "<=", ColsE),
        "a causal range c < row + " + std::to_string(Pr.CausalK) +
            " stays within every row");
  if (Pr.MinCols > 0)
    B.check(PyExpr::compare(ColsE, ">=", PyExpr::integer(Pr.MinCols)),
            "a reduction's first columns are read before its loop, which "
            "must run: at least " +
                std::to_string(Pr.MinCols) + " column(s)");
  for (size_t I = 0; I < K.Params.size(); ++I) {
    Param &Pa = K.Params[I];
    if (!Pa.IsTensor || Pa.R == Param::In)
      continue;
    std::string N = Pa.PyName + (Pa.R == Param::InOut ? "_out" : "");
    Op O;
    O.Kind = OpKind::Alloc;
    O.Alloc = Tensor{N, Mem::HBM, Pa.Ty, Pa.Shape};
    B.op(O);
    OutName[FD->getParamDecl(unsigned(I))] = N;
    K.Returns.push_back(N);
  }
  // Tiles of 128 rows.
  B.chunks("p0", "p1", "np_", RowsE, 128);
  // Per-row inputs: a (P, 1) column each, loaded once per tile of rows.
  for (auto &[PV, U] : Pr.Uses) {
    if (U.K != rows::TensorUse::RowCol || !U.Read)
      continue;
    std::string T = B.alloc("col", Mem::SBUF, PTy.at(PV), {"128", "1"});
    Op O;
    O.Kind = OpKind::DmaCopy;
    O.Dst = Access{T, {{"0", "np_"}, {"0", "1"}}, {}};
    O.Srcs = {Operand::tile(
        Access{pyName(PV->getName()), {{"p0", "p1"}, {"0", "1"}}, {}})};
    B.op(O);
    RowColTile[PV] = T;
  }
  // A record's fields read singly: a (P, 1) column each, in the order of
  // the parameters and columns (the map's keys are pointers).
  std::set<std::tuple<unsigned, int64_t, const ParmVarDecl *>> Fields;
  for (auto &[L, C] : Pr.FieldLoads) {
    auto *PV = cast<ParmVarDecl>(L->D);
    Fields.insert({PV->getFunctionScopeIndex(), C, PV});
  }
  for (auto &[Index, C, PV] : Fields) {
    std::string T = B.alloc("fld", Mem::SBUF, PTy.at(PV), {"128", "1"});
    Op O;
    O.Kind = OpKind::DmaCopy;
    O.Dst = Access{T, {{"0", "np_"}, {"0", "1"}}, {}};
    PyExpr C0 = PyExpr::integer(C);
    O.Srcs = {Operand::tile(
        Access{pyName(PV->getName()), {{"p0", "p1"}, {C0, C0 + 1}}, {}})};
    B.op(O);
    FieldTile[{PV, C}] = T;
  }
  // Contractions' A operands: the tile's rows, transposed once per tile.
  for (auto &[PV, U] : Pr.Uses) {
    if (U.K != rows::TensorUse::Stat)
      continue;
    PyExpr DE = *py(U.Depth);
    if (U.Depth->K == SK::Int && U.Depth->I > 128)
      return fail(RuleId::PK5007, "a contraction over more than 128 terms "
                                  "(one nc_matmul's partitions)");
    if (U.Depth->K != SK::Int)
      B.check(PyExpr::compare(DE, "<=", 128),
              "a contraction's length fits the partitions "
              "of one nc_matmul");
    StatTile[PV] = loadTransposed(
        B, Access{pyName(PV->getName()), {{"p0", "p1"}, {"0", DE}}, {}}, "np_",
        DE, PTy.at(PV), "st");
  }
  std::vector<SymP> Reds;
  std::set<SymP> Seen;
  for (const rows::RowStore &RS : Pr.Stores)
    reductions(RS.Val, Reds, Seen);
  for (SymP R : Reds)
    if (!reduce(R))
      return false;
  // Per-row outputs.
  for (const rows::RowStore &RS : Pr.Stores) {
    if (RS.Map)
      continue;
    Here = RS.Loc;
    if (!closed(RS.Val))
      return fail(RuleId::PK5007, "a per-row output whose value reads "
                                  "single elements of a row");
    TileLowering TL(B, HbmName, true);
    NodeP N = node(RS.Val);
    if (!N)
      return false;
    DType OT = PTy.at(RS.P);
    std::string C = column(TL.lower(N), DType::F32);
    Access Src{C, {{"0", "np_"}, {"0", "1"}}, {}};
    PyExpr F0 = PyExpr::integer(std::max<int64_t>(RS.Field, 0));
    if (RS.Accum) {
      std::string Old = B.alloc("old", Mem::SBUF, OT, {"128", "1"});
      Op L;
      L.Kind = OpKind::DmaCopy;
      L.Dst = Access{Old, {{"0", "np_"}, {"0", "1"}}, {}};
      L.Srcs = {Operand::tile(
          Access{pyName(RS.P->getName()), {{"p0", "p1"}, {F0, F0 + 1}}, {}})};
      B.op(L);
      if (RS.AccOp != "+" && (OT == DType::I32 || OT == DType::U32)) {
        // atomicMax/atomicMin of 32-bit integers: exact
        // (LiftRowsIntMax.cpp).
        if (N->Ty != OT)
          return fail(RuleId::PK5002,
                      llvm::formatv("an atomicMax/atomicMin into {0} of "
                                    "values that are not {0}",
                                    dtypeName(OT))
                          .str());
        Src.Tensor = exactIntCombine(B, RS.AccOp == "max", OT, L.Dst, Src);
      } else {
        std::string Sum = B.alloc("c", Mem::SBUF, DType::F32, {"128", "1"});
        B.op(OpKind::TensorTensor, Access{Sum, {{"0", "np_"}, {"0", "1"}}, {}},
             {Operand::tile(L.Dst), Operand::tile(Src)},
             RS.AccOp == "+" ? "nl.add" : aluOf(RS.AccOp));
        Src = Access{Sum, {{"0", "np_"}, {"0", "1"}}, {}};
      }
    }
    if (OT != DType::F32) {
      std::string Cv = B.alloc("c", Mem::SBUF, OT, {"128", "1"});
      Op Cp;
      Cp.Kind = OpKind::TensorCopy;
      Cp.Dst = Access{Cv, {{"0", "np_"}, {"0", "1"}}, {}};
      Cp.Srcs = {Operand::tile(Src)};
      B.op(Cp);
      Src = Cp.Dst;
    }
    Op S;
    S.Kind = OpKind::DmaCopy;
    S.Dst = Access{OutName.at(RS.P), {{"p0", "p1"}, {F0, F0 + 1}}, {}};
    S.Srcs = {Operand::tile(Src)};
    B.op(S);
  }
  // Row outputs, chunk by chunk.
  bool AnyMap = false;
  for (const rows::RowStore &RS : Pr.Stores)
    AnyMap |= RS.Map;
  if (AnyMap) {
    B.chunks("f0", "f1", "nf_", ColsE, Chunk);
    TileLowering TL(B, HbmName, true);
    TL.FSize = Chunk;
    for (const rows::RowStore &RS : Pr.Stores) {
      if (!RS.Map)
        continue;
      Here = RS.Loc;
      NodeP N = node(RS.Val);
      if (!N)
        return false;
      Operand V = TL.lower(N);
      DType OT = PTy.at(RS.P);
      if (!V.IsTile || TileLowering::isCol(V) || N->Ty != OT) {
        // Broadcast a per-row value over the chunk, or cast: a copy into a
        // tile of the output's dtype.
        std::string T = B.alloc("t", Mem::SBUF, OT, TL.tileShape());
        if (!V.IsTile || TileLowering::isCol(V)) {
          Op M;
          M.Kind = OpKind::Memset;
          M.Dst = TL.full(T);
          M.Srcs = {Operand::scalar("0.0")};
          B.op(M);
          Op A;
          A.Kind = OpKind::TensorScalar;
          A.Fn = "nl.add";
          A.Dst = TL.full(T);
          A.Srcs = {Operand::tile(TL.full(T)), V};
          B.op(A);
        } else {
          Op Cp;
          Cp.Kind = OpKind::TensorCopy;
          Cp.Dst = TL.full(T);
          Cp.Srcs = {V};
          B.op(Cp);
        }
        V = Operand::tile(TL.full(T));
      }
      Op S;
      S.Kind = OpKind::DmaCopy;
      S.Dst = Access{OutName.at(RS.P), {{"p0", "p1"}, {"f0", "f1"}}, {}};
      S.Srcs = {V};
      B.op(S);
    }
    B.close();
  }
  B.close();
  std::string Layout =
      Pr.Cols
          ? llvm::formatv("{0} reduction{1} over each row, rows on "
                          "partitions, columns in chunks of {2}",
                          Reds.size(), Reds.size() == 1 ? "" : "s", Chunk.py())
                .str()
          : std::string("one record per row, its fields single columns, "
                        "rows on partitions");
  K.Family =
      llvm::formatv("row program from the kernel model ({0}{3}; proven at "
                    "block shape{1} {2})",
                    Layout, Ss.size() == 1 ? "" : "s", llvm::join(Ss, ", "),
                    StatTile.empty() ? ""
                                     : ", contractions by nc_matmul "
                                       "into PSUM")
          .str();
  if (ArgUsed || ArgLastUsed) {
    std::vector<std::string> Forms;
    if (ArgUsed)
      Forms.push_back("the first index on ties (the least column whose "
                      "value equals the row's max or min, by iota, nl.equal "
                      "and nl.minimum)");
    if (ArgLastUsed)
      Forms.push_back("the last index on ties (the greatest column whose "
                      "value equals the row's max or min, by iota, nl.equal "
                      "and nl.maximum)");
    K.Family += "; arg-max/arg-min: " + llvm::join(Forms, "; ") +
                ", assuming no NaN among the compared values (a CUDA "
                "comparison skips a NaN, the tile max does not) and reading "
                "-0.0 and 0.0 as equal, as CUDA compares them";
  }
  return true;
}

} // namespace rowsemit

bool rows::emit(TargetContext &TC, const FunctionDecl *FD, const rows::Program &Pr,
                SymPool &P,
                const std::vector<std::pair<BlockShape, int64_t>> &Shapes,
                bool DimY, bool SharedBytes, Kernel &K,
                std::optional<Refusal> &Why) {
  rowsemit::Emitter E(TC, FD, Pr, P, K);
  bool Ok = E.run(Shapes, DimY, SharedBytes);
  if (!Ok)
    Why = E.Why;
  return Ok;
}

//===- WarpRow.h - row programs of one warp or one block per row ----------===//
// Rules: PK5004, PK5009
//
// The warp-row lifter's class, shared by its files: WarpRowEval.cpp
// (values, warp reductions, inlined calls), WarpRowBlock.cpp (statements of
// block row programs), WarpRowLoops.cpp (grid-stride, tree, warp, staging
// and dot loops), WarpRowColumn.cpp (column loops) and WarpRowLifter.cpp
// (butterflies, statements of warp row programs, the lift).
//
//===----------------------------------------------------------------------===//
#ifndef PK_NKI_WARPROW_H
#define PK_NKI_WARPROW_H

#include "LiftInternal.h"

namespace pk {
namespace nki {
namespace lift {

//===----------------------------------------------------------------------===//
// Row programs: one warp per row.
//
//   lane = threadIdx.x & 31 (or % 32);  warp = threadIdx.x >> 5 (or / 32)
//   row = blockIdx.x * (blockDim.x / 32) + warp;  if (row >= rows) return;
//   const T *x = p + row * cols;            (row pointers)
//   float acc = init;
//   for (int c = lane; c < cols; c += 32)   (column loops: accumulations
//     acc = op(acc, e(x[c], ...));           acc += e / acc = fmaxf(acc, e),
//                                            stores y[c] = e, const locals)
//   for (int o = 16; o > 0; o >>= 1)        (a butterfly over the 32 lanes:
//     acc = op(acc, __shfl_xor_sync(~0, acc, o));   every lane gets the row's
//                                                   reduction)
//   const float u = f(acc, ...);            (per-row values)
//
// Rows go on the partitions (tiles of 128 rows), the columns of a column
// loop are walked in chunks of 512 on the free axis; an accumulation is a
// tensor_reduce of each chunk over the free axis into a (P, 1) column,
// combined with the previous chunks; per-row values are (P, 1) columns,
// operands of tensor_scalar.  The lift holds for any block of whole warps:
// `assert block_x % 32 == 0` and the grid must reach every row.
//===----------------------------------------------------------------------===//

class WarpRowLifter {
public:
  WarpRowLifter(TargetContext &TC, const FunctionDecl *FD, Kernel &K,
                bool BlockMode = false)
      : L(TC, FD), FD(FD), K(K), B(K.Body), Block(BlockMode) {
    L.SharedRead = [this](const ArraySubscriptExpr *A) {
      return sharedRead(A);
    };
    L.RowIndex = [this](const Expr *Idx) -> std::optional<std::string> {
      if (!this->Block || !CurCol)
        return std::nullopt;
      auto P = rowIndex(Idx, CurCol);
      if (P && *P == Cols)
        return P;
      return std::nullopt;
    };
  }

  std::optional<Refusal> run();
  /// Block mode: the kernel was recognised as a block row program (a
  /// column or grid-stride loop was lifted), so its failure is the reason
  /// to report.
  bool recognised() const { return Opened || Recognised; }

private:
  ElementwiseLifter L;
  const FunctionDecl *FD;
  Kernel &K;
  Builder B;
  const VarDecl *Lane = nullptr, *Warp = nullptr, *NWarps = nullptr,
                *Row = nullptr;
  std::string Rows; ///< the row bound
  std::string Cols; ///< the row pitch = the column bound
  bool Opened = false;
  std::vector<std::pair<const ParmVarDecl *, NodeP>> Pending; ///< stores
  std::map<const ParmVarDecl *, std::string> OutName;
  std::map<std::string, std::string> HbmName;
  bool Failed = false;
  std::optional<Refusal> F;
  /// One block per row (block row programs) instead of one warp per row.
  bool Block = false;

  bool fail(SourceLocation Loc, std::string Msg) {
    if (!F)
      F = Refusal{Block ? RuleId::PK5009 : RuleId::PK5004, Loc, std::move(Msg)};
    return false;
  }
  /// Fails with the element lifter's reason when it has one.
  bool failElem(SourceLocation Loc, const std::string &What) {
    if (L.F && !F) {
      F = L.F;
      F->Msg = What + ": " + F->Msg;
      return false;
    }
    return fail(Loc, What);
  }

  // --- block row programs ---------------------------------------------
  /// The threads that run a statement: all, warp 0 only (W0), lane 0 of
  /// each warp (L0), or thread 0 (both).
  struct Ctx {
    bool W0 = false, L0 = false;
    bool all() const { return !W0 && !L0; }
  };
  /// What a __shared__ array holds, as far as the lifter follows it:
  /// PerWarp, slot w the reduction (Op) of warp w's partials; Bcast, slot 0
  /// a per-row value; PerThread, slots [0, M) whose reduction is the row's.
  /// Pending: written since the last barrier; ReadAll: read since then by
  /// threads outside warp 0; ReadW0: the warp-synchronising operations
  /// seen when warp 0 last read it (-1: not read).
  /// Staged: s[d] = Src[row, d] for d < Depth (a row staged by a loop
  /// over the block's threads), held transposed in Tile ([Depth, np_]) for
  /// nc_matmul; ColArr: s[c] holds the column c of the row, one value per
  /// column of the column loops, in the SBUF tile Tile ([128, cols]).
  struct ShArr {
    enum Kind { Empty, PerWarp, Bcast, PerThread, Staged, ColArr } K = Empty;
    std::string Op, Tile, Depth;
    const ParmVarDecl *Src = nullptr;
    NodeP N;
    int64_t M = 0, Size = 0; ///< Size -1: dynamic (extern __shared__)
    bool Pending = false, ReadAll = false;
    int64_t ReadW0 = -1;
  };
  std::map<const VarDecl *, ShArr> Sh;
  int64_t WarpSyncs = 0;
  std::set<const VarDecl *> LaneV, WarpV, NWarpsV, TidV, RowV;
  unsigned Depth = 0, InlineDepth = 0;
  std::map<const VarDecl *, unsigned> DeclDepth;
  std::vector<std::set<const VarDecl *>> AssignedOuter;
  bool RowsBound = false, UsesWarps = false;
  /// A loop of the block row patterns was recognised (even if what it does
  /// is then refused).
  bool Recognised = false;
  std::optional<int64_t> BlockSize;
  std::string GridBound; ///< the bound of the grid-stride loop (1-D input)
  std::set<int64_t> PerWarpSizes;
  std::map<const FunctionDecl *, bool> Communicates;
  /// Trace-time checks of the launch and sizes (condition, why).
  std::vector<std::pair<PyExpr, std::string>> Checks;
  /// The kernel reads shared_bytes (dynamic shared memory holds a row).
  bool SharedBytes = false;
  bool Dots = false;
  /// 's'/'k' tensors: their second dimension (the staged row's length).
  std::map<const ParmVarDecl *, std::string> Inner;
  /// In a column loop: its column variable, the shared arrays it wrote
  /// (their new values) and the locals it declared.
  const VarDecl *CurCol = nullptr;
  std::map<const VarDecl *, NodeP> LoopSh;
  std::set<const VarDecl *> LoopLocals;

  NodeP sharedRead(const ArraySubscriptExpr *A);
  bool stageLoop(const ForStmt *Fo, const VarDecl *C, const std::string &Bound,
                 const clang::Stmt *S);
  bool dotLoop(const ForStmt *Fo);
  /// Idx is `row * pitch + c` (either order): the pitch.
  std::optional<std::string> rowIndex(const Expr *Idx, const VarDecl *C) {
    auto *Bo = dyn_cast<BinaryOperator>(strip(Idx));
    if (!Bo || Bo->getOpcode() != BO_Add)
      return std::nullopt;
    for (int Side = 0; Side < 2; ++Side) {
      const Expr *M = Side ? Bo->getLHS() : Bo->getRHS();
      const Expr *V = Side ? Bo->getRHS() : Bo->getLHS();
      auto *Mul = dyn_cast<BinaryOperator>(strip(M));
      if (varOf(V) != C || !Mul || Mul->getOpcode() != BO_Mul)
        continue;
      if (isRow(Mul->getLHS()))
        return L.scalarExpr(Mul->getRHS());
      if (isRow(Mul->getRHS()))
        return L.scalarExpr(Mul->getLHS());
    }
    return std::nullopt;
  }
  /// `p + x * pitch` (the product in either order) with p a pointer
  /// parameter and x an operand IsIndex accepts: p and the pitch.
  template <typename Pred>
  std::optional<std::pair<const ParmVarDecl *, std::string>>
  scaledPointer(const VarDecl *V, Pred IsIndex) {
    auto *Bo = dyn_cast<BinaryOperator>(strip(V->getInit()));
    if (!Bo || Bo->getOpcode() != BO_Add)
      return std::nullopt;
    auto *D = dyn_cast<DeclRefExpr>(strip(Bo->getLHS()));
    auto *P = D ? dyn_cast<ParmVarDecl>(D->getDecl()) : nullptr;
    auto *Mul = dyn_cast<BinaryOperator>(strip(Bo->getRHS()));
    if (!P || !P->getType()->isPointerType() || !Mul ||
        Mul->getOpcode() != BO_Mul)
      return std::nullopt;
    std::optional<std::string> Pitch;
    if (IsIndex(Mul->getLHS()))
      Pitch = L.scalarExpr(Mul->getRHS());
    else if (IsIndex(Mul->getRHS()))
      Pitch = L.scalarExpr(Mul->getLHS());
    if (!Pitch)
      return std::nullopt;
    return std::make_pair(P, *Pitch);
  }
  /// Records V as a pointer of kind K into the matrix of P with that pitch.
  void bindPointer(const VarDecl *V, Value::Kind K, const ParmVarDecl *P,
                   const std::string &Pitch) {
    Value Val;
    Val.K = K;
    Val.Ptr = P;
    Val.Pitch = Pitch;
    L.Env[V] = Val;
  }
  /// `p + c * pitch` (either order) with p a pointer parameter: the row c
  /// of a matrix [cols, pitch].
  bool colPointer(const VarDecl *V, const VarDecl *C) {
    auto PP = scaledPointer(V, [&](const Expr *E) { return varOf(E) == C; });
    if (!PP)
      return false;
    bindPointer(V, Value::ColPtr, PP->first, PP->second);
    return true;
  }

  bool isTid(const Expr *E) {
    return isBuiltin(strip(E), "threadIdx") || TidV.count(varOf(E));
  }
  bool isRow(const Expr *E) {
    return (Row && varOf(E) == Row) || RowV.count(varOf(E)) ||
           (Block && isBuiltin(strip(E), "blockIdx"));
  }
  std::optional<int64_t> constInt(const Expr *E) {
    Expr::EvalResult R;
    if (!E || !E->EvaluateAsInt(R, FD->getASTContext()))
      return std::nullopt;
    return R.Val.getInt().getExtValue();
  }
  const VarDecl *sharedVar(const Expr *E) {
    const VarDecl *V = varOf(E);
    return V && V->hasAttr<CUDASharedAttr>() ? V : nullptr;
  }
  bool communicates(const FunctionDecl *Fn);
  bool bstmt(const clang::Stmt *S, Ctx C);
  bool bdecl(const DeclStmt *DS, Ctx C);
  bool bassign(const BinaryOperator *Bo, Ctx C);
  bool bif(const IfStmt *I, Ctx C);
  bool bfor(const ForStmt *Fo, Ctx C);
  bool barrier(Ctx C, SourceLocation Loc);
  void noteAssign(const VarDecl *V);
  std::optional<Value> evalValue(const Expr *E, Ctx C);
  std::optional<Value> inlineCall(const CallExpr *Ca, const FunctionDecl *Fn,
                                  Ctx C);
  std::optional<Value> applyWarpReduce(Value V, const std::string &Op, bool Xor,
                                       Ctx C, SourceLocation Loc);
  bool matchWarpLoop(const ForStmt *Fo, const VarDecl *&V, std::string &Op,
                     bool &Xor);
  bool isWarpReduceFn(const FunctionDecl *Fn, std::string &Op, bool &Xor);
  std::string combine(const std::string &Tile, const std::string &Fn,
                      const std::string &With);
  bool sharedStore(const ArraySubscriptExpr *A, const Expr *RHS, Ctx C);
  bool globalStore(const ArraySubscriptExpr *A, const Expr *RHS, Ctx C);
  bool gridLoop(const ForStmt *Fo, Ctx C);
  bool treeLoop(const ForStmt *Fo, Ctx C);
  bool warpsLoop(const ForStmt *Fo, Ctx C);
  bool readShared(ShArr &Sa, Ctx C) {
    if (C.W0)
      Sa.ReadW0 = WarpSyncs;
    else
      Sa.ReadAll = true;
    return true;
  }

  const VarDecl *varOf(const Expr *E) {
    auto *D = dyn_cast<DeclRefExpr>(strip(E));
    return D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
  }
  bool isInt(const Expr *E, int64_t V) {
    auto *I = dyn_cast<IntegerLiteral>(strip(E));
    return I && I->getValue() == V;
  }
  bool isBuiltin(const Expr *E, const char *Var) {
    std::optional<BuiltinIndex> BI = builtinIndex(E);
    return BI && BI->Var == Var && BI->Dim == 0;
  }

  /// The prologue's integer locals: lane, warp, warps per block, row (and
  /// in block row programs the thread index and the row = blockIdx.x).
  bool prologue(const VarDecl *V) {
    if (Block && isBuiltin(V->getInit(), "threadIdx")) {
      TidV.insert(V);
      return true;
    }
    if (Block && isBuiltin(V->getInit(), "blockIdx")) {
      RowV.insert(V);
      return true;
    }
    auto *Bo = dyn_cast<BinaryOperator>(strip(V->getInit()));
    if (!Bo)
      return false;
    auto Op = Bo->getOpcode();
    const Expr *X = Bo->getLHS(), *Y = Bo->getRHS();
    if (isTid(X) &&
        ((Op == BO_And && isInt(Y, 31)) || (Op == BO_Rem && isInt(Y, 32)))) {
      Lane = V;
      LaneV.insert(V);
      return true;
    }
    if (isTid(X) &&
        ((Op == BO_Shr && isInt(Y, 5)) || (Op == BO_Div && isInt(Y, 32)))) {
      Warp = V;
      WarpV.insert(V);
      return true;
    }
    if (isBuiltin(X, "blockDim") && Op == BO_Div && isInt(Y, 32)) {
      NWarps = V;
      NWarpsV.insert(V);
      return true;
    }
    if (Block)
      return false;
    if (Op == BO_Add && Warp && NWarps) {
      for (int Side = 0; Side < 2; ++Side) {
        const Expr *M = Side ? Y : X, *W = Side ? X : Y;
        auto *Mul = dyn_cast<BinaryOperator>(strip(M));
        if (!Mul || Mul->getOpcode() != BO_Mul || varOf(W) != Warp)
          continue;
        if ((isBuiltin(Mul->getLHS(), "blockIdx") &&
             varOf(Mul->getRHS()) == NWarps) ||
            (isBuiltin(Mul->getRHS(), "blockIdx") &&
             varOf(Mul->getLHS()) == NWarps)) {
          Row = V;
          return true;
        }
      }
    }
    return false;
  }

  /// `p + row * pitch` (p a pointer parameter).
  bool rowPointer(const VarDecl *V) {
    if (!Row && !Block)
      return false;
    auto PP = scaledPointer(V, [&](const Expr *E) { return isRow(E); });
    if (!PP || (!Cols.empty() && Cols != PP->second))
      return false;
    Cols = PP->second;
    bindPointer(V, Value::RowPtr, PP->first, PP->second);
    return true;
  }

  void open() {
    if (Opened)
      return;
    Opened = true;
    B.chunks("p0", "p1", "np_", Rows, 128);
  }

  /// Lowers a per-row value now into a (P, 1) column; returns a Ref node.
  NodeP column(const NodeP &N, SourceLocation Loc) {
    if (N->K == Node::Scalar || N->K == Node::Ref)
      return N;
    if (hasLoad(N)) {
      fail(Loc, "a per-row value that reads row elements outside a column "
                "loop");
      return nullptr;
    }
    open();
    TileLowering TL(B, HbmName, true);
    Operand O = TL.lower(N);
    auto R = std::make_shared<Node>();
    R->K = Node::Ref;
    R->Ty = N->Ty;
    R->Name = O.Tile.Tensor;
    return R;
  }
  static bool hasLoad(const NodeP &N) {
    if (!N)
      return false;
    return N->K == Node::Load || N->K == Node::Row || N->K == Node::Dot ||
           hasLoad(N->A) || hasLoad(N->B);
  }

  /// The accumulation `acc = op(acc, e)`, `acc += e`; returns the ALU op
  /// and the element expression.
  bool accumulation(const clang::Stmt *S, const VarDecl *&Acc, std::string &Op,
                    const Expr *&E) {
    auto *Bo = dyn_cast<BinaryOperator>(S);
    if (!Bo)
      return false;
    Acc = varOf(Bo->getLHS());
    if (!Acc)
      return false;
    if (Bo->getOpcode() == BO_AddAssign) {
      Op = "nl.add";
      E = Bo->getRHS();
      return true;
    }
    if (Bo->getOpcode() != BO_Assign)
      return false;
    const Expr *R = strip(Bo->getRHS());
    if (auto *C = dyn_cast<CallExpr>(R)) {
      auto *Fn = C->getDirectCallee();
      if (!Fn || C->getNumArgs() != 2)
        return false;
      std::string N = Fn->getNameAsString();
      if (N != "fmaxf" && N != "fminf")
        return false;
      Op = N == "fmaxf" ? "nl.maximum" : "nl.minimum";
      if (varOf(C->getArg(0)) == Acc)
        E = C->getArg(1);
      else if (varOf(C->getArg(1)) == Acc)
        E = C->getArg(0);
      else
        return false;
      return true;
    }
    if (auto *Add = dyn_cast<BinaryOperator>(R))
      if (Add->getOpcode() == BO_Add) {
        Op = "nl.add";
        if (varOf(Add->getLHS()) == Acc)
          E = Add->getRHS();
        else if (varOf(Add->getRHS()) == Acc)
          E = Add->getLHS();
        else
          return false;
        return true;
      }
    return false;
  }

  bool columnLoop(const ForStmt *Fo);
  bool butterfly(const ForStmt *Fo);
  bool statement(const clang::Stmt *S);
};

} // namespace lift
} // namespace nki
} // namespace pk

#endif

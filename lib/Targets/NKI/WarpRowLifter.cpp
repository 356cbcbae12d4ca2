//===- WarpRowLifter.cpp - row programs lifted from warp and block reductions
//---===//
// Rules: PK5004, PK5007, PK5008, PK5009
//
// The warp-row lifter (WarpRow.h): butterflies over the lanes, the
// statements of warp row programs, the lift (interface, launch checks,
// outputs) and its registered unit.
//
//===----------------------------------------------------------------------===//
#include "Lifter.h"
#include "WarpRow.h"

using namespace pk;
using namespace pk::nki;
using namespace clang;

namespace pk {
namespace nki {
namespace lift {

bool WarpRowLifter::butterfly(const ForStmt *Fo) {
  auto *DS = dyn_cast_or_null<DeclStmt>(Fo->getInit());
  auto *O = DS && DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl())
                                     : nullptr;
  if (!O || !O->getInit() || !isInt(O->getInit(), 16))
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
  const VarDecl *V;
  std::string Op;
  const Expr *E;
  if (!accumulation(S, V, Op, E))
    return false;
  auto *Call = dyn_cast<CallExpr>(strip(E));
  auto *Fn = Call ? Call->getDirectCallee() : nullptr;
  if (!Fn || Fn->getNameAsString() != "__shfl_xor_sync" ||
      Call->getNumArgs() < 3 || varOf(Call->getArg(1)) != V ||
      varOf(Call->getArg(2)) != O)
    return false;
  Expr::EvalResult Mask;
  if (!Call->getArg(0)->EvaluateAsInt(Mask, FD->getASTContext()) ||
      Mask.Val.getInt().getZExtValue() != 0xffffffffu)
    return fail(Call->getBeginLoc(), "butterfly with a partial lane mask");
  // The width: absent or defaulted (the whole warp), or 32.
  if (Call->getNumArgs() > 3 && !isa<CXXDefaultArgExpr>(Call->getArg(3))) {
    Expr::EvalResult W;
    if (!Call->getArg(3)->EvaluateAsInt(W, FD->getASTContext()) ||
        W.Val.getInt() != 32)
      return fail(Call->getBeginLoc(), "butterfly over a sub-warp width");
  }
  auto It = L.Env.find(V);
  if (It == L.Env.end() || It->second.K != Value::Partial ||
      It->second.Op != Op)
    return fail(Fo->getForLoc(), "butterfly over a value that is not the "
                                 "partial result of a column loop with the "
                                 "same operation");
  // Offsets 16, 8, 4, 2, 1 with the full mask: every lane of the warp (the
  // row's threads) now holds the reduction of the whole row.
  auto R = std::make_shared<Node>();
  R->K = Node::Ref;
  R->Name = It->second.Tile;
  Value U;
  U.K = Value::Elem;
  U.N = R;
  L.Env[V] = U;
  return true;
}

bool WarpRowLifter::statement(const clang::Stmt *S) {
  if (auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls()) {
      auto *V = dyn_cast<VarDecl>(D);
      if (!V || !V->getInit())
        return fail(D->getLocation(), "declaration not lifted");
      if (V->getType()->isIntegerType()) {
        if (!prologue(V))
          return fail(V->getLocation(), "integer local that is not the "
                                        "lane, warp or row of a warp-per-row "
                                        "kernel");
        continue;
      }
      if (V->getType()->isPointerType()) {
        if (!rowPointer(V))
          return fail(V->getLocation(), "pointer local that is not a row "
                                        "`p + row * pitch`");
        continue;
      }
      NodeP N = L.elem(V->getInit());
      if (!N)
        return fail(V->getLocation(), "per-row value not lifted");
      if (N->K != Node::Scalar) {
        N = column(N, V->getLocation());
        if (!N)
          return false;
      }
      Value Val;
      Val.K = Value::Elem;
      Val.N = N;
      L.Env[V] = Val;
    }
    return true;
  }
  if (auto *I = dyn_cast<IfStmt>(S)) {
    const clang::Stmt *Then = I->getThen();
    if (auto *CS = dyn_cast<CompoundStmt>(Then))
      if (CS->size() == 1)
        Then = CS->body_front();
    auto *Cond = dyn_cast<BinaryOperator>(strip(I->getCond()));
    if (!I->getElse() && isa<ReturnStmt>(Then) && Cond &&
        Cond->getOpcode() == BO_GE && Row && varOf(Cond->getLHS()) == Row &&
        Rows.empty() && !Opened) {
      if (auto R = L.scalarExpr(Cond->getRHS())) {
        Rows = *R;
        return true;
      }
    }
    return fail(I->getIfLoc(), "branch in a warp-per-row kernel");
  }
  if (auto *Fo = dyn_cast<ForStmt>(S)) {
    if (Rows.empty() || !Row || !Lane)
      return fail(Fo->getForLoc(), "loop before the row of the warp is "
                                   "known and bounded");
    if (columnLoop(Fo))
      return true;
    if (F)
      return false;
    if (butterfly(Fo))
      return true;
    return F ? false
             : fail(Fo->getForLoc(), "loop that is neither a column loop "
                                     "nor a butterfly over the warp");
  }
  if (isa<NullStmt>(S))
    return true;
  return fail(S->getBeginLoc(), "statement of a warp-per-row kernel not "
                                "lifted");
}

std::optional<Refusal> WarpRowLifter::run() {
  auto *Body = dyn_cast<CompoundStmt>(FD->getBody());
  if (!Body)
    return Refusal{RuleId::PK5004, FD->getLocation(), "no body"};
  // Outputs: the pointer parameters the kernel stores through.  Found as
  // the statements are lifted; allocated first, so collect them now.
  for (const ParmVarDecl *P : FD->parameters())
    if (P->getType()->isPointerType()) {
      HbmName[P->getName().str()] = pyName(P->getName());
      if (!P->getType()->getPointeeType().isConstQualified())
        OutName[P] = pyName(P->getName());
    }
  if (Block)
    Rows = "grid_x";
  for (const clang::Stmt *S : Body->body())
    if (!(Block ? bstmt(S, Ctx()) : statement(S)))
      return F ? F
               : Refusal{Block ? RuleId::PK5009 : RuleId::PK5004,
                         S->getBeginLoc(), "not lifted"};
  if (Opened)
    B.close();
  if (Pending.empty() || Rows.empty() || (!Block && Cols.empty()))
    return Refusal{Block ? RuleId::PK5009 : RuleId::PK5004, FD->getLocation(),
                   Block ? "no value of the block-per-row pattern is stored"
                         : "no row of the warp-per-row pattern is stored"};
  // The interface: every pointer is a [rows, cols] tensor; the stored ones
  // are outputs (a row read and written is refused above).
  for (const ParmVarDecl *P : FD->parameters()) {
    Param Pa;
    Pa.Name = P->getName().str();
    Pa.PyName = pyName(Pa.Name);
    if (!P->getType()->isPointerType()) {
      auto T = dtypeOf(P->getType());
      if (!T)
        return Refusal{RuleId::PK5007, P->getLocation(),
                       "scalar parameter without an NKI dtype"};
      Pa.Ty = *T;
      K.Params.push_back(Pa);
      continue;
    }
    auto U = L.Uses.find(P);
    if (U == L.Uses.end())
      return Refusal{RuleId::PK5008, P->getLocation(),
                     llvm::formatv("pointer parameter '{0}' is never "
                                   "accessed as a row",
                                   P->getName())
                         .str()};
    auto Ty = dtypeOf(P->getType()->getPointeeType());
    if (!Ty)
      return Refusal{RuleId::PK5007, P->getLocation(),
                     "element type without an NKI dtype"};
    Pa.IsTensor = true;
    Pa.Ty = *Ty;
    switch (U->second.Layout) {
    case 'r': // a row vector p[c]
      Pa.Shape = {"1", Cols};
      break;
    case 'c': // one value per row p[row]
      Pa.Shape = {Rows, "1"};
      break;
    case 'g': // the 1-D input of a grid-stride loop
      Pa.Shape = {GridBound};
      break;
    case 's': // rows staged in shared memory [rows, D]
      Pa.Shape = {Rows, Inner[P]};
      break;
    case 'k': // the matrix of a dot product [cols, D]
      Pa.Shape = {Cols, Inner[P]};
      break;
    default:
      Pa.Shape = {Rows, Cols};
    }
    Pa.R = U->second.Written ? Param::Out : Param::In;
    if (!U->second.Written)
      OutName.erase(P);
    K.Params.push_back(Pa);
  }
  // Allocate the outputs and check the launch before the row loop.
  std::vector<nki::Stmt> Head;
  Builder H(Head);
  if (!Block) {
    H.check("block_x % 32 == 0", "blocks of whole warps");
    H.check(PyExpr::compare(PyExpr::name("grid_x") *
                                floorDiv(PyExpr::name("block_x"), 32),
                            ">=", PyExpr(Rows)),
            "the launch has a warp for every row");
  } else {
    if (UsesWarps) {
      H.check("block_x % 32 == 0", "blocks of whole warps");
      H.check("block_x <= 1024", "at most 32 warps per block");
    }
    for (int64_t S : PerWarpSizes)
      H.check(PyExpr::compare(floorDiv(PyExpr::name("block_x"), 32),
                              "<=", PyExpr::integer(S)),
              "a slot of the shared array for every warp");
    if (BlockSize)
      H.check(PyExpr::compare(PyExpr::name("block_x"),
                              "==", PyExpr::integer(*BlockSize)),
              "the block size the kernel's indexing assumes");
    if (RowsBound)
      H.check(PyExpr::compare(PyExpr::name("grid_x"), ">=", PyExpr(Rows)),
              "the launch has a block for every row");
    std::set<std::string> Seen;
    for (auto &[Cond, Why] : Checks)
      if (Seen.insert(Cond.py()).second)
        H.check(Cond, Why);
  }
  for (const Param &Pa : K.Params)
    if (Pa.IsTensor && Pa.R == Param::Out) {
      Op O;
      O.Kind = OpKind::Alloc;
      O.Alloc = Tensor{Pa.PyName, Mem::HBM, Pa.Ty, Pa.Shape};
      H.op(O);
      K.Returns.push_back(Pa.PyName);
    }
  K.Body.insert(K.Body.begin(), Head.begin(), Head.end());
  K.Launch = {"grid_x", "block_x"};
  if (SharedBytes)
    K.Launch.push_back("shared_bytes");
  K.Family = "row reduction, one warp per row (rows on partitions, "
             "tensor_reduce over column chunks of 512 on the free axis)";
  if (Block)
    K.Family = GridBound.empty()
                   ? "row reduction, one block per row (rows on partitions, "
                     "block reductions as tensor_reduce over column chunks "
                     "of 512 on the free axis)"
                   : "per-block partial reduction of a grid-stride loop "
                     "(blocks on partitions, each block's chunks of " +
                         std::to_string(*BlockSize) +
                         " on the free axis, tensor_reduce)";
  if (Dots)
    K.Family = "row program, one block per row, over a staged row times a "
               "matrix (rows on partitions, nc_matmul of the transposed "
               "rows with transposed chunks of 128 matrix rows, the row "
               "held in SBUF, block reductions as tensor_reduce)";
  return std::nullopt;
}

/// Kernels whose threads communicate (the prescan's PK5004), read as row
/// programs: one warp per row, else one block per row.  A kernel the
/// warp-per-row reading does not prove is read one block per row; one
/// that reading does not recognise either is not this lifter's.
class WarpRowUnit final : public Lifter {
public:
  LiftAnswer lift(TargetContext &TC, const FunctionDecl *FD,
                  const TemplateParameterList *TPL) const override {
    std::optional<Refusal> F = TPL ? std::nullopt : prescan(TC.Ctx(), FD);
    if (!F || F->Rule != RuleId::PK5004)
      return LiftAnswer::notMine();
    std::string Name = FD->getNameAsString();
    Kernel RK;
    RK.Name = Name;
    if (!WarpRowLifter(TC, FD, RK).run())
      return LiftAnswer::lifted(std::move(RK));
    Kernel BK;
    BK.Name = Name;
    WarpRowLifter BL(TC, FD, BK, /*BlockMode=*/true);
    if (std::optional<Refusal> BF = BL.run())
      return BL.recognised() ? LiftAnswer::refused(*BF) : LiftAnswer::notMine();
    return LiftAnswer::lifted(std::move(BK));
  }
};

} // namespace lift
} // namespace nki
} // namespace pk

const Lifter &nki::warpRowLifter() {
  static const lift::WarpRowUnit L;
  return L;
}

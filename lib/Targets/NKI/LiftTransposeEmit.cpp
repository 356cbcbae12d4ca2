//===- LiftTransposeEmit.cpp - the tile program of a staged transpose -----===//
// Rules: PK5007, PK5008, PK5009
//
// The transposes LiftTranspose.cpp proves, as tile programs: per 128 x 128
// tile of `in` (rows p0:p1, columns f0:f1, min()-bounded at the ragged
// edges), dma_copy into SBUF, the staged value g, nc_transpose into PSUM,
// tensor_copy back to SBUF, the stored value f, dma_copy into
// out[f0:f1, p0:p1].  The launch is asserted to be the block shape the
// indices assume and a grid that covers the matrix.  The registered unit
// reads the kernels whose threads communicate (the prescan's PK5004).
//
//===----------------------------------------------------------------------===//
#include "LiftTranspose.h"
#include "Lifter.h"

using namespace pk;
using namespace pk::nki;
using namespace clang;

namespace pk {
namespace nki {
namespace lift {

std::optional<Refusal> TransposeLifter::emit() {
  auto DT = dtypeOf(In->getType()->getPointeeType());
  auto DO = dtypeOf(Out->getType()->getPointeeType());
  if (!DT || !DO)
    return Refusal{RuleId::PK5009, Out->getLocation(),
                   "input or output of the transpose has no NKI dtype"};
  PyExpr Rs = linExpr(Rows), Cs = linExpr(Cols);
  std::map<std::string, std::string> EpiHbm;
  for (const ParmVarDecl *P : FD->parameters()) {
    Param Pa;
    Pa.Name = P->getName().str();
    Pa.PyName = pyName(Pa.Name);
    if (P == In || P == Out) {
      Pa.IsTensor = true;
      Pa.Ty = P == In ? *DT : *DO;
      Pa.Shape =
          P == In ? std::vector<PyExpr>{Rs, Cs} : std::vector<PyExpr>{Cs, Rs};
      Pa.R = P == In ? Param::In : Param::Out;
    } else if (auto E = EpiReads.find(P); E != EpiReads.end()) {
      // Read by the stored value at the output's row, column or element.
      Pa.IsTensor = true;
      Pa.Ty = *dtypeOf(P->getType()->getPointeeType());
      Pa.Shape = E->second == 'c'   ? std::vector<PyExpr>{Cs, "1"}
                 : E->second == 'r' ? std::vector<PyExpr>{"1", Rs}
                                    : std::vector<PyExpr>{Cs, Rs};
      Pa.R = Param::In;
      EpiHbm[Pa.PyName] = Pa.PyName;
    } else if (P->getType()->isPointerType()) {
      return Refusal{RuleId::PK5008, P->getLocation(),
                     "pointer parameter the transpose does not access"};
    } else {
      auto T = dtypeOf(P->getType());
      if (!T)
        return Refusal{RuleId::PK5007, P->getLocation(),
                       "scalar parameter without an NKI dtype"};
      Pa.Ty = *T;
    }
    K.Params.push_back(Pa);
  }
  Builder B(K.Body);
  PyExpr Bx = PyExpr::name("block_x"), By = PyExpr::name("block_y");
  B.check(PyExpr::both(PyExpr::compare(Bx, "==", TD),
                       R ? PyExpr::compare(By, "==", R)
                         : PyExpr::compare(mod(TD, By), "==", 0)),
          "blocks of TILE x ROWS threads cover each tile");
  B.check(PyExpr::both(PyExpr::compare(PyExpr::name("grid_x") * TD, ">=", Cs),
                       PyExpr::compare(PyExpr::name("grid_y") * TD, ">=", Rs)),
          "the launch covers the matrix");
  std::string O = pyName(Out->getName());
  Op A;
  A.Kind = OpKind::Alloc;
  A.Alloc = Tensor{O, Mem::HBM, *DO, {Cs, Rs}};
  B.op(A);
  K.Returns.push_back(O);
  B.chunks("p0", "p1", "np_", Rs, 128);
  B.chunks("f0", "f1", "nf_", Cs, 128);
  std::string T = B.alloc("t", Mem::SBUF, *DT, {"128", "128"});
  Op Ld;
  Ld.Kind = OpKind::DmaCopy;
  Ld.Dst = Access{T, {{"0", "np_"}, {"0", "nf_"}}, {}};
  Ld.Srcs = {Operand::tile(
      Access{pyName(In->getName()), {{"p0", "p1"}, {"f0", "f1"}}, {}})};
  B.op(Ld);
  // The element-wise values, on the tile as loaded (rows on the
  // partitions) and as transposed (the output's rows on the partitions).
  std::map<std::string, std::string> NoHbm;
  auto Lower = [&](const NodeP &V, const NodeP &Leaf, const Access &At,
                   const std::string &PHi, const std::string &FHi,
                   bool Transposed) -> std::optional<Access> {
    if (V == Leaf)
      return At;
    // The stored value's other tensors are read at the output's element:
    // its rows f0:f1 on the partitions, its columns p0:p1.
    TileLowering TL(B, Transposed ? EpiHbm : NoHbm, true);
    TL.PHi = PHi;
    TL.FHi = FHi;
    TL.FSize = "128";
    if (Transposed) {
      TL.RowLo = "f0";
      TL.RowHi = "f1";
      TL.ColLo = "p0";
      TL.ColHi = "p1";
    }
    TL.Done[Leaf.get()] = Operand::tile(At);
    Operand R = TL.lower(V);
    if (!R.IsTile || TileLowering::isCol(R))
      return std::nullopt;
    return R.Tile;
  };
  auto S = Lower(StageVal, InLeaf, Ld.Dst, "np_", "nf_", false);
  if (!S)
    return Refusal{RuleId::PK5007, Tile->getLocation(),
                   "the staged value does not depend on the element"};
  DType ST = StageVal->Ty;
  std::string Ps = B.alloc("ps", Mem::PSUM, ST, {"128", "128"});
  Op Tr;
  Tr.Kind = OpKind::Transpose;
  Tr.Dst = Access{Ps, {{"0", "nf_"}, {"0", "np_"}}, {}};
  Tr.Srcs = {Operand::tile(*S)};
  B.op(Tr);
  std::string U = B.alloc("t", Mem::SBUF, ST, {"128", "128"});
  Op Cp;
  Cp.Kind = OpKind::TensorCopy;
  Cp.Dst = Access{U, {{"0", "nf_"}, {"0", "np_"}}, {}};
  Cp.Srcs = {Operand::tile(Tr.Dst)};
  B.op(Cp);
  auto V = Lower(StoreVal, TileLeaf, Cp.Dst, "nf_", "np_", true);
  if (!V)
    return Refusal{RuleId::PK5007, Out->getLocation(),
                   "the stored value does not depend on the tile's element"};
  Op St;
  St.Kind = OpKind::DmaCopy;
  St.Dst = Access{O, {{"f0", "f1"}, {"p0", "p1"}}, {}};
  St.Srcs = {Operand::tile(*V)};
  B.op(St);
  B.close();
  B.close();
  K.Launch = {"grid_x", "block_x", "grid_y", "block_y"};
  K.Family = "transpose staged through a shared tile (128 x 128 tiles, "
             "nc_transpose into PSUM)";
  (void)TC;
  return std::nullopt;
}

/// Kernels whose threads communicate (the prescan's PK5004), read as
/// transposes staged through a shared tile; one whose shared tile is not
/// found is not this lifter's.
class TransposeUnit final : public Lifter {
public:
  LiftAnswer lift(TargetContext &TC, const FunctionDecl *FD,
                  const TemplateParameterList *TPL) const override {
    std::optional<Refusal> F = TPL ? std::nullopt : prescan(TC.Ctx(), FD);
    if (!F || F->Rule != RuleId::PK5004)
      return LiftAnswer::notMine();
    Kernel K;
    K.Name = FD->getNameAsString();
    TransposeLifter TL(TC, FD, K);
    std::optional<Refusal> TF = TL.run();
    if (!TL.recognised())
      return LiftAnswer::notMine();
    return TF ? LiftAnswer::refused(*TF) : LiftAnswer::lifted(std::move(K));
  }
};

} // namespace lift
} // namespace nki
} // namespace pk

const Lifter &nki::transposeLifter() {
  static const lift::TransposeUnit L;
  return L;
}

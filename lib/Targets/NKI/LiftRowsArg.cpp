//===- LiftRowsArg.cpp - arg-reductions and exact int32 max/min in rows -===//
// Rules: PK5001, PK5007
//
// The row emitter's lowering of the arg form of an arg-max or arg-min
// (lib/Analysis/KernelArg.cpp): the first column equal to the row's best,
// by nisa.iota, nl.equal and nl.minimum; and of int32 and uint32 max and
// min reductions, exact on 16-bit halves (LiftRowsIntMax.cpp).
//
//===----------------------------------------------------------------------===//
#include "LiftRowsEmit.h"

using namespace pk;
using namespace pk::nki;
using namespace pk::nki::rows;
using namespace pk::km;
using namespace clang;

namespace rowsemit {

/// `v0 == best ? i0 : ArgNone` for a per-row best (an arg-reduction's
/// single pair): the 0/1 mask m of the comparison, m * (i0 - ArgNone) +
/// ArgNone, exact in float32 (every value below 2^25, an integer).
NodeP Emitter::argPair(SymP S) {
  // ArgNone for a first-index arg form, ArgLow for a last-index one.
  SymP None = S->Ops[2];
  if ((None != P.intc(SymPool::ArgNone) && None != P.intc(SymPool::ArgLow)) ||
      S->Ops[0]->K != SK::Cmp || S->Ops[0]->Op != "==" || !closed(S))
    return nullptr;
  const int64_t NoneV = None->I;
  auto I0 = py(S->Ops[1]);
  if (!I0)
    return nullptr;
  NodeP L = node(S->Ops[0]->Ops[0]), R = node(S->Ops[0]->Ops[1]);
  if (!L || !R)
    return nullptr;
  if (L->K == Node::Scalar)
    std::swap(L, R);
  NodeP Out = argPairNode(L, R, *I0, NoneV);
  (NoneV < 0 ? ArgLastUsed : ArgUsed) = true;
  return Out;
}

/// reduce(min, col, g(col) == best ? col : ArgNone): the first column of
/// the row where g equals the per-row best (an arg-max or arg-min), or
/// ArgNone: per chunk, the columns f0:f1 by nisa.iota, the 0/1 mask of
/// g == best (tensor_scalar nl.equal with the (P, 1) column of best),
/// iota + ArgNone * (1 - mask), reduced with nl.minimum.  The last column
/// (reduce(max, col, ... : ArgLow), ties to the larger index) alike with
/// ArgLow and nl.maximum.  Exact in float32 while cols <= 2^24 (asserted).
bool Emitter::argReduce(SymP R) {
  // First index: min, no index ArgNone (above every column); last index:
  // max, no index ArgLow (below every column).
  const bool Last = R->Op == "max";
  const int64_t NoneV = Last ? SymPool::ArgLow : SymPool::ArgNone;
  const char *Fn = Last ? "nl.maximum" : "nl.minimum";
  SymP Body = R->Ops[1];
  SymP C = Body->Ops[0];
  SymP G = C->Ops[0], Best = C->Ops[1];
  if (closed(G))
    std::swap(G, Best);
  if (!closed(Best) || closed(G))
    return fail(RuleId::PK5007, "an arg-reduction whose best value is not "
                                "one value per row");
  std::string NoneS = std::to_string(NoneV);
  B.check(PyExpr::compare(ColsE, "<=", PyExpr::integer(SymPool::ArgNone)),
          "cols <= 2**24: column indices exact in float32 (arg-reduction)");
  std::string Acc = B.alloc("acc", Mem::SBUF, DType::F32, {"128", "1"});
  Access AA{Acc, {{"0", "np_"}, {"0", "1"}}, {}};
  B.op(OpKind::Memset, AA, {Operand::scalar(NoneS + ".0")});
  B.chunks("f0", "f1", "nf_", ColsE, Chunk);
  TileLowering TL(B, HbmName, true);
  TL.FSize = Chunk;
  NodeP BN = node(Best), GN = node(G);
  if (!BN || !GN)
    return false;
  Operand BV = TL.lower(BN), GV = TL.lower(GN);
  if (!GV.IsTile || TileLowering::isCol(GV) || !TileLowering::isCol(BV))
    return fail(RuleId::PK5007, "an arg-reduction whose values are not "
                                "computed per column");
  Access Io = TL.fresh(DType::F32, false);
  B.op(OpKind::Iota, Io, {Operand::scalar("f0"), Operand::scalar("nf_")});
  Access Mk = TL.fresh(DType::F32, false);
  B.op(OpKind::TensorScalar, Mk, {GV, BV}, "nl.equal");
  B.op(OpKind::TensorScalar, Mk,
       {Operand::tile(Mk), Operand::scalar(std::to_string(-NoneV) + ".0")},
       "nl.multiply");
  B.op(OpKind::TensorScalar, Mk,
       {Operand::tile(Mk), Operand::scalar(NoneS + ".0")}, "nl.add");
  B.op(OpKind::TensorTensor, Mk, {Operand::tile(Mk), Operand::tile(Io)},
       "nl.add");
  std::string Red = B.alloc("red", Mem::SBUF, DType::F32, {"128", "1"});
  Access RA{Red, {{"0", "np_"}, {"0", "1"}}, {}};
  B.op(OpKind::Reduce, RA, {Operand::tile(Mk)}, Fn);
  B.op(OpKind::TensorTensor, AA, {Operand::tile(AA), Operand::tile(RA)}, Fn);
  B.close();
  ColTile[R] = Acc;
  (Last ? ArgLastUsed : ArgUsed) = true;
  return true;
}

/// An int32 or uint32 max or min over the row, exact: per chunk the tile
/// of the terms is reduced on its 16-bit halves and combined with the
/// accumulator alike (LiftRowsIntMax.cpp).  A row vector (a single-row
/// program: atomics over the grid into out[0]) is loaded as it is, not
/// broadcast through the float32 matmul.
bool Emitter::intReduce(SymP R) {
  bool Max = R->Op == "max";
  if ((R->T != Ty::I32 && R->T != Ty::U32) ||
      (R->Op != "max" && R->Op != "min"))
    return fail(RuleId::PK5007,
                R->T == Ty::I64 && (R->Op == "max" || R->Op == "min")
                    ? "a 64-bit integer max or min (NKI tiles hold no 64-bit "
                      "integers; int32 and uint32 are lowered exactly)"
                    : "an integer reduction other than an int32 or uint32 "
                      "max or min (the engines add in float32)");
  const DType IT = R->T == Ty::U32 ? DType::U32 : DType::I32;
  std::string Acc = B.alloc("acc", Mem::SBUF, IT, {"128", "1"});
  Access AA{Acc, {{"0", "np_"}, {"0", "1"}}, {}};
  B.op(OpKind::Memset, AA, {Operand::scalar(exactIntIdentity(Max, IT))});
  B.chunks("f0", "f1", "nf_", ColsE, Chunk);
  TileLowering TL(B, HbmName, true);
  TL.FSize = Chunk;
  NodeP Body = node(R->Ops[1]);
  if (!Body)
    return false;
  Access V;
  if (Body->K == Node::Load && Body->Layout == 'r') {
    if (!Pr.RowGrid.empty())
      return fail(RuleId::PK5007, "an int32 max or min of a row vector in "
                                  "a program of several rows");
    V = Access{B.alloc("t", Mem::SBUF, IT, {"128", Chunk}),
               {{"0", "np_"}, {"0", "nf_"}},
               {}};
    B.op(OpKind::DmaCopy, V,
         {Operand::tile(
             Access{HbmName.at(Body->Name), {{"0", "1"}, {"f0", "f1"}}, {}})});
  } else {
    Operand O = TL.lower(Body);
    if (!O.IsTile || TileLowering::isCol(O))
      return fail(RuleId::PK5007, "a reduction whose terms do not depend on "
                                  "the column");
    V = O.Tile;
  }
  if (Body->Ty != IT)
    return fail(RuleId::PK5007,
                llvm::formatv("an {0} max or min of values that are not {0} "
                              "elements",
                              dtypeName(IT))
                    .str());
  std::string C = exactIntReduce(B, Max, IT, V, "nf_", Chunk);
  std::string N = exactIntCombine(B, Max, IT, AA,
                                  Access{C, {{"0", "np_"}, {"0", "1"}}, {}});
  B.op(OpKind::TensorCopy, AA,
       {Operand::tile(Access{N, {{"0", "np_"}, {"0", "1"}}, {}})});
  B.close();
  ColTile[R] = Acc;
  return true;
}

} // namespace rowsemit

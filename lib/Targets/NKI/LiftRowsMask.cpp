//===- LiftRowsMask.cpp - causal masks in row programs -------------------===//
// Rules: PK5001, PK5007
//
// The column compared with the row plus a constant (a causal range `c <
// row + k`, a select `c <= t ? v : 0`) as nisa.affine_select's predicate
// over the tile's partitions (rows p0 + p) and free elements (columns f0 +
// x): the emitter's reductions mask the other columns' terms to their
// identity, and such selects become affine_select of the value's tile
// (LiftRowsEmit.cpp).
//
//===----------------------------------------------------------------------===//
#include "LiftRowsEmit.h"

#include <map>

using namespace pk;
using namespace pk::nki;
using namespace pk::nki::rows;
using namespace pk::km;
using namespace clang;

namespace rowsemit {

bool Emitter::rowColPredicate(SymP E, llvm::StringRef Cmp, PyExpr &Offset,
                              std::string &Fn) {
  auto Pl = P.poly(E);
  if (!Pl)
    return false;
  SymP RowS = P.atom(rows::RowAtom);
  int64_t R = 0, C = 0, K = 0;
  for (auto &[M, X] : *Pl) {
    if (M.empty())
      K = X;
    else if (M.size() == 1 && M[0] == RowS)
      R = X;
    else if (M.size() == 1 && M[0]->K == SK::Iter &&
             M[0]->Ops[0] == P.intc(0) && M[0]->Ops[2] == P.intc(1))
      C = X;
    else
      return false;
  }
  if (!((R == 1 && C == -1) || (R == -1 && C == 1)))
    return false;
  // 0 Cmp E.  With E = v = row + K - col: v Cmp' 0 (Cmp' the mirror);
  // with E = -(row - K - col) = -w: w Cmp 0.
  static const std::map<std::string, std::pair<const char *, const char *>>
      Names = {{"<", {"nl.greater", "nl.less"}},
               {"<=", {"nl.greater_equal", "nl.less_equal"}},
               {">", {"nl.less", "nl.greater"}},
               {">=", {"nl.less_equal", "nl.greater_equal"}},
               {"==", {"nl.equal", "nl.equal"}},
               {"!=", {"nl.not_equal", "nl.not_equal"}}};
  auto It = Names.find(Cmp.str());
  if (It == Names.end())
    return false;
  Fn = R == 1 ? It->second.first : It->second.second;
  Offset = PyExpr("p0") + PyExpr::integer(R == 1 ? K : -K) - PyExpr("f0");
  return true;
}

NodeP Emitter::causalSelect(SymP S) {
  SymP Cond = S->Ops[0];
  if (Cond->K != SK::Cmp || !isFloatTy(S->T))
    return nullptr;
  static const std::map<std::string, std::string> Negate = {
      {"<", ">="}, {"<=", ">"},  {">", "<="},
      {">=", "<"}, {"==", "!="}, {"!=", "=="}};
  std::string Cmp = Cond->Op.str();
  SymP True = S->Ops[1], False = S->Ops[2];
  auto IsConst = [](SymP X) {
    return X->K == SK::Flt || X->K == SK::Int ||
           (X->K == SK::Cast && X->Ops[0]->K == SK::Int);
  };
  if (!IsConst(False)) {
    if (!IsConst(True) || !Negate.count(Cmp))
      return nullptr;
    std::swap(True, False);
    Cmp = Negate.at(Cmp);
  }
  // lhs Cmp rhs  <=>  0 Cmp rhs - lhs.
  PyExpr Offset;
  std::string Fn;
  if (!rowColPredicate(P.bin("-", Cond->Ops[1], Cond->Ops[0]), Cmp, Offset, Fn))
    return nullptr;
  SymP FV = False->K == SK::Cast ? False->Ops[0] : False;
  auto N = std::make_shared<Node>();
  N->K = Node::AffSel;
  N->Ty = DType::F32;
  N->A = node(True);
  N->Fn = Fn;
  N->Offset = Offset;
  N->Val = PyExpr::real(FV->K == SK::Flt ? FV->F : double(FV->I));
  return N->A ? N : nullptr;
}

} // namespace rowsemit

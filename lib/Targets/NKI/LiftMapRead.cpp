//===- LiftMapRead.cpp - a block's stores in the global coordinates -------===//
// Rules: PK5006, PK5007
//
// Every stored index, value and guard of one block's trace is rewritten in
// the global coordinates g_d = blockIdx.d * blockDim.d + threadIdx.d (see
// LiftMap.cpp); the threads must then store the same values.
//
//===----------------------------------------------------------------------===//
#include "LiftMapImpl.h"

#include "llvm/Support/FormatVariadic.h"
#include <unordered_map>

using namespace pk;
using namespace pk::nki;
using namespace pk::nki::mapread;
using namespace pk::km;
using namespace clang;

namespace mapread_impl {

class Reader {
public:
  Reader(const Trace &Tr, SymPool &P) : Tr(Tr), P(P) {}

  Reading run();

private:
  const Trace &Tr;
  SymPool &P;
  Reading R;
  unsigned T = 0; ///< the thread being normalised
  SourceLocation Here; ///< the store being normalised
  std::set<SymP> ReduceIters; ///< variables of the reductions met
  std::unordered_map<SymP, SymP> Memo;
  std::map<SymP, SymP> Assume; ///< block-size parameters -> the block size

  SymP G(unsigned D) { return P.atom(GTag + D); }
  unsigned dimSize(unsigned D) const {
    return D == 0 ? Tr.Shape.X : D == 1 ? Tr.Shape.Y : Tr.Shape.Z;
  }
  SymP no(const std::string &Why, RuleId Rule = RuleId::PK5006,
         bool Preferred = false) {
    if (R.NotMap.empty()) {
      R.NotMap = Why;
      R.NotMapRule = Rule;
      R.NotMapPreferred = Preferred;
      R.NotMapLoc = Here;
    }
    return nullptr;
  }
  SymP norm(SymP S);
  SymP normInt(SymP S);
  SymP normAtom(SymP A);
  SymP rebuild(SymP S);
  void findBlockParams(SymP S, std::set<SymP> &Seen);
};

void Reader::findBlockParams(SymP S, std::set<SymP> &Seen) {
  if (!Seen.insert(S).second)
    return;
  // A maximal integer expression: its polynomial's monomials, then the
  // operands of its atoms (the sub-trees of a polynomial are partial
  // products, whose coefficients are elsewhere).
  if (S->isInt() && S->T != Ty::Bool) {
    auto Pl = P.poly(S);
    if (!Pl)
      return;
    for (auto &[M, C] : *Pl) {
      for (SymP A : M)
        if (!A->Ops.empty())
          for (SymP O : A->Ops)
            findBlockParams(O, Seen);
      // blockIdx.d * p with p an integer parameter and a coefficient that
      // is not a multiple of the block size.
      if (M.size() != 2)
        continue;
      SymP B = M[0]->K == SK::BlockIdx ? M[0] : M[1];
      SymP Q = B == M[0] ? M[1] : M[0];
      if (B->K != SK::BlockIdx || Q->K != SK::Param || !Q->D ||
          !Q->isInt() || B->I > 2 ||
          C % int64_t(dimSize(unsigned(B->I))) == 0)
        continue;
      R.BlockParam[Q->D] = unsigned(B->I);
      Assume[Q] = P.intc(dimSize(unsigned(B->I)));
    }
    return;
  }
  for (SymP O : S->Ops)
    findBlockParams(O, Seen);
}

SymP Reader::norm(SymP S) {
  auto It = Memo.find(S);
  if (It != Memo.end())
    return It->second;
  SymP Out = nullptr;
  if (S->isInt() && S->T != Ty::Bool && S->K != SK::Reduce) {
    Out = normInt(S);
  } else {
    switch (S->K) {
    case SK::Flt:
    case SK::Int:
    case SK::Param:
      Out = S;
      break;
    case SK::Load: {
      SymP I = normInt(S->Ops[0]);
      Out = I ? P.load(S->D, I, S->T) : nullptr;
      break;
    }
    case SK::Bin:
    case SK::Un:
    case SK::Cmp:
    case SK::Select:
    case SK::Cast:
      Out = rebuild(S);
      break;
    case SK::Reduce: {
      // A loop over the sizes from 0 by 1, the same for every thread: the
      // reduction stays, its body rewritten (a column reduction when the
      // body reads down a column; see LiftMap.cpp).
      SymP It = S->Ops[0];
      if (It->K != SK::Iter || It->Ops[0] != P.intc(0) ||
          It->Ops[2] != P.intc(1) || P.containsKind(It->Ops[1], SK::Load) ||
          P.containsKind(It->Ops[1], SK::BlockIdx))
        return no("a reduction over a loop that is not from 0 by 1 to a "
                  "size",
                  RuleId::PK5007);
      ReduceIters.insert(It);
      SymP Body = norm(S->Ops[1]);
      Out = Body ? P.reduce(S->Op, It, Body) : nullptr;
      break;
    }
    default:
      return no("a value that is not an element of the inputs: " + P.str(S),
                RuleId::PK5007);
    }
  }
  Memo[S] = Out;
  return Out;
}

/// An operation with its operands normalised.
SymP Reader::rebuild(SymP S) {
  std::vector<SymP> Ops;
  for (SymP O : S->Ops) {
    Ops.push_back(norm(O));
    if (!Ops.back())
      return nullptr;
  }
  return P.rebuild(S, Ops);
}

/// An atom of an integer polynomial (not +, -, * or a constant).
SymP Reader::normAtom(SymP A) {
  switch (A->K) {
  case SK::Param:
    if (auto F = Assume.find(A); F != Assume.end())
      return F->second;
    return A;
  case SK::Iter: {
    if (ReduceIters.count(A))
      return A; // the variable of a reduction being rewritten
    // A grid-stride loop: from g_d by blockDim.d * gridDim.d.
    SymP St = normInt(A->Ops[0]);
    SymP End = normInt(A->Ops[1]);
    if (!St || !End)
      return nullptr;
    for (unsigned D = 0; D < 3; ++D) {
      if (St != G(D))
        continue;
      SymP Step = P.subst(A->Ops[2], Assume);
      auto Have = P.poly(Step);
      auto Want = P.poly(P.bin("*", P.intc(dimSize(D)), P.gridDim(D)));
      if (!Have || !Want || *Have != *Want)
        return no("a loop over the sizes that is not a grid-stride loop");
      if (P.contains(End, G(0)) || P.contains(End, G(1)) ||
          P.contains(End, G(2)))
        return no("a grid-stride loop whose end depends on the thread");
      auto [E, New] = R.StrideEnd.insert({D, End});
      if (!New && E->second != End)
        return no("grid-stride loops over one coordinate to different ends");
      return G(D);
    }
    return no("a loop over the sizes that is not a grid-stride loop");
  }
  case SK::GridDim:
    return no("gridDim in an index outside a grid-stride step");
  case SK::Bin:
  case SK::Un:
  case SK::Select:
  case SK::Cast:
    return rebuild(A);
  case SK::Reduce:
    // An integer reduction as a value (an arg-max's index).
    return norm(A);
  case SK::Load: {
    // An integer element value (an index read from memory is refused by
    // the model itself, as data-dependent).
    SymP I = normInt(A->Ops[0]);
    return I ? P.load(A->D, I, A->T) : nullptr;
  }
  default:
    return no("an index the map does not model: " + P.str(A));
  }
}

SymP Reader::normInt(SymP S) {
  if (S->K == SK::Int)
    return S;
  auto Pl = P.poly(S);
  if (!Pl)
    return norm(S);
  const std::array<unsigned, 3> &Tid = Tr.Tid[T];
  SymP Sum = P.intc(0, S->T);
  for (auto &[M, C] : *Pl) {
    int BD = -1;
    SymP Term = P.intc(1, S->T);
    for (SymP A : M) {
      if (A->K == SK::BlockIdx) {
        if (BD >= 0 || A->I > 2)
          return no("an index nonlinear in blockIdx");
        BD = int(A->I);
        continue;
      }
      SymP N = normAtom(A);
      if (!N)
        return nullptr;
      Term = P.bin("*", Term, N);
    }
    int64_t Cf = C;
    if (BD >= 0) {
      // c * m * blockIdx.d = (c / B) * m * (g_d - threadIdx.d); the
      // block-size parameter, already replaced by B, is in m.
      int64_t B = dimSize(unsigned(BD));
      auto TP = P.poly(Term);
      int64_t K = 1;
      if (TP && TP->size() == 1 && TP->begin()->first.empty()) {
        K = TP->begin()->second;
        Term = P.intc(1, S->T);
      }
      if ((Cf * K) % B != 0)
        return no("an index in which blockIdx is not multiplied by the "
                  "block size",
                  RuleId::PK5006, true);
      Cf = Cf * K / B;
      Term = P.bin("*", Term,
                   P.bin("-", G(unsigned(BD)), P.intc(Tid[unsigned(BD)])));
    }
    Sum = P.bin("+", Sum, P.bin("*", P.intc(Cf, S->T), Term));
  }
  return Sum;
}

Reading Reader::run() {
  std::set<SymP> Seen;
  for (const km::Store &S : Tr.Stores) {
    findBlockParams(S.Idx, Seen);
    if (S.Guard)
      findBlockParams(S.Guard, Seen);
  }
  std::vector<std::vector<NStore>> Per(Tr.Tid.size());
  for (const km::Store &S : Tr.Stores) {
    if (!S.Acc.empty()) {
      no("an atomic update", RuleId::PK5007);
      return R;
    }
    if (T != S.Thread) {
      T = S.Thread;
      Memo.clear();
    }
    NStore N;
    N.P = dyn_cast<ParmVarDecl>(S.P);
    N.Loc = Here = S.Loc;
    SymP Idx = P.subst(S.Idx, Assume), Val = P.subst(S.Val, Assume);
    N.Idx = normInt(Idx);
    N.Val = N.Idx ? norm(Val) : nullptr;
    N.Guard = S.Guard ? (N.Val ? norm(P.subst(S.Guard, Assume)) : nullptr)
                      : P.boolc(true);
    if (!N.P || !N.Idx || !N.Val || !N.Guard) {
      no("a store the map cannot rewrite in the global coordinates");
      return R;
    }
    // Indices split by `/` and `%` into coordinates (b = i / (T * V), t =
    // (i / V) % T, v = i % V) and recombined (b * T * V + t * V + v) are
    // the element again.
    N.Idx = P.delinearise(N.Idx);
    N.Val = P.delinearise(N.Val);
    N.Guard = P.delinearise(N.Guard);
    Per[S.Thread].push_back(N);
  }
  // Every thread stores the same values in the global coordinates.
  for (size_t I = 1; I < Per.size(); ++I)
    if (!(Per[I] == Per[0])) {
      no("the threads of a block store different functions of their "
         "coordinates");
      return R;
    }
  R.Stores = Per.empty() ? std::vector<NStore>() : Per[0];
  if (R.Stores.empty())
    no("the kernel stores nothing", RuleId::PK5007);
  return R;
}

/// The Python expression of a size (an integer value of the parameters).
} // namespace mapread_impl

void mapread::conjuncts(SymPool &P, SymP S, std::vector<SymP> &Out) {
  if (S->K == SK::Bin && S->Op == "&&") {
    conjuncts(P, S->Ops[0], Out);
    conjuncts(P, S->Ops[1], Out);
    return;
  }
  if (S->K == SK::Un && S->Op == "!" && S->Ops[0]->K == SK::Bin &&
      S->Ops[0]->Op == "||") {
    conjuncts(P, P.logicalNot(S->Ops[0]->Ops[0]), Out);
    conjuncts(P, P.logicalNot(S->Ops[0]->Ops[1]), Out);
    return;
  }
  if (S->isConst() && S->I != 0)
    return;
  Out.push_back(S);
}

Reading mapread::readStores(const Trace &Tr, SymPool &P) {
  mapread_impl::Reader Rd(Tr, P);
  Reading R = Rd.run();
  R.ReadAfterOwnStore = Tr.ReadAfterOwnStore;
  return R;
}

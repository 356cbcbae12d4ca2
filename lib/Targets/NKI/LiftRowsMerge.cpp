//===- LiftRowsMerge.cpp - partial reductions into one row reduction ------===//
// Rules: PK5001
//
// The row reader's merge (LiftRows.cpp): the terms a kernel combines with
// +, *, max or min, each a reduction over one column loop whose threads
// start at 0, 1, ..., step-1 (shuffles, shared-memory trees, atomics),
// become one reduction over the whole row; single loads of the columns
// just before a reduction's start are folded into it (Program::MinCols).
// What feeds it: a row read as vectors of lanes is one partial reduction
// per lane (strided: columns a * j + b), and a partial sum rescaled to
// another maximum is that sum at the maximum (rescaled: online softmax).
//
//===----------------------------------------------------------------------===//
#include "LiftRowsRead.h"

using namespace pk;
using namespace pk::nki;
using namespace pk::nki::rows;
using namespace pk::km;
using namespace clang;

namespace rowsread {

/// Combines \p Terms with \p Op: reductions over one column loop whose
/// threads start at 0, 1, ..., step-1 become one reduction over the row.
SymP Reader::merge(llvm::StringRef Op, std::vector<SymP> Terms, Ty T) {
  std::vector<char> Drop(Terms.size(), 0);
  std::vector<SymP> Out;
  // A reduction whose loop starts at column s >= 1, combined with its own
  // elements s-1, ..., 0 read before the loop (`m = x[r][0]; for (c = 1;
  // ...) m = max(m, x[r][c])`; single elements, or a reduction over
  // [a, s) that the model read from unrolled terms), is one reduction from
  // column 0 when the loop runs at least once: the program then assumes
  // Cols >= s (Pr.MinCols, a trace-time assert of the output).
  for (size_t I = 0; I < Terms.size(); ++I) {
    SymP X = Terms[I];
    int64_t From = 0;
    while (X->K == SK::Reduce && X->Op == Op) {
      SymP It = X->Ops[0];
      SymP St = It->Ops[0];
      if (St->K != SK::Int || St->I < 1 || It->Ops[2] != P.intc(1))
        break;
      // The term that covers [a, s): its start a, or -1.
      auto Covers = [&](SymP Y) -> int64_t {
        if (Y == P.subst(X->Ops[1], {{It, P.intc(St->I - 1)}}))
          return St->I - 1;
        if (Y->K != SK::Reduce || Y->Op != Op)
          return -1;
        SymP YIt = Y->Ops[0];
        SymP A = YIt->Ops[0];
        if (YIt->Ops[1] != St || YIt->Ops[2] != P.intc(1) || A->K != SK::Int ||
            A->I < 0 || A->I >= St->I)
          return -1;
        SymP NIt = P.iter(It->Site, A, It->Ops[1], It->Ops[2], unsigned(It->I));
        return P.subst(Y->Ops[1], {{YIt, NIt}}) ==
                       P.subst(X->Ops[1], {{It, NIt}})
                   ? A->I
                   : -1;
      };
      size_t J = 0;
      int64_t A = -1;
      for (; J < Terms.size(); ++J)
        if (J != I && !Drop[J] && (A = Covers(Terms[J])) >= 0)
          break;
      if (J == Terms.size())
        break;
      if (!From)
        From = St->I;
      Drop[J] = 1;
      SymP NIt =
          P.iter(It->Site, P.intc(A), It->Ops[1], It->Ops[2], unsigned(It->I));
      X = P.reduce(Op, NIt, P.subst(X->Ops[1], {{It, NIt}}));
    }
    if (From) {
      Terms[I] = X;
      Pr.MinCols = std::max(Pr.MinCols, From);
    }
  }
  // max and min are idempotent: a term twice is once; for min, of pairs
  // `c ? a : ArgNone` under one condition (a first-index arg-reduction's
  // single pairs) the least constant a is enough.
  if (Op == "max" || Op == "min")
    for (size_t I = 0; I < Terms.size(); ++I)
      for (size_t J = 0; J < I && !Drop[I]; ++J) {
        SymP X = Terms[I], Y = Terms[J];
        if (Drop[J])
          continue;
        if (X == Y) {
          Drop[I] = 1;
          continue;
        }
        // (For a last-index arg form, pairs `c ? a : ArgLow` under max:
        // the greatest a.)
        SymP None = P.intc(Op == "min" ? SymPool::ArgNone : SymPool::ArgLow);
        if (X->K != SK::Select || Y->K != SK::Select ||
            X->Ops[0] != Y->Ops[0] || X->Ops[2] != Y->Ops[2] ||
            X->Ops[2] != None || X->Ops[1]->K != SK::Int ||
            Y->Ops[1]->K != SK::Int)
          continue;
        bool XWorse = Op == "min" ? X->Ops[1]->I >= Y->Ops[1]->I
                                  : X->Ops[1]->I <= Y->Ops[1]->I;
        Drop[XWorse ? I : J] = 1;
      }
  std::map<std::string, std::vector<size_t>> Groups;
  std::vector<SymP> Bodies(Terms.size());
  for (size_t I = 0; I < Terms.size(); ++I) {
    SymP X = Terms[I];
    if (Drop[I] || X->K != SK::Reduce || X->Op != Op)
      continue;
    SymP It = X->Ops[0];
    SymP Full = fullIter(It->Ops[1]);
    Bodies[I] = P.subst(X->Ops[1], {{It, Full}});
    std::string Key = std::to_string(It->Ops[1]->Id) + "/" +
                      std::to_string(It->Ops[2]->Id) + "/" +
                      std::to_string(P.acHash(Bodies[I]));
    Groups[Key].push_back(I);
  }
  for (auto &[Key, Idx] : Groups) {
    SymP It0 = Terms[Idx[0]]->Ops[0];
    SymP Step = It0->Ops[2];
    if (Step->K != SK::Int || Step->I <= 0 || size_t(Step->I) != Idx.size())
      continue;
    std::set<int64_t> Starts;
    for (size_t I : Idx) {
      SymP St = Terms[I]->Ops[0]->Ops[0];
      if (St->K != SK::Int)
        break;
      Starts.insert(St->I);
    }
    if (Starts.size() != Idx.size() || *Starts.begin() != 0 ||
        *Starts.rbegin() != Step->I - 1)
      continue;
    for (size_t I : Idx)
      Drop[I] = 1;
    Out.push_back(P.reduce(Op, fullIter(It0->Ops[1]), Bodies[Idx[0]]));
    ++Pr.Reductions;
  }
  for (size_t I = 0; I < Terms.size(); ++I)
    if (!Drop[I])
      Out.push_back(Terms[I]);
  std::sort(Out.begin(), Out.end(),
            [](SymP A, SymP B) { return A->Id < B->Id; });
  SymP R = nullptr;
  for (SymP X : Out)
    R = R ? P.bin(Op, R, X) : X;
  return R ? R : P.identity(Op, T);
}

std::optional<SymP> Reader::strided(SymP S, unsigned T) {
  SymP J = S->Ops[0];
  if (J->K != SK::Iter)
    return std::nullopt;
  // The terms the reduction's operator combines in the body: one lane each.
  std::vector<SymP> Terms;
  // An inner reduction with the same operator over a constant range (the
  // lanes of a vector, `for (k = 0; k < 4; ++k)`) is its terms, one per k.
  std::function<void(SymP)> Flat = [&](SymP X) {
    if (X->K == SK::Bin && X->Op == S->Op) {
      for (SymP O : X->Ops)
        Flat(O);
      return;
    }
    if (X->K == SK::Reduce && X->Op == S->Op && X->Ops[0]->K == SK::Iter) {
      SymP K = X->Ops[0];
      SymP K0 = K->Ops[0], K1 = K->Ops[1], KS = K->Ops[2];
      if (K0->K == SK::Int && K1->K == SK::Int && KS->K == SK::Int &&
          KS->I > 0 && K1->I > K0->I && (K1->I - K0->I) / KS->I <= 64) {
        for (int64_t V = K0->I; V < K1->I; V += KS->I)
          Flat(P.subst(X->Ops[1], {{K, P.intc(V)}}));
        return;
      }
    }
    Terms.push_back(X);
  };
  Flat(S->Ops[1]);
  int64_t A = 0;
  std::vector<std::pair<int64_t, std::map<SymP, SymP>>> Lanes;
  for (SymP X : Terms) {
    // Every load of the term that reads at j: index rest + a * j + b.
    std::optional<int64_t> B;
    std::map<SymP, km::Poly> Rests;
    std::vector<SymP> Work{X};
    std::set<SymP> Seen;
    while (!Work.empty()) {
      SymP Y = Work.back();
      Work.pop_back();
      if (!Seen.insert(Y).second || !P.contains(Y, J))
        continue;
      if (Y->K != SK::Load) {
        for (SymP O : Y->Ops)
          Work.push_back(O);
        continue;
      }
      auto Pl = P.poly(Y->Ops[0]);
      if (!Pl)
        return std::nullopt;
      // Only a row's elements (an index with the row's blockIdx.x): other
      // reads at a * j + b are contractions' operands (dot()).
      bool RowRead = false;
      for (auto &[M, C] : *Pl)
        RowRead |= llvm::is_contained(M, P.blockIdx(0));
      if (!RowRead)
        return std::nullopt;
      int64_t Aj = 0, Bj = 0;
      km::Poly Rest;
      for (auto &[M, C] : *Pl) {
        if (M.size() == 1 && M[0] == J)
          Aj = C;
        else if (M.empty())
          Bj = C;
        else if (llvm::is_contained(M, J))
          return std::nullopt; // j times something else
        else
          Rest.add(M, C);
      }
      if (Aj < 2 || (A && Aj != A) || Bj < 0 || Bj >= Aj || (B && *B != Bj))
        return std::nullopt;
      A = Aj;
      B = Bj;
      Rests[Y] = Rest;
    }
    if (!B)
      return std::nullopt;
    // The lane's column variable: b + a * j over j's range.
    SymP C = P.iter(J->Site,
                    P.bin("+", P.bin("*", P.intc(A), J->Ops[0]), P.intc(*B)),
                    P.bin("*", P.intc(A), J->Ops[1]),
                    P.bin("*", P.intc(A), J->Ops[2]), unsigned(J->I));
    std::map<SymP, SymP> Re;
    for (auto &[L, Rest] : Rests)
      Re[L] = P.load(L->D, P.bin("+", P.fromPoly(Rest), C), L->T);
    Lanes.push_back({*B, std::move(Re)});
    Lanes.back().second[J] = C; // marker: the lane's variable
  }
  std::vector<SymP> Out;
  for (size_t I = 0; I < Terms.size(); ++I) {
    std::map<SymP, SymP> Re = Lanes[I].second;
    SymP C = Re.at(J);
    Re.erase(J);
    SymP Body = P.subst(Terms[I], Re);
    if (P.contains(Body, J))
      return std::nullopt; // j read otherwise than as a column
    Out.push_back(norm(P.reduce(S->Op, C, Body), T));
  }
  // A loop over X / a vectors reads every column of X only when a divides
  // X: the program assumes it (asserted when traced) and counts X columns.
  SymP E = J->Ops[1];
  if (E->K == SK::Bin && E->Op == "/" && E->Ops[1] == P.intc(A)) {
    SymP AE = P.bin("*", P.intc(A), E);
    for (SymP &O : Out)
      O = P.subst(O, {{AE, E->Ops[0]}});
    if (!llvm::is_contained(Pr.Multiples, std::make_pair(E->Ops[0], A)))
      Pr.Multiples.push_back({E->Ops[0], A});
  }
  return merge(S->Op, Out, S->T);
}

SymP Reader::rescaled(const std::vector<SymP> &Terms) {
  if (Terms.size() != 2)
    return nullptr;
  auto ExpDiff = [](SymP E) -> std::pair<SymP, SymP> {
    if (E->K == SK::Un && E->Op == "exp" && E->Ops[0]->K == SK::Bin &&
        E->Ops[0]->Op == "-")
      return {E->Ops[0]->Ops[0], E->Ops[0]->Ops[1]};
    return {nullptr, nullptr};
  };
  for (unsigned Side = 0; Side < 2; ++Side) {
    SymP K = Terms[1 - Side];
    // K = exp(m - M); the other factor a sum of partial sums at m (a
    // lane's, or lanes' already merged at m): reduce(+, c, exp(x - m)).
    auto [Mm, Big] = ExpDiff(K);
    if (!Mm)
      continue;
    std::vector<SymP> Sums = P.operandsOf(Terms[Side], "+");
    for (SymP &X : Sums)
      if (X->K == SK::Cast && X->Ops[0]->T == X->T)
        X = X->Ops[0];
    SymP Out = nullptr;
    for (SymP R : Sums) {
      if (R->K != SK::Reduce || R->Op != "+")
        return nullptr;
      // K must not read the sum's column variable, except inside
      // reductions of its own over it (the thread's max: reduce(max, c,
      // x)).
      SymP C = R->Ops[0];
      std::set<SymP> Seen;
      std::function<bool(SymP)> FreeIn = [&](SymP X) {
        if (X == C)
          return true;
        if (!Seen.insert(X).second || (X->K == SK::Reduce && X->Ops[0] == C))
          return false;
        for (SymP O : X->Ops)
          if (FreeIn(O))
            return true;
        return false;
      };
      if (FreeIn(K))
        return nullptr;
      std::vector<SymP> Adds = P.operandsOf(R->Ops[1], "+");
      SymP Body = nullptr;
      for (SymP A : Adds) {
        SymP Coef = nullptr, E = A;
        if (A->K == SK::Bin && A->Op == "*")
          for (unsigned S = 0; S < 2; ++S)
            if (ExpDiff(A->Ops[S]).first) {
              E = A->Ops[S];
              Coef = A->Ops[1 - S];
            }
        auto [X, Sub] = ExpDiff(E);
        if (!X || Sub != Mm)
          return nullptr;
        // exp(x - m) * exp(m - M) = exp(x - M): the sum at M.
        SymP N = P.un("exp", P.bin("-", X, Big));
        if (Coef)
          N = P.bin("*", Coef, N);
        Body = Body ? P.bin("+", Body, N) : N;
      }
      if (!Body)
        return nullptr;
      SymP Rs = P.reduce("+", C, Body);
      Out = Out ? P.bin("+", Out, Rs) : Rs;
    }
    return Out;
  }
  return nullptr;
}

} // namespace rowsread

//===- KernelArg.cpp - arg-max and arg-min in the kernel model ------------===//
// Rules: none (shared analysis)
//
// A (value, index) pair carried together -- `if (v > best) { best = v;
// idx = c; }` in a loop, `if (ov > best || (ov == best && oi < idx))` when
// two partial pairs meet -- is a first-index arg-max (arg-min with <).
// The value is the max; the index is kept in a form that reassociates like
// any reduction: the least index among the elements equal to the max,
//
//   min( reduce(min, it, v(it) == best ? it : ArgNone),  (a loop's elements)
//        v0 == best ? i0 : ArgNone )                     (single pairs)
//
// with best the max of exactly those elements.  A last-index arg-max (ties
// to the larger index) is the mirror image: the greatest index among them,
//
//   max( reduce(max, it, v(it) == best ? it : ArgLow), v0 == best ? i0 : ArgLow )
//
// Combining two such pairs
// under the max M of their values replaces each side's best by M (an
// element equal to M can only be on a side whose best is M), so partial
// results meet as a min of terms that all compare with the row's max, and
// the row reader merges the partial reductions like sums.  Which of two
// pairs wins is read from the condition's truth table over the order of
// the values and of the indices, so any spelling of the comparison works.
//
//===----------------------------------------------------------------------===//
#include "KernelModelImpl.h"

#include <algorithm>
#include <array>
#include <functional>
#include <optional>
#include <set>

using namespace pk;
using namespace pk::km;

namespace kmarg {

/// Who wins for each order of the values (rv) and of the indices (ri):
/// T[rv + 1][ri + 1], -1 below, 0 equal, 1 above (Va against Vb).
using Table = std::array<std::array<int, 3>, 3>;

std::optional<bool> evalCond(SymP C, SymP Va, SymP Vb, SymP Ia, SymP Ib, int Rv,
                             int Ri) {
  if (C->K == SK::Int)
    return C->I != 0;
  if (C->K == SK::Un && C->Op == "!") {
    auto X = evalCond(C->Ops[0], Va, Vb, Ia, Ib, Rv, Ri);
    if (!X)
      return std::nullopt;
    return !*X;
  }
  if (C->K == SK::Bin && (C->Op == "&&" || C->Op == "||")) {
    auto X = evalCond(C->Ops[0], Va, Vb, Ia, Ib, Rv, Ri);
    auto Y = evalCond(C->Ops[1], Va, Vb, Ia, Ib, Rv, Ri);
    if (!X || !Y)
      return std::nullopt;
    return C->Op == "&&" ? (*X && *Y) : (*X || *Y);
  }
  if (C->K != SK::Cmp)
    return std::nullopt;
  SymP L = C->Ops[0], R = C->Ops[1];
  int Rel;
  if (L == Va && R == Vb)
    Rel = Rv;
  else if (L == Vb && R == Va)
    Rel = -Rv;
  else if (Ia && L == Ia && R == Ib)
    Rel = Ri;
  else if (Ia && L == Ib && R == Ia)
    Rel = -Ri;
  else
    return std::nullopt;
  llvm::StringRef Op = C->Op;
  if (Op == "<")
    return Rel < 0;
  if (Op == "<=")
    return Rel <= 0;
  if (Op == ">")
    return Rel > 0;
  if (Op == ">=")
    return Rel >= 0;
  if (Op == "==")
    return Rel == 0;
  return Rel != 0;
}

std::optional<Table> table(SymP C, SymP Va, SymP Vb, SymP Ia, SymP Ib) {
  Table T;
  for (int Rv = -1; Rv <= 1; ++Rv)
    for (int Ri = -1; Ri <= 1; ++Ri) {
      auto X = evalCond(C, Va, Vb, Ia, Ib, Rv, Ri);
      if (!X)
        return std::nullopt;
      T[Rv + 1][Ri + 1] = *X;
    }
  return T;
}

/// "max" when Va wins exactly when it is above, "min" when below (ties
/// aside); "" otherwise.
llvm::StringRef strictDir(const Table &T) {
  bool Max = true, Min = true;
  for (int Ri = 0; Ri < 3; ++Ri) {
    Max &= T[2][Ri] == 1 && T[0][Ri] == 0;
    Min &= T[0][Ri] == 1 && T[2][Ri] == 0;
  }
  return Max ? "max" : Min ? "min" : "";
}

/// On equal values: 1 the smaller index wins, -1 the larger, 0 no
/// tie-break (the same side whatever the indices).
int tieRule(const Table &T) {
  int Lo = T[1][0], Hi = T[1][2];
  if (Lo && !Hi)
    return 1;
  if (!Lo && Hi)
    return -1;
  return 0;
}

void collect(SymP C, std::vector<std::pair<SymP, SymP>> &Pairs) {
  if (C->K == SK::Cmp) {
    SymP A = C->Ops[0], B = C->Ops[1];
    if (A->Id > B->Id)
      std::swap(A, B);
    for (auto &Pr : Pairs)
      if (Pr.first == A && Pr.second == B)
        return;
    Pairs.push_back({A, B});
    return;
  }
  if ((C->K == SK::Un && C->Op == "!") ||
      (C->K == SK::Bin && (C->Op == "&&" || C->Op == "||")))
    for (SymP O : C->Ops)
      collect(O, Pairs);
}

void flatten(SymP S, llvm::StringRef Op, std::vector<SymP> &Out) {
  if (S->K == SK::Bin && S->Op == Op) {
    for (SymP O : S->Ops)
      flatten(O, Op, Out);
    return;
  }
  Out.push_back(S);
}

bool plainIndex(SymPool &P, SymP I) {
  return I->isInt() && I->T != Ty::Bool && !P.containsKind(I, SK::Load) &&
         !P.containsKind(I, SK::Reduce) && !P.containsKind(I, SK::Carried) &&
         !P.containsKind(I, SK::Undef) && !P.containsKind(I, SK::Select);
}

/// `X == Best` in either order: X, or null.
SymP eqOther(SymP C, SymP Best) {
  if (C->K != SK::Cmp || C->Op != "==")
    return nullptr;
  if (C->Ops[0] == Best)
    return C->Ops[1];
  if (C->Ops[1] == Best)
    return C->Ops[0];
  return nullptr;
}

/// The reduction over indices of an arg form: min for the first index,
/// max for the last; and the value of "no index" in it.
llvm::StringRef indexOp(bool Last) { return Last ? "max" : "min"; }
SymP noIndex(SymPool &P, bool Last) {
  return P.intc(Last ? SymPool::ArgLow : SymPool::ArgNone);
}

/// Whether \p I is the arg form (first index, or last with \p Last) of the
/// pairs whose Dir is \p Best.
bool argOf(SymPool &P, SymP I, SymP Best, llvm::StringRef Dir,
           bool Last = false) {
  if (!I->isInt())
    return false;
  std::vector<SymP> Leaves, Terms;
  flatten(Best, Dir, Leaves);
  flatten(I, indexOp(Last), Terms);
  std::set<SymP> Covered;
  SymP None = noIndex(P, Last);
  SymP Id = P.identity(Dir, Best->T);
  auto Leaf = [&](SymP X) {
    return std::find(Leaves.begin(), Leaves.end(), X) != Leaves.end();
  };
  bool Any = false;
  for (SymP T : Terms) {
    if (T == None)
      continue;
    if (T->K == SK::Reduce && T->Op == indexOp(Last)) {
      SymP It = T->Ops[0], Body = T->Ops[1];
      if (Body->K != SK::Select || Body->Ops[1] != It || Body->Ops[2] != None)
        return false;
      SymP G = eqOther(Body->Ops[0], Best);
      if (!G)
        return false;
      SymP R = P.reduce(Dir, It, G);
      if (!Leaf(R))
        return false;
      Covered.insert(R);
      Any = true;
      continue;
    }
    if (T->K == SK::Select && T->Ops[2] == None) {
      SymP V0 = eqOther(T->Ops[0], Best);
      if (!V0 || !plainIndex(P, T->Ops[1]))
        return false;
      if (!Leaf(V0) && V0 != Id)
        return false;
      Covered.insert(V0);
      Any = true;
      continue;
    }
    return false;
  }
  for (SymP L : Leaves)
    if (!Covered.count(L) && L != Id)
      return false;
  return Any;
}

/// \p I, the index of the pairs whose Dir is \p Best, as the arg form
/// (first or \p Last index) against \p M: null when it is not one.
SymP againstMax(SymPool &P, SymP I, SymP Best, llvm::StringRef Dir, SymP M,
                bool Last) {
  if (argOf(P, I, Best, Dir, Last))
    return P.subst(I, {{Best, M}});
  // A single pair: a value that is no reduction with a plain index.
  std::vector<SymP> Leaves;
  flatten(Best, Dir, Leaves);
  if (Leaves.size() == 1 && !P.containsKind(Best, SK::Reduce) &&
      plainIndex(P, I))
    return P.select(P.cmp("==", Best, M), I, noIndex(P, Last));
  return nullptr;
}

} // namespace kmarg

using namespace kmarg;

SymP SymPool::argSelect(SymP C, SymP A, SymP B) {
  if (C->T != Ty::Bool || C->K == SK::Cmp || A->T != B->T)
    return nullptr;
  std::vector<std::pair<SymP, SymP>> Pairs;
  collect(C, Pairs);
  if (Pairs.size() != 2)
    return nullptr;
  SymP A0 = A, B0 = B;
  if (A0->Id > B0->Id)
    std::swap(A0, B0);
  int Own = Pairs[0] == std::make_pair(A0, B0)   ? 0
            : Pairs[1] == std::make_pair(A0, B0) ? 1
                                                 : -1;
  if (Own < 0)
    return nullptr;
  auto Other = Pairs[1 - Own];
  // The values: A when it is above B (max) or below (min), whatever the
  // indices.
  if (auto T = table(C, A, B, Other.first, Other.second)) {
    llvm::StringRef D = strictDir(*T);
    if (!D.empty())
      return bin(D, A, B);
  }
  // The indices: the other pair are their values, in one orientation.
  if (!A->isInt())
    return nullptr;
  SymP Found = nullptr;
  for (int O = 0; O < 2; ++O) {
    SymP Va = O ? Other.second : Other.first;
    SymP Vb = O ? Other.first : Other.second;
    auto T = table(C, Va, Vb, A, B);
    if (!T || tieRule(*T) == 0)
      continue;
    // Ties to the smaller index: a first-index arg form; to the larger:
    // a last-index one.  Both sides must be of that form.
    bool Last = tieRule(*T) == -1;
    llvm::StringRef D = strictDir(*T);
    if (D.empty())
      continue;
    SymP M = bin(D, Va, Vb);
    SymP FA = againstMax(*this, A, Va, D, M, Last);
    SymP FB = againstMax(*this, B, Vb, D, M, Last);
    if (!FA || !FB)
      continue;
    SymP R = bin(indexOp(Last), FA, FB);
    if (Found && Found != R)
      return nullptr; // either orientation reads: ambiguous
    Found = R;
  }
  return Found;
}

std::string SymPool::argWhy(SymP C, SymP A, SymP B) {
  if (C->T != Ty::Bool || !A->isInt() || !B->isInt())
    return "";
  std::vector<std::pair<SymP, SymP>> Pairs;
  collect(C, Pairs);
  // Only the values compared (`if (ov > v) { v = ov; i = oi; }`): when
  // the indices are those of the values, ties keep one side.
  if (Pairs.size() == 1 && Pairs[0].first != A && Pairs[0].second != A) {
    auto T = table(C, Pairs[0].first, Pairs[0].second, nullptr, nullptr);
    llvm::StringRef D = T ? strictDir(*T) : "";
    for (int O = 0; O < 2 && !D.empty(); ++O) {
      SymP Va = O ? Pairs[0].second : Pairs[0].first;
      SymP Vb = O ? Pairs[0].first : Pairs[0].second;
      if (argOf(*this, A, Va, "max") || argOf(*this, A, Va, "min") ||
          argOf(*this, B, Vb, "max") || argOf(*this, B, Vb, "min"))
        return "equal values keep one side whatever the indices (no "
               "tie-break on the index), so which index wins depends on how "
               "the partial results meet";
    }
    return "";
  }
  if (Pairs.size() != 2)
    return "";
  for (int K = 0; K < 2; ++K) {
    auto Own = Pairs[K], Other = Pairs[1 - K];
    if (!((Own.first == A && Own.second == B) ||
          (Own.first == B && Own.second == A)))
      continue;
    auto T = table(C, Other.first, Other.second, A, B);
    if (!T || strictDir(*T).empty())
      continue;
    int Tie = tieRule(*T);
    if (Tie == -1)
      return "ties go to the larger index (the last occurrence) where the "
             "pairs meet, but the pairs it combines do not keep their last "
             "occurrence (a loop that takes a new index only on a strictly "
             "better value keeps its first): which index wins depends on how "
             "the partial results meet";
    // A last-index arg form anywhere in the indices combined (its "no
    // index" constant appears in nothing else).
    if (Tie == 1 && (contains(A, intc(ArgLow)) || contains(B, intc(ArgLow))))
      return "ties go to the smaller index (the first occurrence) where the "
             "pairs meet, but the pairs it combines keep their last "
             "occurrence (a loop that takes a new index on an equal value): "
             "which index wins depends on how the partial results meet";
    if (Tie == 0)
      return "equal values keep one side whatever the indices, so which "
             "index wins depends on how the partial results meet";
    return "the indices do not follow their values under this "
           "combination (partial arg-min results combined as an arg-max, or "
           "the reverse, or indices that are not the values' positions)";
  }
  return "";
}

SymP SymPool::argLoop(llvm::StringRef Dir, bool Strict, SymP It, SymP G,
                      SymP Val, SymP OldV, SymP OldI, std::string &Why) {
  // A strict comparison keeps the first of equal values, `>=` (`<=`) the
  // last.
  bool Last = !Strict;
  if (!plainIndex(*this, OldI)) {
    Why = "its initial value is not an integer known before the loop";
    return nullptr;
  }
  // The initial pair comes first: its index must not exceed the loop's.
  auto D = poly(bin("-", It->Ops[0], OldI));
  if (!D || D->size() > 1 ||
      (D->size() == 1 &&
       (!D->begin()->first.empty() || D->begin()->second < 0))) {
    Why = "its initial index is not known to come before the loop's first "
          "index, so which of the equal values a tie with the initial value "
          "keeps is not known";
    return nullptr;
  }
  SymP None = noIndex(*this, Last);
  SymP Init = select(cmp("==", OldV, Val), OldI, None);
  SymP Loop = reduce(indexOp(Last), It, select(cmp("==", G, Val), It, None));
  SymP R = bin(indexOp(Last), Init, Loop);
  if (!argOf(*this, R, Val, Dir, Last)) {
    Why = "the value is not a max or min accumulation the index can follow";
    return nullptr;
  }
  return R;
}

//===- LiftRowsGrid.cpp - atomic sums over the blocks of a grid -----------===//
// Rules: PK5002
//
// An atomicAdd whose address does not depend on blockIdx.x (out[0],
// out[blockIdx.y]) receives the contribution of every block along x:
//
//   out[a] = out[a] + sum over blocks b and contributing threads of V(b)
//
// and an atomicMax/atomicMin the max/min of them alike (a contribution
// the same in every block then counts once: max and min are idempotent).
//
// The block's trace gives V(b) symbolically in blockIdx.x, so the sum over
// the grid is read from it, term by term (the terms of every atomicAdd a
// block makes to one address):
//
//   - a grid-stride loop's reduction, started at K * blockIdx.x + c and
//     stepping by K * gridDim.x: the threads' starts c = 0 .. K-1 of every
//     block cover [0, step), so together they are one reduction from 0 by 1;
//   - a value f(K * blockIdx.x + c) of one element: over the grid, f(g) for
//     every g < K * gridDim.x once each when the c are 0 .. K-1; f must be
//     `g < E ? h(g) : 0` (a bound on g), the sum is h over [0, E), and the
//     launch must reach E (asserted when the kernel is traced).
//
// Anything else (a contribution that is the same in every block to a sum,
// a partial cover, another atomic operation, an integer sum) is refused
// with its reason.  The result
// is a trace whose one store per address is that accumulation at the row
// blockIdx.y (renamed blockIdx.x) or, for a fixed address, a single row.
//
//===----------------------------------------------------------------------===//
#include "LiftRowsImpl.h"

#include "llvm/Support/FormatVariadic.h"
#include <functional>
#include <set>

using namespace pk;
using namespace pk::nki;
using namespace pk::km;
using namespace clang;

namespace rowsgrid {

/// The conjuncts of \p C.
void conjuncts(SymP C, std::vector<SymP> &Out) {
  if (C && C->K == SK::Bin && C->Op == "&&") {
    for (SymP O : C->Ops)
      conjuncts(O, Out);
  } else if (C) {
    Out.push_back(C);
  }
}

/// Per address: the terms of the block's atomicAdds and the guard.
struct SumTarget {
  const ValueDecl *D = nullptr;
  SymP Idx = nullptr, Guard = nullptr;
  unsigned Thread = 0;
  std::vector<SymP> Terms;
  SourceLocation Loc;
};

/// One group of terms that meet over the grid.
struct Group {
  int64_t K = 0;
  std::set<int64_t> Starts;
  SymP Sum = nullptr;
  SymP Bound = nullptr; ///< element terms: the bound E on g
};

class Summer {
public:
  Summer(const Trace &Tr, SymPool &P)
      : Tr(Tr), P(P), Bx(P.blockIdx(0)), By(P.blockIdx(1)), Gx(P.gridDim(0)),
        Gy(P.gridDim(1)), G(P.atom(200)) {}

  rows::GridSum run();

private:
  const Trace &Tr;
  SymPool &P;
  SymP Bx, By, Gx, Gy, G;
  rows::GridSum R;
  SourceLocation Here;
  llvm::StringRef Op = "+"; ///< the atomic's operation: +, max, min

  bool fail(const std::string &M) {
    if (!R.Why)
      R.Why = Refusal{RuleId::PK5002, Here,
                      std::string(Op == "+"     ? "atomicAdd"
                                  : Op == "max" ? "atomicMax"
                                                : "atomicMin") +
                          ": the accumulation of every block into one "
                          "address is not a reduction the lifter models: " +
                          M,
                      true};
    return false;
  }
  /// Whether \p S is the same in every block along x.
  bool blockFree(SymP S) {
    return !P.contains(S, Bx) && !P.contains(S, Gx) && !P.contains(S, G);
  }
  bool term(SymP X, std::map<std::string, Group> &Groups,
            std::vector<SymP> &Fixed);
  std::optional<SymP> linear(SymP S, int64_t &K, std::optional<int64_t> &C,
                             std::map<SymP, SymP> &Memo);
};

/// \p S with every K * blockIdx.x + c replaced by the global coordinate G:
/// one K and one c for the whole term (one thread's element).
std::optional<SymP> Summer::linear(SymP S, int64_t &K,
                                   std::optional<int64_t> &C,
                                   std::map<SymP, SymP> &Memo) {
  if (!P.contains(S, Bx))
    return S;
  auto It = Memo.find(S);
  if (It != Memo.end())
    return It->second;
  SymP Out = nullptr;
  // An integer sum of products is rewritten whole; a load, select or cast
  // (an atom of its polynomial) is rewritten in its operands.
  std::optional<Poly> Pl;
  if (S->isInt() && S->T != Ty::Bool && S->K != SK::Load &&
      S->K != SK::Select && S->K != SK::Cast)
    Pl = P.poly(S);
  if (Pl) {
    Poly Q;
    int64_t Const = 0;
    bool Seen = false;
    for (auto &[M, Co] : *Pl) {
      if (M.empty()) {
        Const = Co;
        continue;
      }
      if (M.size() == 1 && M[0] == Bx) {
        if (Seen || Co <= 0 || (K && K != Co))
          return std::nullopt;
        K = Co;
        Seen = true;
        continue;
      }
      for (SymP A : M)
        if (P.contains(A, Bx))
          return std::nullopt;
      Q.add(M, Co);
    }
    if (!Seen || (C && *C != Const) || Const < 0 || Const >= K)
      return std::nullopt;
    C = Const;
    Q.add(Mono{G}, 1);
    Out = P.fromPoly(Q, S->T);
  } else {
    std::vector<SymP> Ops;
    for (SymP O : S->Ops) {
      auto L = linear(O, K, C, Memo);
      if (!L)
        return std::nullopt;
      Ops.push_back(*L);
    }
    Out = P.rebuild(S, Ops);
    if (!Out)
      return std::nullopt;
  }
  Memo[S] = Out;
  return Out;
}

bool Summer::term(SymP X, std::map<std::string, Group> &Groups,
                  std::vector<SymP> &Fixed) {
  if (X->K == SK::Reduce && X->Op == Op) {
    // A grid-stride loop: start K * blockIdx.x + c, step K * gridDim.x.
    SymP It = X->Ops[0];
    auto St = P.poly(It->Ops[0]), Sp = P.poly(It->Ops[2]);
    SymP E = It->Ops[1];
    if (!St || !Sp || Sp->size() != 1 || Sp->begin()->first != Mono{Gx} ||
        !blockFree(E))
      return fail("a loop whose iterations are not spread over the grid "
                  "(start blockIdx.x * K + c, step K * gridDim.x)");
    int64_t K = Sp->begin()->second, C = 0;
    for (auto &[M, Co] : *St) {
      if (M.empty())
        C = Co;
      else if (M != Mono{Bx} || Co != K)
        return fail("a loop whose iterations are not spread over the grid "
                    "(start blockIdx.x * K + c, step K * gridDim.x)");
    }
    SymP Full = P.iter(nullptr, P.intc(0), E, P.intc(1));
    SymP Body = P.subst(X->Ops[1], {{It, Full}});
    if (!blockFree(Body))
      return fail("a loop whose terms depend on the block otherwise than "
                  "through its variable");
    Group &Gr = Groups["r" + std::to_string(K) + "/" + std::to_string(E->Id) +
                       "/" + std::to_string(P.acHash(Body))];
    Gr.K = K;
    Gr.Sum = P.reduce(Op, Full, Body);
    if (!Gr.Starts.insert(C).second || C < 0 || C >= K)
      return fail("two threads reduce the same iterations");
    return true;
  }
  if (!P.contains(X, Bx) && Op != "+" && blockFree(X)) {
    Fixed.push_back(X); // max/min: once, whatever the number of blocks
    return true;
  }
  if (!P.contains(X, Bx))
    return fail("a contribution that is the same in every block (its sum "
                "depends on the number of blocks)");
  if (P.containsKind(X, SK::Reduce))
    return fail("a loop inside a contribution of one element");
  int64_t K = 0;
  std::optional<int64_t> C;
  std::map<SymP, SymP> Memo;
  auto F = linear(X, K, C, Memo);
  if (!F || !C || P.contains(*F, Bx) || P.contains(*F, Gx))
    return fail("a contribution that is not a function of the thread's "
                "global index blockIdx.x * K + c");
  // f(g) = (g < E && rest) ? h : 0.
  std::vector<SymP> Conds;
  SymP H = *F;
  SymP Id = P.identity(Op, H->T);
  while (H->K == SK::Select && H->Ops[2] == Id) {
    conjuncts(H->Ops[0], Conds);
    H = H->Ops[1];
  }
  SymP Bound = nullptr, Rest = nullptr;
  for (SymP Cd : Conds) {
    if (Cd->K == SK::Cmp && !Bound) {
      SymP A = Cd->Ops[0], B = Cd->Ops[1];
      llvm::StringRef Op = Cd->Op;
      if (B == G) {
        std::swap(A, B);
        Op = Op == ">" ? "<" : Op == ">=" ? "<=" : Op == "<" ? ">" : ">=";
      }
      if (A == G && !P.contains(B, G) && (Op == "<" || Op == "<=")) {
        Bound = Op == "<" ? B : P.bin("+", B, P.intc(1));
        continue;
      }
    }
    if (P.contains(Cd, G))
      return fail("a condition on the thread's global index that is not one "
                  "bound `g < n`");
    Rest = Rest ? P.logicalAnd(Rest, Cd) : Cd;
  }
  if (!Bound)
    return fail("contributions of one element each with no bound on the "
                "global index (the elements summed depend on the grid)");
  if (Rest)
    H = P.select(Rest, H, Id);
  SymP Full = P.iter(nullptr, P.intc(0), Bound, P.intc(1));
  SymP Body = P.subst(H, {{G, Full}});
  Group &Gr = Groups["m" + std::to_string(K) + "/" +
                     std::to_string(Bound->Id) + "/" +
                     std::to_string(P.acHash(Body))];
  Gr.K = K;
  Gr.Bound = Bound;
  Gr.Sum = P.reduce(Op, Full, Body);
  if (!Gr.Starts.insert(*C).second)
    return fail("two threads add the same element");
  return true;
}

rows::GridSum Summer::run() {
  bool Any = false;
  for (const Store &St : Tr.Stores)
    Any |= !St.Acc.empty() && !P.contains(St.Idx, Bx);
  if (!Any)
    return R;
  R.Applies = true;
  std::vector<SumTarget> Targets;
  for (const Store &St : Tr.Stores) {
    Here = St.Loc;
    if (!St.Acc.empty() && Targets.empty())
      Op = St.Acc;
    if (St.Acc != Op || P.contains(St.Idx, Bx) || P.contains(St.Idx, Gx)) {
      fail("only atomicAdd, atomicMax or atomicMin (one of them) into "
           "addresses that do not depend on blockIdx.x is combined over the "
           "grid, and no other store may go with it");
      return R;
    }
    if (!isFloatTy(St.Val->T) &&
        (Op == "+" || (St.Val->T != Ty::I32 && St.Val->T != Ty::U32))) {
      fail(Op == "+" ? "an integer accumulation (the engines add in float32)"
           : St.Val->T == Ty::I64
               ? "an atomicMax/atomicMin of 64-bit integers (NKI tiles "
                 "hold no 64-bit integers; int32 and uint32 are lowered "
                 "exactly)"
               : "an atomicMax/atomicMin of integers other than int32 and "
                 "uint32 (only they have an exact lowering)");
      return R;
    }
    // A condition on blockIdx.x selects contributions: it goes into the
    // value; the rest stays the guard, and holds inside the value.
    std::vector<SymP> Cs;
    conjuncts(St.Guard, Cs);
    SymP Keep = nullptr, Move = nullptr;
    std::map<SymP, SymP> True;
    for (SymP C : Cs) {
      if (P.contains(C, Bx) || P.contains(C, Gx)) {
        Move = Move ? P.logicalAnd(Move, C) : C;
      } else {
        Keep = Keep ? P.logicalAnd(Keep, C) : C;
        True[C] = P.boolc(true);
      }
    }
    SymP Val =
        Move ? P.select(Move, St.Val, P.identity(Op, St.Val->T)) : St.Val;
    if (!True.empty())
      Val = P.subst(Val, True);
    SumTarget *T = nullptr;
    for (SumTarget &X : Targets)
      if (X.D == St.P && X.Idx == St.Idx && X.Guard == Keep)
        T = &X;
    if (!T) {
      Targets.push_back(SumTarget{St.P, St.Idx, Keep, St.Thread, {}, St.Loc});
      T = &Targets.back();
    }
    std::function<void(SymP)> Flat = [&](SymP X) {
      if (X->K == SK::Bin && X->Op == Op && (Op != "+" || isFloatTy(X->T)))
        for (SymP O : X->Ops)
          Flat(O);
      else
        T->Terms.push_back(X);
    };
    Flat(Val);
  }
  Trace Out = Tr;
  Out.Stores.clear();
  std::map<SymP, SymP> ToX{{By, Bx}, {Gy, Gx}};
  for (SumTarget &T : Targets) {
    Here = T.Loc;
    std::map<std::string, Group> Groups;
    std::vector<SymP> Fixed;
    for (SymP X : T.Terms)
      if (!term(X, Groups, Fixed))
        return R;
    SymP Sum = nullptr;
    for (SymP X : Fixed)
      Sum = Sum ? P.bin(Op, Sum, X) : X;
    for (auto &[Key, Gr] : Groups) {
      if (int64_t(Gr.Starts.size()) != Gr.K || *Gr.Starts.begin() != 0 ||
          *Gr.Starts.rbegin() != Gr.K - 1) {
        fail("the threads' contributions do not cover the grid exactly once "
             "(a tree or shuffle over part of the block, at this block "
             "shape)");
        return R;
      }
      if (Gr.Bound) {
        if (Gr.K % int64_t(Tr.Shape.X)) {
          fail("elements spread over the blocks by a multiple of something "
               "else than the block size");
          return R;
        }
        std::string Lhs = "grid_x * block_x";
        if (Gr.K != int64_t(Tr.Shape.X))
          Lhs += " * " + std::to_string(Gr.K / int64_t(Tr.Shape.X));
        R.Reach.push_back({Lhs, P.subst(Gr.Bound, ToX)});
      }
      Sum = Sum ? P.bin(Op, Sum, Gr.Sum) : Gr.Sum;
    }
    // The row: blockIdx.y, renamed blockIdx.x for the row program; a fixed
    // address is the one row of a single-row program.
    SymP Idx = T.Idx, Guard = T.Guard;
    if (P.contains(Idx, P.blockIdx(2)) || P.contains(Sum, P.blockIdx(2))) {
      fail("an address or value that depends on blockIdx.z");
      return R;
    }
    if (P.contains(Sum, Bx) || P.contains(Sum, Gx)) {
      fail("a sum that still depends on the block");
      return R;
    }
    std::string RowGrid;
    if (P.contains(Idx, By)) {
      RowGrid = "grid_y";
    } else if (Idx == P.intc(0)) {
      Idx = Bx;
      SymP One = P.cmp("<", Bx, P.intc(1));
      Guard = Guard ? P.logicalAnd(Guard, One) : One;
    } else {
      fail("an accumulation into an element other than the first or "
           "out[blockIdx.y]");
      return R;
    }
    if (!Out.Stores.empty() && R.RowGrid != RowGrid) {
      fail("accumulations into fixed elements and into rows together");
      return R;
    }
    R.RowGrid = RowGrid;
    Out.Stores.push_back(
        Store{T.Thread, T.D, P.subst(Idx, ToX), P.subst(Sum, ToX),
              Guard ? P.subst(Guard, ToX) : nullptr, Op, T.Loc});
  }
  R.Tr = std::move(Out);
  return R;
}

} // namespace rowsgrid

rows::GridSum rows::sumOverGrid(const Trace &Tr, SymPool &P) {
  return rowsgrid::Summer(Tr, P).run();
}

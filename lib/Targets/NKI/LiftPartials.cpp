//===- LiftPartials.cpp - per-block partial sums of a 1-D input -----------===//
// Rules: PK5004, PK5007, PK5008
//
// A kernel whose every global store is `out[blockIdx.x] = v` by one thread
// (after a tree, shuffles, a last warp in a helper: however the block's
// values met) computes per-block partial sums when v, as the kernel model
// executes one block, is a sum of terms that each read the input at an
// element x of the block (partial maxima and minima alike: v a max or min
// of such terms and of constants the threads start from, each element
// counted at least once, as max and min are idempotent):
//
//   - a grid-stride loop's reduction, its variable i from W * blockIdx.x + c
//     by W * gridDim.x while i < E, of g(i + d) (under `i + d < B` checks):
//     the elements x = i + d, that is x = k * W * gridDim.x + blockIdx.x * W
//     + (c + d) for k = 0, 1, ... while x < N;
//   - or one element x = W * blockIdx.x + e under `x < N`.
//
// N is the least of the loop's end and the checks' bounds, seen from the
// element; every term must have the same N and the same element function
// g, and the terms' offsets c + d (or e) must be 0 .. W - 1 once each:
// then out[b] is the sum of g(x) over every x < N whose chunk of W
// elements is b modulo gridDim.x (the grid-stride loop) or is b (one chunk
// per block) -- the affine set the block's reduction covers.  Anything
// else about such a kernel (an offset twice or missing, a step that is not
// the chunk times the grid, bounds that differ) is refused with its reason.
//
// The tile program puts the blocks on the partitions (128 per tile) and,
// per round k0, the chunks of the round's whole rows as one [nr, W] tile
// in[lo:hi].reshape((nr, W)) and the round's last partial chunk as one
// [1, rem] row on its block's partition; g is computed on them,
// tensor_reduce folds each row, a (P, 1) accumulator per output adds the
// rounds, and dma_copy stores it to out[b0:b1].  The launch must be a block
// shape at which the kernel model proved the reading (asserted).
//
//===----------------------------------------------------------------------===//
#include "LiftLower.h"
#include "LiftRowsImpl.h"
#include "LiftSym.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <tuple>

using namespace pk;
using namespace pk::nki;
using namespace pk::km;
using namespace clang;

namespace partials {

enum : unsigned { ElemTag = 2000 };

/// One term of a sum: F under the conjunction Conds.
struct Term {
  std::vector<SymP> Conds;
  SymP F;
};

/// Where a term reads the input: the element x = Base + Off, its bound and
/// its function of the element.
struct Elem {
  int64_t Off = 0;
  SymP N = nullptr, H = nullptr;
};

class Reader {
public:
  Reader(const Trace &Tr, SymPool &P, const BlockShape &S)
      : Tr(Tr), P(P), S(S), Bx(P.blockIdx(0)), X(P.atom(ElemTag)) {}
  rows::PartialVerdict run();

private:
  const Trace &Tr;
  SymPool &P;
  BlockShape S;
  SymP Bx, X;
  rows::PartialVerdict V;
  SourceLocation Here;

  /// \p S in the kernel's names where it has them (messages).
  std::string text(SymP S) {
    if (auto E = pySize(S))
      return E->pyAtom();
    if (S->K == SK::Param && S->D)
      return S->D->getName().str();
    if (S->K == SK::Iter)
      return "i";
    if (S->K == SK::Load && S->D)
      return S->D->getName().str() + "[" + text(S->Ops[0]) + "]";
    if (S->K == SK::Cast)
      return text(S->Ops[0]);
    if ((S->K == SK::Bin || S->K == SK::Cmp) && S->Ops.size() == 2)
      return "(" + text(S->Ops[0]) + " " + S->Op.str() + " " +
             text(S->Ops[1]) + ")";
    return P.str(S);
  }
  bool refuse(RuleId R, std::string M) {
    V.NotMine = false;
    if (!V.Why)
      V.Why = Refusal{R, Here, std::move(M), /*Definite=*/true};
    return false;
  }
  /// How the terms meet ("+", "max", "min"), and for max/min the
  /// constants among them (the threads' starting values).
  std::string Op = "+";
  std::vector<double> Consts;
  /// max/min: constants under one condition (`i < n ? x[i] : -FLT_MAX`:
  /// a thread past the end contributes the constant).
  std::vector<Term> CondConsts;
  /// "partial sum", "partial max", "partial min" (messages).
  std::string what() const {
    return Op == "+" ? "partial sum" : "partial " + Op;
  }
  /// \p S as a sum (max, min: Op) of terms under conditions (selects
  /// split, the two sides of a condition met again where their terms
  /// agree); Op's identity is no term.
  void linear(SymP S, std::vector<SymP> Conds, std::vector<Term> &Out);
  void merge(std::vector<Term> &Ts);
  /// The polynomial of \p S as  Coef * A + Rest  (Rest free of A).
  bool split(SymP S, SymP A, int64_t &Coef, Poly &Rest);
  std::optional<Elem> element(const Term &T, SymP Base, int64_t W,
                              int64_t Start);
  bool output(SymP Val, rows::PartialOut &O, rows::PartialProgram &Pr);
};

void Reader::linear(SymP S, std::vector<SymP> Conds, std::vector<Term> &Out) {
  // A value shared many times over is not a block's sum of its threads'
  // terms: leave it whole (it is then no partial sum).
  if (Out.size() > 65536) {
    Out.push_back({Conds, P.undef()});
    return;
  }
  if (S->K == SK::Bin && S->Op == Op && !S->isInt()) {
    linear(S->Ops[0], Conds, Out);
    linear(S->Ops[1], Conds, Out);
    return;
  }
  if (S->K == SK::Select) {
    std::vector<SymP> A = Conds, B = Conds;
    A.push_back(S->Ops[0]);
    B.push_back(P.logicalNot(S->Ops[0]));
    linear(S->Ops[1], A, Out);
    linear(S->Ops[2], B, Out);
    return;
  }
  if (S->K == SK::Flt && (Op == "+"     ? S->F == 0
                          : Op == "max" ? S->F == -INFINITY
                                        : S->F == INFINITY))
    return;
  std::vector<SymP> Cs;
  bool Dead = false;
  std::function<void(SymP)> Conj = [&](SymP C) {
    if (C->K == SK::Bin && C->Op == "&&") {
      Conj(C->Ops[0]);
      Conj(C->Ops[1]);
    } else if (C->isConst()) {
      Dead |= C->K == SK::Int ? C->I == 0 : C->F == 0;
    } else {
      Cs.push_back(C);
    }
  };
  for (SymP C : Conds)
    Conj(C);
  if (Dead)
    return;
  std::sort(Cs.begin(), Cs.end(),
            [](SymP A, SymP B) { return A->Id < B->Id; });
  Cs.erase(std::unique(Cs.begin(), Cs.end()), Cs.end());
  Out.push_back({Cs, S});
}

void Reader::merge(std::vector<Term> &Ts) {
  // f under G && c plus f under G && !c is f under G.  The pairs are
  // merged in the order of a scan that restarts after each merge (the
  // first term I that has a partner J > I, with its first partner); the
  // partners are found through an index of each term's conditions less
  // one, so a block of many threads' terms is not a cubic scan.
  using Key = std::tuple<SymP, std::vector<SymP>, SymP>;
  // (F, conditions less c, c) -> terms; (F, conditions less c, !c) ->
  // terms (a partner's c' may be the negation of c, or c of c').
  std::map<Key, std::set<size_t>> Has, NegHas;
  std::vector<char> Live(Ts.size(), 1);
  auto Rest = [](const std::vector<SymP> &Cs, size_t K) {
    std::vector<SymP> R;
    R.reserve(Cs.size() - 1);
    for (size_t I = 0; I < Cs.size(); ++I)
      if (I != K)
        R.push_back(Cs[I]);
    return R;
  };
  auto Index = [&](size_t I, bool Add) {
    const Term &T = Ts[I];
    for (size_t K = 0; K < T.Conds.size(); ++K) {
      std::vector<SymP> R = Rest(T.Conds, K);
      Key A{T.F, R, T.Conds[K]}, B{T.F, std::move(R), P.logicalNot(T.Conds[K])};
      if (Add) {
        Has[A].insert(I);
        NegHas[B].insert(I);
      } else {
        Has[A].erase(I);
        NegHas[B].erase(I);
      }
    }
  };
  // The partners of I: J with conditions of I's less c plus !c (or c' with
  // !c' == c); Below: those before I, else those after it.
  auto Partners = [&](size_t I, bool Below) {
    std::set<size_t> Out;
    const Term &T = Ts[I];
    for (size_t K = 0; K < T.Conds.size(); ++K) {
      std::vector<SymP> R = Rest(T.Conds, K);
      for (auto *M : {&Has, &NegHas}) {
        Key Q = M == &Has ? Key{T.F, R, P.logicalNot(T.Conds[K])}
                          : Key{T.F, R, T.Conds[K]};
        auto It = M->find(Q);
        if (It == M->end())
          continue;
        for (size_t J : It->second)
          if (J != I && Live[J] && (Below ? J < I : J > I))
            Out.insert(J);
      }
    }
    return Out;
  };
  for (size_t I = 0; I < Ts.size(); ++I)
    Index(I, true);
  for (size_t I = 0; I < Ts.size();) {
    if (!Live[I]) {
      ++I;
      continue;
    }
    std::set<size_t> Js = Partners(I, false);
    if (Js.empty()) {
      ++I;
      continue;
    }
    size_t J = *Js.begin();
    // The conditions both have, in I's order.
    std::set<SymP> SJ(Ts[J].Conds.begin(), Ts[J].Conds.end());
    std::vector<SymP> Both;
    for (SymP C : Ts[I].Conds)
      if (SJ.count(C))
        Both.push_back(C);
    Index(I, false);
    Index(J, false);
    Live[J] = 0;
    Ts[I].Conds = std::move(Both);
    Index(I, true);
    // Earlier terms had no partner but may pair with I now.
    std::set<size_t> Ks = Partners(I, true);
    if (!Ks.empty())
      I = *Ks.begin();
  }
  std::vector<Term> Out;
  for (size_t I = 0; I < Ts.size(); ++I)
    if (Live[I])
      Out.push_back(std::move(Ts[I]));
  Ts = std::move(Out);
}

bool Reader::split(SymP S, SymP A, int64_t &Coef, Poly &Rest) {
  auto Pl = P.poly(S);
  if (!Pl)
    return false;
  Coef = 0;
  Rest = Poly();
  for (auto &[M, C] : *Pl) {
    unsigned N = 0;
    for (SymP At : M)
      N += At == A;
    if (N > 1)
      return false;
    if (N == 1) {
      if (M.size() != 1)
        return false;
      Coef = C;
    } else {
      Rest.add(M, C);
    }
  }
  return true;
}

/// The element a term reads: every load of F at Base + d (Base the loop's
/// variable, or W * blockIdx.x), its bound from the conditions (and the
/// loop's end \p End, when Base is a loop's variable).
std::optional<Elem> Reader::element(const Term &T, SymP Base, int64_t W,
                                    int64_t Start) {
  bool Loop = Base->K == SK::Iter;
  std::optional<int64_t> D;
  bool Bad = false;
  std::function<SymP(SymP)> Rebuild = [&](SymP S) -> SymP {
    if (S->K == SK::Load) {
      int64_t C = 0;
      Poly Rest;
      if (!split(S->Ops[0], Base, C, Rest) || C != (Loop ? 1 : W) ||
          (!Rest.empty() && (Rest.size() != 1 || !Rest.begin()->first.empty())) ||
          (D && *D != (Rest.empty() ? 0 : Rest.begin()->second))) {
        Bad = true;
        return S;
      }
      D = Rest.empty() ? 0 : Rest.begin()->second;
      return P.load(S->D, X, S->T);
    }
    if (S->Ops.empty() || S->K == SK::Reduce)
      return S;
    std::vector<SymP> Ops;
    for (SymP O : S->Ops)
      Ops.push_back(Rebuild(O));
    return P.rebuild(S, Ops);
  };
  SymP H = Rebuild(T.F);
  if (Bad)
    return refuse(RuleId::PK5007,
                  "a term of the " + what() +
                      " reads the input at another "
                      "index than the element it visits plus a constant (" +
                      text(T.F) + ")"),
           std::nullopt;
  if (!D)
    return refuse(RuleId::PK5007, "a term of the " + what() +
                                      " that reads no "
                                      "input element (" +
                                      text(T.F) + ")"),
           std::nullopt;
  if (P.contains(H, Base) || P.contains(H, Bx) ||
      P.containsKind(H, SK::Iter) || P.containsKind(H, SK::Undef) ||
      P.containsKind(H, SK::Reduce) || P.containsKind(H, SK::Carried))
    return refuse(RuleId::PK5007,
                  "the element's index, another loop's variable or a value "
                  "no thread wrote is used in a term of the " +
                      what()),
           std::nullopt;
  // The bounds on the element x = Base + D (W * blockIdx.x + D).
  std::vector<SymP> Bounds;
  if (Loop)
    Bounds.push_back(P.bin("+", Base->Ops[1], P.intc(*D)));
  for (SymP C : T.Conds) {
    SymP L = C->K == SK::Cmp ? C->Ops[0] : nullptr;
    SymP R = C->K == SK::Cmp ? C->Ops[1] : nullptr;
    llvm::StringRef Op = C->K == SK::Cmp ? C->Op : "";
    if (Op == ">" || Op == ">=") {
      std::swap(L, R);
      Op = Op == ">" ? "<" : "<=";
    }
    int64_t Cf = 0;
    Poly Rest;
    if ((Op != "<" && Op != "<=") || !split(P.bin("-", L, R), Base, Cf, Rest) ||
        Cf != (Loop ? 1 : W))
      return refuse(RuleId::PK5007,
                    "a term of the " + what() +
                        " under a condition that is "
                        "not a bound `element < size` on the element it reads "
                        "(" +
                        text(C) + ")"),
             std::nullopt;
    for (auto &[M, K] : Rest)
      for (SymP At : M)
        if (At->K != SK::Param && At->K != SK::GridDim)
          return refuse(RuleId::PK5007,
                        "a bound on the element that is not an expression "
                        "of the sizes (" + text(C) + ")"),
                 std::nullopt;
    // Base * Cf + Rest < 0: x = Base(*W) + D < D - Rest (+1 for <=).
    Poly B = Rest * -1 + Poly::constant(*D + (Op == "<=" ? 1 : 0));
    if (B.overflowed())
      return refuse(RuleId::PK5007, "a bound beyond 64-bit integers"),
             std::nullopt;
    Bounds.push_back(P.fromPoly(B, Ty::I64));
  }
  if (Bounds.empty())
    return refuse(RuleId::PK5007,
                  "an element read without a bound check: the input's "
                  "length is not known (" + text(T.F) + ")"),
           std::nullopt;
  // The least bound: the others exceed it by a constant.
  SymP N = nullptr;
  for (SymP C : Bounds) {
    bool Least = true;
    for (SymP O : Bounds) {
      auto Dif = P.poly(P.bin("-", O, C));
      if (!Dif || Dif->size() > 1 ||
          (Dif->size() == 1 &&
           (!Dif->begin()->first.empty() || Dif->begin()->second < 0)))
        Least = false;
    }
    if (Least) {
      N = C;
      break;
    }
  }
  if (!N)
    return refuse(RuleId::PK5007,
                  "bounds on one element that differ by more than a "
                  "constant (which one holds depends on the sizes)"),
           std::nullopt;
  Elem E;
  E.Off = Start + *D;
  E.N = P.fromPoly(*P.poly(N), Ty::I64);
  E.H = H;
  return E;
}

bool Reader::output(SymP Val, rows::PartialOut &O, rows::PartialProgram &Pr) {
  // A max or min of the block's values (a float max at the top, or one
  // grid-stride reduction), else a sum.
  Op = "+";
  Consts.clear();
  CondConsts.clear();
  if ((Val->K == SK::Bin || Val->K == SK::Reduce) && !Val->isInt() &&
      (Val->Op == "max" || Val->Op == "min"))
    Op = Val->Op.str();
  std::vector<Term> Ts;
  linear(Val, {}, Ts);
  merge(Ts);
  if (Op != "+") {
    // The starting values: constants, under no condition.
    std::vector<Term> Rest;
    for (Term &T : Ts) {
      if (T.F->K == SK::Flt && T.Conds.empty())
        Consts.push_back(T.F->F);
      else if (T.F->K == SK::Flt)
        CondConsts.push_back(std::move(T));
      else
        Rest.push_back(std::move(T));
    }
    Ts = std::move(Rest);
  }
  // The shape first: each term a grid-stride reduction started at W *
  // blockIdx.x + c by M * gridDim.x, or a value of loads at W * blockIdx.x
  // + e; anything else is not a partial sum.
  struct Part {
    const Term *T;
    SymP Base;
    int64_t W, Start, M;
  };
  std::vector<Part> Parts;
  for (const Term &T : Ts) {
    Part Pa{&T, nullptr, 0, 0, 0};
    if (T.F->K == SK::Reduce) {
      SymP It = T.F->Ops[0];
      int64_t W = 0, M = 0;
      Poly Rest, SRest;
      if (!T.Conds.empty() || T.F->Op != Op || It->K != SK::Iter ||
          !split(It->Ops[0], Bx, W, Rest) || W <= 0 ||
          (!Rest.empty() &&
           (Rest.size() != 1 || !Rest.begin()->first.empty())) ||
          !split(It->Ops[2], P.gridDim(0), M, SRest) || M <= 0 ||
          !SRest.empty())
        return false;
      Pa.Base = It;
      Pa.W = W;
      Pa.M = M;
      Pa.Start = Rest.empty() ? 0 : Rest.begin()->second;
    } else {
      // The loads' index W * blockIdx.x + e.
      int64_t W = 0;
      bool Any = false, Other = false;
      std::set<SymP> Seen;
      std::function<void(SymP)> Walk = [&](SymP S) {
        if (!Seen.insert(S).second)
          return;
        if (S->K == SK::Load) {
          int64_t C = 0;
          Poly Rest;
          if (!split(S->Ops[0], Bx, C, Rest) || C <= 0 || (W && C != W))
            Other = true;
          W = C;
          Any = true;
          return;
        }
        if (S->K == SK::Reduce)
          Other = true;
        for (SymP Op : S->Ops)
          Walk(Op);
      };
      Walk(T.F);
      if (!Any || Other)
        return false;
      Pa.Base = Bx;
      Pa.W = W;
    }
    Parts.push_back(Pa);
  }
  // One element per block is a map, not a sum.
  if (Parts.empty() || (Parts.size() == 1 && Parts[0].Base == Bx))
    return false;
  // A partial sum: what it covers must be exact.
  V.NotMine = false;
  bool Stride = Parts[0].Base->K == SK::Iter;
  int64_t W = Parts[0].W;
  std::vector<int64_t> Offs;
  SymP N = nullptr, H = nullptr;
  /// The offsets of the elements read under each single condition.
  std::map<SymP, std::vector<int64_t>> OffUnder;
  for (const Part &Pa : Parts) {
    if ((Pa.Base->K == SK::Iter) != Stride)
      return refuse(RuleId::PK5007,
                    "a " + what() +
                        " of both grid-stride loops and elements "
                        "read once per block");
    if (Pa.W != W)
      return refuse(RuleId::PK5007,
                    llvm::formatv("terms of the {2} start {0} and "
                                  "{1} elements apart from block to block",
                                  W, Pa.W, what())
                        .str());
    if (Stride && Pa.M != W)
      return refuse(
          RuleId::PK5007,
          llvm::formatv("a grid-stride loop that steps by {0} * gridDim.x "
                        "while each block starts {1} elements after the "
                        "previous one: the blocks' elements overlap or leave "
                        "gaps",
                        Pa.M, W)
              .str());
    std::vector<Term> Body;
    if (Stride) {
      linear(Pa.T->F->Ops[1], {}, Body);
      merge(Body);
    } else {
      Body.push_back(*Pa.T);
    }
    for (const Term &T : Body) {
      auto E = element(T, Pa.Base, W, Pa.Start);
      if (!E)
        return false;
      if (!Stride && T.Conds.size() == 1)
        OffUnder[T.Conds[0]].push_back(E->Off);
      if ((N && E->N != N) || (H && E->H != H))
        return refuse(RuleId::PK5007,
                      N && E->N != N ? "terms of the " + what() +
                                           " bounded by different "
                                           "sizes (" +
                                           text(N) + ", " + text(E->N) + ")"
                                     : "terms of the " + what() +
                                           " that apply different "
                                           "functions to the elements");
      N = E->N;
      H = E->H;
      Offs.push_back(E->Off);
    }
  }
  std::sort(Offs.begin(), Offs.end());
  // A max or min counts an element twice alike.
  if (Op != "+")
    Offs.erase(std::unique(Offs.begin(), Offs.end()), Offs.end());
  for (size_t I = 0; I < Offs.size(); ++I) {
    if (Offs[I] < 0 || Offs[I] >= W)
      return refuse(RuleId::PK5004,
                    llvm::formatv("the value stored for block b reads "
                                  "element b * {0} + {1}, outside the "
                                  "block's chunk of {0}: the blocks' "
                                  "elements overlap",
                                  W, Offs[I])
                        .str());
    if (I && Offs[I] == Offs[I - 1])
      return refuse(RuleId::PK5004,
                    llvm::formatv("the value stored for block b counts "
                                  "element b * {0} + {1} of its chunk more "
                                  "than once",
                                  W, Offs[I])
                        .str());
  }
  if (int64_t(Offs.size()) != W) {
    int64_t Missing = 0;
    for (size_t I = 0; I < Offs.size() && Offs[I] == Missing; ++I)
      ++Missing;
    return refuse(RuleId::PK5004,
                  llvm::formatv("the value stored for block b leaves out "
                                "element b * {0} + {1} of the chunk of {0} "
                                "elements its threads visit (a tree or "
                                "shuffle over fewer threads than hold "
                                "partial values, at this block shape)",
                                W, Missing)
                      .str());
  }
  if (Pr.W && (Pr.W != W || Pr.Stride != Stride || Pr.N != N))
    return refuse(RuleId::PK5007, "outputs that partition the input "
                                  "differently");
  // A constant under a condition is the value of a thread whose element
  // is past the end: each condition must negate an element's bound, all
  // the constants must be one, and the block's last element must be among
  // those elements (then exactly the blocks that are not whole take it).
  bool Last = false;
  for (const Term &C : CondConsts) {
    SymP Cond = C.Conds.size() == 1 ? C.Conds[0] : nullptr;
    auto It = Cond ? OffUnder.find(P.logicalNot(Cond)) : OffUnder.end();
    if (Stride || It == OffUnder.end())
      return refuse(RuleId::PK5007,
                    llvm::formatv("the {0} takes the constant {1} under a "
                                  "condition that is not an element past the "
                                  "end ({2})",
                                  what(), pyFloat(C.F->F),
                                  Cond ? text(Cond) : std::string("several"))
                        .str());
    if (O.CondInit && *O.CondInit != C.F->F)
      return refuse(RuleId::PK5007,
                    llvm::formatv("threads past the end contribute different "
                                  "constants ({0}, {1}) to the {2}",
                                  pyFloat(*O.CondInit), pyFloat(C.F->F), what())
                        .str());
    O.CondInit = C.F->F;
    Last |= std::find(It->second.begin(), It->second.end(), W - 1) !=
            It->second.end();
  }
  if (O.CondInit && !Last)
    return refuse(RuleId::PK5007,
                  llvm::formatv("the {0} takes the constant {1} for some "
                                "threads past the end but not for the "
                                "block's last one: whether a block that is "
                                "not whole takes it depends on the size",
                                what(), pyFloat(*O.CondInit))
                      .str());
  Pr.W = W;
  Pr.Stride = Stride;
  Pr.N = N;
  O.H = H;
  O.Op = Op;
  if (!Consts.empty())
    O.Init = Op == "max" ? *std::max_element(Consts.begin(), Consts.end())
                         : *std::min_element(Consts.begin(), Consts.end());
  return true;
}

rows::PartialVerdict Reader::run() {
  if (Tr.Stores.empty() || S.Y != 1 || S.Z != 1)
    return V;
  std::map<const ParmVarDecl *, const km::Store *> Outs;
  std::vector<const ParmVarDecl *> Order;
  for (const km::Store &St : Tr.Stores) {
    auto *PV = dyn_cast_or_null<ParmVarDecl>(St.P);
    auto Pl = P.poly(St.Idx);
    if (!PV || !St.Acc.empty() || !Pl || *Pl != Poly{{Mono{Bx}, 1}} ||
        (St.Guard && !(St.Guard->isConst() && St.Guard->I != 0)) ||
        Outs.count(PV))
      return V;
    Outs[PV] = &St;
    Order.push_back(PV);
  }
  rows::PartialProgram Pr;
  for (const ParmVarDecl *PV : Order) {
    Here = Outs[PV]->Loc;
    rows::PartialOut O;
    O.P = PV;
    O.Loc = Here;
    SymP Val = Outs[PV]->Val;
    if (!output(Val, O, Pr))
      return V;
    if (Val->T != Ty::F32)
      return refuse(RuleId::PK5007,
                    "per-block partial " +
                        std::string(O.Op == "+" ? "sums" : O.Op + "ima") +
                        " accumulated in a type other than float"),
             V;
    Pr.Outs.push_back(O);
  }
  if (Pr.W % S.X == 0)
    Pr.PerThread = Pr.W / S.X;
  Pr.Key = std::to_string(Pr.Stride) + ";" + std::to_string(Pr.N->Id) +
           ";" + (Pr.PerThread ? "t" + std::to_string(Pr.PerThread)
                               : "w" + std::to_string(Pr.W));
  for (const rows::PartialOut &O : Pr.Outs)
    Pr.Key += ";" + O.P->getName().str() + ":" + O.Op + ":" +
              (O.Init ? llvm::formatv("{0}", *O.Init).str() : "") + ":" +
              (O.CondInit ? llvm::formatv("{0}", *O.CondInit).str() : "") +
              ":" + std::to_string(P.acHash(O.H));
  V.Prog = Pr;
  return V;
}

} // namespace partials

rows::PartialVerdict rows::readPartials(const Trace &Tr, SymPool &P,
                                        const BlockShape &S) {
  return partials::Reader(Tr, P, S).run();
}

//===- LiftRows.cpp - row programs read from the kernel model -------------===//
// Rules: PK5001, PK5003, PK5004, PK5007
//
// The kernel is executed for one block at each candidate block shape
// (pk/KernelModel.h); its global stores are then read as a row program:
//
//   every access is  p[pitch * row + col]  with row = A * blockIdx.x + o
//   (o a constant per thread, 0 <= o < A: one block per row, one warp per
//   row, any rows per block), a row vector v[col], or a per-row value
//   s[row];  col is a column loop's variable, start..Cols by step;
//
//   values are normalised: each thread's loop variable becomes a column
//   variable, and a combination (+, *, max, min) of reductions whose
//   column loops start at 0, 1, ..., step-1 is one reduction over the
//   whole row -- however the partials met: shuffles of any direction,
//   shared-memory trees of any fan-in, warp-then-block, atomics, in a
//   helper function or inline;
//
//   every row offset o stores the same values (up to the row), each map
//   store covers columns [0, Cols), and guards bound the row only.
//
// A shape whose trace is not such a program is left out; the program must
// be the same at every shape kept, and the output asserts that the launch
// uses one of them.  What stops the model or the reading is reported once,
// with its reason, at its construct.
//
//===----------------------------------------------------------------------===//
#include "LiftRowsImpl.h"
#include "LiftSym.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <functional>
#include <set>
#include <unordered_map>

using namespace pk;
using namespace pk::nki;
using namespace pk::nki::rows;
using namespace pk::km;
using namespace clang;

namespace rowsread {

struct RowOf {
  int64_t A = 0, O = 0;
};

/// Idx = Pitch * (A * blockIdx.x + O) + Col.
struct Decomp {
  bool HasRow = false;
  RowOf R;
  km::Mono Pitch;
  SymP Col = nullptr;
};

class Reader {
public:
  Reader(ASTContext &Ctx, const FunctionDecl *FD, const Trace &Tr, SymPool &P)
      : Ctx(Ctx), FD(FD), Tr(Tr), P(P), Row(P.atom(RowAtom)) {}

  rows::Verdict run();

private:
  ASTContext &Ctx;
  const FunctionDecl *FD;
  const Trace &Tr;
  SymPool &P;
  SymP Row;
  rows::Verdict V;
  rows::Program Pr;
  SourceLocation Here;
  std::map<unsigned, RowOf> ThreadRow;
  int64_t LoadA = 0;
  std::set<SymP> Complete;
  /// Normalised values do not depend on the thread: a load's row offset
  /// is in its row atom (RowAtom + 1 + offset) until the store's row
  /// replaces it (atRow).
  std::unordered_map<SymP, SymP> NormMemo;
  std::unordered_map<SymP, uint64_t> RowsMemo;
  std::map<std::pair<SymP, int64_t>, SymP> AtRowMemo;
  /// The row offsets of the loads in \p S (bit o).
  uint64_t rowsIn(SymP S);
  /// \p S (normalised) for the store of row offset \p O: every row atom
  /// must be O's, which becomes the row.
  std::optional<SymP> atRow(SymP S, int64_t O);
  SymP rowAtom(int64_t O) { return P.atom(RowAtom + 1 + unsigned(O)); }

  bool fail(RuleId R, SourceLocation L, std::string M) {
    if (!V.Why)
      V.Why = Refusal{R, L.isValid() ? L : FD->getLocation(), std::move(M)};
    return false;
  }
  bool notMine() {
    V.NotMine = true;
    return false;
  }

  std::optional<Decomp> decompose(SymP Idx);
  bool rowOf(unsigned T, const RowOf &R);
  SymP norm(SymP S, unsigned T);
  SymP normNew(SymP S, unsigned T);
  SymP merge(llvm::StringRef Op, std::vector<SymP> Terms, Ty T);
  SymP fullIter(SymP End) { return P.iter(nullptr, P.intc(0), End, P.intc(1)); }
  bool complete(SymP S);
  std::optional<SymP> rowBound(SymP Guard, const RowOf &R);
};

std::optional<Decomp> Reader::decompose(SymP Idx) {
  auto Pl = P.poly(Idx);
  if (!Pl) {
    fail(RuleId::PK5007, Here, "an index that is not an integer expression");
    return std::nullopt;
  }
  SymP Bx = P.blockIdx(0);
  km::Poly Q, Rest;
  for (auto &[M, C] : *Pl) {
    unsigned N = 0;
    km::Mono Without;
    for (SymP A : M) {
      if (A->K == SK::BlockIdx && A->I > 0) {
        notMine();
        return std::nullopt; // 2-D grids: element-wise and GEMM lifters
      }
      if (A == Bx)
        ++N;
      else
        Without.push_back(A);
    }
    if (N > 1) {
      fail(RuleId::PK5007, Here, "an index nonlinear in blockIdx.x");
      return std::nullopt;
    }
    (N ? Q : Rest)[Without] += C;
  }
  Decomp D;
  if (Q.empty()) {
    D.Col = P.fromPoly(Rest);
    return D;
  }
  if (Q.size() != 1 || Q.begin()->second <= 0) {
    notMine();
    return std::nullopt;
  }
  D.HasRow = true;
  D.Pitch = Q.begin()->first;
  D.R.A = Q.begin()->second;
  km::Poly RowRest, Col;
  for (auto &[M, C] : Rest) {
    // M divisible by the pitch monomial: the row offset; else the column.
    std::multiset<unsigned> Have;
    for (SymP A : M)
      Have.insert(A->Id);
    bool Div = true;
    for (SymP A : D.Pitch) {
      auto It = Have.find(A->Id);
      if (It == Have.end()) {
        Div = false;
        break;
      }
      Have.erase(It);
    }
    if (!Div) {
      Col[M] += C;
      continue;
    }
    km::Mono Qm;
    std::multiset<unsigned> Need;
    for (SymP A : D.Pitch)
      Need.insert(A->Id);
    for (SymP A : M) {
      auto It = Need.find(A->Id);
      if (It != Need.end())
        Need.erase(It);
      else
        Qm.push_back(A);
    }
    RowRest[Qm] += C;
  }
  for (auto &[M, C] : RowRest)
    if (!M.empty()) {
      notMine(); // the row is not A * blockIdx.x + constant
      return std::nullopt;
    }
  D.R.O = RowRest.empty() ? 0 : RowRest.begin()->second;
  if (D.R.O < 0 || D.R.O >= D.R.A) {
    notMine();
    return std::nullopt;
  }
  D.Col = P.fromPoly(Col);
  return D;
}

bool Reader::rowOf(unsigned T, const RowOf &R) {
  auto It = ThreadRow.find(T);
  if (It == ThreadRow.end()) {
    ThreadRow[T] = R;
    return true;
  }
  if (It->second.A != R.A || It->second.O != R.O)
    return fail(RuleId::PK5007, Here,
                "one thread accesses several rows (a row program has one "
                "row per thread)");
  return true;
}

/// Whether every reduction in \p S runs over a whole row.
bool Reader::complete(SymP S) {
  if (!P.containsKind(S, SK::Reduce) || !Complete.insert(S).second)
    return true;
  if (S->K == SK::Reduce) {
    SymP It = S->Ops[0];
    if (It->Ops[0] != P.intc(0) || It->Ops[2] != P.intc(1))
      return false;
  }
  for (SymP O : S->Ops)
    if (!complete(O))
      return false;
  return true;
}

uint64_t Reader::rowsIn(SymP S) {
  // Row atoms occur only in the indices of loads.
  std::function<uint64_t(SymP)> InIdx = [&](SymP X) -> uint64_t {
    if (X->K == SK::Param && !X->D && X->I > RowAtom && X->I <= RowAtom + 64)
      return uint64_t(1) << (X->I - RowAtom - 1);
    uint64_t R = 0;
    for (SymP O : X->Ops)
      R |= InIdx(O);
    return R;
  };
  if (!(S->Kinds & (uint32_t(1) << unsigned(SK::Load))))
    return 0;
  auto It = RowsMemo.find(S);
  if (It != RowsMemo.end())
    return It->second;
  uint64_t R = 0;
  if (S->K == SK::Load)
    R = InIdx(S->Ops[0]);
  else
    for (SymP O : S->Ops)
      R |= rowsIn(O);
  RowsMemo[S] = R;
  return R;
}

std::optional<SymP> Reader::atRow(SymP S, int64_t O) {
  auto Key = std::make_pair(S, O);
  auto It = AtRowMemo.find(Key);
  if (It != AtRowMemo.end())
    return It->second;
  uint64_t Rs = rowsIn(S);
  if (Rs & ~(uint64_t(1) << O))
    return std::nullopt;
  SymP R = Rs ? P.subst(S, {{rowAtom(O), Row}}) : S;
  AtRowMemo[Key] = R;
  return R;
}

/// Combines \p Terms with \p Op: reductions over one column loop whose
/// threads start at 0, 1, ..., step-1 become one reduction over the row.
SymP Reader::merge(llvm::StringRef Op, std::vector<SymP> Terms, Ty T) {
  std::map<std::string, std::vector<size_t>> Groups;
  std::vector<SymP> Bodies(Terms.size());
  for (size_t I = 0; I < Terms.size(); ++I) {
    SymP X = Terms[I];
    if (X->K != SK::Reduce || X->Op != Op)
      continue;
    SymP It = X->Ops[0];
    SymP Full = fullIter(It->Ops[1]);
    Bodies[I] = P.subst(X->Ops[1], {{It, Full}});
    std::string Key = std::to_string(It->Ops[1]->Id) + "/" +
                      std::to_string(It->Ops[2]->Id) + "/" +
                      std::to_string(P.acHash(Bodies[I]));
    Groups[Key].push_back(I);
  }
  std::vector<char> Drop(Terms.size(), 0);
  std::vector<SymP> Out;
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

SymP Reader::norm(SymP S, unsigned T) {
  if (V.Why || V.NotMine)
    return S;
  auto It = NormMemo.find(S);
  if (It != NormMemo.end())
    return It->second;
  SymP R = normNew(S, T);
  NormMemo[S] = R;
  return R;
}

SymP Reader::normNew(SymP S, unsigned T) {
  switch (S->K) {
  case SK::Int:
  case SK::Flt:
  case SK::Param:
    return S;
  case SK::Undef:
    fail(RuleId::PK5004, Here,
         "a value that no thread wrote reaches this store at the block "
         "shape tried (a shared-memory slot or lane outside what the "
         "kernel fills)");
    return S;
  case SK::BlockIdx:
  case SK::GridDim:
    notMine();
    return S;
  case SK::Carried:
  case SK::Ptr:
    fail(RuleId::PK5007, Here, "a pointer or loop state used as a value");
    return S;
  case SK::Iter:
    // The loop stays part of the variable: two loops over the same range
    // are different variables (only merging partial reductions and the
    // column of a row map make the canonical full-row variable).
    return P.iter(S->Site, norm(S->Ops[0], T), norm(S->Ops[1], T),
                  norm(S->Ops[2], T));
  case SK::Load: {
    auto D = decompose(S->Ops[0]);
    if (!D)
      return S;
    auto *PV = dyn_cast<ParmVarDecl>(S->D);
    rows::TensorUse &U = Pr.Uses[PV];
    U.Read = true;
    SymP Col = norm(D->Col, T);
    bool ColVar = Col->K == SK::Iter;
    rows::TensorUse::Kind K;
    SymP Idx;
    if (D->HasRow) {
      if (D->R.O >= 64) {
        fail(RuleId::PK5007, Here, "more than 64 rows per block");
        return S;
      }
      if (LoadA && LoadA != D->R.A) {
        fail(RuleId::PK5007, Here, "loads with different rows per block");
        return S;
      }
      LoadA = D->R.A;
      SymP Row = rowAtom(D->R.O);
      if (D->Pitch.empty() && Col == P.intc(0)) {
        K = rows::TensorUse::RowCol;
        Idx = Row;
      } else if (!D->Pitch.empty() && ColVar) {
        K = rows::TensorUse::Matrix;
        SymP Pitch = P.fromPoly(km::Poly{{D->Pitch, 1}});
        if (U.Pitch && U.Pitch != Pitch) {
          fail(RuleId::PK5007, Here,
               llvm::formatv("'{0}' is read with two row pitches",
                             PV->getName())
                   .str());
          return S;
        }
        U.Pitch = Pitch;
        Idx = P.bin("+", P.bin("*", Row, Pitch), Col);
      } else {
        fail(RuleId::PK5007, Here,
             llvm::formatv("'{0}' is read at a column that is not a column "
                           "loop's variable (an offset or a fixed column)",
                           PV->getName())
                 .str());
        return S;
      }
    } else if (ColVar) {
      K = rows::TensorUse::RowVec;
      Idx = Col;
    } else {
      fail(RuleId::PK5007, Here,
           llvm::formatv("'{0}' is read at an index that is neither a row "
                         "element nor a column of a row vector",
                         PV->getName())
               .str());
      return S;
    }
    if (U.K != rows::TensorUse::None && U.K != K) {
      fail(RuleId::PK5007, Here,
           llvm::formatv("'{0}' is accessed both as a matrix, a row vector or "
                         "a per-row value",
                         PV->getName())
               .str());
      return S;
    }
    U.K = K;
    return P.load(PV, Idx, S->T);
  }
  case SK::Reduce: {
    SymP It = norm(S->Ops[0], T);
    SymP Body = P.subst(S->Ops[1], {{S->Ops[0], It}});
    // The body's loads and the iteration variable, normalised.
    return P.reduce(S->Op, It, norm(Body, T));
  }
  case SK::Bin:
    if (isFloatTy(S->T) &&
        (S->Op == "+" || S->Op == "*" || S->Op == "max" || S->Op == "min")) {
      std::vector<SymP> Terms;
      std::function<void(SymP)> Flat = [&](SymP X) {
        if (X->K == SK::Bin && X->Op == S->Op)
          for (SymP O : X->Ops)
            Flat(O);
        else
          Terms.push_back(norm(X, T));
      };
      Flat(S);
      return merge(S->Op, Terms, S->T);
    }
    return P.bin(S->Op, norm(S->Ops[0], T), norm(S->Ops[1], T));
  case SK::Un:
    return P.un(S->Op, norm(S->Ops[0], T));
  case SK::Cmp:
    return P.cmp(S->Op, norm(S->Ops[0], T), norm(S->Ops[1], T));
  case SK::Select:
    return P.select(norm(S->Ops[0], T), norm(S->Ops[1], T),
                    norm(S->Ops[2], T));
  case SK::Cast:
    return P.cast(S->T, norm(S->Ops[0], T));
  }
  return S;
}

/// The row bound of a store's guard: the guard must be `row < R` (any
/// spelling) and nothing else.
std::optional<SymP> Reader::rowBound(SymP Guard, const RowOf &R) {
  if (!Guard)
    return nullptr;
  std::vector<SymP> Atoms;
  std::function<void(SymP)> Split = [&](SymP G) {
    if (G->K == SK::Bin && G->Op == "&&")
      for (SymP O : G->Ops)
        Split(O);
    else
      Atoms.push_back(G);
  };
  Split(Guard);
  SymP Bound = nullptr;
  SymP RowPoly = P.bin("+", P.bin("*", P.blockIdx(0), P.intc(R.A)),
                       P.intc(R.O));
  for (SymP G : Atoms) {
    if (G->K != SK::Cmp) {
      fail(RuleId::PK5007, Here,
           "a store under a condition that is not a bound on the row");
      return std::nullopt;
    }
    SymP X = G->Ops[0], Y = G->Ops[1];
    llvm::StringRef Op = G->Op;
    if (Op == ">" || Op == ">=") {
      std::swap(X, Y);
      Op = Op == ">" ? "<" : "<=";
    }
    // X - Y = row - B  with row = A * bid + O.
    SymP D = P.bin("-", X, Y);
    SymP B = P.bin("-", RowPoly, D);
    if ((Op != "<" && Op != "<=") || P.contains(B, P.blockIdx(0)) ||
        P.containsKind(B, SK::Iter) || P.containsKind(B, SK::Load)) {
      fail(RuleId::PK5007, Here,
           llvm::formatv("a store under a condition that is not `row < "
                         "rows` on the row alone ({0})",
                         P.str(G))
               .str());
      return std::nullopt;
    }
    if (Op == "<=")
      B = P.bin("+", B, P.intc(1));
    if (Bound && Bound != B) {
      fail(RuleId::PK5007, Here, "stores under different row bounds");
      return std::nullopt;
    }
    Bound = B;
  }
  return Bound;
}

rows::Verdict Reader::run() {
  if (Tr.Stores.empty())
    return fail(RuleId::PK5007, FD->getLocation(),
                "the kernel stores nothing to global memory"),
           V;
  // Per output and row offset: what is stored.
  struct Out {
    std::map<int64_t, std::vector<SymP>> Vals; ///< row offset -> values
    std::map<int64_t, std::set<int64_t>> Starts;
    SymP End = nullptr, Step = nullptr;
    bool Map = false, Accum = false, Set = false;
    SourceLocation Loc;
  };
  std::map<const ParmVarDecl *, Out> Outs;
  std::vector<const ParmVarDecl *> Order;
  bool HaveBound = false;
  SymP Bound = nullptr;
  int64_t A = 0;
  for (const km::Store &St : Tr.Stores) {
    Here = St.Loc;
    auto *PV = dyn_cast<ParmVarDecl>(St.P);
    auto D = decompose(St.Idx);
    if (!D)
      return V;
    if (!D->HasRow)
      return notMine(), V;
    if (!rowOf(St.Thread, D->R))
      return V;
    if (A && A != D->R.A)
      return fail(RuleId::PK5007, Here, "rows per block differ between "
                                        "stores"),
             V;
    A = D->R.A;
    auto B = rowBound(St.Guard, D->R);
    if (!B)
      return V;
    if (HaveBound && *B != Bound)
      return fail(RuleId::PK5007, Here,
                  "stores under different row bounds (or some unguarded)"),
             V;
    HaveBound = true;
    Bound = *B;
    SymP Col = norm(D->Col, St.Thread);
    SymP Val = norm(St.Val, St.Thread);
    if (V.Why || V.NotMine)
      return V;
    if (LoadA && LoadA != D->R.A)
      return fail(RuleId::PK5007, Here, "loads and stores with different "
                                        "rows per block"),
             V;
    auto AtRow = atRow(Val, D->R.O);
    if (!AtRow)
      return fail(RuleId::PK5007, Here,
                  "a value computed from another row than the one it is "
                  "stored to (a row program has one row per thread)"),
             V;
    Val = *AtRow;
    Out &O = Outs[PV];
    if (!O.Set) {
      Order.push_back(PV);
      O.Set = true;
      O.Loc = St.Loc;
      O.Map = Col->K == SK::Iter;
      O.Accum = !St.Acc.empty();
    }
    rows::TensorUse &U = Pr.Uses[PV];
    U.Written = true;
    U.Accum |= !St.Acc.empty();
    if (O.Accum != !St.Acc.empty() || (O.Accum && St.Acc != "+"))
      return fail(RuleId::PK5007, Here,
                  llvm::formatv("'{0}' is both stored and accumulated, or "
                                "accumulated with an operation other than "
                                "atomicAdd",
                                PV->getName())
                      .str()),
             V;
    rows::TensorUse::Kind K;
    if (O.Map) {
      if (Col->K != SK::Iter || D->Pitch.empty())
        return fail(RuleId::PK5007, Here,
                    llvm::formatv("'{0}' is stored both at whole rows and at "
                                  "single elements",
                                  PV->getName())
                        .str()),
               V;
      if (O.Accum)
        return fail(RuleId::PK5007, Here,
                    "atomic accumulation into every element of a row"),
               V;
      SymP St0 = Col->Ops[0];
      if (St0->K != SK::Int)
        return fail(RuleId::PK5007, Here,
                    "a column loop whose start is not decided by the thread "
                    "index"),
               V;
      if ((O.End && O.End != Col->Ops[1]) || (O.Step && O.Step != Col->Ops[2]))
        return fail(RuleId::PK5007, Here,
                    "column loops of one output with different bounds"),
               V;
      O.End = Col->Ops[1];
      O.Step = Col->Ops[2];
      if (!O.Starts[D->R.O].insert(St0->I).second)
        return fail(RuleId::PK5007, Here,
                    llvm::formatv("two threads store the same columns of "
                                  "'{0}'",
                                  PV->getName())
                        .str()),
               V;
      Val = P.subst(Val, {{Col, fullIter(Col->Ops[1])}});
      K = rows::TensorUse::Matrix;
      SymP Pitch = P.fromPoly(km::Poly{{D->Pitch, 1}});
      if (U.Pitch && U.Pitch != Pitch)
        return fail(RuleId::PK5007, Here, "two row pitches"), V;
      U.Pitch = Pitch;
    } else {
      if (!D->Pitch.empty() || Col != P.intc(0))
        return fail(RuleId::PK5007, Here,
                    llvm::formatv("'{0}' is stored at a fixed column of a row "
                                  "(only whole rows or one value per row "
                                  "are lifted)",
                                  PV->getName())
                        .str()),
               V;
      K = rows::TensorUse::RowCol;
    }
    if (U.K != rows::TensorUse::None && U.K != K)
      return fail(RuleId::PK5007, Here,
                  llvm::formatv("'{0}' is accessed both as a matrix and as a "
                                "per-row value",
                                PV->getName())
                      .str()),
             V;
    U.K = K;
    O.Vals[D->R.O].push_back(Val);
  }
  Pr.A = A;
  Pr.Rows = Bound;
  // Each output: every row offset, the same value, whole rows.
  for (const ParmVarDecl *PV : Order) {
    Out &O = Outs[PV];
    Here = O.Loc;
    if (int64_t(O.Vals.size()) != A)
      return fail(RuleId::PK5007, Here,
                  llvm::formatv("'{0}' is not stored for every row a block "
                                "handles",
                                PV->getName())
                      .str()),
             V;
    SymP First = nullptr;
    for (auto &[Off, Vs] : O.Vals) {
      SymP X;
      if (O.Accum) {
        X = merge("+", Vs, Vs[0]->T);
      } else {
        X = Vs[0];
        for (SymP Y : Vs)
          if (P.acHash(Y) != P.acHash(X))
            return fail(RuleId::PK5004, Here,
                        llvm::formatv("threads store different values to one "
                                      "element of '{0}' (a race, or a "
                                      "reduction whose partial results are "
                                      "not all combined)",
                                      PV->getName())
                            .str()),
                   V;
      }
      if (First && P.acHash(First) != P.acHash(X))
        return fail(RuleId::PK5004, Here,
                    llvm::formatv("rows of one block get different values "
                                  "in '{0}'{1}",
                                  PV->getName(),
                                  std::getenv("PK_NKI_MODEL_DEBUG")
                                      ? ": " + P.str(First) + " vs " + P.str(X)
                                      : std::string())
                        .str()),
               V;
      First = X;
      if (O.Map) {
        auto &S = O.Starts[Off];
        if (O.Step->K != SK::Int || int64_t(S.size()) != O.Step->I ||
            *S.begin() != 0 || *S.rbegin() != O.Step->I - 1)
          return fail(RuleId::PK5004, Here,
                      llvm::formatv("the threads' column loops do not cover "
                                    "each row of '{0}' exactly once",
                                    PV->getName())
                          .str()),
                 V;
      }
    }
    if (!complete(First))
      return fail(RuleId::PK5004, Here,
                  llvm::formatv("the value stored to '{0}' combines only part "
                                "of the threads' partial reductions (a tree "
                                "or shuffle over fewer lanes than hold "
                                "partials, at this block shape)",
                                PV->getName())
                      .str()),
             V;
    if (O.Map) {
      if (Pr.Cols && Pr.Cols != O.End)
        return fail(RuleId::PK5007, Here, "outputs with different column "
                                          "counts"),
               V;
      Pr.Cols = O.End;
    }
    rows::RowStore RS;
    RS.P = PV;
    RS.Val = First;
    RS.Map = O.Map;
    RS.Accum = O.Accum;
    RS.Loc = O.Loc;
    Pr.Stores.push_back(RS);
  }
  // No iteration variable escapes its loop: a row output reads none, a
  // row map only its column, a reduction's terms only its own variable
  // (a value from another loop would be its last iteration's, or a
  // product of two loops, which the tiles do not compute).
  std::unordered_map<SymP, std::set<SymP>> FreeMemo;
  std::function<const std::set<SymP> &(SymP)> Free =
      [&](SymP S) -> const std::set<SymP> & {
    auto It = FreeMemo.find(S);
    if (It != FreeMemo.end())
      return It->second;
    std::set<SymP> R;
    if (S->Kinds & (uint32_t(1) << unsigned(SK::Iter))) {
      if (S->K == SK::Iter)
        R.insert(S);
      for (SymP O : S->Ops)
        for (SymP X : Free(O))
          R.insert(X);
      if (S->K == SK::Reduce)
        R.erase(S->Ops[0]);
    }
    return FreeMemo[S] = std::move(R);
  };
  std::set<SymP> Checked;
  std::function<bool(SymP)> Bodies = [&](SymP S) {
    if (!P.containsKind(S, SK::Reduce) || !Checked.insert(S).second)
      return true;
    if (S->K == SK::Reduce) {
      for (SymP X : Free(S->Ops[1]))
        if (X != S->Ops[0])
          return fail(RuleId::PK5009, Here,
                      "a reduction whose terms also depend on another "
                      "loop's variable (a nested or outer loop): only "
                      "reductions of one column loop are lifted");
    }
    for (SymP O : S->Ops)
      if (!Bodies(O))
        return false;
    return true;
  };
  for (const rows::RowStore &RS : Pr.Stores) {
    Here = RS.Loc;
    for (SymP X : Free(RS.Val))
      if (!RS.Map || X->Ops[0] != P.intc(0) || X->Ops[2] != P.intc(1) ||
          X->Site)
        return fail(RuleId::PK5009, Here,
                    llvm::formatv("the value stored to '{0}' depends on a "
                                  "loop's variable that is not the column "
                                  "it is stored at (the last iteration's "
                                  "value, or a loop around the store)",
                                  RS.P->getName())
                        .str()),
               V;
    if (!Bodies(RS.Val))
      return V;
  }
  // Reductions and matrices agree on the column count.
  std::set<SymP> ColsSeen;
  std::function<bool(SymP)> Cols = [&](SymP S) {
    if (!P.containsKind(S, SK::Reduce) || !ColsSeen.insert(S).second)
      return true;
    if (S->K == SK::Reduce) {
      SymP E = S->Ops[0]->Ops[1];
      if (Pr.Cols && Pr.Cols != E)
        return fail(RuleId::PK5007, Here,
                    "reductions over different column counts");
      Pr.Cols = E;
    }
    for (SymP O : S->Ops)
      if (!Cols(O))
        return false;
    return true;
  };
  for (const rows::RowStore &RS : Pr.Stores)
    if (!Cols(RS.Val))
      return V;
  if (!Pr.Cols)
    return notMine(), V; // no reduction and no row map: element-wise
  if (!Pr.Reductions && Pr.A == 1 && !Tr.Barriers && !Tr.Shuffles)
    ; // a plain row map: still a row program
  Pr.Col = fullIter(Pr.Cols);
  for (auto &[PV, U] : Pr.Uses)
    if (U.K == rows::TensorUse::Matrix && U.Pitch != Pr.Cols)
      return fail(RuleId::PK5007, PV->getLocation(),
                  llvm::formatv("the rows of '{0}' are {1} apart but {2} "
                                "columns are used (padded rows are not lifted)",
                                PV->getName(), P.str(U.Pitch), P.str(Pr.Cols))
                      .str()),
             V;
  std::string Key = std::to_string(Pr.Rows ? Pr.Rows->Id : 0) + ";" +
                    std::to_string(Pr.Cols->Id);
  for (const rows::RowStore &RS : Pr.Stores)
    Key += ";" + std::to_string(P.acHash(RS.Val)) + (RS.Map ? "m" : "r");
  Pr.Key = Key;
  V.Prog = std::move(Pr);
  return V;
}

} // namespace rowsread

rows::Verdict rows::analyse(ASTContext &Ctx, const FunctionDecl *FD,
                      const Trace &Tr, SymPool &P) {
  return rowsread::Reader(Ctx, FD, Tr, P).run();
}

namespace rowsread {

RuleId ruleOf(const Failure &F) {
  switch (F.K) {
  case Failure::DataDependent:
    return F.Msg.find("atomic") != std::string::npos ? RuleId::PK5002
                                                      : RuleId::PK5003;
  case Failure::Divergent:
  case Failure::Race:
  case Failure::Undefined:
    return RuleId::PK5004;
  default:
    return RuleId::PK5007;
  }
}

} // namespace rowsread

bool nki::liftRows(TargetContext &TC, const FunctionDecl *FD, Kernel &K,
                   std::optional<Refusal> &Why) {
  LaunchDims DS;
  DS.TraverseStmt(const_cast<clang::Stmt *>(FD->getBody()));
  if (DS.Thread[2])
    return false;
  std::vector<BlockShape> Cands;
  if (DS.Thread[1]) {
    for (unsigned Y : {4u, 1u, 2u, 8u, 16u, 32u})
      Cands.push_back({32, Y, 1});
    Cands.push_back({64, 4, 1});
    Cands.push_back({16, 16, 1});
  } else {
    for (unsigned X : {256u, 32u, 64u, 128u, 512u, 1024u})
      Cands.push_back({X, 1, 1});
  }
  SymPool P;
  std::optional<rows::Program> Chosen;
  std::vector<std::pair<BlockShape, int64_t>> Valid;
  std::optional<Refusal> FirstWhy;
  bool AnyNotMine = false, SharedBytes = false;
  // PK_NKI_MODEL_DEBUG=1: each block shape's verdict on stderr.
  bool Debug = std::getenv("PK_NKI_MODEL_DEBUG") != nullptr;
  auto Say = [&](const BlockShape &S, const std::string &What) {
    if (Debug)
      llvm::errs() << "model: " << FD->getName() << " at " << S.X << "x"
                   << S.Y << ": " << What << "\n";
  };
  for (const BlockShape &S : Cands) {
    Trace Tr = executeBlock(TC.Ctx(), FD, S, P, waveOf(TC));
    if (Tr.F)
      Say(S, "model: " + Tr.F->Msg);
    SharedBytes |= Tr.UsesSharedBytes;
    if (Tr.F) {
      if (!FirstWhy)
        FirstWhy = Refusal{rowsread::ruleOf(*Tr.F), Tr.F->Loc, Tr.F->Msg,
                           Tr.F->K != Failure::Unsupported &&
                               Tr.F->K != Failure::Shape};
      // A data race is a bug of the kernel, whatever it computes: it is
      // the reason.  What the model cannot follow at all is the same at
      // every shape.
      if (Tr.F->K == Failure::Race) {
        Why = Refusal{RuleId::PK5004, Tr.F->Loc, Tr.F->Msg, true};
        return false;
      }
      if (Tr.F->K == Failure::Unsupported || Tr.F->K == Failure::Carried ||
          Tr.F->K == Failure::DataDependent)
        break;
      continue;
    }
    rows::Verdict V = rows::analyse(TC.Ctx(), FD, Tr, P);
    Say(S, V.NotMine ? "not a row program"
           : V.Prog  ? "row program " + V.Prog->Key
                     : "refused: " + V.Why->Msg);
    if (V.NotMine) {
      AnyNotMine = true;
      break;
    }
    if (!V.Prog) {
      if (!FirstWhy) {
        FirstWhy = V.Why;
        // The reading's refusals are about what the kernel computes.
        FirstWhy->Definite = FirstWhy->Rule != RuleId::PK5007;
      }
      continue;
    }
    if (Chosen && Chosen->Key != V.Prog->Key)
      continue; // another meaning at this shape: not a shape to run at
    if (!Chosen)
      Chosen = V.Prog;
    Valid.push_back({S, V.Prog->A});
  }
  if (AnyNotMine)
    return false;
  if (!Chosen) {
    Why = FirstWhy;
    return false;
  }
  return rows::emit(TC, FD, *Chosen, P, Valid, DS.Thread[1], SharedBytes, K, Why);
}

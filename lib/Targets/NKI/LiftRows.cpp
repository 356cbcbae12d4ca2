//===- LiftRows.cpp - row programs read from the kernel model -------------===//
// Rules: PK5001, PK5003, PK5004, PK5005, PK5007
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
// A trace whose stores are `out[blockIdx.x]` of sums over the elements the
// block visits is read as per-block partial sums instead (LiftPartials.cpp);
// a kernel template is read that way only, through its explicit
// instantiations.  A shape whose trace is not such a program is left out; the program must
// be the same at every shape kept, and the output asserts that the launch
// uses one of them.  What stops the model or the reading is reported once,
// with its reason, at its construct.
//
//===----------------------------------------------------------------------===//
#include "LiftRowsRead.h"

using namespace pk;
using namespace pk::nki;
using namespace pk::nki::rows;
using namespace pk::km;
using namespace clang;

namespace rowsread {

std::optional<Decomp> Reader::decompose(SymP Idx, const ValueDecl *Of) {
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
    (N ? Q : Rest).add(Without, C);
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
  if (!D.Pitch.empty())
    D.PitchS = P.fromPoly(km::Poly{{D.Pitch, 1}});
  else {
    // A constant row length: a full column variable k < E (E | A) in the
    // rest; the rest's constant is O * E plus a column offset.
    SymP Var = nullptr;
    for (auto &[M, C] : Rest)
      if (M.size() == 1 && C == 1 && M[0]->K == SK::Iter &&
          M[0]->Ops[0] == P.intc(0) && M[0]->Ops[2] == P.intc(1) &&
          M[0]->Ops[1]->K == SK::Int && M[0]->Ops[1]->I > 0 &&
          D.R.A % M[0]->Ops[1]->I == 0) {
        if (Var && Var->Ops[1] != M[0]->Ops[1])
          return notMine(), std::nullopt;
        Var = M[0];
      }
    if (Var) {
      int64_t E = Var->Ops[1]->I;
      int64_t C0 = Rest.coefficient(km::Mono{});
      if (C0 < 0)
        return notMine(), std::nullopt;
      D.PitchS = P.intc(E);
      D.R.A /= E;
      D.R.O = C0 / E;
      if (D.R.O >= D.R.A)
        return notMine(), std::nullopt;
      km::Poly Col = Rest;
      Col.add(km::Mono{}, C0 % E - C0);
      D.Col = P.fromPoly(Col);
      return D;
    }
    // A record's field: rows of W columns (fieldPitches).
    auto FP = Of ? FieldPitch.find(Of) : FieldPitch.end();
    if (FP != FieldPitch.end() && D.R.A % FP->second == 0 &&
        (Rest.empty() || (Rest.size() == 1 && Rest.begin()->first.empty()))) {
      int64_t W = FP->second, C0 = Rest.coefficient(km::Mono{});
      if (C0 < 0)
        return notMine(), std::nullopt;
      D.PitchS = P.intc(W);
      D.R.A /= W;
      D.R.O = C0 / W;
      D.Col = P.intc(C0 % W);
      return D;
    }
  }
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
      Col.add(M, C);
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
    RowRest.add(Qm, C);
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

void Reader::fixedColumns(SymP S, int64_t O) {
  if (FixedCol.empty())
    return;
  std::set<SymP> Seen;
  std::vector<SymP> Work{S};
  while (!Work.empty()) {
    SymP X = Work.back();
    Work.pop_back();
    if (!P.containsKind(X, SK::Load) || !Seen.insert(X).second)
      continue;
    auto F = FixedCol.find(X);
    if (F != FixedCol.end()) {
      // A per-row value: the column must exist in every row.
      int64_t C = F->second.second;
      Pr.FieldLoads[P.subst(X, {{rowAtom(O), Row}})] = C;
      auto *PV = cast<ParmVarDecl>(X->D);
      rows::TensorUse &U = Pr.Uses[PV];
      U.Fields.insert(C);
      if (U.Pitch->K != SK::Int)
        Pr.AtLeast.push_back({U.Pitch, C + 1});
      continue;
    }
    Work.insert(Work.end(), X->Ops.begin(), X->Ops.end());
  }
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

int64_t Reader::rowsIn(SymP S) {
  auto Meet = [](int64_t A, int64_t B) {
    return A == NoRow ? B : B == NoRow || A == B ? A : int64_t(SeveralRows);
  };
  // Row atoms occur only in the indices of loads.
  std::function<int64_t(SymP)> InIdx = [&](SymP X) -> int64_t {
    if (X->K == SK::Param && !X->D && X->I >= RowOffAtom &&
        X->I < RowOffAtom + MaxRowsPerBlock)
      return X->I - RowOffAtom;
    int64_t R = NoRow;
    for (SymP O : X->Ops)
      R = Meet(R, InIdx(O));
    return R;
  };
  if (!(S->Kinds & (uint32_t(1) << unsigned(SK::Load))))
    return NoRow;
  auto It = RowsMemo.find(S);
  if (It != RowsMemo.end())
    return It->second;
  int64_t R = NoRow;
  if (S->K == SK::Load)
    R = InIdx(S->Ops[0]);
  else
    for (SymP O : S->Ops)
      R = Meet(R, rowsIn(O));
  RowsMemo[S] = R;
  return R;
}

std::optional<SymP> Reader::atRow(SymP S, int64_t O) {
  auto Key = std::make_pair(S, O);
  auto It = AtRowMemo.find(Key);
  if (It != AtRowMemo.end())
    return It->second;
  int64_t Rs = rowsIn(S);
  if (Rs != NoRow && Rs != O)
    return std::nullopt;
  std::map<SymP, SymP> To;
  if (Rs != NoRow)
    To[rowAtom(O)] = Row;
  // The row as a value: the row plus C - O.
  if (RowValA) {
    std::set<SymP> Seen;
    std::vector<SymP> Work{S};
    while (!Work.empty()) {
      SymP X = Work.back();
      Work.pop_back();
      if (!Seen.insert(X).second)
        continue;
      if (X->K == SK::Param && !X->D && X->I >= RowValAtom &&
          X->I < RowValAtom + MaxRowVal)
        To[X] = P.bin("+", Row, P.intc(int64_t(X->I - RowValAtom) - O));
      Work.insert(Work.end(), X->Ops.begin(), X->Ops.end());
    }
  }
  SymP R = To.empty() ? S : P.subst(S, To);
  AtRowMemo[Key] = R;
  return R;
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

SymP Reader::asRowVal(SymP S) {
  if (isFloatTy(S->T) || !P.containsKind(S, SK::BlockIdx))
    return nullptr;
  auto Pl = P.poly(S);
  if (!Pl)
    return nullptr;
  SymP Bx = P.blockIdx(0);
  int64_t A = 0, C = 0;
  for (auto &[M, K] : *Pl) {
    if (M.empty())
      C = K;
    else if (M.size() == 1 && M[0] == Bx && K > 0)
      A = K;
    else
      return nullptr;
  }
  if (!A || C < 0 || C >= MaxRowVal || (RowValA && RowValA != A))
    return nullptr;
  RowValA = A;
  return rowVal(C);
}

SymP Reader::normNew(SymP S, unsigned T) {
  // The row index used as a value (a causal bound `c <= t`, a mask
  // `c <= t ? v : 0`).
  if (S->K == SK::Bin || S->K == SK::BlockIdx)
    if (SymP R = asRowVal(S))
      return R;
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
  case SK::Iter: {
    // A loop whose end is the thread's own row plus a constant (`for (c =
    // 0; c <= t; ...)`, a causal range) is a masked column loop; any other
    // range that depends on the row (a start at the row, a scaled row) is
    // not a row program's column loop, said as such over the other
    // lifters' reasons.
    SymP End = S->Ops[1];
    SymP RowEnd = P.containsKind(End, SK::BlockIdx) ? asRowVal(End) : nullptr;
    if (RowEnd && S->Ops[0] == P.intc(0) && S->Ops[2] == P.intc(1))
      return P.iter(S->Site, S->Ops[0], RowEnd, S->Ops[2], unsigned(S->I));
    if (P.containsKind(S->Ops[0], SK::BlockIdx) ||
        P.containsKind(S->Ops[1], SK::BlockIdx)) {
      fail(RuleId::PK5007, Here,
           "a column loop whose range depends on the row (a causal or "
           "triangular range such as `c <= row`): only loops over the same "
           "columns for every row are lifted");
      V.Why->Definite = true; // what the kernel computes, not a spelling
      return S;
    }
    // The loop stays part of the variable: two loops over the same range
    // are different variables (only merging partial reductions and the
    // column of a row map make the canonical full-row variable).
    return P.iter(S->Site, norm(S->Ops[0], T), norm(S->Ops[1], T),
                  norm(S->Ops[2], T), unsigned(S->I));
  }
  case SK::Load: {
    auto D = decompose(S->Ops[0], S->D);
    if (!D)
      return S;
    auto *PV = dyn_cast<ParmVarDecl>(S->D);
    rows::TensorUse &U = Pr.Uses[PV];
    U.Read = true;
    SymP Col = norm(D->Col, T);
    bool ColVar = Col->K == SK::Iter;
    rows::TensorUse::Kind K;
    SymP Idx;
    bool Fixed = false;
    if (D->HasRow) {
      if (D->R.O >= MaxRowsPerBlock) {
        fail(RuleId::PK5007, Here, "more than 1024 rows per block");
        return S;
      }
      if (LoadA && LoadA != D->R.A) {
        fail(RuleId::PK5007, Here, "loads with different rows per block");
        return S;
      }
      LoadA = D->R.A;
      SymP Row = rowAtom(D->R.O);
      if (!D->PitchS && Col == P.intc(0)) {
        K = rows::TensorUse::RowCol;
        Idx = Row;
      } else if (D->PitchS && (ColVar || (Col->K == SK::Int && Col->I >= 0))) {
        // A row's element at a column loop's variable, or at a fixed
        // column: most often a reduction's first element, taken before a
        // loop from the next column, which merge() folds into the loop's
        // reduction; one left over is a per-row value (FixedCol).
        K = rows::TensorUse::Matrix;
        SymP Pitch = D->PitchS;
        if (U.Pitch && U.Pitch != Pitch) {
          fail(
              RuleId::PK5007, Here,
              llvm::formatv("'{0}' is read with two row pitches", PV->getName())
                  .str());
          return S;
        }
        U.Pitch = Pitch;
        Idx = P.bin("+", P.bin("*", Row, Pitch), Col);
        Fixed = !ColVar;
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
    SymP L = P.load(PV, Idx, S->T);
    if (Fixed)
      FixedCol.try_emplace(L, Here, Col->I);
    else if (K == rows::TensorUse::Matrix)
      U.Whole = true;
    return L;
  }
  case SK::Reduce: {
    if (auto Dt = dot(S, T))
      return *Dt;
    if (V.Why || V.NotMine)
      return S;
    if (auto St = strided(S, T))
      return *St;
    SymP It = norm(S->Ops[0], T);
    SymP Body = P.subst(S->Ops[1], {{S->Ops[0], It}});
    // The body's loads and the iteration variable, normalised.
    return P.reduce(S->Op, It, norm(Body, T));
  }
  case SK::Bin:
    // Integer max and min reassociate exactly (an arg-reduction's index).
    if ((isFloatTy(S->T) && (S->Op == "+" || S->Op == "*")) || S->Op == "max" ||
        S->Op == "min") {
      std::vector<SymP> Terms;
      // A term that normalises to the same operation (a thread's vector
      // lanes, each a partial reduction: strided()) contributes its terms.
      std::function<void(SymP)> Flat, Add;
      Add = [&](SymP N) {
        if (N->K == SK::Bin && N->Op == S->Op)
          for (SymP O : N->Ops)
            Add(O);
        else
          Terms.push_back(N);
      };
      Flat = [&](SymP X) {
        if (X->K == SK::Bin && X->Op == S->Op)
          for (SymP O : X->Ops)
            Flat(O);
        else
          Add(norm(X, T));
      };
      Flat(S);
      if (S->Op == "*")
        if (SymP D = rescaled(Terms))
          return D;
      return merge(S->Op, Terms, S->T);
    }
    return P.bin(S->Op, norm(S->Ops[0], T), norm(S->Ops[1], T));
  case SK::Un:
    return P.un(S->Op, norm(S->Ops[0], T));
  case SK::Cmp:
    return P.cmp(S->Op, norm(S->Ops[0], T), norm(S->Ops[1], T));
  case SK::Select: {
    std::string Why = P.argWhy(S->Ops[0], S->Ops[1], S->Ops[2]);
    if (!Why.empty()) {
      fail(RuleId::PK5007, Here,
           "two (value, index) pairs are combined as an arg-reduction the "
           "lifter does not lower: " +
               Why);
      V.Why->Definite = true; // what the kernel computes, not a spelling
      return S;
    }
    return P.select(norm(S->Ops[0], T), norm(S->Ops[1], T), norm(S->Ops[2], T));
  }
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
  SymP RowPoly =
      P.bin("+", P.bin("*", P.blockIdx(0), P.intc(R.A)), P.intc(R.O));
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
    // X - Y = c * row - B  with row = A * bid + O and c >= 1 (c > 1: a
    // thread's several elements along a row, `4 * i < n` for a float4 per
    // thread), or X - Y = (row - B) / m (m > 1: a thread's m elements are
    // m rows, m * i + k for k < m, and the guard bounds i).
    SymP D = P.bin("-", X, Y);
    int64_t Scale = 1, Mult = 1;
    if (auto Pl = P.poly(D))
      for (auto &[Mo, C] : *Pl)
        if (Mo.size() == 1 && Mo[0] == P.blockIdx(0) && C > 0) {
          if (C > R.A && C % R.A == 0)
            Scale = C / R.A;
          else if (C < R.A && R.A % C == 0)
            Mult = R.A / C;
        }
    SymP B =
        P.bin("-", Scale == 1 ? RowPoly : P.bin("*", P.intc(Scale), RowPoly),
              Mult == 1 ? D : P.bin("*", P.intc(Mult), D));
    if ((Op != "<" && Op != "<=") || P.contains(B, P.blockIdx(0)) ||
        P.containsKind(B, SK::Iter) || P.containsKind(B, SK::Load)) {
      fail(RuleId::PK5007, Here,
           llvm::formatv("a store under a condition that is not `row < "
                         "rows` on the row alone ({0})",
                         P.str(G))
               .str());
      return std::nullopt;
    }
    if (Scale > 1) // c * row < B: row < ceil(B / c); c * row <= B: row <= B / c
      B = Op == "<="
              ? P.bin("+", P.bin("/", B, P.intc(Scale)), P.intc(1))
              : P.bin("/", P.bin("+", B, P.intc(Scale - 1)), P.intc(Scale));
    else if (Op == "<=")
      B = P.bin("+", B, P.intc(1));
    // row < B and row < B + c (c >= 0, a bound on an earlier row of the
    // block: an early return for the whole block) is row < B.
    if (Bound && Bound != B) {
      auto Dif = P.poly(P.bin("-", B, Bound));
      if (!Dif || Dif->size() > 1 ||
          (Dif->size() == 1 && !Dif->begin()->first.empty())) {
        fail(RuleId::PK5007, Here, "stores under different row bounds");
        return std::nullopt;
      }
      if (Dif->size() == 1 && Dif->begin()->second < 0)
        Bound = B;
      continue;
    }
    Bound = B;
  }
  return Bound;
}

} // namespace rowsread

rows::Verdict rows::analyse(ASTContext &Ctx, const FunctionDecl *FD,
                            const Trace &Tr, SymPool &P) {
  return rowsread::Reader(Ctx, FD, Tr, P).run();
}

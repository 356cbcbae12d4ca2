//===- LiftRowsRun.cpp - a trace of the kernel model read as a row program ===//
// Rules: PK5004, PK5007, PK5009
//
// Reader::run (LiftRowsRead.h): the stores of a trace, their rows, columns
// and values, checked and assembled into the row program of LiftRows.cpp.
//
//===----------------------------------------------------------------------===//
#include "LiftRowsRead.h"

#include "llvm/ADT/StringExtras.h"

using namespace pk;
using namespace pk::nki;
using namespace pk::nki::rows;
using namespace pk::km;
using namespace clang;

namespace rowsread {

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
    std::string AccOp;
    SourceLocation Loc;
  };
  // Keyed by the output and, for a record's field, its column (else -1).
  using OutKey = std::pair<const ParmVarDecl *, int64_t>;
  std::map<OutKey, Out> Outs;
  std::vector<OutKey> Order;
  bool HaveBound = false;
  SymP Bound = nullptr;
  int64_t A = 0;
  std::vector<km::Store> Stores = folded();
  if (V.Why || V.NotMine)
    return V;
  for (const km::Store &St : Stores) {
    Here = St.Loc;
    auto *PV = dyn_cast<ParmVarDecl>(St.P);
    auto D = decompose(St.Idx, St.P);
    if (!D)
      return V;
    if (!D->HasRow)
      return notMine(), V;
    if (A && A != D->R.A)
      return fail(RuleId::PK5007, Here,
                  "rows per block differ between "
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
      return fail(RuleId::PK5007, Here,
                  "loads and stores with different "
                  "rows per block"),
             V;
    auto AtRow = atRow(Val, D->R.O);
    if (!AtRow)
      return fail(RuleId::PK5007, Here,
                  "a value computed from another row than the one it is "
                  "stored to (a row program has one row per thread)"),
             V;
    fixedColumns(Val, D->R.O);
    Val = *AtRow;
    // A store at a fixed column of rows of a constant length: a record's
    // field, one per-row value per column.
    int64_t Field = -1;
    if (Col->K == SK::Int && D->PitchS && D->PitchS->K == SK::Int &&
        Col->I >= 0 && Col->I < D->PitchS->I)
      Field = Col->I;
    Out &O = Outs[{PV, Field}];
    if (!O.Set) {
      Order.push_back({PV, Field});
      O.Set = true;
      O.Loc = St.Loc;
      O.Map = Col->K == SK::Iter;
      O.Accum = !St.Acc.empty();
      O.AccOp = St.Acc.str();
    }
    rows::TensorUse &U = Pr.Uses[PV];
    U.Written = true;
    U.Accum |= !St.Acc.empty();
    if (O.Accum != !St.Acc.empty() || (O.Accum && St.Acc != O.AccOp))
      return fail(RuleId::PK5007, Here,
                  llvm::formatv("'{0}' is both stored and accumulated, or "
                                "accumulated with two atomic operations",
                                PV->getName())
                      .str()),
             V;
    rows::TensorUse::Kind K;
    if (O.Map) {
      if (Col->K != SK::Iter || !D->PitchS)
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
      U.Whole = true;
      SymP Pitch = D->PitchS;
      if (U.Pitch && U.Pitch != Pitch)
        return fail(RuleId::PK5007, Here, "two row pitches"), V;
      U.Pitch = Pitch;
    } else if (Field >= 0) {
      K = rows::TensorUse::Matrix;
      if (U.Pitch && U.Pitch != D->PitchS)
        return fail(RuleId::PK5007, Here, "two row pitches"), V;
      U.Pitch = D->PitchS;
      U.Fields.insert(Field);
    } else {
      if (D->PitchS || Col != P.intc(0))
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
  // A record's fields are stored whole: every column of its rows, and
  // never also at a column variable.
  std::map<const ParmVarDecl *, std::set<int64_t>> Stored;
  for (const OutKey &OK : Order)
    if (OK.second >= 0)
      Stored[OK.first].insert(OK.second);
  for (auto &[PV, Fs] : Stored) {
    const rows::TensorUse &U = Pr.Uses[PV];
    Here = Outs[{PV, *Fs.begin()}].Loc;
    if (U.Whole)
      return fail(RuleId::PK5007, Here,
                  llvm::formatv("'{0}' is stored both at whole rows and at "
                                "single columns",
                                PV->getName())
                      .str()),
             V;
    if (int64_t(Fs.size()) != U.Pitch->I) {
      std::vector<std::string> Cs;
      for (int64_t F : Fs)
        Cs.push_back(std::to_string(F));
      return fail(RuleId::PK5007, Here,
                  llvm::formatv("'{0}' is stored at column{1} {2} of its rows "
                                "of {3}: the tile program writes whole rows, "
                                "and the other columns would not keep "
                                "their values",
                                PV->getName(), Cs.size() == 1 ? "" : "s",
                                llvm::join(Cs, ", "), U.Pitch->I)
                      .str()),
             V.Why->Definite = true, V; // what the kernel stores
    }
  }
  // Each output: every row offset, the same value, whole rows.
  for (const OutKey &OK : Order) {
    const ParmVarDecl *PV = OK.first;
    Out &O = Outs[OK];
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
        X = merge(O.AccOp, Vs, Vs[0]->T);
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
        return fail(RuleId::PK5007, Here,
                    "outputs with different column "
                    "counts"),
               V;
      Pr.Cols = O.End;
    }
    rows::RowStore RS;
    RS.P = PV;
    RS.Val = First;
    RS.Map = O.Map;
    RS.Accum = O.Accum;
    RS.AccOp = O.Accum ? O.AccOp : "+";
    RS.Loc = O.Loc;
    RS.Field = OK.second;
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
    if (S->K == SK::Reduce && S->Op != "dot") {
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
    if (S->K == SK::Reduce && S->Op != "dot" && P.contains(S->Ops[0], Row)) {
      // A causal range: columns c < row + k of a row of Cols columns.
      auto Pl = P.poly(S->Ops[0]->Ops[1]);
      int64_t K = Pl ? Pl->coefficient(km::Mono{}) : 0;
      if (!Pl || Pl->size() > 2 || Pl->coefficient(km::Mono{Row}) != 1 ||
          (K < 1 && S->Op != "+")) {
        fail(RuleId::PK5007, Here,
             "a column loop whose range depends on the row other than as "
             "`c < row + k` (k >= 1 for a max or min, whose empty range has "
             "no tile identity)");
        V.Why->Definite = true; // what the kernel computes
        return false;
      }
      Pr.CausalK = std::max(Pr.CausalK, K);
    } else if (S->K == SK::Reduce && S->Op != "dot") {
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
  // Causal reductions only: the rows are the matrices' rows.
  if (!Pr.Cols && Pr.CausalK != INT64_MIN)
    for (auto &[PV, U] : Pr.Uses)
      if (U.K == rows::TensorUse::Matrix && U.Whole && !Pr.Cols)
        Pr.Cols = U.Pitch;
  if (RowValA && RowValA != Pr.A)
    return fail(RuleId::PK5007, Here,
                "the row index used as a value counts rows other than the "
                "stores' (a different number of rows per block)"),
           V;
  // No reduction, no row map and no record's fields: element-wise.
  if (!Pr.Cols && Pr.FieldLoads.empty() && Stored.empty())
    return notMine(), V;
  if (Pr.Cols)
    Pr.Col = fullIter(Pr.Cols);
  for (auto &[PV, U] : Pr.Uses)
    if ((U.K == rows::TensorUse::Matrix || U.K == rows::TensorUse::Mov) &&
        (U.Whole || U.K == rows::TensorUse::Mov) && U.Pitch != Pr.Cols) {
      fail(RuleId::PK5007, PV->getLocation(),
           llvm::formatv("the rows of '{0}' are {1} apart but {2} columns "
                         "are used (padded rows are not lifted)",
                         PV->getName(), sizeText(U.Pitch), sizeText(Pr.Cols))
               .str());
      // What the kernel reads, proven: over the other lifters' spellings.
      if (V.Why)
        V.Why->Definite = true;
      return V;
    }
  std::string Key = std::to_string(Pr.Rows ? Pr.Rows->Id : 0) + ";" +
                    std::to_string(Pr.Cols ? Pr.Cols->Id : 0);
  for (const rows::RowStore &RS : Pr.Stores)
    Key += ";" + std::to_string(P.acHash(RS.Val)) + (RS.Map ? "m" : "r") +
           std::to_string(RS.Field);
  Key += ";" + std::to_string(Pr.CausalK);
  Pr.Key = Key;
  V.Prog = std::move(Pr);
  return V;
}

} // namespace rowsread

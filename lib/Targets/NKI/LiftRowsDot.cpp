//===- LiftRowsDot.cpp - contractions and fixed columns in row programs ---===//
// Rules: PK5007
//
// Two readings the row reader (LiftRows.cpp) makes before its own:
//
//  * folded(): the stored values with their unrolled families folded into
//    reductions (LiftFold.h), and the stores of fixed columns (a lane's
//    `out[row * 64 + lane]` and `[lane + 32]`, a fragment's 16 columns,
//    each row of a block stored by any threads) read as one store per row
//    over a column variable: for a store index A' * blockIdx.x + c (c a
//    constant per store, covering [0, A')), the widest row length W | A'
//    for which every row's stores are one family g(col), col < W;
//
//  * fieldPitches(): a record's fields (`reinterpret_cast<cfloat *>(a)[i]`
//    reads a[2i] and a[2i + 1]): where each thread accesses a tensor only
//    at constant offsets A * blockIdx.x + c, the least row length W | A
//    (W <= 16) that puts each thread's offsets in one row is the tensor's
//    pitch, when the rows so found agree among the tensors a thread
//    accesses; its accesses are then fixed columns of rows (decompose);
//
//  * dot(): a sum over k < D of A[row * D + k] * B[col * D + k] (or
//    B[k * N + col]), with col the row's column variable, is a contraction:
//    reduce("dot", k, ...), emitted as nc_matmul (LiftRowsEmit.cpp), its
//    operands' uses recorded as Stat (A: [rows, D]), MovT (B: [cols, D])
//    or Mov (B: [D, cols]).
//
//===----------------------------------------------------------------------===//
#include "LiftFold.h"
#include "LiftRowsRead.h"

using namespace pk;
using namespace pk::nki;
using namespace pk::nki::rows;
using namespace pk::km;
using namespace clang;

namespace rowsread {

std::vector<km::Store> Reader::folded() {
  Folder F(P);
  std::vector<km::Store> Sts = Tr.Stores;
  // Indices split by `/` and `%` and recombined (b = row / T, t = row % T,
  // b * T * C + t * C + c) are the row's again.
  for (km::Store &St : Sts) {
    St.Idx = P.delinearise(St.Idx);
    St.Val = P.delinearise(St.Val);
    if (St.Guard)
      St.Guard = P.delinearise(St.Guard);
  }
  fieldPitches(Sts);
  // A fold that reads a record's field at a column other than its
  // variable (re * im' + im * re' as a sum over k of a[k] * b[1 - k]) is
  // not a row's reduction: the fields stay single columns.
  auto FieldsKept = [&](SymP S) {
    std::set<SymP> Seen;
    std::vector<SymP> Work{S};
    while (!Work.empty()) {
      SymP X = Work.back();
      Work.pop_back();
      if (!P.containsKind(X, SK::Load) || !Seen.insert(X).second)
        continue;
      if (X->K == SK::Load && FieldPitch.count(X->D))
        if (auto Pl = P.poly(X->Ops[0]))
          for (auto &[M, K] : *Pl)
            for (SymP A : M)
              if (A->K == SK::Iter && (K != 1 || M.size() != 1))
                return false;
      Work.insert(Work.end(), X->Ops.begin(), X->Ops.end());
    }
    return true;
  };
  for (km::Store &St : Sts) {
    SymP Folded = F.fold(St.Val);
    if (FieldPitch.empty() || FieldsKept(Folded))
      St.Val = Folded;
  }
  // Fixed columns: stores at A' * blockIdx.x + c, grouped by output and
  // guard.
  struct Member {
    int64_t C;
    size_t I;
  };
  std::map<std::pair<const ValueDecl *, int64_t>, std::vector<Member>> Groups;
  SymP Bx = P.blockIdx(0);
  for (size_t I = 0; I < Sts.size(); ++I) {
    const km::Store &St = Sts[I];
    if (!St.Acc.empty())
      continue;
    auto Pl = P.poly(St.Idx);
    if (!Pl || Pl->size() > 2)
      continue;
    int64_t A = 0, C = 0;
    bool Ok = true;
    for (auto &[M, K] : *Pl) {
      if (M.empty())
        C = K;
      else if (M.size() == 1 && M[0] == Bx && K > 0)
        A = K;
      else
        Ok = false;
    }
    if (Ok && A > 1 && C >= 0 && C < A)
      Groups[{St.P, A}].push_back({C, I});
  }
  std::vector<char> Drop(Sts.size(), 0);
  std::vector<km::Store> Out;
  for (auto &[Key, Ms] : Groups) {
    int64_t A = Key.second;
    if (int64_t(Ms.size()) != A)
      continue;
    std::sort(Ms.begin(), Ms.end(),
              [](const Member &X, const Member &Y) { return X.C < Y.C; });
    bool Distinct = true;
    for (int64_t K = 0; K < A; ++K)
      Distinct &= Ms[size_t(K)].C == K;
    if (!Distinct)
      continue;
    for (int64_t W = A; W >= 2; --W) {
      if (A % W)
        continue;
      SymP Col = P.iter(nullptr, P.intc(0), P.intc(W), P.intc(1));
      std::vector<km::Store> Rows;
      for (int64_t O = 0; O < A / W; ++O) {
        std::vector<SymP> Vals;
        SymP Guard = Sts[Ms[size_t(O * W)].I].Guard;
        for (int64_t K = 0; K < W; ++K) {
          Vals.push_back(Sts[Ms[size_t(O * W + K)].I].Val);
          if (Sts[Ms[size_t(O * W + K)].I].Guard != Guard)
            Vals.clear();
        }
        auto G = Vals.size() == size_t(W) ? F.family(Vals, Col) : std::nullopt;
        if (!G || (!FieldPitch.empty() && !FieldsKept(*G))) {
          Rows.clear();
          break;
        }
        km::Store St = Sts[Ms[size_t(O * W)].I];
        St.Idx = P.bin("+", P.bin("*", Bx, P.intc(A)),
                       P.bin("+", P.intc(O * W), Col));
        St.Val = *G;
        Rows.push_back(St);
      }
      if (Rows.empty())
        continue;
      for (const Member &M : Ms)
        Drop[M.I] = 1;
      Out.insert(Out.end(), Rows.begin(), Rows.end());
      break;
    }
  }
  for (size_t I = 0; I < Sts.size(); ++I)
    if (!Drop[I])
      Out.push_back(Sts[I]);
  return Out;
}

void Reader::fieldPitches(const std::vector<km::Store> &Sts) {
  enum : int64_t { MaxFields = 16 };
  SymP Bx = P.blockIdx(0);
  // Per thread and tensor, the constant offsets c of its accesses
  // A * blockIdx.x + c; per tensor, A (0: accessed otherwise too).
  std::map<unsigned, std::map<const ValueDecl *, std::set<int64_t>>> Offs;
  std::map<const ValueDecl *, int64_t> Coef;
  auto Note = [&](unsigned T, const ValueDecl *D, SymP Idx) {
    if (!isa<ParmVarDecl>(D))
      return;
    auto Pl = P.poly(Idx);
    int64_t A = 0, C = 0;
    bool Ok = Pl.has_value();
    if (Ok)
      for (auto &[M, K] : *Pl) {
        if (M.empty())
          C = K;
        else if (M.size() == 1 && M[0] == Bx && K > 0)
          A = K;
        else
          Ok = false;
      }
    auto [It, New] = Coef.try_emplace(D, A);
    if (!Ok || A == 0 || C < 0 || It->second != A) {
      It->second = 0;
      return;
    }
    Offs[T][D].insert(C);
  };
  for (const km::Store &St : Sts) {
    Note(St.Thread, St.P, St.Idx);
    std::set<SymP> Seen;
    std::vector<SymP> Work{St.Val};
    while (!Work.empty()) {
      SymP X = Work.back();
      Work.pop_back();
      if (!P.containsKind(X, SK::Load) || !Seen.insert(X).second)
        continue;
      if (X->K == SK::Load && X->D)
        Note(St.Thread, X->D, X->Ops[0]);
      Work.insert(Work.end(), X->Ops.begin(), X->Ops.end());
    }
  }
  // Each tensor's least W.
  std::map<const ValueDecl *, int64_t> W;
  bool Any = false;
  for (auto &[D, A] : Coef) {
    if (!A)
      continue;
    for (int64_t E = 1; E <= std::min<int64_t>(A, MaxFields); ++E) {
      if (A % E)
        continue;
      bool One = true;
      for (auto &[T, Per] : Offs) {
        auto It = Per.find(D);
        if (It != Per.end())
          One &= *It->second.begin() / E == *It->second.rbegin() / E;
      }
      if (One) {
        W[D] = E;
        Any |= E > 1;
        break;
      }
    }
  }
  if (!Any)
    return;
  // The rows agree: each thread's one row in every tensor it accesses.
  for (auto &[T, Per] : Offs) {
    std::optional<int64_t> Row;
    for (auto &[D, Cs] : Per) {
      auto It = W.find(D);
      if (It == W.end() || !Coef[D])
        continue;
      int64_t R = *Cs.begin() / It->second;
      if (Row && *Row != R)
        return;
      Row = R;
    }
  }
  for (auto &[D, E] : W)
    if (E > 1 && Coef[D])
      FieldPitch[D] = E;
  if (std::getenv("PK_NKI_MODEL_DEBUG"))
    for (auto &[D, A] : Coef)
      llvm::errs() << "fields: " << D->getName() << " A=" << A
                   << " W=" << (W.count(D) ? W[D] : 0) << "\n";
}

std::optional<SymP> Reader::dot(SymP S, unsigned T) {
  SymP It = S->Ops[0], Body = S->Ops[1];
  if (S->Op != "+" || It->Ops[0] != P.intc(0) || It->Ops[2] != P.intc(1) ||
      Body->K != SK::Bin || Body->Op != "*")
    return std::nullopt;
  auto LoadOf = [](SymP X) -> SymP {
    if (X->K == SK::Cast && isFloatTy(X->T))
      X = X->Ops[0];
    return X->K == SK::Load ? X : nullptr;
  };
  SymP FA = Body->Ops[0], FB = Body->Ops[1];
  SymP LA = LoadOf(FA), LB = LoadOf(FB);
  if (!LA || !LB || !isa<ParmVarDecl>(LA->D) || !isa<ParmVarDecl>(LB->D))
    return std::nullopt;
  auto DA = decompose(LA->Ops[0]);
  auto DB = DA ? decompose(LB->Ops[0]) : std::nullopt;
  if (!DA || !DB)
    return std::nullopt;
  if (DB->HasRow && !DA->HasRow) {
    std::swap(DA, DB);
    std::swap(LA, LB);
    std::swap(FA, FB);
  }
  SymP Depth = It->Ops[1];
  if (!DA->HasRow || DB->HasRow || DA->Col != It || DA->PitchS != Depth)
    return std::nullopt;
  // B's index: col * W + k (MovT, W = Depth) or k * W + col (Mov).
  auto BP = P.poly(DB->Col);
  if (!BP)
    return std::nullopt;
  SymP X = nullptr;
  for (auto &[M, C] : *BP)
    for (SymP A : M)
      if (A->K == SK::Iter && A != It) {
        if (X && X != A)
          return std::nullopt;
        X = A;
      }
  km::Poly OfIt, OfX;
  for (auto &[M, C] : *BP) {
    km::Mono Rest;
    int NIt = 0, NX = 0;
    for (SymP A : M)
      A == It ? ++NIt : A == X ? ++NX : (Rest.push_back(A), 0);
    if (NIt + NX != 1)
      return std::nullopt;
    (NIt ? OfIt : OfX).add(Rest, C);
  }
  if (!X || X->Ops[0] != P.intc(0) || X->Ops[2] != P.intc(1))
    return std::nullopt;
  km::Poly One{{km::Mono{}, 1}};
  TensorUse::Kind BK;
  SymP W;
  if (OfIt == One) {
    BK = TensorUse::MovT;
    W = P.fromPoly(OfX);
    if (W != Depth)
      return std::nullopt;
  } else if (OfX == One) {
    BK = TensorUse::Mov;
    W = P.fromPoly(OfIt);
  } else {
    return std::nullopt;
  }
  auto *PA = cast<ParmVarDecl>(LA->D), *PB = cast<ParmVarDecl>(LB->D);
  if (PA == PB) {
    fail(RuleId::PK5007, Here, "a contraction of a tensor with itself");
    return S;
  }
  if (DA->R.O >= MaxRowsPerBlock) {
    fail(RuleId::PK5007, Here, "more than 1024 rows per block");
    return S;
  }
  if (LoadA && LoadA != DA->R.A) {
    fail(RuleId::PK5007, Here, "loads with different rows per block");
    return S;
  }
  LoadA = DA->R.A;
  auto Use = [&](const ParmVarDecl *PV, TensorUse::Kind K, SymP Pitch) {
    TensorUse &U = Pr.Uses[PV];
    if ((U.K != TensorUse::None && U.K != K) || (U.Depth && U.Depth != Depth) ||
        (U.Pitch && U.Pitch != Pitch)) {
      fail(RuleId::PK5007, Here,
           llvm::formatv("'{0}' is read both as an operand of a contraction "
                         "and otherwise, or by two contractions of different "
                         "shapes",
                         PV->getName())
               .str());
      return false;
    }
    U.K = K;
    U.Read = true;
    U.Depth = Depth;
    U.Pitch = Pitch;
    return true;
  };
  if (!Use(PA, TensorUse::Stat, Depth) || !Use(PB, BK, W))
    return S;
  SymP NIt = norm(It, T), NX = norm(X, T);
  SymP NA = P.load(PA, P.bin("+", P.bin("*", rowAtom(DA->R.O), Depth), NIt),
                   LA->T);
  SymP NB = P.load(PB,
                   BK == TensorUse::MovT
                       ? P.bin("+", P.bin("*", NX, Depth), NIt)
                       : P.bin("+", P.bin("*", NIt, W), NX),
                   LB->T);
  if (FA != LA)
    NA = P.cast(FA->T, NA);
  if (FB != LB)
    NB = P.cast(FB->T, NB);
  return P.reduce("dot", NIt, P.bin("*", NA, NB));
}

} // namespace rowsread

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
  for (km::Store &St : Sts)
    St.Val = F.fold(St.Val);
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
        if (!G) {
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

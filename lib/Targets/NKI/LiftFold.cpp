//===- LiftFold.cpp - unrolled terms read back as reductions --------------===//
// Rules: none (a reading of kernel-model values)
//
// A value's signature is its shape with the constants of its integer slots
// (load indices, compared integers: maximal integer subterms, as
// polynomials) taken out, in an order that does not depend on how the pool
// ordered commutative operands.  The terms of a chain that share a shape
// and whose slot constants are c0 + k * d for k = 0..N-1 are the family
// g(k) with each slot's constant moved by d * k: g is built from the first
// and checked against every term (equal up to the order of commutative,
// associative operations), else the terms stay as they are.
//
//===----------------------------------------------------------------------===//
#include "LiftFold.h"

#include <algorithm>
#include <set>
#include <functional>

using namespace pk;
using namespace pk::nki;
using namespace pk::km;

namespace liftfold {

uint64_t mix(uint64_t H, uint64_t V) {
  H ^= V + 0x9e3779b97f4a7c15ULL + (H << 6) + (H >> 2);
  return H;
}

bool chainOp(SymP S) {
  return S->K == SK::Bin && isFloatTy(S->T) &&
         (S->Op == "+" || S->Op == "max" || S->Op == "min");
}

bool commutes(SymP S) {
  return S->K == SK::Bin && isFloatTy(S->T) &&
         (S->Op == "+" || S->Op == "*" || S->Op == "max" || S->Op == "min");
}

constexpr size_t MaxOffs = 4096;

} // namespace liftfold

using namespace liftfold;

bool Folder::intSlot(SymP S) const {
  return S->isInt() && S->T != Ty::Bool;
}

unsigned Folder::depth(SymP S) {
  if (!P.containsKind(S, SK::Iter))
    return 0;
  auto It = Depths.find(S);
  if (It != Depths.end())
    return It->second;
  unsigned D = S->K == SK::Iter ? unsigned(S->I) : 0;
  for (SymP O : S->Ops)
    D = std::max(D, depth(O));
  return Depths[S] = D;
}

const Folder::Sig &Folder::sig(SymP S) {
  auto It = Sigs.find(S);
  if (It != Sigs.end())
    return It->second;
  Sig G = sigNew(S);
  return Sigs.emplace(S, std::move(G)).first->second;
}

std::vector<size_t> Folder::order(SymP S) {
  std::vector<size_t> Ix(S->Ops.size());
  for (size_t I = 0; I < Ix.size(); ++I)
    Ix[I] = I;
  if (commutes(S))
    std::stable_sort(Ix.begin(), Ix.end(), [&](size_t A, size_t B) {
      const Sig &SA = sig(S->Ops[A]), &SB = sig(S->Ops[B]);
      if (SA.Shape != SB.Shape)
        return SA.Shape < SB.Shape;
      return SA.Offs < SB.Offs;
    });
  return Ix;
}

Folder::Sig Folder::sigNew(SymP S) {
  Sig G;
  if (intSlot(S)) {
    auto Pl = P.poly(S);
    uint64_t H = mix(0x51u, uint64_t(S->T));
    int64_t C = 0;
    if (Pl)
      for (auto &[M, K] : *Pl) {
        if (M.empty()) {
          C = K;
          continue;
        }
        for (SymP A : M)
          H = mix(H, A->Id);
        H = mix(H, uint64_t(K));
      }
    else
      H = mix(H, S->Id);
    G.Shape = H;
    G.Offs = {C};
    return G;
  }
  uint64_t H = mix(uint64_t(S->K) * 131 + uint64_t(S->T), 0x77);
  if (S->Ops.empty() || S->K == SK::Iter) {
    G.Shape = mix(H, S->Id);
    return G;
  }
  H = mix(H, std::hash<std::string>()(S->Op.str()));
  H = mix(H, reinterpret_cast<uintptr_t>(S->D));
  for (size_t I : order(S)) {
    const Sig &C = sig(S->Ops[I]);
    H = mix(H, C.Shape);
    G.Offs.insert(G.Offs.end(), C.Offs.begin(), C.Offs.end());
    if (G.Offs.size() > MaxOffs) {
      G.Opaque = true;
      G.Offs.clear();
      G.Shape = mix(0x0b, S->Id);
      return G;
    }
  }
  G.Shape = H;
  return G;
}

SymP Folder::shift(SymP S, const std::vector<int64_t> &Delta, size_t &At,
                   SymP It, bool &Ok) {
  if (!Ok)
    return S;
  const Sig &G = sig(S);
  if (G.Opaque || G.Offs.empty())
    return S;
  if (intSlot(S)) {
    int64_t D = Delta[At++];
    return D ? P.bin("+", S, P.bin("*", P.intc(D, S->T), It)) : S;
  }
  std::vector<SymP> Ops = S->Ops;
  for (size_t I : order(S))
    Ops[I] = shift(S->Ops[I], Delta, At, It, Ok);
  SymP R = P.rebuild(S, Ops);
  if (!R)
    Ok = false;
  return R ? R : S;
}

std::optional<SymP> Folder::family(const std::vector<SymP> &Ms, SymP It) {
  if (Ms.size() < 2)
    return std::nullopt;
  const Sig &G0 = sig(Ms[0]);
  if (G0.Opaque)
    return std::nullopt;
  const Sig &G1 = sig(Ms[1]);
  if (G1.Opaque || G1.Shape != G0.Shape || G1.Offs.size() != G0.Offs.size())
    return std::nullopt;
  std::vector<int64_t> Delta(G0.Offs.size());
  bool Any = false;
  for (size_t I = 0; I < Delta.size(); ++I) {
    Delta[I] = G1.Offs[I] - G0.Offs[I];
    Any |= Delta[I] != 0;
  }
  if (!Any)
    return std::nullopt;
  for (size_t K = 2; K < Ms.size(); ++K) {
    const Sig &GK = sig(Ms[K]);
    if (GK.Opaque || GK.Shape != G0.Shape || GK.Offs.size() != Delta.size())
      return std::nullopt;
    for (size_t I = 0; I < Delta.size(); ++I)
      if (GK.Offs[I] != G0.Offs[I] + int64_t(K) * Delta[I])
        return std::nullopt;
  }
  size_t At = 0;
  bool Ok = true;
  SymP Gk = shift(Ms[0], Delta, At, It, Ok);
  if (!Ok || At != Delta.size())
    return std::nullopt;
  for (size_t K = 0; K < Ms.size(); ++K) {
    SymP X = P.subst(Gk, {{It, P.intc(int64_t(K))}});
    if (X != Ms[K] && P.acHash(X) != P.acHash(Ms[K]))
      return std::nullopt;
  }
  return Gk;
}

SymP Folder::fold(SymP S) {
  if (S->Ops.empty())
    return S;
  auto It = Memo.find(S);
  if (It != Memo.end())
    return It->second;
  SymP R = foldNew(S);
  Memo[S] = R;
  return R;
}

SymP Folder::foldNew(SymP S) {
  if (!chainOp(S)) {
    std::vector<SymP> Ops;
    bool Same = true;
    for (SymP O : S->Ops) {
      Ops.push_back(S->K == SK::Iter ? O : fold(O));
      Same &= Ops.back() == O;
    }
    if (Same)
      return S;
    SymP R = P.rebuild(S, Ops);
    return R ? R : S;
  }
  // The chain's terms, each folded.
  std::vector<SymP> Terms;
  std::function<void(SymP)> Flat = [&](SymP X) {
    if (X->K == SK::Bin && X->Op == S->Op && X->T == S->T)
      for (SymP O : X->Ops)
        Flat(O);
    else
      Terms.push_back(fold(X));
  };
  Flat(S);
  // Terms of one shape, ordered by their slot constants.
  std::map<uint64_t, std::vector<SymP>> Groups;
  for (SymP T : Terms)
    if (!sig(T).Opaque && !sig(T).Offs.empty())
      Groups[sig(T).Shape].push_back(T);
  std::vector<SymP> Out;
  std::set<SymP> Used;
  for (auto &[Shape, Ms] : Groups) {
    if (Ms.size() < 2)
      continue;
    std::sort(Ms.begin(), Ms.end(), [&](SymP A, SymP B) {
      return sig(A).Offs < sig(B).Offs;
    });
    unsigned Tag = 0;
    for (SymP M : Ms)
      Tag = std::max(Tag, depth(M));
    SymP Var = P.iter(nullptr, P.intc(0), P.intc(int64_t(Ms.size())),
                      P.intc(1), Tag + 1);
    auto G = family(Ms, Var);
    if (!G)
      continue;
    for (SymP M : Ms)
      Used.insert(M);
    Out.push_back(P.reduce(S->Op, Var, *G));
  }
  if (Out.empty()) {
    // Nothing folded: the chain with its folded terms.
    std::vector<SymP> Orig;
    std::function<void(SymP)> Flat0 = [&](SymP X) {
      if (X->K == SK::Bin && X->Op == S->Op && X->T == S->T)
        for (SymP O : X->Ops)
          Flat0(O);
      else
        Orig.push_back(X);
    };
    Flat0(S);
    if (Orig == Terms)
      return S;
    SymP R = nullptr;
    for (SymP X : Terms)
      R = R ? P.bin(S->Op, R, X) : X;
    return R;
  }
  for (SymP T : Terms)
    if (!Used.count(T))
      Out.push_back(T);
  std::sort(Out.begin(), Out.end(),
            [](SymP A, SymP B) { return A->Id < B->Id; });
  SymP R = nullptr;
  for (SymP X : Out)
    R = R ? P.bin(S->Op, R, X) : X;
  return R;
}

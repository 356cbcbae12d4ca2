//===- KernelSym.cpp - the symbolic values of the kernel model ------------===//
// Rules: none (shared analysis)
//
// A hash-consed pool of values.  Every constructor simplifies, so that two
// spellings of one value meet as one pointer: constants fold, identities
// vanish (x + 0, x * 1), commutative operands are ordered by creation,
// integer +, - and * are kept as canonical polynomials, `c ? a : b` with
// `c` a comparison of `a` and `b` is a max or min, and a comparison that
// the polynomials decide is a constant.
//
//===----------------------------------------------------------------------===//
#include "pk/KernelModel.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/Support/FormatVariadic.h"
#include <cmath>
#include <cstring>
#include <functional>
#include <unordered_set>
#include <limits>

using namespace pk;
using namespace pk::km;

bool km::isFloatTy(Ty T) {
  return T == Ty::F32 || T == Ty::F16 || T == Ty::BF16;
}

bool MonoLess::operator()(const Mono &A, const Mono &B) const {
  if (A.size() != B.size())
    return A.size() < B.size();
  for (size_t I = 0; I < A.size(); ++I)
    if (A[I]->Id != B[I]->Id)
      return A[I]->Id < B[I]->Id;
  return false;
}

SymPool::SymPool() = default;
SymPool::~SymPool() = default;

llvm::StringRef SymPool::intern(llvm::StringRef S) {
  return Interned.insert(S).first->getKey();
}

unsigned SymPool::SameInfo::getHashValue(SymP S) { return S->Hash; }

/// The hash of the fields that identify \p S.
static uint32_t fieldsHash(const Sym *S) {
  uint64_t FBits;
  std::memcpy(&FBits, &S->F, sizeof FBits);
  llvm::hash_code H = llvm::hash_combine(unsigned(S->K), unsigned(S->T), S->I,
                                         FBits, S->D, S->Site, S->Op);
  for (SymP O : S->Ops)
    H = llvm::hash_combine(H, O->Id);
  return uint32_t(size_t(H));
}

bool SymPool::SameInfo::isEqual(SymP A, SymP B) {
  if (A == B)
    return true;
  if (A == getEmptyKey() || A == getTombstoneKey() || B == getEmptyKey() ||
      B == getTombstoneKey() || A->Hash != B->Hash)
    return false;
  // The floating constant compares by its bits (0.0 and -0.0 differ, a NaN
  // meets itself); operands by identity (they are pool values).
  return A->K == B->K && A->T == B->T && A->I == B->I &&
         std::memcmp(&A->F, &B->F, sizeof A->F) == 0 && A->D == B->D &&
         A->Site == B->Site && A->Op == B->Op && A->Ops == B->Ops;
}

SymP SymPool::make(Sym S) {
  S.Hash = fieldsHash(&S);
  auto It = Map.find(&S);
  if (It != Map.end())
    return *It;
  S.Op = intern(S.Op);
  S.Id = unsigned(Store.size());
  S.Kinds = uint32_t(1) << unsigned(S.K);
  for (SymP O : S.Ops)
    S.Kinds |= O->Kinds;
  Store.push_back(std::move(S));
  SymP P = &Store.back();
  Map.insert(P);
  return P;
}

SymP SymPool::intc(int64_t V, Ty T) {
  Sym S;
  S.K = SK::Int;
  S.T = isFloatTy(T) ? Ty::I32 : T;
  if (S.T == Ty::Bool)
    V = V != 0;
  if (S.T == Ty::I64 || S.T == Ty::U32)
    S.T = Ty::I32; // one integer kind for values that are indices
  S.I = V;
  return make(std::move(S));
}

SymP SymPool::flt(double V, Ty T) {
  Sym S;
  S.K = SK::Flt;
  S.T = isFloatTy(T) ? T : Ty::F32;
  if (S.T == Ty::F32)
    V = double(float(V));
  S.F = V;
  return make(std::move(S));
}

SymP SymPool::param(const clang::ValueDecl *D, Ty T) {
  Sym S;
  S.K = SK::Param;
  S.D = D;
  S.T = T == Ty::I64 || T == Ty::U32 ? Ty::I32 : T;
  return make(std::move(S));
}

SymP SymPool::blockIdx(unsigned Dim) {
  Sym S;
  S.K = SK::BlockIdx;
  S.T = Ty::I32;
  S.I = Dim;
  return make(std::move(S));
}

SymP SymPool::gridDim(unsigned Dim) {
  Sym S;
  S.K = SK::GridDim;
  S.T = Ty::I32;
  S.I = Dim;
  return make(std::move(S));
}

SymP SymPool::iter(const clang::Stmt *Site, SymP Start, SymP End, SymP Step,
                   unsigned Tag) {
  Sym S;
  S.K = SK::Iter;
  S.T = Ty::I32;
  S.Site = Site;
  S.I = Tag;
  S.Ops = {Start, End, Step};
  return make(std::move(S));
}

SymP SymPool::carried(const clang::ValueDecl *D, const clang::Stmt *Site,
                      Ty T) {
  Sym S;
  S.K = SK::Carried;
  S.T = T;
  S.D = D;
  S.Site = Site;
  return make(std::move(S));
}

SymP SymPool::ptr(const clang::ValueDecl *D, SymP Off, Ty Elem) {
  Sym S;
  S.K = SK::Ptr;
  S.T = Elem;
  S.D = D;
  S.Ops = {Off};
  return make(std::move(S));
}

SymP SymPool::load(const clang::ValueDecl *D, SymP Idx, Ty T) {
  Sym S;
  S.K = SK::Load;
  S.T = T;
  S.D = D;
  S.Ops = {Idx};
  return make(std::move(S));
}

SymP SymPool::atom(unsigned Tag) {
  Sym S;
  S.K = SK::Param;
  S.T = Ty::I32;
  S.I = Tag;
  return make(std::move(S));
}

SymP SymPool::undef(Ty T) {
  Sym S;
  S.K = SK::Undef;
  S.T = T;
  return make(std::move(S));
}

//===----------------------------------------------------------------------===//
// Integer polynomials.
//===----------------------------------------------------------------------===//

std::optional<Poly> SymPool::poly(SymP S) {
  if (!S || !S->isInt() || S->T == Ty::Bool)
    return std::nullopt;
  std::optional<Poly> P;
  if (S->K == SK::Int)
    P = Poly::constant(S->I);
  else if (S->K == SK::Bin && (S->Op == "+" || S->Op == "-" || S->Op == "*")) {
    auto A = poly(S->Ops[0]), B = poly(S->Ops[1]);
    if (!A || !B)
      return std::nullopt;
    P = S->Op == "*" ? *A * *B : S->Op == "+" ? *A + *B : *A - *B;
  } else if (S->K == SK::Cast && S->Ops[0]->isInt())
    return poly(S->Ops[0]);
  else
    P = Poly::atom(S);
  // A coefficient beyond 64 bits: not a polynomial the analyses can read.
  if (P->overflowed())
    return std::nullopt;
  return P;
}

SymP SymPool::fromPoly(const Poly &P, Ty T) {
  auto Raw = [&](llvm::StringRef Op, SymP A, SymP B) {
    Sym S;
    S.K = SK::Bin;
    S.T = Ty::I32;
    S.Op = Op;
    S.Ops = {A, B};
    return make(std::move(S));
  };
  SymP Sum = nullptr;
  int64_t Const = 0;
  for (auto &[M, C] : P) {
    if (M.empty()) {
      Const = C;
      continue;
    }
    SymP Term = M[0];
    for (size_t I = 1; I < M.size(); ++I)
      Term = Raw("*", Term, M[I]);
    if (C == -1 && Sum) {
      Sum = Raw("-", Sum, Term);
      continue;
    }
    if (C != 1)
      Term = Raw("*", Term, intc(C));
    Sum = Sum ? Raw("+", Sum, Term) : Term;
  }
  if (!Sum)
    return intc(Const, T);
  if (Const > 0)
    Sum = Raw("+", Sum, intc(Const));
  else if (Const < 0)
    Sum = Raw("-", Sum, intc(-Const));
  return Sum;
}

//===----------------------------------------------------------------------===//
// Operations.
//===----------------------------------------------------------------------===//

static bool commutative(llvm::StringRef Op) {
  return Op == "+" || Op == "*" || Op == "max" || Op == "min" || Op == "&" ||
         Op == "|" || Op == "^" || Op == "&&" || Op == "||";
}

static Ty joinTy(SymP A, SymP B) {
  if (isFloatTy(A->T) && !isFloatTy(B->T))
    return A->T;
  if (isFloatTy(B->T) && !isFloatTy(A->T))
    return B->T;
  if (A->T == Ty::F32 || B->T == Ty::F32)
    return isFloatTy(A->T) ? Ty::F32 : A->T;
  return A->T == Ty::Bool ? B->T : A->T;
}

static double asF(SymP S) { return S->K == SK::Int ? double(S->I) : S->F; }

SymP SymPool::bin(llvm::StringRef Op, SymP A, SymP B) {
  Ty T = joinTy(A, B);
  if (A->K == SK::Undef || B->K == SK::Undef)
    return undef(T);
  bool IsInt = !isFloatTy(T);
  // Constants.
  if (A->isConst() && B->isConst()) {
    if (IsInt) {
      int64_t X = A->I, Y = B->I;
      if (Op == "+") return intc(X + Y);
      if (Op == "-") return intc(X - Y);
      if (Op == "*") return intc(X * Y);
      if (Op == "/" && Y) return intc(X / Y);
      if (Op == "%" && Y) return intc(X % Y);
      if (Op == "&") return intc(X & Y);
      if (Op == "|") return intc(X | Y);
      if (Op == "^") return intc(X ^ Y);
      if (Op == "<<" && Y >= 0 && Y < 63) return intc(X << Y);
      if (Op == ">>" && Y >= 0 && Y < 63) return intc(X >> Y);
      if (Op == "max") return intc(std::max(X, Y));
      if (Op == "min") return intc(std::min(X, Y));
      if (Op == "&&") return boolc(X && Y);
      if (Op == "||") return boolc(X || Y);
    } else {
      double X = asF(A), Y = asF(B);
      if (Op == "+") return flt(X + Y, T);
      if (Op == "-") return flt(X - Y, T);
      if (Op == "*") return flt(X * Y, T);
      if (Op == "/") return flt(X / Y, T);
      if (Op == "max") return flt(std::fmax(X, Y), T);
      if (Op == "min") return flt(std::fmin(X, Y), T);
    }
  }
  // Integer polynomials.
  if (IsInt && (Op == "+" || Op == "-" || Op == "*")) {
    auto PA = poly(A), PB = poly(B);
    if (PA && PB) {
      Poly R = Op == "*" ? *PA * *PB : Op == "+" ? *PA + *PB : *PA - *PB;
      // Beyond 64 bits the operation stays as written.
      if (!R.overflowed())
        return fromPoly(R, T);
    }
  }
  if (IsInt && B->K == SK::Int) {
    int64_t Y = B->I;
    if ((Op == "/" || Op == "<<" || Op == ">>") && Y == (Op == "/" ? 1 : 0))
      return A;
    if (Op == "<<" && Y > 0 && Y < 31)
      return bin("*", A, intc(int64_t(1) << Y));
    if ((Op == "/" || Op == ">>") && Y > 0) {
      int64_t D = Op == "/" ? Y : int64_t(1) << Y;
      if (auto P = poly(A)) {
        bool Exact = true;
        for (auto &[M, C] : *P)
          Exact &= C % D == 0;
        if (Exact) {
          Poly Q;
          for (auto &[M, C] : *P)
            Q.add(M, C / D);
          return fromPoly(Q, T);
        }
      }
    }
    if (Op == "%" && Y > 0)
      if (auto P = poly(A)) {
        bool Exact = true;
        for (auto &[M, C] : *P)
          Exact &= C % Y == 0;
        if (Exact)
          return intc(0);
      }
  }
  // An int32 max with INT_MIN, min with INT_MAX; a uint32 max with 0, min
  // with UINT_MAX (a constant taken modulo 2^32, as converting it does).
  if (IsInt && (Op == "max" || Op == "min"))
    for (int Side = 0; Side < 2; ++Side) {
      SymP C = Side ? A : B, X = Side ? B : A;
      if (C->K != SK::Int)
        continue;
      if (X->T == Ty::I32 && C->I == (Op == "max" ? INT32_MIN : INT32_MAX))
        return X;
      if (X->T == Ty::U32 &&
          (uint64_t(C->I) & UINT32_MAX) == (Op == "max" ? 0 : UINT32_MAX))
        return X;
    }
  // Float identities.
  if (!IsInt) {
    if ((Op == "+" || Op == "-") && B->isConst() && asF(B) == 0)
      return A->T == T ? A : cast(T, A);
    if (Op == "+" && A->isConst() && asF(A) == 0)
      return B->T == T ? B : cast(T, B);
    if ((Op == "*" || Op == "/") && B->isConst() && asF(B) == 1)
      return A->T == T ? A : cast(T, A);
    if (Op == "*" && A->isConst() && asF(A) == 1)
      return B->T == T ? B : cast(T, B);
    if ((Op == "max" || Op == "min") && A == B)
      return A;
    // max with -inf, min with +inf.
    for (int Side = 0; Side < 2; ++Side) {
      SymP C = Side ? A : B, X = Side ? B : A;
      if (C->K == SK::Flt && ((Op == "max" && C->F == -INFINITY) ||
                              (Op == "min" && C->F == INFINITY)))
        return X;
    }
  }
  if (commutative(Op) && (A->isConst() || (!B->isConst() && A->Id > B->Id)))
    std::swap(A, B);
  Sym S;
  S.K = SK::Bin;
  S.T = (Op == "&&" || Op == "||") ? Ty::Bool : T;
  S.Op = Op;
  S.Ops = {A, B};
  return make(std::move(S));
}

SymP SymPool::un(llvm::StringRef Op, SymP A) {
  if (A->K == SK::Undef)
    return A;
  if (Op == "neg") {
    if (A->isInt())
      return bin("*", A, intc(-1));
    if (A->K == SK::Flt)
      return flt(-A->F, A->T);
  }
  if (A->K == SK::Flt) {
    double X = A->F;
    if (Op == "exp") return flt(std::exp(X), A->T);
    if (Op == "sqrt") return flt(std::sqrt(X), A->T);
    if (Op == "abs") return flt(std::fabs(X), A->T);
  }
  Sym S;
  S.K = SK::Un;
  S.T = Op == "!" ? Ty::Bool : A->T;
  S.Op = Op;
  S.Ops = {A};
  return make(std::move(S));
}

static const char *flipCmp(llvm::StringRef Op) {
  if (Op == "<") return ">";
  if (Op == ">") return "<";
  if (Op == "<=") return ">=";
  if (Op == ">=") return "<=";
  return Op == "==" ? "==" : "!=";
}

static const char *notCmp(llvm::StringRef Op) {
  if (Op == "<") return ">=";
  if (Op == ">") return "<=";
  if (Op == "<=") return ">";
  if (Op == ">=") return "<";
  return Op == "==" ? "!=" : "==";
}

static bool cmpConst(llvm::StringRef Op, double X, double Y) {
  if (Op == "<") return X < Y;
  if (Op == ">") return X > Y;
  if (Op == "<=") return X <= Y;
  if (Op == ">=") return X >= Y;
  if (Op == "==") return X == Y;
  return X != Y;
}

SymP SymPool::cmp(llvm::StringRef Op, SymP A, SymP B) {
  if (A->K == SK::Undef || B->K == SK::Undef)
    return undef(Ty::Bool);
  if (A->isConst() && B->isConst())
    return boolc(cmpConst(Op, asF(A), asF(B)));
  if (A->isInt() && B->isInt()) {
    auto PA = poly(A), PB = poly(B);
    if (PA && PB) {
      Poly D = *PA - *PB;
      if (D.empty())
        return boolc(cmpConst(Op, 0, 0));
      if (D.size() == 1 && D.begin()->first.empty())
        return boolc(cmpConst(Op, double(D.begin()->second), 0));
    }
    // Inside a summarised loop its variable is below its end.
    if (A->K == SK::Iter && A->Ops[1] == B && (Op == "<" || Op == "!="))
      return boolc(true);
    if (B->K == SK::Iter && B->Ops[1] == A && (Op == ">" || Op == "!="))
      return boolc(true);
    if (A->K == SK::Iter && A->Ops[1] == B && (Op == ">=" || Op == "=="))
      return boolc(false);
  }
  if (A->isConst() || (!B->isConst() && A->Id > B->Id)) {
    std::swap(A, B);
    Op = flipCmp(Op);
  }
  Sym S;
  S.K = SK::Cmp;
  S.T = Ty::Bool;
  S.Op = Op;
  S.Ops = {A, B};
  return make(std::move(S));
}

SymP SymPool::logicalNot(SymP A) {
  if (A->isConst())
    return boolc(asF(A) == 0);
  if (A->K == SK::Cmp)
    return cmp(notCmp(A->Op), A->Ops[0], A->Ops[1]);
  if (A->K == SK::Un && A->Op == "!")
    return A->Ops[0];
  if (A->T != Ty::Bool)
    return cmp("==", A, intc(0));
  return un("!", A);
}

SymP SymPool::logicalAnd(SymP A, SymP B) {
  if (!A)
    return B;
  if (!B)
    return A;
  if (A->isConst())
    return asF(A) != 0 ? B : boolc(false);
  if (B->isConst())
    return asF(B) != 0 ? A : boolc(false);
  if (A == B)
    return A;
  return bin("&&", A, B);
}

SymP SymPool::select(SymP C, SymP A, SymP B) {
  if (C->isConst())
    return asF(C) != 0 ? A : B;
  if (A == B)
    return A;
  if (C->K == SK::Un && C->Op == "!")
    return select(C->Ops[0], B, A);
  // c ? a : (!c ? b : x) is c ? a : b, and !c ? b : (c ? a : x) too: the
  // two branches of an if/else that both write one slot.
  if (B->K == SK::Select && B->Ops[0] == logicalNot(C))
    return select(C, A, B->Ops[1]);
  // c ? (c ? a : x) : b is c ? a : b; c ? a : (c ? x : b) is c ? a : b.
  if (A->K == SK::Select && A->Ops[0] == C)
    return select(C, A->Ops[1], B);
  if (B->K == SK::Select && B->Ops[0] == C)
    return select(C, A, B->Ops[2]);
  if (C->K == SK::Cmp && A->T == B->T) {
    SymP X = C->Ops[0], Y = C->Ops[1];
    llvm::StringRef Op = C->Op;
    bool Gt = Op == ">" || Op == ">=", Lt = Op == "<" || Op == "<=";
    if ((Gt || Lt) && ((X == A && Y == B) || (X == B && Y == A))) {
      bool PicksLarger = (Gt && X == A) || (Lt && X == B);
      return bin(PicksLarger ? "max" : "min", A, B);
    }
  }
  // Two (value, index) pairs compared as an arg-max or arg-min.
  if ((C->K == SK::Bin || C->K == SK::Un) && C->T == Ty::Bool)
    if (SymP R = argSelect(C, A, B))
      return R;
  Sym S;
  S.K = SK::Select;
  S.T = joinTy(A, B);
  S.Ops = {C, A, B};
  return make(std::move(S));
}

SymP SymPool::cast(Ty T, SymP A) {
  if (A->K == SK::Undef)
    return undef(T);
  if (A->T == T)
    return A;
  if (!isFloatTy(T) && !isFloatTy(A->T)) {
    if (T == Ty::Bool)
      return cmp("!=", A, intc(0));
    return A; // one integer kind
  }
  if (A->isConst())
    return isFloatTy(T) ? flt(asF(A), T) : intc(int64_t(asF(A)), T);
  if (A->K == SK::Cast && isFloatTy(A->Ops[0]->T) && isFloatTy(T) &&
      A->Ops[0]->T == T && (T == Ty::F16 || T == Ty::BF16) &&
      A->T == Ty::F32)
    return A->Ops[0]; // widening then narrowing back is exact
  Sym S;
  S.K = SK::Cast;
  S.T = T;
  S.Ops = {A};
  return make(std::move(S));
}

SymP SymPool::reduce(llvm::StringRef Op, SymP It, SymP Body) {
  if (Body->K == SK::Undef)
    return Body;
  Sym S;
  S.K = SK::Reduce;
  S.T = Body->T;
  S.Op = Op;
  S.Ops = {It, Body};
  return make(std::move(S));
}

SymP SymPool::identity(llvm::StringRef Op, Ty T) {
  bool F = isFloatTy(T);
  if (Op == "+")
    return F ? flt(0, T) : intc(0);
  if (Op == "*")
    return F ? flt(1, T) : intc(1);
  if (Op == "max" && F)
    return flt(-INFINITY, T);
  if (Op == "min" && F)
    return flt(INFINITY, T);
  if ((Op == "max" || Op == "min") && T == Ty::I32)
    return intc(Op == "max" ? INT32_MIN : INT32_MAX);
  if ((Op == "max" || Op == "min") && T == Ty::U32)
    return intc(Op == "max" ? 0 : int64_t(UINT32_MAX), Ty::U32);
  if ((Op == "max" || Op == "min") && T == Ty::I64)
    return intc(Op == "max" ? INT64_MIN : INT64_MAX, Ty::I64);
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Traversals.
//===----------------------------------------------------------------------===//

SymP SymPool::rebuild(SymP X, const std::vector<SymP> &Ops) {
  if (Ops == X->Ops)
    return X;
  switch (X->K) {
  case SK::Iter: return iter(X->Site, Ops[0], Ops[1], Ops[2], unsigned(X->I));
  case SK::Ptr: return ptr(X->D, Ops[0], X->T);
  case SK::Load: return load(X->D, Ops[0], X->T);
  case SK::Bin: return bin(X->Op, Ops[0], Ops[1]);
  case SK::Un: return un(X->Op, Ops[0]);
  case SK::Cmp: return cmp(X->Op, Ops[0], Ops[1]);
  case SK::Select: return select(Ops[0], Ops[1], Ops[2]);
  case SK::Cast: return cast(X->T, Ops[0]);
  case SK::Reduce: return reduce(X->Op, Ops[0], Ops[1]);
  default: return nullptr;
  }
}

SymP SymPool::delinearise(SymP S) {
  auto Monomial = [&](SymP K) -> std::optional<std::pair<Mono, int64_t>> {
    auto KP = poly(K);
    if (!KP || KP->size() != 1 || KP->begin()->second <= 0)
      return std::nullopt;
    return std::make_pair(KP->begin()->first, KP->begin()->second);
  };
  // Q with K * Q = D (monomials), if any.
  auto Quotient = [&](SymP D, SymP K) -> SymP {
    auto DM = Monomial(D), KM = Monomial(K);
    if (!DM || !KM || DM->second % KM->second)
      return nullptr;
    std::multiset<unsigned> Need;
    for (SymP A : KM->first)
      Need.insert(A->Id);
    Mono Q;
    for (SymP A : DM->first) {
      auto It = Need.find(A->Id);
      if (It != Need.end())
        Need.erase(It);
      else
        Q.push_back(A);
    }
    if (!Need.empty())
      return nullptr;
    Poly QP;
    QP.add(Q, DM->second / KM->second);
    return fromPoly(QP);
  };
  // 1. One chain of divisors per numerator.
  for (int Round = 0; Round < 4; ++Round) {
    std::map<SymP, std::set<SymP>> Divs;
    std::unordered_set<SymP> Seen;
    std::function<void(SymP)> Find = [&](SymP X) {
      if (!Seen.insert(X).second)
        return;
      if (X->K == SK::Bin && (X->Op == "/" || X->Op == "%") && X->isInt() &&
          X->Ops[1]->isInt() && Monomial(X->Ops[1]))
        Divs[X->Ops[0]].insert(X->Ops[1]);
      for (SymP O : X->Ops)
        Find(O);
    };
    Find(S);
    std::map<SymP, SymP> To;
    for (auto &[X, Ks] : Divs) {
      if (Ks.size() < 2)
        continue;
      for (SymP K : Ks) {
        std::map<SymP, SymP> Q;
        for (SymP D : Ks)
          if (D != K)
            if (SymP QD = Quotient(D, K); QD && QD != intc(1))
              Q[D] = QD;
        if (Q.size() + 1 != Ks.size())
          continue;
        SymP XK = bin("/", X, K);
        for (auto &[D, QD] : Q) {
          To[bin("/", X, D)] = bin("/", XK, QD);
          To[bin("%", X, D)] =
              bin("+", bin("*", bin("%", XK, QD), K), bin("%", X, K));
        }
        break;
      }
    }
    if (To.empty())
      break;
    S = subst(S, To);
  }
  // 2. (X / Q) * Q * M + (X % Q) * M = X * M in every polynomial.
  auto Recombine = [&](Poly &Pl) {
    bool Any = false;
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (auto &[M, C] : Pl) {
        for (SymP A : M) {
          if (A->K != SK::Bin || A->Op != "/")
            continue;
          auto QM = Monomial(A->Ops[1]);
          if (!QM || C % QM->second)
            continue;
          std::multiset<unsigned> Need{A->Id};
          for (SymP B : QM->first)
            Need.insert(B->Id);
          Mono Rest;
          for (SymP B : M) {
            auto It = Need.find(B->Id);
            if (It != Need.end())
              Need.erase(It);
            else
              Rest.push_back(B);
          }
          if (!Need.empty())
            continue;
          int64_t C2 = C / QM->second;
          Poly RestP;
          RestP.add(Rest, C2);
          Poly ModT = Poly::atom(bin("%", A->Ops[0], A->Ops[1])) * RestP;
          if (ModT.size() != 1 ||
              Pl.coefficient(ModT.begin()->first) != ModT.begin()->second)
            continue;
          auto XP = poly(A->Ops[0]);
          if (!XP)
            continue;
          Poly Old;
          Old.add(M, C);
          Poly New = Pl - Old - ModT + *XP * RestP;
          if (New.overflowed())
            continue;
          Pl = std::move(New);
          Changed = Any = true;
          break;
        }
        if (Changed)
          break;
      }
    }
    return Any;
  };
  std::unordered_map<SymP, SymP> Memo;
  std::function<SymP(SymP)> Go = [&](SymP X) -> SymP {
    if (X->Ops.empty())
      return X;
    auto It = Memo.find(X);
    if (It != Memo.end())
      return It->second;
    std::vector<SymP> Ops;
    for (SymP O : X->Ops)
      Ops.push_back(Go(O));
    SymP R = rebuild(X, Ops);
    if (!R)
      R = X;
    if (R->K == SK::Bin && R->isInt() && R->T != Ty::Bool &&
        (R->Op == "+" || R->Op == "-" || R->Op == "*"))
      if (auto Pl = poly(R); Pl && Pl->size() > 1 && Recombine(*Pl))
        R = fromPoly(*Pl, R->T);
    Memo[X] = R;
    return R;
  };
  return Go(S);
}

SymP SymPool::subst(SymP S, const std::map<SymP, SymP> &M) {
  std::unordered_map<SymP, SymP> Memo;
  std::function<SymP(SymP)> Go = [&](SymP X) -> SymP {
    auto F = M.find(X);
    if (F != M.end())
      return F->second;
    if (X->Ops.empty())
      return X;
    // A reduction binds its iteration variable: substituting for that
    // variable leaves the reduction as it is (no capture).
    if (X->K == SK::Reduce && M.count(X->Ops[0]))
      return X;
    auto It = Memo.find(X);
    if (It != Memo.end())
      return It->second;
    std::vector<SymP> Ops;
    bool Same = true;
    for (SymP O : X->Ops) {
      Ops.push_back(Go(O));
      Same &= Ops.back() == O;
    }
    SymP R = Same ? X : rebuild(X, Ops);
    if (!R)
      R = X;
    Memo[X] = R;
    return R;
  };
  return Go(S);
}

bool SymPool::contains(SymP S, SymP X) {
  if (!(S->Kinds & (uint32_t(1) << unsigned(X->K))))
    return false;
  std::vector<SymP> Work{S};
  std::unordered_set<SymP> Seen{S};
  while (!Work.empty()) {
    SymP Y = Work.back();
    Work.pop_back();
    if (Y == X)
      return true;
    for (SymP O : Y->Ops)
      if ((O->Kinds & (uint32_t(1) << unsigned(X->K))) && Seen.insert(O).second)
        Work.push_back(O);
  }
  return false;
}

bool SymPool::containsKind(SymP S, SK K) {
  return S->Kinds & (uint32_t(1) << unsigned(K));
}

static uint64_t mix(uint64_t H, uint64_t V) {
  H ^= V + 0x9e3779b97f4a7c15ULL + (H << 6) + (H >> 2);
  H *= 0xff51afd7ed558ccdULL;
  return H ^ (H >> 33);
}

uint64_t SymPool::acHash(SymP S) {
  auto It = Hashes.find(S);
  if (It != Hashes.end())
    return It->second;
  uint64_t H = mix(uint64_t(S->K) * 131 + uint64_t(S->T), uint64_t(S->I));
  uint64_t FB;
  std::memcpy(&FB, &S->F, sizeof FB);
  H = mix(H, FB);
  H = mix(H, reinterpret_cast<uintptr_t>(S->D));
  H = mix(H, reinterpret_cast<uintptr_t>(S->Site));
  H = mix(H, std::hash<std::string>()(S->Op.str()));
  if (S->K == SK::Bin && isFloatTy(S->T) &&
      (S->Op == "+" || S->Op == "*" || S->Op == "max" || S->Op == "min")) {
    std::vector<uint64_t> Terms;
    std::function<void(SymP)> Flat = [&](SymP X) {
      if (X->K == SK::Bin && X->Op == S->Op && X->T == S->T)
        for (SymP O : X->Ops)
          Flat(O);
      else
        Terms.push_back(acHash(X));
    };
    Flat(S);
    std::sort(Terms.begin(), Terms.end());
    for (uint64_t T : Terms)
      H = mix(H, T);
  } else {
    for (SymP O : S->Ops)
      H = mix(H, acHash(O));
  }
  Hashes[S] = H;
  return H;
}

std::string SymPool::str(SymP S) {
  std::string R = strFull(S, 6);
  if (R.size() > 240)
    R = R.substr(0, 237) + "...";
  return R;
}

std::string SymPool::strFull(SymP S, unsigned Depth) {
  if (!Depth)
    return "...";
  auto str = [&](SymP X) { return strFull(X, Depth - 1); };
  auto Name = [](const clang::ValueDecl *D) -> std::string {
    return D ? "d" + std::to_string(reinterpret_cast<uintptr_t>(D) % 9973)
             : "?";
  };
  switch (S->K) {
  case SK::Int: return std::to_string(S->I);
  case SK::Flt: return llvm::formatv("{0}", S->F).str();
  case SK::Param: return Name(S->D);
  case SK::BlockIdx: return std::string("bid.") + char('x' + S->I);
  case SK::GridDim: return std::string("grid.") + char('x' + S->I);
  case SK::Iter:
    return "it" + std::to_string(S->Id) + "[" + str(S->Ops[0]) + ":" +
           str(S->Ops[1]) + ":" + str(S->Ops[2]) + "]";
  case SK::Carried: return "carried(" + Name(S->D) + ")";
  case SK::Ptr: return "&" + Name(S->D) + "[" + str(S->Ops[0]) + "]";
  case SK::Load: return Name(S->D) + "[" + str(S->Ops[0]) + "]";
  case SK::Bin:
    return "(" + str(S->Ops[0]) + " " + S->Op.str() + " " + str(S->Ops[1]) +
           ")";
  case SK::Un: return S->Op.str() + "(" + str(S->Ops[0]) + ")";
  case SK::Cmp:
    return "(" + str(S->Ops[0]) + " " + S->Op.str() + " " + str(S->Ops[1]) +
           ")";
  case SK::Select:
    return "(" + str(S->Ops[0]) + " ? " + str(S->Ops[1]) + " : " +
           str(S->Ops[2]) + ")";
  case SK::Cast: return "cast(" + str(S->Ops[0]) + ")";
  case SK::Reduce:
    return "reduce_" + S->Op.str() + "(" + str(S->Ops[0]) + ", " +
           str(S->Ops[1]) + ")";
  case SK::Undef: return "undef";
  }
  return "?";
}

std::vector<SymP> SymPool::operandsOf(SymP S, llvm::StringRef Op) {
  std::vector<SymP> Out;
  std::function<void(SymP)> Go = [&](SymP X) {
    if (X->K == SK::Bin && X->Op == Op)
      for (SymP O : X->Ops)
        Go(O);
    else
      Out.push_back(X);
  };
  Go(S);
  return Out;
}

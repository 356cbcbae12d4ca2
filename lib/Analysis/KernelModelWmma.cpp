//===- KernelModelWmma.cpp - WMMA fragments in the kernel model -----------===//
// Rules: none (shared analysis)
//
// nvcuda::wmma fragments as warp-collective values.  A fragment is a
// matrix (matrix_a: m x k, matrix_b: k x n, accumulator: m x n) spread over
// the 32 lanes of a warp, num_elements values per lane (the length of its
// x[] array).  Which lane holds which element is unspecified in CUDA, so
// the model chooses one (FragLayout 0: lane l's element e is the matrix's
// element l * E + e in row-major order; FragLayout 1: e * 32 + l), and the
// operations mean what the programming guide says whatever the layout:
//
//   fill_fragment(f, v)                every element v;
//   load_matrix_sync(f, p, ld[, lay])  element (r, c) read from p[r*ld + c]
//                                      (row-major) or p[c*ld + r], global
//                                      or shared memory, p and ld the same
//                                      in every lane of the warp;
//   mma_sync(d, a, b, c)               d(r, c) = c(r, c) + sum over k of
//                                      a(r, k) * b(k, c), products in the
//                                      accumulator's type, k in order;
//   store_matrix_sync(p, f, ld, lay)   element (r, c) written to p[...];
//   f.x[i], f.num_elements             one lane's elements, by index.
//
// An element-wise operation applied alike to every x[i] means the same
// under any layout; code whose stores depend on the layout (x[0] alone, a
// value that depends on i) does not.  executeBlock (KernelModel.cpp) runs
// a kernel that indexes x[] under both layouts and reports a difference
// between their stores as such.
//
//===----------------------------------------------------------------------===//
#include "KernelModelImpl.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/Support/FormatVariadic.h"
#include <set>

using namespace pk;
using namespace pk::km;
using namespace clang;

std::optional<FragInfo> km::fragInfo(QualType Q, std::string &Why) {
  Q = Q.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  auto *RD = Q->getAsCXXRecordDecl();
  auto *CT = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  if (!CT || CT->getName() != "fragment" ||
      CT->getQualifiedNameAsString().find("wmma") == std::string::npos)
    return std::nullopt;
  const TemplateArgumentList &Args = CT->getTemplateArgs();
  auto TypeName = [](const TemplateArgument &A) {
    if (A.getKind() != TemplateArgument::Type)
      return std::string();
    std::string S = A.getAsType().getCanonicalType().getAsString();
    auto Pos = S.rfind("::");
    return Pos == std::string::npos ? S : S.substr(Pos + 2);
  };
  FragInfo F;
  if (Args.size() < 5) {
    Why = "a fragment type without its shape";
    return F;
  }
  for (unsigned I = 1; I <= 3; ++I)
    if (Args[I].getKind() != TemplateArgument::Integral) {
      Why = "a fragment whose shape is not a constant";
      return F;
    }
  std::string Use = TypeName(Args[0]);
  int64_t M = Args[1].getAsIntegral().getExtValue(),
          N = Args[2].getAsIntegral().getExtValue(),
          K = Args[3].getAsIntegral().getExtValue();
  if (Use == "matrix_a") {
    F.Use = FragInfo::A;
    F.R = M;
    F.C = K;
  } else if (Use == "matrix_b") {
    F.Use = FragInfo::B;
    F.R = K;
    F.C = N;
  } else if (Use == "accumulator") {
    F.Use = FragInfo::Acc;
    F.R = M;
    F.C = N;
  } else {
    Why = "a fragment of use '" + Use + "'";
    return F;
  }
  std::string T = TypeName(Args[4]);
  if (T.rfind("struct ", 0) == 0)
    T = T.substr(7);
  if (T == "__half" || T == "half")
    F.Elem = Ty::F16;
  else if (T == "__nv_bfloat16")
    F.Elem = Ty::BF16;
  else if (T == "float")
    F.Elem = Ty::F32;
  else {
    Why = "a fragment of element type '" + T +
          "' (tf32 rounds its inputs; integer and sub-byte fragments are "
          "not modelled)";
    return F;
  }
  if (Args.size() > 5) {
    std::string L = TypeName(Args[5]);
    F.Layout = L == "row_major" ? 0 : L == "col_major" ? 1 : -1;
  }
  // num_elements: the length of x[].
  const CXXRecordDecl *Def = CT->getDefinition();
  std::vector<const CXXRecordDecl *> Work;
  if (Def)
    Work.push_back(Def);
  while (!Work.empty() && !F.E) {
    const CXXRecordDecl *R = Work.back();
    Work.pop_back();
    for (const FieldDecl *FD : R->fields())
      if (FD->getName() == "x")
        if (auto *CA = dyn_cast<ConstantArrayType>(
                FD->getType().getCanonicalType().getTypePtr()))
          F.E = unsigned(CA->getSize().getZExtValue());
    for (const CXXBaseSpecifier &B : R->bases())
      if (auto *BR = B.getType()->getAsCXXRecordDecl())
        if (BR->getDefinition())
          Work.push_back(BR->getDefinition());
  }
  if (!F.E) {
    Why = "a fragment type whose x[] array is not known";
    return F;
  }
  if (F.E * 32 < F.R * F.C) {
    Why = llvm::formatv("a {0}x{1} fragment with {2} elements per lane: the "
                        "lanes of a warp do not hold every element",
                        F.R, F.C, F.E)
              .str();
    return F;
  }
  F.Ok = true;
  return F;
}

std::pair<int64_t, int64_t> Exec::fragRC(const FragInfo &F, unsigned Lane,
                                         unsigned El) const {
  int64_t Idx = FragLayout == 0 ? int64_t(Lane) * F.E + El
                                : int64_t(El) * 32 + Lane;
  Idx %= F.R * F.C;
  return {Idx / F.C, Idx % F.C};
}

std::pair<unsigned, unsigned> Exec::fragHolder(const FragInfo &F, int64_t R,
                                               int64_t C) const {
  int64_t Idx = R * F.C + C;
  if (FragLayout == 0)
    return {unsigned(Idx / F.E), unsigned(Idx % F.E)};
  return {unsigned(Idx % 32), unsigned(Idx / 32)};
}

const VarDecl *Exec::fragVar(const Expr *E) {
  E = stripE(E)->IgnoreParenImpCasts();
  auto *DR = dyn_cast<DeclRefExpr>(E);
  if (!DR)
    return nullptr;
  auto *V = dyn_cast<VarDecl>(DR->getDecl());
  if (!V)
    return nullptr;
  for (auto It = Alias.find(V); It != Alias.end(); It = Alias.find(V))
    V = It->second;
  return FragTy.count(V) ? V : nullptr;
}

const VarDecl *Exec::fragElem(const Expr *E, const Mask &M, Vals &Idx) {
  E = stripE(E)->IgnoreParenImpCasts();
  auto *AS = dyn_cast<ArraySubscriptExpr>(E);
  if (!AS)
    return nullptr;
  auto *ME = dyn_cast<MemberExpr>(AS->getBase()->IgnoreParenImpCasts());
  if (!ME || ME->getMemberDecl()->getName() != "x")
    return nullptr;
  const VarDecl *V = fragVar(ME->getBase());
  if (!V)
    return nullptr;
  Idx = eval(AS->getIdx(), M);
  if (failed())
    return nullptr;
  if (!Tr.FragElems) {
    Tr.FragElems = true;
    Tr.FragElemLoc = AS->getExprLoc();
  }
  for (unsigned T : M)
    if (Idx[T]->K != SK::Int || Idx[T]->I < 0 ||
        Idx[T]->I >= int64_t(FragTy[V].E)) {
      fail(Failure::Unsupported, AS->getExprLoc(),
           llvm::formatv("an element of fragment '{0}' at an index that is "
                         "not a constant below its num_elements ({1})",
                         V->getName(), FragTy[V].E)
               .str());
      return nullptr;
    }
  return V;
}

void Exec::declareFrag(const VarDecl *V, const FragInfo &F, const Mask &M) {
  FragTy[V] = F;
  for (unsigned T : M)
    Th[T].Frags[V].assign(F.E, P.undef(F.Elem));
}

/// The warps of \p M, each with all its lanes in \p M; false (a failure)
/// when a warp operation is reached by part of a warp.
bool Exec::wholeWarps(const Mask &M, SourceLocation L,
                      std::vector<unsigned> &Warps) {
  std::map<unsigned, unsigned> Count;
  for (unsigned T : M)
    ++Count[T / 32];
  for (auto &[W, N] : Count) {
    if (N != 32 || (W + 1) * 32 > Th.size()) {
      fail(Failure::Divergent, L,
           "a WMMA operation reached by only some lanes of a warp (the "
           "warp-synchronous matrix functions need every lane)");
      return false;
    }
    Warps.push_back(W);
  }
  return true;
}

bool Exec::wmmaCall(const CallExpr *C, const Mask &M, Vals &R) {
  llvm::StringRef N = calleeName(C);
  if (N != "fill_fragment" && N != "load_matrix_sync" &&
      N != "store_matrix_sync" && N != "mma_sync")
    return false;
  const FunctionDecl *F = C->getDirectCallee();
  if (!F || F->getQualifiedNameAsString().find("wmma") == std::string::npos)
    return false;
  SourceLocation L = C->getBeginLoc();
  for (unsigned T : M)
    R[T] = P.intc(0);
  if (Wave != 32) {
    fail(Failure::Unsupported, L,
         "WMMA fragments on 64-lane wavefronts are not modelled");
    return true;
  }
  auto Frag = [&](unsigned I) -> const VarDecl * {
    const VarDecl *V = I < C->getNumArgs() ? fragVar(C->getArg(I)) : nullptr;
    if (!V)
      fail(Failure::Unsupported, L,
           llvm::formatv("'{0}' on a fragment that is not a local fragment "
                         "variable (arrays of fragments are not modelled)",
                         N)
               .str());
    return V;
  };
  std::vector<unsigned> Warps;
  if (N != "fill_fragment" && !wholeWarps(M, L, Warps))
    return true;
  if (N == "fill_fragment") {
    const VarDecl *V = Frag(0);
    if (!V)
      return true;
    Vals X = eval(C->getArg(1), M);
    if (failed())
      return true;
    for (unsigned T : M)
      for (SymP &E : Th[T].Frags[V])
        E = P.cast(FragTy[V].Elem, X[T]);
    return true;
  }
  // The pointer, leading dimension and layout of a load or store.
  auto Memory = [&](unsigned PI, unsigned LdI, int LayI, const FragInfo &FI,
                    Vals &Ptr, Vals &Ld, int &ColMajor) {
    Ptr = eval(C->getArg(PI), M);
    Ld = eval(C->getArg(LdI), M);
    ColMajor = FI.Layout;
    if (LayI >= 0 && unsigned(LayI) < C->getNumArgs()) {
      Vals Lay = eval(C->getArg(unsigned(LayI)), M);
      if (failed())
        return false;
      if (Lay[M[0]]->K != SK::Int) {
        fail(Failure::Unsupported, L, "a fragment layout that is not a "
                                      "constant");
        return false;
      }
      ColMajor = Lay[M[0]]->I ? 1 : 0;
    }
    if (failed())
      return false;
    if (ColMajor < 0) {
      fail(Failure::Unsupported, L, "a fragment access without a layout");
      return false;
    }
    for (unsigned W : Warps)
      for (unsigned Ln = 1; Ln < 32; ++Ln)
        if (Ptr[W * 32 + Ln] != Ptr[W * 32] || Ld[W * 32 + Ln] != Ld[W * 32]) {
          fail(Failure::Unsupported, L,
               llvm::formatv("'{0}' with a pointer or leading dimension that "
                             "differs between the lanes of a warp",
                             N)
                   .str());
          return false;
        }
    for (unsigned T : M)
      if (Ptr[T]->K != SK::Ptr) {
        fail(Failure::Unsupported, L,
             llvm::formatv("'{0}' through a pointer the model does not "
                           "follow",
                           N)
                 .str());
        return false;
      }
    // A tile of shared memory: inside its array, and its rows (columns for
    // col-major) inside the leading dimension; else the kernel overruns
    // the tile it was written for at this block shape (more warps).
    for (unsigned W : Warps) {
      SymP Pt = Ptr[W * 32], LdV = Ld[W * 32];
      auto SA = Shared.find(dyn_cast<VarDecl>(Pt->D));
      if (SA == Shared.end() || Pt->Ops[0]->K != SK::Int || LdV->K != SK::Int)
        continue;
      int64_t Off = Pt->Ops[0]->I, LdI = LdV->I;
      int64_t Rows = ColMajor ? FI.C : FI.R, Cols = ColMajor ? FI.R : FI.C;
      int64_t Last = Off + (Rows - 1) * LdI + Cols;
      if (Off < 0 || LdI < Cols || (SA->second.Size >= 0 &&
                                    Last > SA->second.Size)) {
        fail(Failure::Shape, L,
             llvm::formatv("the {0}x{1} tile of '{2}' at element {3} (leading "
                           "dimension {4}) is outside __shared__ '{5}' ({6} "
                           "elements) at this block shape",
                           FI.R, FI.C, N, Off, LdI, SA->first->getName(),
                           SA->second.Size)
                 .str());
        return false;
      }
      // The tile's rows in one row of the array: no wrap past ld.
      if (LdI > 0 && Off % LdI + Cols > LdI) {
        fail(Failure::Shape, L,
             llvm::formatv("the tile of '{0}' at element {1} wraps past its "
                           "leading dimension {2} in __shared__ '{3}' at this "
                           "block shape",
                           N, Off, LdI, SA->first->getName())
                 .str());
        return false;
      }
    }
    return true;
  };
  auto Addr = [&](SymP Ptr, SymP Ld, int ColMajor, int64_t Rw, int64_t Cl) {
    SymP Off = ColMajor ? P.bin("+", P.bin("*", P.intc(Cl), Ld), P.intc(Rw))
                        : P.bin("+", P.bin("*", P.intc(Rw), Ld), P.intc(Cl));
    return P.ptr(Ptr->D, P.bin("+", Ptr->Ops[0], Off), Ptr->T);
  };
  if (N == "load_matrix_sync") {
    const VarDecl *V = Frag(0);
    if (!V || C->getNumArgs() < 3)
      return true;
    const FragInfo FI = FragTy[V];
    Vals Ptr, Ld;
    int Col;
    if (!Memory(1, 2, FI.Use == FragInfo::Acc ? 3 : -1, FI, Ptr, Ld, Col))
      return true;
    for (unsigned T : M) {
      std::vector<SymP> Es(FI.E);
      for (unsigned E = 0; E < FI.E && !failed(); ++E) {
        auto [Rw, Cl] = fragRC(FI, T % 32, E);
        Es[E] = P.cast(FI.Elem, readPtr(Addr(Ptr[T], Ld[T], Col, Rw, Cl), T,
                                        C->getArg(1)->getExprLoc()));
      }
      Th[T].Frags[V] = std::move(Es);
    }
    return true;
  }
  if (N == "store_matrix_sync") {
    const VarDecl *V = Frag(1);
    if (!V || C->getNumArgs() < 4)
      return true;
    const FragInfo FI = FragTy[V];
    if (FI.Use != FragInfo::Acc) {
      fail(Failure::Unsupported, L, "store_matrix_sync of an operand "
                                    "fragment");
      return true;
    }
    Vals Ptr, Ld;
    int Col;
    if (!Memory(0, 2, 3, FI, Ptr, Ld, Col))
      return true;
    // Each matrix element once, by its holder.
    for (unsigned T : M)
      for (unsigned E = 0; E < FI.E && !failed(); ++E) {
        auto [Rw, Cl] = fragRC(FI, T % 32, E);
        if (fragHolder(FI, Rw, Cl) != std::make_pair(T % 32, E))
          continue;
        writePtr(Addr(Ptr[T], Ld[T], Col, Rw, Cl), T, Th[T].Frags[V][E],
                 C->getArg(0)->getExprLoc());
      }
    return true;
  }
  // mma_sync(d, a, b, c).
  const VarDecl *D = Frag(0), *A = D ? Frag(1) : nullptr,
                *Bf = A ? Frag(2) : nullptr, *Cf = Bf ? Frag(3) : nullptr;
  if (!Cf)
    return true;
  const FragInfo FD = FragTy[D], FA = FragTy[A], FB = FragTy[Bf],
                 FC = FragTy[Cf];
  if (FA.Use != FragInfo::A || FB.Use != FragInfo::B ||
      FC.Use != FragInfo::Acc || FD.Use != FragInfo::Acc || FA.R != FD.R ||
      FB.C != FD.C || FA.C != FB.R || FC.R != FD.R || FC.C != FD.C) {
    fail(Failure::Unsupported, L, "mma_sync on fragments whose shapes or "
                                  "uses do not match");
    return true;
  }
  if (C->getNumArgs() > 4) {
    Vals Sat = eval(C->getArg(4), M);
    if (failed())
      return true;
    if (Sat[M[0]] != P.intc(0, Sat[M[0]]->T) &&
        !(Sat[M[0]]->K == SK::Int && Sat[M[0]]->I == 0)) {
      fail(Failure::Unsupported, L, "mma_sync with saturation");
      return true;
    }
  }
  ++Tr.Mmas;
  Ty AccT = FD.Elem;
  for (unsigned W : Warps) {
    unsigned Base = W * 32;
    auto Get = [&](const VarDecl *V, const FragInfo &FI, int64_t Rw,
                   int64_t Cl) {
      auto [Ln, E] = fragHolder(FI, Rw, Cl);
      return Th[Base + Ln].Frags[V][E];
    };
    std::vector<SymP> Out(size_t(FD.R * FD.C));
    for (int64_t Rw = 0; Rw < FD.R; ++Rw)
      for (int64_t Cl = 0; Cl < FD.C; ++Cl) {
        SymP V = P.cast(AccT, Get(Cf, FC, Rw, Cl));
        for (int64_t K = 0; K < FA.C; ++K)
          V = P.bin("+", V,
                    P.bin("*", P.cast(AccT, Get(A, FA, Rw, K)),
                          P.cast(AccT, Get(Bf, FB, K, Cl))));
        Out[size_t(Rw * FD.C + Cl)] = V;
      }
    for (unsigned Ln = 0; Ln < 32; ++Ln) {
      std::vector<SymP> Es(FD.E);
      for (unsigned E = 0; E < FD.E; ++E) {
        auto [Rw, Cl] = fragRC(FD, Ln, E);
        Es[E] = Out[size_t(Rw * FD.C + Cl)];
      }
      Th[Base + Ln].Frags[D] = std::move(Es);
    }
  }
  return true;
}

namespace kmwmma {

/// The stores of a trace as a multiset, the thread that made each left
/// out: equal for two layouts when the kernel's meaning does not depend on
/// which lane holds which fragment element.
std::multiset<std::tuple<const ValueDecl *, unsigned, unsigned, uint64_t,
                         std::string>>
storeSet(const Trace &Tr, SymPool &P) {
  std::multiset<std::tuple<const ValueDecl *, unsigned, unsigned, uint64_t,
                           std::string>>
      S;
  for (const Store &St : Tr.Stores)
    S.insert({St.P, St.Idx->Id, St.Guard ? St.Guard->Id + 1 : 0,
              P.acHash(St.Val), St.Acc.str()});
  return S;
}

} // namespace kmwmma

void km::checkFragLayout(clang::ASTContext &Ctx, const FunctionDecl *FD,
                         BlockShape Shape, SymPool &Pool, unsigned Wave,
                         Trace &Tr) {
  if (Tr.F || !Tr.FragElems)
    return;
  Trace Tr2;
  Exec E(Ctx, FD, Shape, Pool, Tr2, Wave);
  E.FragLayout = 1;
  E.run();
  if (Tr2.F || kmwmma::storeSet(Tr, Pool) != kmwmma::storeSet(Tr2, Pool))
    Tr.F = Failure{Failure::Layout, Tr.FragElemLoc,
                   "the values stored depend on which lane holds which "
                   "element of a WMMA fragment (x[i] used other than alike "
                   "for every element: the element layout is unspecified "
                   "in CUDA)"};
}

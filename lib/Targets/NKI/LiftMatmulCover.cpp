//===- LiftMatmulCover.cpp - coverage checks of the GEMM lifter -----------===//
// Rules: none (coverage checks of the GEMM lifter)
//
// The trace-time checks that the launch covers every element of C, split
// into a row and a column check (linear in M + N) where the indices allow.
//===----------------------------------------------------------------------===//
#include "LiftMatmulImpl.h"

using namespace clang;

namespace pk {
namespace nki {
namespace gemm {

std::set<std::string> pyNamesIn(const std::string &S) {
  std::set<std::string> R;
  for (size_t I = 0; I < S.size();) {
    if (std::isalpha((unsigned char)S[I]) || S[I] == '_') {
      size_t J = I;
      while (J < S.size() && (std::isalnum((unsigned char)S[J]) || S[J] == '_'))
        ++J;
      R.insert(S.substr(I, J - I));
      I = J;
    } else {
      ++I;
    }
  }
  return R;
}

std::set<std::string> pyNamesIn(const Poly &P) {
  std::set<std::string> R;
  for (const std::string &A : P.atoms())
    for (const std::string &N : pyNamesIn(A))
      R.insert(N);
  return R;
}

std::vector<size_t> genClosure(const std::vector<CoverGen> &Gens,
                               std::set<std::string> Names) {
  std::vector<bool> In(Gens.size(), false);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (size_t I = 0; I < Gens.size(); ++I)
      if (!In[I] && Names.count(Gens[I].Var)) {
        In[I] = Changed = true;
        Names.insert(Gens[I].Uses.begin(), Gens[I].Uses.end());
      }
  }
  std::vector<size_t> R;
  for (size_t I = 0; I < Gens.size(); ++I)
    if (In[I])
      R.push_back(I);
  return R;
}

std::string splitCoverCheck(Poly Row, Poly Col, std::vector<CoverGen> Gens,
                            const std::string &RowOk, const std::string &ColOk,
                            const std::string &RowCount,
                            const std::string &ColCount,
                            const std::string &Full) {
  std::vector<std::string> Pre;
  auto Args = [](const std::string &Range) {
    std::vector<std::string> A;
    if (Range.rfind("range(", 0) != 0 || Range.back() != ')')
      return A;
    llvm::SmallVector<llvm::StringRef, 3> Parts;
    llvm::StringRef(Range).substr(6, Range.size() - 7).split(Parts, ", ");
    for (llvm::StringRef P : Parts)
      A.push_back(P.str());
    return A;
  };
  // A generator `V in range(0, X, s)` (s > 1) that Row and Col read only as
  // (V // s) becomes `V_w_ in range((X + s - 1) // s)`.
  for (CoverGen &G : Gens) {
    std::vector<std::string> A = Args(G.Range);
    if (A.size() != 3 || A[0] != "0" || A[2].empty() ||
        !std::all_of(A[2].begin(), A[2].end(), ::isdigit) || A[2] == "1")
      continue;
    std::string From = "(" + G.Var + " // " + A[2] + ")", To = G.Var + "_w_";
    bool Only = true;
    for (const Poly *P : {&Row, &Col})
      for (const std::string &At : P->atoms()) {
        std::string Rest = At;
        for (size_t K; (K = Rest.find(From)) != std::string::npos;)
          Rest.replace(K, From.size(), To);
        Only = Only && !pyNamesIn(Rest).count(G.Var);
      }
    if (!Only)
      continue;
    auto Rename = [&](const Poly &P) {
      Poly R;
      for (const auto &[M, V] : P) {
        Poly Term = Poly::c(V);
        for (std::string At : M) {
          for (size_t K; (K = At.find(From)) != std::string::npos;)
            At.replace(K, From.size(), To);
          // A renamed atom that is the bare index is that index.
          if (At == "(" + To + ")")
            At = To;
          Term = Term * Poly::atom(At);
        }
        R = R + Term;
      }
      return R;
    };
    Row = Rename(Row);
    Col = Rename(Col);
    G.Range = "range((" + A[1] + " + " + A[2] + " - 1) // " + A[2] + ")";
    G.Var = To;
    G.Uses = pyNamesIn(A[1]);
  }
  // A generator `V in range(X)` or `range(0, X, 1)` that Row reads only as
  // (V // c) and Col only as (V % c), or the reverse, becomes two.
  for (size_t I = 0; I < Gens.size(); ++I) {
    const std::string V = Gens[I].Var;
    std::vector<std::string> A = Args(Gens[I].Range);
    std::string Ext = A.size() == 1                                 ? A[0]
                      : A.size() == 3 && A[0] == "0" && A[2] == "1" ? A[1]
                                                                    : "";
    if (Ext.empty())
      continue;
    // The atoms of Row and Col that mention V, and the divisor c of the
    // (V // c) and (V % c) forms.
    auto Forms = [&](const Poly &P, const char *Op, std::string &C) {
      for (const std::string &At : P.atoms()) {
        if (!pyNamesIn(At).count(V))
          continue;
        std::string Pfx = "(" + V + " " + Op + " ";
        if (At.rfind(Pfx, 0) != 0 || At.back() != ')')
          return false;
        std::string D = At.substr(Pfx.size(), At.size() - Pfx.size() - 1);
        if (D.empty() || !std::all_of(D.begin(), D.end(), ::isdigit) ||
            (!C.empty() && C != D))
          return false;
        C = D;
      }
      return true;
    };
    if (!pyNamesIn(Row).count(V) || !pyNamesIn(Col).count(V))
      continue;
    std::string C1, C2;
    bool DivMod = Forms(Row, "//", C1) && Forms(Col, "%", C2);
    bool ModDiv = false;
    if (!DivMod) {
      C1.clear();
      C2.clear();
      ModDiv = Forms(Row, "%", C1) && Forms(Col, "//", C2);
    }
    if ((!DivMod && !ModDiv) || C1 != C2)
      continue;
    std::string Q = V + "_q_", R = V + "_r_";
    std::map<std::string, Poly> Sub = {
        {"(" + V + " // " + C1 + ")", Poly::atom(Q)},
        {"(" + V + " % " + C1 + ")", Poly::atom(R)}};
    Row = Row.subst(Sub);
    Col = Col.subst(Sub);
    Pre.push_back(paren(Ext) + " % " + C1 + " == 0");
    std::set<std::string> Uses = pyNamesIn(Ext);
    Gens[I] = CoverGen{Q, "range(" + paren(Ext) + " // " + C1 + ")", Uses,
                       Gens[I].Launch};
    Gens.insert(Gens.begin() + I + 1,
                CoverGen{R, "range(" + C1 + ")", {}, true});
    ++I;
  }
  std::vector<size_t> R = genClosure(Gens, pyNamesIn(Row));
  std::vector<size_t> C = genClosure(Gens, pyNamesIn(Col));
  std::set<size_t> Both(R.begin(), R.end());
  for (size_t I : C)
    if (Both.count(I))
      return Full;
  Both.insert(C.begin(), C.end());
  // A generator neither side uses multiplies the pairs; it must not be an
  // empty loop (launch dimensions are at least 1).
  for (size_t I = 0; I < Gens.size(); ++I)
    if (!Both.count(I) && !Gens[I].Launch)
      return Full;
  auto Set = [&](const Poly &P, const std::vector<size_t> &Is) {
    std::string S = "{" + P.py();
    for (size_t I : Is)
      S += " for " + Gens[I].Var + " in " + Gens[I].Range;
    return S + "}";
  };
  std::string Split = "len({r_ for r_ in " + Set(Row, R) + " if " + RowOk +
                      "}) == " + RowCount + " and len({c_ for c_ in " +
                      Set(Col, C) + " if " + ColOk + "}) == " + ColCount;
  if (Pre.empty())
    return Split;
  return "(" + llvm::join(Pre, " and ") + " and " + Split + ") or " + Full;
}

} // namespace gemm
} // namespace nki
} // namespace pk

//===- Polynomial.h - integer polynomials over atoms ----------------------===//
// Rules: none (shared infrastructure)
//
// The one integer-polynomial type of the analyses: the kernel model's
// values (km::Poly, atoms are its symbols), the GEMM lifter's index forms
// (atoms are names) and the MFMA-to-WMMA recogniser's lane polynomials
// (atoms are ids).  A polynomial maps monomials (sorted atoms, an atom
// repeated for a power) to non-zero coefficients.
//
// Arithmetic is checked: a coefficient that would leave int64_t makes the
// result "overflowed", which every later operation keeps, which equals
// nothing, and which has no terms to read.  Callers that build a
// polynomial from source code test overflowed() and treat it as a value
// they do not know (C++ signed overflow would be undefined behaviour in the
// analysis itself).
//
//===----------------------------------------------------------------------===//
#ifndef PK_ANALYSIS_POLYNOMIAL_H
#define PK_ANALYSIS_POLYNOMIAL_H

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <vector>

namespace pk {

/// Monomials in lexicographic order of their atoms.
template <class A, class AtomLess = std::less<A>> struct LexMonoLess {
  bool operator()(const std::vector<A> &X, const std::vector<A> &Y) const {
    return std::lexicographical_compare(X.begin(), X.end(), Y.begin(), Y.end(),
                                        AtomLess());
  }
};

/// \p AtomLess orders the atoms inside a monomial; \p MonoLess the
/// monomials (the order terms are read and printed in).
template <class A, class AtomLess = std::less<A>,
          class MonoLess = LexMonoLess<A, AtomLess>>
class Polynomial {
public:
  using Atom = A;
  using Mono = std::vector<A>;
  using Map = std::map<Mono, int64_t, MonoLess>;
  using const_iterator = typename Map::const_iterator;

  Polynomial() = default;
  /// From terms (zero coefficients dropped, monomials sorted).
  Polynomial(std::initializer_list<std::pair<const Mono, int64_t>> Terms) {
    for (const auto &[M, C] : Terms)
      add(M, C);
  }
  static Polynomial constant(int64_t C) {
    Polynomial P;
    P.add({}, C);
    return P;
  }
  static Polynomial atom(const A &X) {
    Polynomial P;
    P.add({X}, 1);
    return P;
  }
  static Polynomial overflow() {
    Polynomial P;
    P.Over = true;
    return P;
  }

  /// Adds \p C times the monomial \p M (sorted here).
  void add(Mono M, int64_t C) {
    if (Over || !C)
      return;
    std::sort(M.begin(), M.end(), AtomLess());
    auto It = Terms.find(M);
    if (It == Terms.end()) {
      Terms.emplace(std::move(M), C);
      return;
    }
    if (__builtin_add_overflow(It->second, C, &It->second))
      return setOverflow();
    if (!It->second)
      Terms.erase(It);
  }

  bool overflowed() const { return Over; }
  /// The zero polynomial (an overflowed one is not: its value is unknown).
  bool empty() const { return !Over && Terms.empty(); }
  size_t size() const { return Terms.size(); }
  const_iterator begin() const { return Terms.begin(); }
  const_iterator end() const { return Terms.end(); }
  const_iterator find(const Mono &M) const { return Terms.find(M); }
  void erase(const_iterator It) { Terms.erase(It); }
  const Map &terms() const { return Terms; }
  /// The coefficient of \p M (0 when absent).
  int64_t coefficient(const Mono &M) const {
    auto It = Terms.find(M);
    return It == Terms.end() ? 0 : It->second;
  }

  Polynomial operator+(const Polynomial &O) const {
    Polynomial R = *this;
    R += O;
    return R;
  }
  Polynomial &operator+=(const Polynomial &O) {
    if (O.Over)
      setOverflow();
    for (const auto &[M, C] : O.Terms)
      add(M, C);
    return *this;
  }
  Polynomial operator-(const Polynomial &O) const { return *this + O * -1; }
  Polynomial operator*(int64_t K) const {
    if (Over)
      return *this;
    Polynomial R;
    for (const auto &[M, C] : Terms) {
      int64_t V;
      if (__builtin_mul_overflow(C, K, &V))
        return overflow();
      R.add(M, V);
    }
    return R;
  }
  Polynomial operator*(const Polynomial &O) const {
    if (Over || O.Over)
      return overflow();
    Polynomial R;
    for (const auto &[M1, C1] : Terms)
      for (const auto &[M2, C2] : O.Terms) {
        int64_t V;
        if (__builtin_mul_overflow(C1, C2, &V))
          return overflow();
        Mono M = M1;
        M.insert(M.end(), M2.begin(), M2.end());
        R.add(std::move(M), V);
        if (R.Over)
          return R;
      }
    return R;
  }
  /// Equal terms; an overflowed polynomial equals nothing.
  bool operator==(const Polynomial &O) const {
    return !Over && !O.Over && Terms == O.Terms;
  }
  bool operator!=(const Polynomial &O) const { return !(*this == O); }

  /// The constant this is, if it has no atom.
  std::optional<int64_t> asConstant() const {
    if (Over)
      return std::nullopt;
    if (Terms.empty())
      return 0;
    if (Terms.size() == 1 && Terms.begin()->first.empty())
      return Terms.begin()->second;
    return std::nullopt;
  }
  /// The single atom this is (coefficient 1), if any.
  std::optional<A> single() const {
    if (!Over && Terms.size() == 1 && Terms.begin()->first.size() == 1 &&
        Terms.begin()->second == 1)
      return Terms.begin()->first[0];
    return std::nullopt;
  }
  /// Whether a term contains \p X.
  bool contains(const A &X) const {
    for (const auto &[M, C] : Terms)
      for (const A &Y : M)
        if (!AtomLess()(X, Y) && !AtomLess()(Y, X))
          return true;
    return false;
  }
  std::set<A, AtomLess> atoms() const {
    std::set<A, AtomLess> S;
    for (const auto &[M, C] : Terms)
      S.insert(M.begin(), M.end());
    return S;
  }
  /// Splits into Q * X + R where no term of R contains \p X (one occurrence
  /// of X is taken out of each term of Q).
  void divide(const A &X, Polynomial &Q, Polynomial &R) const {
    Q = Polynomial();
    R = Polynomial();
    if (Over) {
      Q = R = overflow();
      return;
    }
    for (const auto &[M, C] : Terms) {
      auto It = std::find_if(M.begin(), M.end(), [&](const A &Y) {
        return !AtomLess()(X, Y) && !AtomLess()(Y, X);
      });
      if (It == M.end()) {
        R.add(M, C);
        continue;
      }
      Mono M2 = M;
      M2.erase(M2.begin() + (It - M.begin()));
      Q.add(std::move(M2), C);
    }
  }
  /// Replaces atoms by polynomials (atoms without a replacement stay).
  template <class SubstMap> Polynomial subst(const SubstMap &S) const {
    if (Over)
      return *this;
    Polynomial R;
    for (const auto &[M, C] : Terms) {
      Polynomial Term = constant(C);
      for (const A &X : M) {
        auto It = S.find(X);
        Term = Term * (It == S.end() ? atom(X) : Polynomial(It->second));
      }
      R += Term;
    }
    return R;
  }

private:
  Map Terms;
  bool Over = false;
  void setOverflow() {
    Terms.clear();
    Over = true;
  }
};

} // namespace pk

#endif // PK_ANALYSIS_POLYNOMIAL_H

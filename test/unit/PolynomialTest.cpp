//===- PolynomialTest.cpp - pk::Polynomial -------------------------------===//
//
// The integer polynomials every analysis shares (pk/Polynomial.h): the
// algebra, the order terms are kept in, and checked arithmetic.
//
//===----------------------------------------------------------------------===//
#include "pk/Polynomial.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <limits>
#include <map>
#include <string>

using P = pk::Polynomial<std::string>;

namespace {

std::string show(const P &X) {
  if (X.overflowed())
    return "overflow";
  std::string S;
  for (const auto &[M, C] : X) {
    S += (S.empty() ? "" : " + ") + std::to_string(C);
    for (const std::string &A : M)
      S += "*" + A;
  }
  return S.empty() ? "0" : S;
}

} // namespace

TEST(Polynomial, SumsProductsAndCancellation) {
  P X = P::atom("x"), Y = P::atom("y");
  // (x + 2y)(x - 2y) = x^2 - 4y^2: the cross terms cancel and are dropped.
  P R = (X + Y * 2) * (X - Y * 2);
  EXPECT_EQ(show(R), "1*x*x + -4*y*y");
  EXPECT_EQ(R.size(), 2u);
  EXPECT_TRUE((X - X).empty());
  EXPECT_EQ((X - X).asConstant(), 0);
  EXPECT_EQ((P::constant(3) * P::constant(-4)).asConstant(), -12);
  EXPECT_EQ(X * 0, P());
  // Monomials are sorted: y*x is x*y.
  EXPECT_EQ(Y * X, X * Y);
  EXPECT_EQ((Y * X).coefficient({"x", "y"}), 1);
}

TEST(Polynomial, ReadsAtomsConstantsAndSingles) {
  P X = P::atom("x");
  EXPECT_EQ(X.single(), std::string("x"));
  EXPECT_FALSE((X * 2).single());
  EXPECT_FALSE((X + P::constant(1)).asConstant());
  EXPECT_TRUE(X.contains("x"));
  EXPECT_FALSE(X.contains("xx"));
  EXPECT_EQ((X * P::atom("y") + P::atom("z")).atoms().size(), 3u);
}

TEST(Polynomial, DividesOutAnAtomAndSubstitutes) {
  P X = P::atom("x"), Y = P::atom("y");
  P E = X * Y * 3 + X * 5 + Y + P::constant(7);
  P Q, R;
  E.divide("x", Q, R);
  EXPECT_EQ(Q, Y * 3 + P::constant(5));
  EXPECT_EQ(R, Y + P::constant(7));
  EXPECT_EQ(Q * X + R, E);
  // x := y + 1 in x*x: y^2 + 2y + 1.
  std::map<std::string, P> S{{"x", Y + P::constant(1)}};
  EXPECT_EQ((X * X).subst(S), Y * Y + Y * 2 + P::constant(1));
}

TEST(Polynomial, OverflowIsKeptAndEqualsNothing) {
  const int64_t Big = std::numeric_limits<int64_t>::max() / 2 + 1;
  P X = P::atom("x");
  P O = X * Big * 2; // 2^63: one past int64_t
  ASSERT_TRUE(O.overflowed());
  EXPECT_FALSE(O.empty()); // unknown, not zero
  EXPECT_FALSE(O.asConstant());
  EXPECT_FALSE(O.single());
  EXPECT_NE(O, O);
  EXPECT_NE(O, P());
  // Every later operation keeps it.
  EXPECT_TRUE((O + X).overflowed());
  EXPECT_TRUE((X - O).overflowed());
  EXPECT_TRUE((O * P::constant(0)).overflowed());
  EXPECT_TRUE((O * 0).overflowed());
  P Q, R;
  O.divide("x", Q, R);
  EXPECT_TRUE(Q.overflowed() && R.overflowed());
  // Sums overflow too, and a product of coefficients.
  EXPECT_TRUE((P::constant(Big) + P::constant(Big)).overflowed());
  EXPECT_TRUE((X * Big * (X * 2)).overflowed());
  // Up to the limit, nothing is lost.
  P Edge = P::constant(std::numeric_limits<int64_t>::max());
  EXPECT_FALSE(Edge.overflowed());
  EXPECT_TRUE((Edge + P::constant(1)).overflowed());
  EXPECT_EQ((Edge - Edge).asConstant(), 0);
}

// A caller's own orders: atoms by a key, monomials by degree first.
struct ByLen {
  bool operator()(const std::string &A, const std::string &B) const {
    return A.size() != B.size() ? A.size() < B.size() : A < B;
  }
};
struct DegreeFirst {
  bool operator()(const std::vector<std::string> &A,
                  const std::vector<std::string> &B) const {
    if (A.size() != B.size())
      return A.size() < B.size();
    return std::lexicographical_compare(A.begin(), A.end(), B.begin(), B.end(),
                                        ByLen());
  }
};

TEST(Polynomial, KeepsTheCallersOrders) {
  using Q = pk::Polynomial<std::string, ByLen, DegreeFirst>;
  Q E = Q::atom("bb") * Q::atom("a") + Q::atom("zz") + Q::constant(1);
  std::vector<std::vector<std::string>> Monos;
  for (const auto &[M, C] : E)
    Monos.push_back(M);
  // Degree 0, then 1, then 2; inside a monomial "a" before "bb".
  ASSERT_EQ(Monos.size(), 3u);
  EXPECT_TRUE(Monos[0].empty());
  EXPECT_EQ(Monos[1], std::vector<std::string>{"zz"});
  EXPECT_EQ(Monos[2], (std::vector<std::string>{"a", "bb"}));
}

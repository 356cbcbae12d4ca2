//===- DelineariseTest.cpp - SymPool::delinearise -------------------------===//
//
// Indices split by division and remainder (b = i / (T * V), t = (i / V) %
// T, v = i % V) put back together: the identities hold for truncating
// division, and what is not one chain stays as written.
//
//===----------------------------------------------------------------------===//
#include "pk/KernelModel.h"

#include "gtest/gtest.h"

using namespace pk::km;

namespace {

struct Delin : ::testing::Test {
  SymPool P;
  SymP I = P.atom(1), T = P.atom(2), V = P.atom(3);
  SymP div(SymP A, SymP B) { return P.bin("/", A, B); }
  SymP mod(SymP A, SymP B) { return P.bin("%", A, B); }
  SymP mul(SymP A, SymP B) { return P.bin("*", A, B); }
  SymP add(SymP A, SymP B) { return P.bin("+", A, B); }
};

TEST_F(Delin, ThreeLevelIndexIsTheElement) {
  SymP B = div(I, mul(T, V)), Tt = mod(div(I, V), T), Vv = mod(I, V);
  SymP Idx = add(add(mul(mul(B, T), V), mul(Tt, V)), Vv);
  EXPECT_EQ(P.delinearise(Idx), I);
  // b * T + t is the row i / V.
  EXPECT_EQ(P.delinearise(add(mul(B, T), Tt)), div(I, V));
}

TEST_F(Delin, ConstantSizes) {
  SymP Idx = add(mul(div(I, P.intc(12)), P.intc(12)),
                 add(mul(mod(div(I, P.intc(4)), P.intc(3)), P.intc(4)),
                     mod(I, P.intc(4))));
  EXPECT_EQ(P.delinearise(Idx), I);
}

TEST_F(Delin, HoldsForEverySignNumerically) {
  // The two identities the rewrite uses, for truncating division.
  for (int64_t X = -50; X <= 50; ++X)
    for (int64_t K : {1, 2, 3, 7})
      for (int64_t Q : {1, 2, 5}) {
        EXPECT_EQ(X / (K * Q), (X / K) / Q);
        EXPECT_EQ(X % (K * Q), ((X / K) % Q) * K + X % K);
        EXPECT_EQ((X / Q) * Q + X % Q, X);
      }
}

TEST_F(Delin, LeavesOtherIndicesAlone) {
  // A remainder by a size that is not in the chain, and a combination with
  // the wrong coefficient, stay as written.
  SymP W = P.atom(4);
  SymP A = add(mul(div(I, V), V), mod(I, W));
  EXPECT_EQ(P.delinearise(A), A);
  SymP Bad = add(mul(div(I, V), mul(V, P.intc(2))), mod(I, V));
  EXPECT_EQ(P.delinearise(Bad), Bad);
  // (i / V) % T alone is kept (no i / (T * V) to chain it with).
  SymP Alone = mod(div(I, V), T);
  EXPECT_EQ(P.delinearise(Alone), Alone);
}

TEST_F(Delin, InsideLoads) {
  SymP Row = add(mul(div(I, mul(T, V)), T), mod(div(I, V), T));
  SymP L = P.load(nullptr, Row, Ty::F32);
  SymP Got = P.delinearise(P.bin("*", L, P.flt(2.0)));
  ASSERT_EQ(Got->K, SK::Bin);
  EXPECT_EQ(Got->Ops[0]->K, SK::Load);
  EXPECT_EQ(Got->Ops[0]->Ops[0], div(I, V));
}

} // namespace

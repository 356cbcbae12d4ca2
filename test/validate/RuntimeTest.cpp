//===- RuntimeTest.cpp - generator, conversions and comparison ------------===//
//
// pkv_rt.h is compiled into every driver; these tests include it directly.

#include "pkv_rt.h"
#include "gtest/gtest.h"
#include <cmath>
#include <limits>

namespace {

TEST(Generator, SplitMix64KnownSequence) {
  // Reference values of SplitMix64 seeded with 1234567.
  pkv::SplitMix64 G(1234567);
  EXPECT_EQ(G.next(), 6457827717110365317ULL);
  EXPECT_EQ(G.next(), 3203168211198807973ULL);
  EXPECT_EQ(G.next(), 9817491932198370423ULL);
  EXPECT_EQ(G.next(), 4593380528125082431ULL);
  EXPECT_EQ(G.next(), 16408922859458223821ULL);
}

TEST(Generator, FillIsDeterministicAndSeedDependent) {
  std::vector<float> A(1000), B(1000), C(1000);
  pkv::fill(A.data(), pkv::T_F32, A.size(), pkv::I_UNIFORM, -1, 1, 7, 0);
  pkv::fill(B.data(), pkv::T_F32, B.size(), pkv::I_UNIFORM, -1, 1, 7, 0);
  pkv::fill(C.data(), pkv::T_F32, C.size(), pkv::I_UNIFORM, -1, 1, 8, 0);
  EXPECT_EQ(A, B);
  EXPECT_NE(A, C);
  // Pinned values: a change here changes every corpus input.
  EXPECT_EQ(pkv::floatBits(A[0]), pkv::floatBits((float)(-1.0 + 2.0 * ((double)(pkv::SplitMix64(7).next() >> 11) / 9007199254740992.0))));
  double Sum = 0;
  for (float V : A) {
    EXPECT_GE(V, -1.0f);
    EXPECT_LT(V, 1.0f);
    Sum += V;
  }
  EXPECT_LT(std::fabs(Sum / A.size()), 0.1);
}

TEST(Generator, IntegerUniformIsInclusive) {
  std::vector<int> V(2000);
  pkv::fill(V.data(), pkv::T_I32, V.size(), pkv::I_UNIFORM, -3, 3, 1, 0);
  bool SawLo = false, SawHi = false;
  for (int X : V) {
    EXPECT_GE(X, -3);
    EXPECT_LE(X, 3);
    SawLo |= X == -3;
    SawHi |= X == 3;
  }
  EXPECT_TRUE(SawLo && SawHi);
  std::vector<unsigned char> U(4000);
  pkv::fill(U.data(), pkv::T_U8, U.size(), pkv::I_UNIFORM, 0, 255, 3, 0);
  bool Saw255 = false;
  for (unsigned char X : U)
    Saw255 |= X == 255;
  EXPECT_TRUE(Saw255);
}

TEST(Generator, IotaConstZero) {
  std::vector<double> D(5);
  pkv::fill(D.data(), pkv::T_F64, 5, pkv::I_IOTA, 0, 0, 0, 0);
  EXPECT_EQ(D, (std::vector<double>{0, 1, 2, 3, 4}));
  std::vector<unsigned> U(3, 9);
  pkv::fill(U.data(), pkv::T_U32, 3, pkv::I_CONST, 0, 0, 0, 42);
  EXPECT_EQ(U, (std::vector<unsigned>{42, 42, 42}));
  pkv::fill(U.data(), pkv::T_U32, 3, pkv::I_ZERO, 0, 0, 0, 42);
  EXPECT_EQ(U, (std::vector<unsigned>{0, 0, 0}));
}

TEST(Conversions, HalfRoundTripAndRounding) {
  EXPECT_EQ(pkv::floatToHalfBits(1.0f), 0x3c00);
  EXPECT_EQ(pkv::floatToHalfBits(-2.0f), 0xc000);
  EXPECT_EQ(pkv::floatToHalfBits(65504.0f), 0x7bff);
  EXPECT_EQ(pkv::floatToHalfBits(65520.0f), 0x7c00); // ties to even: infinity
  EXPECT_EQ(pkv::floatToHalfBits(65519.0f), 0x7bff);
  EXPECT_EQ(pkv::floatToHalfBits(std::ldexp(1.0f, -24)), 0x0001); // smallest subnormal
  EXPECT_EQ(pkv::floatToHalfBits(std::ldexp(1.0f, -25)), 0x0000); // tie to even: zero
  EXPECT_EQ(pkv::floatToHalfBits(std::ldexp(3.0f, -25)), 0x0002); // 1.5 ulp: ties to even
  EXPECT_EQ(pkv::floatToHalfBits(1.0f + std::ldexp(1.0f, -11)), 0x3c00); // tie, even stays
  EXPECT_EQ(pkv::floatToHalfBits(1.0f + std::ldexp(3.0f, -11)), 0x3c02); // tie, odd rounds up
  EXPECT_EQ(pkv::floatToHalfBits(std::numeric_limits<float>::infinity()), 0x7c00);
  EXPECT_TRUE(std::isnan(pkv::halfBitsToFloat(pkv::floatToHalfBits(NAN))));
  // Every finite half converts to float and back unchanged.
  for (unsigned H = 0; H < 0x10000; ++H) {
    if ((H & 0x7c00) == 0x7c00 && (H & 0x3ff))
      continue; // nan payloads
    ASSERT_EQ(pkv::floatToHalfBits(pkv::halfBitsToFloat((uint16_t)H)), H) << H;
  }
}

TEST(Conversions, BFloat16) {
  EXPECT_EQ(pkv::floatToBf16Bits(1.0f), 0x3f80);
  EXPECT_EQ(pkv::bf16BitsToFloat(0x3f80), 1.0f);
  EXPECT_EQ(pkv::floatToBf16Bits(pkv::bitsFloat(0x3f808000u)), 0x3f80); // tie, even
  EXPECT_EQ(pkv::floatToBf16Bits(pkv::bitsFloat(0x3f818000u)), 0x3f82); // tie, odd up
  EXPECT_EQ(pkv::floatToBf16Bits(pkv::bitsFloat(0x3f808001u)), 0x3f81);
  EXPECT_TRUE(std::isnan(pkv::bf16BitsToFloat(pkv::floatToBf16Bits(NAN))));
}

TEST(Compare, ToleranceNeedsBothExceeded) {
  float Want[4] = {1.0f, 100.0f, 0.0f, -2.0f};
  float Got[4] = {1.0f + 5e-6f, 100.001f, 5e-6f, -2.0f};
  // abs 1e-5, rel 1e-4: element 1 has err 1e-3 > abs but rel 1e-5 < rel: pass.
  pkv::CompareStats S = pkv::compare(Got, Want, pkv::T_F32, 4, 1e-5, 1e-4);
  EXPECT_EQ(S.Mismatches, 0u);
  EXPECT_EQ(S.FirstBad, -1);
  EXPECT_NEAR(S.MaxAbs, 1e-3, 1e-5);
  EXPECT_NEAR(S.MaxRel, 1e-5, 1e-6);
  // Element 2 (want 0, got 5e-6) is within abs; tighten abs to fail it.
  S = pkv::compare(Got, Want, pkv::T_F32, 4, 1e-6, 1e-4);
  EXPECT_EQ(S.Mismatches, 1u); // only element 2: element 0 is within rel
  EXPECT_EQ(S.FirstBad, 2);
  S = pkv::compare(Got, Want, pkv::T_F32, 4, 0, 0);
  EXPECT_EQ(S.Mismatches, 3u);
  EXPECT_EQ(S.FirstBad, 0);
  EXPECT_FLOAT_EQ((float)S.GotAtFirst, Got[0]);
  EXPECT_FLOAT_EQ((float)S.WantAtFirst, Want[0]);
}

TEST(Compare, NanAndInf) {
  const float Inf = std::numeric_limits<float>::infinity();
  float Want[4] = {NAN, Inf, 1.0f, NAN};
  float Got[4] = {NAN, Inf, NAN, 1.0f};
  pkv::CompareStats S = pkv::compare(Got, Want, pkv::T_F32, 4, 1, 1);
  EXPECT_EQ(S.Mismatches, 2u);
  EXPECT_EQ(S.NanMismatches, 2u);
  EXPECT_EQ(S.FirstBad, 2);
  float G2[1] = {-Inf}, W2[1] = {Inf};
  EXPECT_EQ(pkv::compare(G2, W2, pkv::T_F32, 1, 1e9, 1e9).Mismatches, 1u);
  float G3[1] = {1e30f}, W3[1] = {Inf};
  EXPECT_EQ(pkv::compare(G3, W3, pkv::T_F32, 1, 1e9, 1e9).Mismatches, 1u);
}

TEST(Compare, IntegersAreExact) {
  int Want[3] = {5, -7, 100};
  int Got[3] = {5, -6, 100};
  pkv::CompareStats S = pkv::compare(Got, Want, pkv::T_I32, 3, 10, 10);
  EXPECT_EQ(S.Mismatches, 1u);
  EXPECT_EQ(S.FirstBad, 1);
  EXPECT_EQ(S.MaxAbs, 1.0);
  unsigned char UW[2] = {1, 2}, UG[2] = {1, 2};
  EXPECT_EQ(pkv::compare(UG, UW, pkv::T_U8, 2, 0, 0).Mismatches, 0u);
}

TEST(Compare, HalfComparesAsFloat) {
  uint16_t Want[2] = {pkv::floatToHalfBits(1.0f), pkv::floatToHalfBits(2.0f)};
  uint16_t Got[2] = {pkv::floatToHalfBits(1.0f), (uint16_t)(pkv::floatToHalfBits(2.0f) + 1)};
  pkv::CompareStats S = pkv::compare(Got, Want, pkv::T_F16, 2, 1e-3, 1e-4);
  EXPECT_EQ(S.Mismatches, 1u); // one half ulp at 2.0 is 2^-9
  EXPECT_DOUBLE_EQ(S.MaxAbs, std::ldexp(1.0, -9));
  EXPECT_EQ(pkv::compare(Got, Want, pkv::T_F16, 2, 2e-3, 0).Mismatches, 0u);
}

TEST(Report, JsonNumbers) {
  EXPECT_EQ(pkv::jsonNumber(0.5), "0.5");
  EXPECT_EQ(pkv::jsonNumber(NAN), "\"nan\"");
  EXPECT_EQ(pkv::jsonNumber(-INFINITY), "\"-inf\"");
  EXPECT_EQ(pkv::jsonString("a\"b\n"), "\"a\\\"b\\n\"");
}

} // namespace

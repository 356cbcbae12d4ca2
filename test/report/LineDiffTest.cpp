// Rules: none (tests of the line diff behind reports and patches)
#include "pk/LineDiff.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "gtest/gtest.h"
#include <random>

using namespace pk;

namespace {

/// Rebuilds both sides from the script; checks the indices are in order.
void checkScript(llvm::ArrayRef<llvm::StringRef> A,
                 llvm::ArrayRef<llvm::StringRef> B,
                 const std::vector<DiffLine> &S) {
  unsigned I = 0, J = 0;
  for (const DiffLine &L : S) {
    if (L.K != DiffLine::Insert) {
      ASSERT_EQ(L.Old, I);
      ++I;
    }
    if (L.K != DiffLine::Delete) {
      ASSERT_EQ(L.New, J);
      ++J;
    }
    if (L.K == DiffLine::Equal)
      ASSERT_EQ(A[L.Old], B[L.New]);
  }
  EXPECT_EQ(I, A.size());
  EXPECT_EQ(J, B.size());
}

unsigned lcs(llvm::ArrayRef<llvm::StringRef> A,
             llvm::ArrayRef<llvm::StringRef> B) {
  std::vector<std::vector<unsigned>> T(A.size() + 1,
                                       std::vector<unsigned>(B.size() + 1));
  for (size_t I = A.size(); I-- > 0;)
    for (size_t J = B.size(); J-- > 0;)
      T[I][J] = A[I] == B[J] ? T[I + 1][J + 1] + 1
                             : std::max(T[I + 1][J], T[I][J + 1]);
  return T[0][0];
}

std::string unified(llvm::StringRef A, llvm::StringRef B, unsigned Ctx = 3) {
  auto LA = splitLines(A), LB = splitLines(B);
  std::string S;
  llvm::raw_string_ostream OS(S);
  writeUnifiedHunks(OS, LA, LB, makeHunks(diffLines(LA, LB), Ctx));
  return S;
}

} // namespace

TEST(LineDiff, SplitKeepsTerminators) {
  auto L = splitLines("a\nb\r\nc");
  ASSERT_EQ(L.size(), 3u);
  EXPECT_EQ(L[0], "a\n");
  EXPECT_EQ(L[1], "b\r\n");
  EXPECT_EQ(L[2], "c");
  EXPECT_TRUE(splitLines("").empty());
}

TEST(LineDiff, IdenticalHasNoHunks) {
  EXPECT_EQ(unified("a\nb\n", "a\nb\n"), "");
  EXPECT_EQ(unified("", ""), "");
}

TEST(LineDiff, InsertDeleteReplace) {
  EXPECT_EQ(unified("a\nb\nc\n", "a\nx\nb\nc\n"),
            "@@ -1,3 +1,4 @@\n a\n+x\n b\n c\n");
  EXPECT_EQ(unified("a\nb\nc\n", "a\nc\n"), "@@ -1,3 +1,2 @@\n a\n-b\n c\n");
  EXPECT_EQ(unified("a\nb\nc\n", "a\nB\nc\n"),
            "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
}

TEST(LineDiff, EmptySides) {
  EXPECT_EQ(unified("", "x\ny\n"), "@@ -0,0 +1,2 @@\n+x\n+y\n");
  EXPECT_EQ(unified("x\n", ""), "@@ -1 +0,0 @@\n-x\n");
}

TEST(LineDiff, NoNewlineAtEnd) {
  EXPECT_EQ(unified("a\nb", "a\nb\n"),
            "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n");
}

TEST(LineDiff, DistantChangesMakeTwoHunks) {
  std::string A, B;
  for (int I = 0; I < 20; ++I) {
    A += llvm::formatv("l{0}\n", I).str();
    B += (I == 2 || I == 15) ? "changed\n" : llvm::formatv("l{0}\n", I).str();
  }
  EXPECT_EQ(unified(A, B),
            "@@ -1,6 +1,6 @@\n l0\n l1\n-l2\n+changed\n l3\n l4\n l5\n"
            "@@ -13,7 +13,7 @@\n l12\n l13\n l14\n-l15\n+changed\n l16\n l17\n"
            " l18\n");
  // Closer than twice the context: one hunk.
  EXPECT_EQ(unified("a\nb\nc\nd\ne\n", "A\nb\nc\nd\nE\n", 2),
            "@@ -1,5 +1,5 @@\n-a\n+A\n b\n c\n d\n-e\n+E\n");
}

TEST(LineDiff, ShortestOnRandomInputs) {
  std::mt19937 Rng(12345);
  const char *Alphabet[] = {"a\n", "b\n", "c\n", "d\n", "e"};
  for (int Round = 0; Round < 400; ++Round) {
    std::vector<llvm::StringRef> A, B;
    size_t NA = Rng() % 14, NB = Rng() % 14;
    for (size_t I = 0; I < NA; ++I)
      A.push_back(Alphabet[Rng() % 4]);
    for (size_t I = 0; I < NB; ++I)
      B.push_back(Alphabet[Rng() % 4]);
    auto S = diffLines(A, B);
    checkScript(A, B, S);
    unsigned Equal = 0;
    for (const DiffLine &L : S)
      Equal += L.K == DiffLine::Equal;
    EXPECT_EQ(Equal, lcs(A, B)) << "round " << Round;
    // Hunks cover every change exactly once.
    unsigned Changes = 0, InHunks = 0;
    for (const DiffLine &L : S)
      Changes += L.K != DiffLine::Equal;
    for (const DiffHunk &H : makeHunks(S, 1))
      for (const DiffLine &L : H.Lines)
        InHunks += L.K != DiffLine::Equal;
    EXPECT_EQ(Changes, InHunks);
  }
}

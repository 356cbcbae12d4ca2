//===- TargetTest.cpp - the target list and the target interface ----------===//
#include "pk/Target.h"
#include "pk/TargetContext.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"

#include "gtest/gtest.h"

using namespace pk;

TEST(Targets, ListNamesAndLookups) {
  std::vector<Target> All = allTargets();
  ASSERT_FALSE(All.empty());
  for (Target T : All) {
    EXPECT_EQ(findTarget(targetName(T)), T);
    const TargetBackend &B = targetBackend(T);
    EXPECT_EQ(B.id(), T);
    EXPECT_EQ(B.name().str(), targetName(T).str());
    // NKI output is generated whole from the lifted kernels
    // (TargetBackend::generate), not edited by port passes.
    if (T != Target::NKI)
      EXPECT_FALSE(B.portPasses().empty()) << targetName(T).str();
    for (const TargetPass &P : B.portPasses())
      EXPECT_TRUE(P.Name && *P.Name && P.Run) << targetName(T).str();
  }
  EXPECT_EQ(findTarget("nki"), Target::NKI);
  EXPECT_EQ(targetEmuLanguage(Target::NKI), EmuLanguage::None);
  EXPECT_EQ(targetBackend(Target::NKI).outputName("a/k.cu"), "a/k.py");
  EXPECT_EQ(targetBackend(Target::NKI).outputName("a/k.cuh"), "a/k_cuh.py");
  EXPECT_FALSE(findTarget("tpu").has_value());
  EXPECT_FALSE(findTarget("").has_value());
  EXPECT_EQ(targetEmuLanguage(Target::HIP), EmuLanguage::HIP);
  EXPECT_EQ(targetEmuLanguage(Target::CUDA), EmuLanguage::CUDA);
}

TEST(Targets, HipPassOrder) {
  // The HIP passes run in a documented order (HIPTarget.cpp): tables, then
  // the semantic rules, then what depends on all of them.
  std::vector<std::string> Names;
  for (const TargetPass &P : targetBackend(Target::HIP).portPasses())
    Names.push_back(P.Name);
  std::vector<std::string> Want = {"wave64-analysis",
                                   "includes",
                                   "runtime-include",
                                   "nvcc-macros",
                                   "toolkit-headers",
                                   "dead-case-labels",
                                   "renames",
                                   "thrust-system",
                                   "launch-casts",
                                   "mem-location",
                                   "cub-warp-width",
                                   "host-math",
                                   "int-min-max",
                                   "atomics-cache-hints",
                                   "bfloat16",
                                   "rocm5-pitch",
                                   "wave64",
                                   "mfma",
                                   "coop-groups-api",
                                   "texture-fetches",
                                   "unported-includes",
                                   "unknown-api",
                                   "refused-edits",
                                   "helpers"};
  EXPECT_EQ(Names, Want);
  std::vector<std::string> Check;
  for (const TargetPass &P : targetBackend(Target::HIP).checkPasses())
    Check.push_back(P.Name);
  EXPECT_EQ(Check,
            (std::vector<std::string>{
                "wave64-analysis", "includes", "toolkit-headers", "renames",
                "host-math", "bfloat16", "rewrites-as-findings", "wave64-check",
                "coop-groups-api", "texture-fetches", "unported-includes"}));
}

// RawTokenCursor: the raw tokens of a buffer through a window, with an end
// token past both ends, and the same tokens as lexing the whole buffer.
TEST(Targets, RawTokenCursorReadsEveryTokenThroughAWindow) {
  clang::LangOptions LO;
  LO.CPlusPlus = LO.CPlusPlus11 = LO.CUDA = true;
  std::string Buf = "#ifdef __NVCC__ // c\n"
                    "int x = 1; /* a\n b */ x += 2;\n"
                    "#endif\n";
  for (int I = 0; I < 5000; ++I)
    Buf += "f(" + std::to_string(I) + ");\n";
  // The whole buffer at once, as the lexer gives it.
  std::vector<std::pair<unsigned, unsigned>> Want;
  {
    clang::Lexer L(clang::SourceLocation::getFromRawEncoding(1), LO,
                   Buf.data(), Buf.data(), Buf.data() + Buf.size());
    clang::Token T;
    for (L.LexFromRawLexer(T); !T.is(clang::tok::eof); L.LexFromRawLexer(T))
      Want.push_back({T.getLocation().getRawEncoding() - 1, T.getLength()});
  }
  ASSERT_EQ(Want.size(), 14u + 5000u * 5u);
  pk::RawTokenCursor C(LO, Buf);
  // Before the beginning: the end token.
  EXPECT_EQ(C[-1].Kind, clang::tok::eof);
  EXPECT_TRUE(C[-1].StartOfLine);
  EXPECT_TRUE(C[0].StartOfLine);
  EXPECT_EQ(C[0].Kind, clang::tok::hash);
  EXPECT_EQ(C[1].Text, "ifdef");
  EXPECT_EQ(C[2].Text, "__NVCC__");
  EXPECT_FALSE(C[2].StartOfLine);
  EXPECT_TRUE(C[3].StartOfLine); // `int`, after the comment
  size_t N = 0;
  for (; !C.done(); C.advance(), ++N) {
    ASSERT_LT(N, Want.size());
    EXPECT_EQ(C[0].Offset, Want[N].first);
    EXPECT_EQ(C[0].Length, Want[N].second);
    // Lookahead, then a look back as far as the window holds.
    if (N + 3 < Want.size())
      EXPECT_EQ(C[3].Offset, Want[N + 3].first);
    if (N >= pk::RawTokenCursor::Behind)
      EXPECT_EQ(C[-int(pk::RawTokenCursor::Behind)].Offset,
                Want[N - pk::RawTokenCursor::Behind].first);
  }
  EXPECT_EQ(N, Want.size());
  // Past the end: the end token, at the end of the buffer, with no text.
  EXPECT_EQ(C[0].Kind, clang::tok::eof);
  EXPECT_EQ(C[5].Offset, Buf.size());
  EXPECT_TRUE(C[5].Text.empty());
  // A jump of many tokens.
  pk::RawTokenCursor J(LO, Buf);
  J.advance(1000);
  EXPECT_EQ(J[0].Offset, Want[1000].first);
  EXPECT_EQ(J[-2].Offset, Want[998].first);
}

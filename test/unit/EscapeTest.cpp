//===- EscapeTest.cpp - the escaping layer (pk/Escape.h) -------------------===//
// Rules: PK9004
#include "../fuzz/EscapeOracle.h"
#include "pk/Escape.h"

#include "gtest/gtest.h"
#include <random>

using namespace pk;

namespace {

// Inputs a hostile file name or source line would carry.
const llvm::StringRef Hostile[] = {
    "",
    " ",
    "plain.cu",
    "![x](https://evil.example/p.png)",
    "<img src=x onerror=alert(1)>",
    "[a](javascript:alert(1))",
    "`code` ``two`` ```three",
    "# heading",
    "a|b|c",
    "www.example.com http://example.com",
    "@someone",
    "$x^2$",
    "&lt;b&gt; &amp; &#39;",
    "<script>alert(1)</script>",
    "~~gone~~ **bold** _em_",
    "line\nbreak\r\nand\ttab",
    "back\\slash\\",
    "a:b#c$d e;f|g=h%i",
    "bidi \xe2\x80\xae reversed \xe2\x81\xa6 isolate",
    "zero\xe2\x80\x8bwidth",
    "nul\x01\x1b[31mcolour",
    "not utf8 \xe9\xff",
    "\xef\xbb\xbf" "bom", // a byte-order mark (apart: "\xbfb" would be one escape)
    "` leading and trailing `",
    "``",
    // Found by fuzz.escape-replay: a NUL byte was encoded as "%000".
    llvm::StringRef("a|\0b", 4),
};

TEST(Escape, HostileInputsHoldEveryProperty) {
  for (llvm::StringRef S : Hostile)
    EXPECT_EQ(oracle::check(S), "") << "input: " << llvm::toHex(S);
}

TEST(Escape, RandomInputsHoldEveryProperty) {
  // Deterministic: the same inputs every run.
  std::mt19937 Gen(20261205);
  const std::string Alphabet = std::string("ab /\\`*_[]()<>!|~$&#:;=%@.w\n\r\t\"'") +
                               "\xe2\x80\xae\xe2\x80\x8b\xe9\x01";
  for (int I = 0; I < 20000; ++I) {
    std::string S;
    size_t Len = Gen() % 24;
    for (size_t J = 0; J < Len; ++J)
      S += Alphabet[Gen() % Alphabet.size()];
    ASSERT_EQ(oracle::check(S), "") << "input: " << llvm::utohexstr(S.size());
  }
}

TEST(Escape, ControlsAreFoundAndShown) {
  std::string S = "a\xe2\x80\xae" "b\xe2\x80\x8b" "c\fd\xef\xbb\xbf";
  auto V = findInvisibleControls(S);
  ASSERT_EQ(V.size(), 3u); // RLO, ZWSP, and a BOM that does not start the text
  EXPECT_EQ(V[0].CodePoint, 0x202Eu);
  EXPECT_EQ(V[0].Offset, 1u);
  EXPECT_TRUE(isBidiControl(V[0].CodePoint));
  EXPECT_EQ(V[1].CodePoint, 0x200Bu);
  EXPECT_FALSE(isBidiControl(V[1].CodePoint));
  EXPECT_EQ(V[2].CodePoint, 0xFEFFu);
  EXPECT_EQ(showControls(S), "a<U+202E>b<U+200B>c\fd<U+FEFF>");
  // A leading byte-order mark is not a hidden character.
  EXPECT_TRUE(findInvisibleControls("\xef\xbb\xbfint x;").empty());
  EXPECT_EQ(showControls("caf\xe9"), "caf<0xE9>");
}

TEST(Escape, ExactForms) {
  EXPECT_EQ(htmlEscape("<a href='x'>&</a>"),
            "&lt;a href=&#39;x&#39;&gt;&amp;&lt;/a&gt;");
  EXPECT_EQ(markdownText("![x](y)"), "\\!\\[x\\](y)");
  EXPECT_EQ(markdownCode("a`b", false), "``a`b``");
  EXPECT_EQ(markdownCode("`x", false), "`` `x ``");
  EXPECT_EQ(markdownCode("a|b", true), "`a\\|b`");
  EXPECT_EQ(uriEncode("my dir/a b.cu"), "my%20dir/a%20b.cu");
  EXPECT_EQ(uriEncode("caf\xe9"), "caf%E9");
  EXPECT_EQ(uriDecode("%2"), "%2"); // malformed: kept
  EXPECT_EQ(*depfileEscape("/a b/c:d#e$f"), "/a\\ b/c\\:d\\#e$$f");
  for (const char *Bad : {"a\nb", "a;b", "a|b", "a=b", "a%b", "a\\ b", "a\\"}) {
    auto E = depfileEscape(Bad);
    EXPECT_FALSE(bool(E)) << Bad;
    llvm::consumeError(E.takeError());
  }
  EXPECT_EQ(shellQuote("plain-name_1.cu"), "plain-name_1.cu");
  EXPECT_EQ(shellQuote("it's $(x)"), "'it'\\''s $(x)'");
  EXPECT_EQ(shellQuote(""), "''");
}

TEST(Escape, ControlMessagesNameTheCharacter) {
  EXPECT_NE(controlCharMessage(0x202E).find("U+202E"), std::string::npos);
  EXPECT_NE(controlCharMessage(0x202E).find("Trojan Source"),
            std::string::npos);
  EXPECT_NE(controlCharMessage(0x200B).find("invisible character U+200B"),
            std::string::npos);
}

} // namespace

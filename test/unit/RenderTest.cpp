// renderFile: findings as comment lines at token boundaries, line endings
// kept, `#line` numbering kept; FileEdits: ordered, neighbour-only overlap
// checks with the documented conflict and insertion-order semantics.
#include "pk/Edit.h"
#include "pk/Rules.h"
#include "pk/TargetContext.h"
#include <gtest/gtest.h>
#include <random>

using namespace pk;

static Finding finding(const std::string &Src, const std::string &At,
                       std::string Msg = "look here") {
  Finding F;
  F.RuleID = "PK2010";
  F.File = "/f.cu";
  F.Offset = Src.find(At);
  F.Message = std::move(Msg);
  return F;
}

static Edit edit(unsigned Off, unsigned Len, std::string Rep,
                 std::string Rule = "PK1001") {
  Edit E;
  E.File = "/f.cu";
  E.Offset = Off;
  E.Length = Len;
  E.Replacement = std::move(Rep);
  E.RuleID = std::move(Rule);
  return E;
}

TEST(RenderFile, CommentNeverGoesInsideARawString) {
  std::string Src =
      "const char *s = R\"x(\nline one\n  g();\n)x\"; int v = g();\n";
  // A finding on a line inside the raw string goes above the line where the
  // literal starts.
  std::string Out =
      renderFile("/f.cu", Src, nullptr, {finding(Src, "g();\n)x")});
  EXPECT_EQ(Out, "// port-kernel: warning: look here [PK2010]\n" + Src);
  // So does one on the line where it ends.
  Out = renderFile("/f.cu", Src, nullptr, {finding(Src, "int v")});
  EXPECT_EQ(Out, "// port-kernel: warning: look here [PK2010]\n" + Src);
}

TEST(RenderFile, RawStringWithPrefixAndDelimiter) {
  std::string Src = "auto s = u8R\"pk(a \" )\" b\nc)pk\";\nint x;\n";
  std::string Out = renderFile("/f.cu", Src, nullptr, {finding(Src, "c)pk")});
  EXPECT_EQ(Out, "// port-kernel: warning: look here [PK2010]\n" + Src);
  // The line after the literal is a boundary again.
  Out = renderFile("/f.cu", Src, nullptr, {finding(Src, "int x")});
  EXPECT_EQ(Out, "auto s = u8R\"pk(a \" )\" b\nc)pk\";\n"
                 "// port-kernel: warning: look here [PK2010]\nint x;\n");
}

TEST(RenderFile, CommentNeverGoesInsideABlockCommentOrSplicedString) {
  std::string Src = "int a; /* one\n   two */ int b;\n"
                    "const char *t = \"abc\\\ndef\"; int c;\n";
  std::string Out = renderFile("/f.cu", Src, nullptr, {finding(Src, "int b")});
  EXPECT_EQ(Out, "// port-kernel: warning: look here [PK2010]\n" + Src);
  Out = renderFile("/f.cu", Src, nullptr, {finding(Src, "int c")});
  EXPECT_EQ(Out, "int a; /* one\n   two */ int b;\n"
                 "// port-kernel: warning: look here [PK2010]\n"
                 "const char *t = \"abc\\\ndef\"; int c;\n");
}

TEST(RenderFile, LineCommentContinuedByABackslash) {
  std::string Src = "int a; // note \\\n  still the comment\nint b;\n";
  std::string Out = renderFile("/f.cu", Src, nullptr, {finding(Src, "still")});
  EXPECT_EQ(Out, "// port-kernel: warning: look here [PK2010]\n" + Src);
}

TEST(RenderFile, MessageStaysOnOneLine) {
  std::string Src = "int a;\n";
  std::string Out =
      renderFile("/f.cu", Src, nullptr, {finding(Src, "int", "two\nlines")});
  EXPECT_EQ(Out, "// port-kernel: warning: two lines [PK2010]\nint a;\n");
}

TEST(RenderFile, CRLFFilesGetCRLFComments) {
  std::string Src = "void f() {\r\n    int x = g();\r\n}\r\n";
  std::string Out = renderFile("/f.cu", Src, nullptr, {finding(Src, "g()")});
  EXPECT_EQ(Out,
            "void f() {\r\n    // port-kernel: warning: look here [PK2010]\r\n"
            "    int x = g();\r\n}\r\n");
  // A last line without a line ending takes the style of the one above.
  std::string Src2 = "int a;\r\nint b;";
  Out = renderFile("/f.cu", Src2, nullptr, {finding(Src2, "int b")});
  EXPECT_EQ(Out,
            "int a;\r\n// port-kernel: warning: look here [PK2010]\r\nint b;");
}

TEST(RenderFile, CRLFFilesGetCRLFInsertedBlocks) {
  std::string Src = "#include <a.h>\r\nint x;\r\n";
  FileEdits FE;
  ASSERT_FALSE(bool(
      FE.add(edit(Src.find("int"), 0,
                  "\n#ifndef H\n#define H\nint h();\n#endif\n", "PK2003"))));
  EXPECT_EQ(renderFile("/f.cu", Src, &FE, {}),
            "#include <a.h>\r\n\r\n#ifndef H\r\n#define H\r\nint h();\r\n"
            "#endif\r\nint x;\r\n");
  // LF files are left alone.
  std::string Lf = "#include <a.h>\nint x;\n";
  FileEdits FE2;
  ASSERT_FALSE(bool(FE2.add(edit(Lf.find("int"), 0, "\nint h();\n"))));
  EXPECT_EQ(renderFile("/f.cu", Lf, &FE2, {}),
            "#include <a.h>\n\nint h();\nint x;\n");
}

TEST(RenderFile, LineDirectiveNumbersAreRestated) {
  std::string Src =
      "int a;\n#line 100 \"orig.cu\"\nint b;\nint c = g();\nint d;\n";
  std::string Out = renderFile("/f.cu", Src, nullptr, {finding(Src, "g()")});
  // `int c` is line 101 of orig.cu; it stays 101 after the comment.
  EXPECT_EQ(Out, "int a;\n#line 100 \"orig.cu\"\nint b;\n"
                 "// port-kernel: warning: look here [PK2010]\n#line 101\n"
                 "int c = g();\nint d;\n");
  // Before the first #line nothing is restated.
  Out = renderFile("/f.cu", Src, nullptr, {finding(Src, "int a")});
  EXPECT_EQ(Out, "// port-kernel: warning: look here [PK2010]\n" + Src);
  // GNU line markers count too.
  std::string Gnu = "# 7 \"k.cu\"\nint b = g();\n";
  Out = renderFile("/f.cu", Gnu, nullptr, {finding(Gnu, "g()")});
  EXPECT_EQ(Out, "# 7 \"k.cu\"\n// port-kernel: warning: look here [PK2010]\n"
                 "#line 7\nint b = g();\n");
}

TEST(RenderFile, LineDirectiveAfterMultiLineEdits) {
  std::string Src = "#line 10\n#include <a.h>\nint x;\nint y;\n";
  FileEdits FE;
  // A helper block after the include, and a removed line.
  ASSERT_FALSE(
      bool(FE.add(edit(Src.find("int x"), 0, "int h();\nint k();\n"))));
  ASSERT_FALSE(bool(FE.add(edit(Src.find("int y"), 7, ""))));
  EXPECT_EQ(renderFile("/f.cu", Src, &FE, {}),
            "#line 10\n#include <a.h>\nint h();\nint k();\n#line 11\n"
            "int x;\n");
  // An edit that keeps the number of lines needs nothing.
  FileEdits FE2;
  ASSERT_FALSE(bool(FE2.add(edit(Src.find("x;"), 1, "xx"))));
  EXPECT_EQ(renderFile("/f.cu", Src, &FE2, {}),
            "#line 10\n#include <a.h>\nint xx;\nint y;\n");
  // CRLF file: the restated directive ends in CRLF too.
  std::string Crlf = "#line 5\r\nint a = g();\r\n";
  EXPECT_EQ(renderFile("/f.cu", Crlf, nullptr, {finding(Crlf, "g()")}),
            "#line 5\r\n// port-kernel: warning: look here [PK2010]\r\n"
            "#line 5\r\nint a = g();\r\n");
}

TEST(RenderFile, LineDirectiveRestatedAfterAMultiLineMacro) {
  std::string Src = "#line 20\n#define M(x) \\\n  foo(x)\nint y;\n";
  std::string Out = renderFile("/f.cu", Src, nullptr, {finding(Src, "foo")});
  EXPECT_EQ(Out, "#line 20\n// port-kernel: warning: look here [PK2010]\n"
                 "#line 20\n#define M(x) \\\n  foo(x)\nint y;\n");
}

TEST(FileEdits, ConflictsAreFoundAmongNeighbours) {
  FileEdits FE;
  ASSERT_FALSE(bool(FE.add(edit(10, 5, "a", "PK1001"))));
  ASSERT_FALSE(bool(FE.add(edit(15, 0, "i", "PK1002")))); // at the end: fine
  ASSERT_FALSE(bool(FE.add(edit(10, 0, "j", "PK1003")))); // at the start: fine
  ASSERT_FALSE(bool(FE.add(edit(20, 3, "b", "PK1004"))));
  // An insertion inside the first replacement.
  llvm::Error E1 = FE.add(edit(12, 0, "x", "PK2001"));
  ASSERT_TRUE(bool(E1));
  EXPECT_NE(llvm::toString(std::move(E1)).find("[PK1001]"), std::string::npos);
  // A replacement that starts before and ends inside the second one.
  llvm::Error E2 = FE.add(edit(16, 5, "y", "PK2002"));
  ASSERT_TRUE(bool(E2));
  EXPECT_NE(llvm::toString(std::move(E2)).find("[PK1004]"), std::string::npos);
  // A replacement that swallows an insertion.
  llvm::Error E3 = FE.add(edit(14, 2, "z", "PK2003"));
  ASSERT_TRUE(bool(E3));
  // A replacement that covers several edits reports the first in order.
  llvm::Error E4 = FE.add(edit(0, 30, "w", "PK2004"));
  ASSERT_TRUE(bool(E4));
  EXPECT_NE(llvm::toString(std::move(E4)).find("[PK1003]"), std::string::npos);
  EXPECT_EQ(FE.size(), 4u);
  EXPECT_EQ(FE.at(10).size(), 2u);
  EXPECT_EQ(FE.startingIn(11, 21).size(), 2u);
}

TEST(FileEdits, InsertionsKeepTheirOrderAroundAReplacement) {
  FileEdits FE;
  ASSERT_FALSE(bool(FE.add(edit(2, 2, "R", "PK1001"))));
  ASSERT_FALSE(bool(FE.add(edit(2, 0, "<1>", "PK2001"))));
  ASSERT_FALSE(bool(FE.add(edit(4, 0, "<e>", "PK2003"))));
  ASSERT_FALSE(bool(FE.add(edit(2, 0, "<2>", "PK2002"))));
  ASSERT_FALSE(bool(FE.add(edit(2, 0, "<1>", "PK2001")))); // merged
  EXPECT_EQ(FE.apply("abcdef"), "ab<1><2>R<e>ef");
}

// The ordered structure gives the same result as applying the edits sorted
// by hand, whatever order they arrive in.
TEST(FileEdits, ManyEditsInAnyOrder) {
  std::string Src(20000, '.');
  std::vector<Edit> Es;
  for (unsigned I = 0; I < Src.size(); I += 4)
    Es.push_back(edit(I, I % 8 ? 0 : 2, std::to_string(I)));
  std::mt19937 Rng(7);
  std::shuffle(Es.begin(), Es.end(), Rng);
  FileEdits FE;
  for (const Edit &E : Es)
    ASSERT_FALSE(bool(FE.add(E)));
  std::string Want;
  for (unsigned I = 0; I < Src.size(); I += 4)
    Want += std::to_string(I) + (I % 8 ? "...." : "..");
  EXPECT_EQ(FE.apply(Src), Want);
}

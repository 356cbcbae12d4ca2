//===- GateReportTest.cpp - the check report's JSON, streamed -------------===//
//
// `check --format json` and `merge-reports` write the report as they make it
// (writeReportJson) instead of building a value tree of it. The text must be
// what printing its value tree gives (the form reports always had: indent 2,
// keys sorted), and read back as the same report, with every optional field
// and with names that are not UTF-8.
//
//===----------------------------------------------------------------------===//
#include "pk/Gate.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace pk;

namespace {

/// The text printed from the value tree that \p Text parses to.
std::string canonical(llvm::StringRef Text) {
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Text);
  if (!V)
    return "not JSON: " + llvm::toString(V.takeError());
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << llvm::formatv("{0:2}", *V);
  return S;
}

std::string streamed(const GateReport &R) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  writeReportJson(R, OS);
  return S;
}

GateFinding finding(std::string File, unsigned Line) {
  GateFinding F;
  F.Target = "hip";
  F.Rule = "PK2001";
  F.Level = "warning";
  F.File = std::move(File);
  F.Line = Line;
  F.Col = 7;
  F.Message = "a \"quoted\" message\twith a tab";
  F.Fingerprint = "0123456789abcdef";
  return F;
}

/// Writes \p R, checks that the text is canonical and reads back as \p R.
void roundTrip(const GateReport &R) {
  std::string T = streamed(R);
  EXPECT_EQ(T, canonical(T));
  llvm::Expected<GateReport> Back = parseReport(T, "r.json");
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(Back->SrcRoot, R.SrcRoot);
  EXPECT_EQ(Back->MergedFrom, R.MergedFrom);
  ASSERT_EQ(Back->Findings.size(), R.Findings.size());
  for (size_t I = 0; I < R.Findings.size(); ++I) {
    const GateFinding &A = R.Findings[I], &B = Back->Findings[I];
    EXPECT_EQ(B.File, A.File) << I; // bytes kept through "file_uri"
    EXPECT_EQ(B.Line, A.Line) << I;
    EXPECT_EQ(B.Col, A.Col) << I;
    EXPECT_EQ(B.Rule, A.Rule) << I;
    EXPECT_EQ(B.Level, A.Level) << I;
    EXPECT_EQ(B.Relative, A.Relative) << I;
    EXPECT_EQ(B.BaselineState, A.BaselineState) << I;
    EXPECT_EQ(B.Suppressed, A.Suppressed) << I;
    EXPECT_EQ(B.Promoted, A.Promoted) << I;
    EXPECT_EQ(B.Fingerprint, A.Fingerprint) << I;
  }
}

TEST(GateReport, JsonIsCanonicalAndReadsBack) {
  GateReport R;
  R.SrcRoot = "/src/root";
  roundTrip(R); // no findings
  R.Findings.push_back(finding("a.cu", 3));
  GateFinding B = finding("/abs/b.cu", 4000000000u);
  B.Relative = false;
  B.BaselineState = "new";
  B.Suppressed = "NOPK";
  B.Promoted = true;
  R.Findings.push_back(B);
  // Not UTF-8: "file" shows the bytes, "file_uri" keeps them.
  R.Findings.push_back(finding("odd\xff\xfe.cu", 1));
  R.Findings.push_back(finding("m.cu", 2));
  roundTrip(R);
  R.MergedFrom = 64;
  roundTrip(R);
  R.SrcRoot = "/root\xff"; // kept through "srcRootUri"
  roundTrip(R);
  // A message that is not UTF-8 is mended, not written as invalid JSON.
  R.Findings.back().Message = "invalid \xc3 UTF-8 and a control \x01";
  std::string T = streamed(R);
  EXPECT_EQ(T, canonical(T));
  EXPECT_NE(T.find("\"file_uri\""), std::string::npos);
  EXPECT_NE(T.find("\"mergedFrom\": 64"), std::string::npos);
}

} // namespace

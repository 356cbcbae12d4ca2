//===- GateReportTest.cpp - the check report's JSON, streamed -------------===//
//
// `check --format json` and `merge-reports` write the report as they make it
// (writeReportJson) instead of building a value tree of it: the text must be
// what printing the tree (reportToJson) gives, byte for byte, with every
// optional field and with names that are not UTF-8.
//
//===----------------------------------------------------------------------===//
#include "pk/Gate.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace pk;

namespace {

std::string tree(const GateReport &R) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << llvm::formatv("{0:2}", reportToJson(R));
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

TEST(GateReport, StreamedJsonIsTheTreesText) {
  GateReport R;
  R.SrcRoot = "/src/root";
  EXPECT_EQ(streamed(R), tree(R)); // no findings
  R.Findings.push_back(finding("a.cu", 3));
  GateFinding B = finding("/abs/b.cu", 4000000000u);
  B.Relative = false;
  B.BaselineState = "new";
  B.Suppressed = "NOPK";
  B.Promoted = true;
  R.Findings.push_back(B);
  // Not UTF-8: "file" shows the bytes, "file_uri" keeps them.
  R.Findings.push_back(finding("odd\xff\xfe.cu", 1));
  GateFinding M = finding("m.cu", 2);
  M.Message = "invalid \xc3 UTF-8 and a control \x01";
  R.Findings.push_back(M);
  EXPECT_EQ(streamed(R), tree(R));
  R.MergedFrom = 64;
  R.SrcRoot = "/root\xff/";
  EXPECT_EQ(streamed(R), tree(R));
  EXPECT_NE(streamed(R).find("\"srcRootUri\""), std::string::npos);
  EXPECT_NE(streamed(R).find("\"file_uri\""), std::string::npos);
}

} // namespace

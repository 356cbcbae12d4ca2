//===- FuzzReports.cpp - fuzz target: the JSON/SARIF report readers --------===//
//
// Each input is a report, a baseline or a merge input as a hostile pull
// request could commit it.  The bounded reader must answer with a report
// or an error (no crash, no stack exhaustion, memory proportional to the
// input); and a report it accepts must survive being written and read
// again: as JSON and as SARIF, the findings (files byte for byte, non-UTF-8
// names included) read back the same, and writing is idempotent.
//
//===----------------------------------------------------------------------===//
#include "pk/Gate.h"

#include "llvm/Support/FormatVariadic.h"
#include <cstdint>
#include <cstdio>

using namespace pk;

static std::string text(const llvm::json::Value &V) {
  return llvm::formatv("{0:2}", V).str();
}

static std::string json(const GateReport &R) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  writeReportJson(R, OS);
  return S;
}

static llvm::StringRef Input;

static void fail(const char *Why) {
  std::fprintf(stderr, "report round trip: %s\ninput: %s\n", Why,
               Input.str().c_str());
  __builtin_trap();
}

static bool sameFindings(const GateReport &A, const GateReport &B) {
  if (A.Findings.size() != B.Findings.size())
    return false;
  for (size_t I = 0; I < A.Findings.size(); ++I) {
    const GateFinding &X = A.Findings[I], &Y = B.Findings[I];
    if (X.File != Y.File || X.Rule != Y.Rule || X.Target != Y.Target ||
        X.Fingerprint != Y.Fingerprint || X.Line != Y.Line ||
        X.Col != Y.Col || X.Relative != Y.Relative)
      return false;
  }
  return true;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef In(reinterpret_cast<const char *>(Data), Size);
  Input = In;
  auto R = parseReport(In, "fuzz.json");
  if (!R) {
    llvm::consumeError(R.takeError());
    return 0;
  }
  // JSON: written, read, written again.
  std::string J1 = json(*R);
  auto R2 = parseReport(J1, "j1.json");
  if (!R2) {
    llvm::consumeError(R2.takeError());
    fail("a report written as JSON does not read back");
  }
  if (!sameFindings(*R, *R2))
    fail("JSON changes the findings");
  if (json(*R2) != J1)
    fail("writing JSON is not idempotent");
  // SARIF: files survive percent-encoding.
  std::string S1 = text(reportToSarif(*R, "fuzz"));
  auto R3 = parseReport(S1, "s1.sarif");
  if (!R3) {
    llvm::consumeError(R3.takeError());
    fail("a report written as SARIF does not read back");
  }
  for (size_t I = 0; I < R->Findings.size() && I < R3->Findings.size(); ++I)
    if (R->Findings[I].File != R3->Findings[I].File)
      fail("SARIF changes a file name");
  return 0;
}

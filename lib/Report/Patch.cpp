//===- Patch.cpp - one `git apply`-able patch per target ------------------===//
// Rules: none (reports on what the rules did)
//
// Git's extended diff format: `diff --git a/IN b/OUT`, a rename header when
// the output has another name (foo.cu -> foo.hip), then the unified hunks.
// Paths are relative to the layout root, so `git apply` run there (or
// `git apply --directory=...` elsewhere) turns the inputs into the outputs.
//
//===----------------------------------------------------------------------===//
#include "ReportModel.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;

/// A path as git writes it: C-quoted when it has a byte git quotes.
static std::string gitPath(llvm::StringRef Prefix, llvm::StringRef P) {
  std::string S = (Prefix + P).str();
  bool Quote = llvm::any_of(S, [](char C) {
    return C == '"' || C == '\\' || (unsigned char)C < 0x20 ||
           (unsigned char)C >= 0x7f;
  });
  if (!Quote)
    return S;
  std::string Q = "\"";
  for (char C : S) {
    unsigned char U = C;
    if (C == '"' || C == '\\')
      Q += std::string("\\") + C;
    else if (C == '\n')
      Q += "\\n";
    else if (C == '\t')
      Q += "\\t";
    else if (U < 0x20 || U >= 0x7f)
      Q += {'\\', char('0' + (U >> 6)), char('0' + ((U >> 3) & 7)),
            char('0' + (U & 7))};
    else
      Q += C;
  }
  return Q + "\"";
}

std::string pk::renderPatch(const TargetReport &T) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  for (const FileReport &F : T.Files) {
    bool Renamed = F.RelIn != F.RelOut;
    if (!Renamed && F.Old == F.New)
      continue;
    OS << "diff --git " << gitPath("a/", F.RelIn) << " "
       << gitPath("b/", F.RelOut) << "\n";
    if (Renamed) {
      // Git's similarity: the share of the old lines kept.
      unsigned Kept = F.OldLines.size();
      for (const HunkReport &H : F.Hunks)
        for (const DiffLine &L : H.H.Lines)
          Kept -= L.K == DiffLine::Delete;
      unsigned Total =
          std::max<size_t>(1, std::max(F.OldLines.size(), F.NewLines.size()));
      OS << llvm::formatv("similarity index {0}%\n",
                          F.Old == F.New ? 100 : Kept * 100 / Total)
         << "rename from " << gitPath("", F.RelIn) << "\n"
         << "rename to " << gitPath("", F.RelOut) << "\n";
    }
    if (F.Old == F.New)
      continue;
    OS << "--- " << gitPath("a/", F.RelIn) << "\n"
       << "+++ " << gitPath("b/", F.RelOut) << "\n";
    std::vector<DiffHunk> Hunks;
    for (const HunkReport &H : F.Hunks)
      Hunks.push_back(H.H);
    writeUnifiedHunks(OS, F.OldLines, F.NewLines, Hunks);
  }
  return S;
}

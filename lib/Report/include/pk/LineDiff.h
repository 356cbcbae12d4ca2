//===- LineDiff.h - line diffs and unified hunks -----------------*- C++
//-*-===//
// Rules: none (diffing for reports and patches)
//
// LLVM has no general line diff (llvm::ComputeEditDistance gives a distance,
// not an alignment), so this is Myers' O(ND) algorithm ("An O(ND) Difference
// Algorithm and Its Variations", 1986) over lines, after stripping the common
// prefix and suffix.  See docs/report.md.
//
//===----------------------------------------------------------------------===//
#ifndef PK_LINEDIFF_H
#define PK_LINEDIFF_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace pk {

/// The lines of \p Text, each with its line terminator ("\n"; a "\r\n"
/// keeps its "\r"); the last one has none when the text does not end in a
/// newline.
std::vector<llvm::StringRef> splitLines(llvm::StringRef Text);

/// One line of a diff: kept (in both), deleted (old only) or inserted (new
/// only), with its 0-based index on each side it is on.
struct DiffLine {
  enum Kind : char { Equal = ' ', Delete = '-', Insert = '+' };
  Kind K;
  unsigned Old = 0, New = 0;
};

/// A shortest edit script turning \p A into \p B.  Within each run of
/// changes the deletions come before the insertions.
std::vector<DiffLine> diffLines(llvm::ArrayRef<llvm::StringRef> A,
                                llvm::ArrayRef<llvm::StringRef> B);

/// A hunk of a unified diff: the changes with up to \p Context lines around
/// them; hunks closer than twice the context are merged.
struct DiffHunk {
  unsigned OldStart = 0, OldLen = 0; ///< 0-based first old line, count
  unsigned NewStart = 0, NewLen = 0;
  std::vector<DiffLine> Lines;
};
std::vector<DiffHunk> makeHunks(const std::vector<DiffLine> &Script,
                                unsigned Context);

/// Writes the hunks in unified format ("@@ -a,b +c,d @@" and the lines,
/// with "\ No newline at end of file" where a last line has no newline).
void writeUnifiedHunks(llvm::raw_ostream &OS, llvm::ArrayRef<llvm::StringRef> A,
                       llvm::ArrayRef<llvm::StringRef> B,
                       llvm::ArrayRef<DiffHunk> Hunks);

} // namespace pk
#endif

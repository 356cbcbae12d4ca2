//===- Wave64LaneMasks.cpp - warp-width constants and lane masks ----------===//
// Rules: PK2021, PK2022
//
// The one-token edits of the native strategy the analysis recorded: warp
// width constants (PK2021: 31 -> 63, 16 -> 32, WARP_SIZE's body, ...) and
// lane masks (PK2022: __popcll/__ffsll/__clzll, 1ull << lane, the full
// 64-lane mask), and the 32-bit types of variables, parameters and results
// that hold a lane mask (PK2022: unsigned long long).
//
//===----------------------------------------------------------------------===//
#include "Wave64Rewrite.h"

#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace pk::hip;
using namespace clang;

void Wave64Rewriter::token(const W64Site &S, bool Logical) {
  const std::string &Text = Logical ? S.Logical : S.Native;
  if (Text.empty())
    return;
  std::string F = TC.fileOf(S.Loc);
  if (!TC.isUserFile(F))
    return;
  TC.edit(F, SM().getFileOffset(S.Loc), S.Len, Text, S.Rule, S.Why);
}

void Wave64Rewriter::maskType(const W64Site &S) {
  std::string F = TC.fileOf(S.Loc);
  if (!TC.isUserFile(F))
    return;
  TC.edit(F, SM().getFileOffset(S.Loc), S.Len, "unsigned long long",
          RuleId::PK2022,
          llvm::formatv("'{0}' holds a lane mask of a 64-lane wave: 64 bits",
                        S.Name)
              .str());
}

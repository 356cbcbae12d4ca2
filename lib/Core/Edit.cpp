#include "pk/Edit.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>

using namespace pk;

llvm::Error FileEdits::add(Edit E) {
  unsigned B = E.Offset, End = E.Offset + E.Length;
  for (const Edit &O : Edits) {
    if (O == E)
      return llvm::Error::success(); // same edit reached twice (e.g. via two TUs)
    unsigned OB = O.Offset, OE = O.Offset + O.Length;
    bool Overlap;
    if (E.Length == 0 && O.Length == 0)
      Overlap = false; // two insertions at one point: both kept, in order
    else if (E.Length == 0)
      Overlap = B > OB && B < OE;
    else if (O.Length == 0)
      Overlap = OB > B && OB < End;
    else
      Overlap = B < OE && OB < End;
    if (Overlap)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          llvm::formatv("{0}:{1}:{2}: error: conflicting edits [PK9002]: [{3}] replaces {4} "
                        "bytes with '{5}' but [{6}] already replaces {7} bytes "
                        "at {8}:{9} with '{10}'",
                        E.File, E.Line, E.Col, E.RuleID, E.Length,
                        E.Replacement, O.RuleID, O.Length, O.Line, O.Col,
                        O.Replacement)
              .str());
  }
  auto It = std::upper_bound(Edits.begin(), Edits.end(), E,
                             [](const Edit &A, const Edit &B) {
                               if (A.Offset != B.Offset)
                                 return A.Offset < B.Offset;
                               // insertions before a replacement at the same offset
                               return A.Length == 0 && B.Length != 0;
                             });
  Edits.insert(It, std::move(E));
  return llvm::Error::success();
}

std::string FileEdits::apply(llvm::StringRef Original) const {
  std::string Out;
  Out.reserve(Original.size() + 64);
  unsigned Pos = 0;
  for (const Edit &E : Edits) {
    if (E.Offset < Pos || E.Offset + E.Length > Original.size())
      continue; // cannot happen: add() rejects overlaps
    Out.append(Original.data() + Pos, E.Offset - Pos);
    Out += E.Replacement;
    Pos = E.Offset + E.Length;
  }
  Out.append(Original.data() + Pos, Original.size() - Pos);
  return Out;
}

llvm::Error EditSet::merge(const EditSet &Other) {
  for (const auto &[File, FE] : Other.Files)
    for (const Edit &E : FE.edits())
      if (llvm::Error Err = add(E))
        return Err;
  return llvm::Error::success();
}

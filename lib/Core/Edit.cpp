//===- Edit.cpp - provenance-carrying source edits ------------------------===//
// Rules: PK9002
//
// The edits of a file are kept ordered by offset and never overlap, so a new
// edit can only conflict with its neighbours: the last replacement that
// starts before it and the edits that start inside it.  Adding n edits costs
// O(n log n), whatever order the passes produce them in.  A deletion absorbs
// the edits nested inside the text it removes (nested rewrites compose).
//
//===----------------------------------------------------------------------===//
#include "pk/Edit.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>

using namespace pk;

static bool overlaps(const Edit &E, const Edit &O) {
  unsigned B = E.Offset, End = E.Offset + E.Length;
  unsigned OB = O.Offset, OE = O.Offset + O.Length;
  if (E.Length == 0 && O.Length == 0)
    return false; // two insertions at one point: both kept, in order
  if (E.Length == 0)
    return B > OB && B < OE;
  if (O.Length == 0)
    return OB > B && OB < End;
  return B < OE && OB < End;
}

static bool isDeletion(const Edit &E) {
  return E.Length != 0 && E.Replacement.empty();
}

static llvm::Error conflict(const Edit &E, const Edit &O) {
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      llvm::formatv("{0}:{1}:{2}: error: conflicting edits [PK9002]: [{3}] "
                    "replaces {4} bytes with '{5}' but [{6}] already replaces "
                    "{7} bytes at {8}:{9} with '{10}'",
                    E.File, E.Line, E.Col, E.RuleID, E.Length, E.Replacement,
                    O.RuleID, O.Length, O.Line, O.Col, O.Replacement)
          .str());
}

FileEdits::Range FileEdits::startingIn(unsigned Lo, unsigned Hi) const {
  if (Hi <= Lo)
    return Range(Edits.end(), Edits.end());
  return Range(Edits.lower_bound({Lo, false}), Edits.lower_bound({Hi, false}));
}

llvm::Error FileEdits::add(Edit E) {
  unsigned B = E.Offset, End = E.Offset + E.Length;
  // The same edit reached twice (e.g. via two TUs) merges.  Edits held never
  // overlap each other, so an identical one means there is no conflict.
  for (const Edit &O : at(B))
    if (O == E)
      return llvm::Error::success();
  // Nested rewrites compose through deletions: an edit that removes text
  // (`__ballot_sync(__activemask(), p)` loses its mask argument) takes the
  // edits strictly inside that text with it, whichever came first.  Only
  // edits that lie wholly inside the deleted bytes compose; a partial
  // overlap is still a conflict.
  auto Within = [](const Edit &In, const Edit &Del) {
    unsigned DB = Del.Offset, DE = Del.Offset + Del.Length;
    if (In.Length == 0)
      return In.Offset > DB && In.Offset < DE;
    return In.Offset >= DB && In.Offset + In.Length <= DE;
  };
  // Conflicts, reported against the first overlapping edit in offset order:
  // the replacement that starts before B and reaches past it, then the edits
  // that start inside [B, End).
  auto S = Spans.lower_bound(B);
  if (S != Spans.begin() && std::prev(S)->second > B) {
    const Edit &O = Edits.lower_bound({std::prev(S)->first, true})->second;
    if (overlaps(E, O)) {
      if (isDeletion(O) && Within(E, O))
        return llvm::Error::success(); // removed with the text it edits
      return conflict(E, O);
    }
  }
  if (E.Length != 0) {
    std::vector<Map::const_iterator> Inner;
    for (auto I = Edits.lower_bound({B, false}),
              IE = Edits.lower_bound({End, false});
         I != IE; ++I) {
      const Edit &O = I->second;
      if (!overlaps(E, O))
        continue;
      if (isDeletion(O) && Within(E, O))
        return llvm::Error::success(); // the same bytes are removed already
      if (!isDeletion(E) || !Within(O, E))
        return conflict(E, O);
      Inner.push_back(I);
    }
    for (auto I : Inner) {
      if (I->second.Length != 0)
        Spans.erase(I->second.Offset);
      Edits.erase(I);
    }
  }
  if (E.Length != 0)
    Spans.emplace(B, End);
  Key K{B, E.Length != 0};
  Edits.emplace(K, std::move(E)); // after the equal keys: insertion order
  return llvm::Error::success();
}

std::string FileEdits::apply(llvm::StringRef Original) const {
  size_t Extra = 0;
  for (const Edit &E : edits())
    Extra += E.Replacement.size();
  std::string Out;
  Out.reserve(Original.size() + Extra);
  unsigned Pos = 0;
  for (const Edit &E : edits()) {
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

llvm::Error EditSet::merge(EditSet &&Other) {
  for (auto &[File, FE] : Other.Files) {
    // A file this set has no edits of takes the other's as they are: no
    // copy of each edit (a large file has hundreds of thousands).
    auto [It, New] = Files.try_emplace(File);
    if (New) {
      It->second = std::move(FE);
      continue;
    }
    for (const Edit &E : FE.edits())
      if (llvm::Error Err = It->second.add(E))
        return Err;
  }
  Other.Files.clear();
  return llvm::Error::success();
}

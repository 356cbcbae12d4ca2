//===- Edit.h - provenance-carrying source edits --------------------------===//
// Rules: PK9002
#ifndef PK_EDIT_H
#define PK_EDIT_H

#include "pk/Interned.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstddef>
#include <iterator>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace pk {

/// One replacement in one file.  Every edit names the rule that made it and
/// why, so diagnostics and reports never have to re-derive the reason.
struct Edit {
  IStr File;           ///< absolute path of the file edited
  unsigned Offset = 0; ///< byte offset in the original text
  unsigned Length = 0; ///< bytes replaced (0 = insertion)
  std::string Replacement;
  IStr RuleID;                ///< e.g. PK1001 (pk::ruleName)
  IStr Why;                   ///< one-line explanation
  unsigned Line = 0, Col = 0; ///< 1-based position of Offset (for reports)

  bool operator==(const Edit &O) const {
    return File == O.File && Offset == O.Offset && Length == O.Length &&
           Replacement == O.Replacement && RuleID == O.RuleID;
  }
};

/// A line of an output generated whole rather than edited (the NKI
/// target's Python) and what produced it, as an edit carries its rule and
/// reason: the report shows which input lines became which output lines.
struct GeneratedLine {
  unsigned OutLine = 0;           ///< 1-based, in the output
  std::string Kernel;             ///< the function it belongs to
  std::string What;               ///< the operation, e.g. nisa.tensor_reduce
  unsigned Line = 0, EndLine = 0; ///< the input lines it computes (1-based)
  IStr RuleID;
  std::string Why;
};

/// The edits of one file.  Overlapping edits that are not identical are a
/// conflict and an error -- never a silent overwrite.  Insertions at the same
/// offset are kept in the order they were added, before a replacement that
/// starts there.
///
/// The edits are kept in an ordered map, so adding one costs O(log n) plus
/// the edits already at its offset: only neighbours can overlap, because the
/// edits held never overlap each other.
class FileEdits {
  /// (offset, replaces): insertions at an offset sort before the
  /// replacement that starts there; a multimap keeps equal keys in the order
  /// they were added.
  using Key = std::pair<unsigned, bool>;
  using Map = std::multimap<Key, Edit>;

public:
  /// A view of edits in offset order (iterates `const Edit &`).
  class Range {
  public:
    class iterator {
    public:
      using iterator_category = std::bidirectional_iterator_tag;
      using value_type = Edit;
      using difference_type = std::ptrdiff_t;
      using pointer = const Edit *;
      using reference = const Edit &;
      iterator() = default;
      explicit iterator(Map::const_iterator I) : I(I) {}
      reference operator*() const { return I->second; }
      pointer operator->() const { return &I->second; }
      iterator &operator++() {
        ++I;
        return *this;
      }
      iterator operator++(int) {
        iterator T = *this;
        ++I;
        return T;
      }
      iterator &operator--() {
        --I;
        return *this;
      }
      iterator operator--(int) {
        iterator T = *this;
        --I;
        return T;
      }
      bool operator==(const iterator &O) const { return I == O.I; }
      bool operator!=(const iterator &O) const { return I != O.I; }

    private:
      Map::const_iterator I;
    };
    Range(Map::const_iterator B, Map::const_iterator E) : B(B), E(E) {}
    iterator begin() const { return iterator(B); }
    iterator end() const { return iterator(E); }
    bool empty() const { return B == E; }
    size_t size() const { return std::distance(B, E); }

  private:
    Map::const_iterator B, E;
  };

  /// Adds \p E; returns an error naming both rules on conflict.  An edit
  /// identical to one already held (e.g. reached through two translation
  /// units) is merged.
  llvm::Error add(Edit E);
  /// Applies the edits to \p Original.
  std::string apply(llvm::StringRef Original) const;
  /// Every edit, in offset order.
  Range edits() const { return Range(Edits.begin(), Edits.end()); }
  /// The edits that start at an offset in [Lo, Hi), in offset order.
  Range startingIn(unsigned Lo, unsigned Hi) const;
  /// The edits that start at \p Offset.
  Range at(unsigned Offset) const { return startingIn(Offset, Offset + 1); }
  /// Whether a replacement held spans \p Offset (starts at or before it and
  /// ends after it).
  bool covers(unsigned Offset) const {
    auto S = Spans.upper_bound(Offset);
    return S != Spans.begin() && std::prev(S)->second > Offset;
  }
  bool empty() const { return Edits.empty(); }
  size_t size() const { return Edits.size(); }

private:
  Map Edits;
  /// The replacements (Length > 0) by start offset: their end offsets.  They
  /// never overlap, so the one that could cover an offset is the last one
  /// that starts before it.
  std::map<unsigned, unsigned> Spans;
};

/// Edits across files.
class EditSet {
public:
  llvm::Error add(Edit E) { return Files[E.File.str()].add(std::move(E)); }
  /// Merges another set (e.g. from another translation unit that saw the
  /// same header); identical edits merge, differing overlapping ones conflict.
  llvm::Error merge(const EditSet &Other);
  /// As merge(const EditSet &), taking \p Other's edits where this set has
  /// none of that file; \p Other is left empty.
  llvm::Error merge(EditSet &&Other);
  const std::map<std::string, FileEdits> &files() const { return Files; }
  FileEdits *find(llvm::StringRef File) {
    auto It = Files.find(File.str());
    return It == Files.end() ? nullptr : &It->second;
  }
  const FileEdits *find(llvm::StringRef File) const {
    auto It = Files.find(File.str());
    return It == Files.end() ? nullptr : &It->second;
  }

private:
  std::map<std::string, FileEdits> Files;
};

} // namespace pk
#endif

//===- ParentIndex.h - parents of the user's statements and declarations -===//
// Rules: none (shared infrastructure)
//
// The parents of AST nodes, as clang's ParentMapContext gives them
// (ASTContext::getParents), for the statements and declarations of the
// user's top-level declarations.
//
// clang's parent map records every node it traverses: besides statements and
// declarations, every TypeLoc and NestedNameSpecifierLoc, keyed by a 40-byte
// node. For a large input it is about half of the heap at the peak (21 bytes
// per input byte; docs/reliability.md, "Bounded resources"). This index records the
// same parents for statements and declarations, and for a TypeLoc, a
// NestedNameSpecifierLoc or an attribute only where a statement or a
// declaration lies below it (an array bound, a default argument, a
// parameter of a function's type): a walk upwards from a statement or a
// declaration meets exactly the nodes it meets in clang's map, in the same
// order (unit test ParentIndex.*, which compares the two on every node).
//
// Built once per parsed file, on first use, over the user's top-level
// declarations (the traversal scope parseFile sets), and shared by every
// target's passes.
//
//===----------------------------------------------------------------------===//
#ifndef PK_PARENTINDEX_H
#define PK_PARENTINDEX_H

#include "clang/AST/ASTTypeTraits.h"
#include "clang/AST/ParentMapContext.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/PointerUnion.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Allocator.h"
#include <utility>
#include <vector>

namespace clang {
class ASTContext;
class Decl;
class Stmt;
} // namespace clang

namespace pk {

class ParentIndex {
public:
  /// Indexes the parents of the nodes under \p Roots, traversed as clang's
  /// parent map traverses a traversal scope of \p Roots: from the
  /// translation unit (their parent), template instantiations and implicit
  /// code included.
  ParentIndex(clang::ASTContext &Ctx, llvm::ArrayRef<clang::Decl *> Roots);
  ~ParentIndex();
  ParentIndex(const ParentIndex &) = delete;
  ParentIndex &operator=(const ParentIndex &) = delete;

  /// The parents of \p N (empty for a root, a node outside the roots, or a
  /// TypeLoc with no statement or declaration below it).
  clang::DynTypedNodeList parents(const clang::DynTypedNode &N) const;
  template <typename T> clang::DynTypedNodeList parents(const T &Node) const {
    return parents(clang::DynTypedNode::create(Node));
  }

private:
  class Builder;
  using ParentVector = llvm::SmallVector<clang::DynTypedNode, 2>;
  /// As clang stores a parent: a declaration or statement directly, any
  /// other node allocated, several parents as a vector.
  using Entry = llvm::PointerUnion<const clang::Decl *, const clang::Stmt *,
                                   clang::DynTypedNode *, ParentVector *>;

  static clang::DynTypedNodeList listOf(const Entry &E);

  /// Declarations, statements and attributes, by pointer: sorted, one entry
  /// per node. A sorted array of 16-byte pairs, sized by a first traversal
  /// that counts them, is the smallest form (a hash map of the same pairs
  /// is 1.3 to 2.7 times larger, and twice that while it grows).
  std::vector<std::pair<const void *, Entry>> Pointers;
  /// TypeLocs and NestedNameSpecifierLocs above a recorded node (few).
  llvm::DenseMap<clang::DynTypedNode, Entry> Others;
  llvm::SpecificBumpPtrAllocator<clang::DynTypedNode> Nodes;
  std::vector<std::unique_ptr<ParentVector>> Vectors;
};

} // namespace pk
#endif

//===- ParentIndex.cpp - parents of the user's statements and declarations ===//
// Rules: none (shared infrastructure)
//
// The traversal is clang's parent map's (clang/lib/AST/ParentMapContext.cpp
// in LLVM 19): a RecursiveASTVisitor over the roots that visits template
// instantiations and implicit code, with a stack of the nodes it is inside;
// a node's parent is the top of the stack when it is reached, and a node
// reached more than once has every parent, in the order reached (once each
// when it has an identity). What differs is what is kept: a TypeLoc,
// NestedNameSpecifierLoc or attribute is pushed as clang pushes it but its
// own parent is recorded only when a declaration or statement is reached
// below it.
//
//===----------------------------------------------------------------------===//
#include "pk/ParentIndex.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace pk {

class ParentIndex::Builder : public RecursiveASTVisitor<Builder> {
public:
  /// Counting: the keys of the declarations, statements and attributes a
  /// traversal gives a parent to, once per time reached.
  explicit Builder(std::vector<const void *> &Keys) : Keys(&Keys) {}
  /// Recording into \p Idx; \p Multi: the keys reached more than once.
  Builder(ParentIndex &Idx, const llvm::DenseSet<const void *> &Multi)
      : Idx(&Idx), Multi(&Multi) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

  bool TraverseDecl(Decl *D) {
    if (!D)
      return true;
    reached(D, DynTypedNode::create(*D));
    bool R = RecursiveASTVisitor::TraverseDecl(D);
    Stack.pop_back();
    return R;
  }
  // Statements keep the visitor's data recursion: these are its hooks.
  bool dataTraverseStmtPre(Stmt *S) {
    reached(S, DynTypedNode::create(*S));
    return true;
  }
  bool dataTraverseStmtPost(Stmt *) {
    Stack.pop_back();
    return true;
  }
  bool TraverseTypeLoc(TypeLoc TL) {
    if (!TL)
      return true;
    Stack.push_back({DynTypedNode::create(TL), nullptr, Stack.empty()});
    bool R = RecursiveASTVisitor::TraverseTypeLoc(TL);
    Stack.pop_back();
    return R;
  }
  bool TraverseNestedNameSpecifierLoc(NestedNameSpecifierLoc Q) {
    if (!Q)
      return true;
    Stack.push_back({DynTypedNode::create(Q), nullptr, Stack.empty()});
    bool R = RecursiveASTVisitor::TraverseNestedNameSpecifierLoc(Q);
    Stack.pop_back();
    return R;
  }
  bool TraverseAttr(Attr *A) {
    if (!A)
      return true;
    Stack.push_back({DynTypedNode::create(*A), A, Stack.empty()});
    bool R = RecursiveASTVisitor::TraverseAttr(A);
    Stack.pop_back();
    return R;
  }

  /// The parents of the nodes reached more than once, in the order reached.
  llvm::DenseMap<const void *, Entry> MultiParents;

private:
  struct Frame {
    DynTypedNode N;
    /// The key of a node with an identity (declaration, statement,
    /// attribute); null for a TypeLoc or NestedNameSpecifierLoc.
    const void *Key;
    /// Its parent is recorded (or it has none).
    bool Recorded;
  };

  /// A declaration or statement \p Key (node \p N) is reached: the nodes
  /// above it whose parents are not recorded yet get theirs, then it gets
  /// its own, and it is pushed.
  void reached(const void *Key, const DynTypedNode &N) {
    size_t First = Stack.size();
    while (First > 0 && !Stack[First - 1].Recorded)
      --First;
    for (size_t I = First; I < Stack.size(); ++I) {
      if (I > 0)
        add(Stack[I], Stack[I - 1].N);
      Stack[I].Recorded = true;
    }
    Frame F{N, Key, true};
    if (!Stack.empty())
      add(F, Stack.back().N);
    Stack.push_back(F);
  }

  Entry single(const DynTypedNode &Parent) {
    if (const auto *D = Parent.get<Decl>())
      return D;
    if (const auto *S = Parent.get<Stmt>())
      return S;
    return new (Idx->Nodes.Allocate()) DynTypedNode(Parent);
  }

  void add(const Frame &Child, const DynTypedNode &Parent) {
    if (Keys) {
      if (Child.Key)
        Keys->push_back(Child.Key);
      return;
    }
    if (Child.Key && !Multi->count(Child.Key)) {
      Idx->Pointers.push_back({Child.Key, single(Parent)});
      return;
    }
    // A node reached more than once gets every parent, as clang's map does.
    Entry &E = Child.Key ? MultiParents[Child.Key] : Idx->Others[Child.N];
    if (E.isNull()) {
      E = single(Parent);
      return;
    }
    auto *V = dyn_cast<ParentVector *>(E);
    if (!V) {
      DynTypedNodeList One = listOf(E);
      Idx->Vectors.push_back(std::make_unique<ParentVector>(1, One[0]));
      V = Idx->Vectors.back().get();
      E = V;
    }
    // A node without an identity cannot be compared: kept each time, as
    // clang keeps it.
    if (!Parent.getMemoizationData()) {
      V->push_back(Parent);
      return;
    }
    // A node with many parents (a default argument's expression, reached
    // from every call that uses it) is looked up in a set: a linear search
    // per call made the index quadratic in the number of calls.
    if (V->size() < SeenAbove) {
      if (!llvm::is_contained(*V, Parent))
        V->push_back(Parent);
      return;
    }
    llvm::DenseSet<DynTypedNode> &S = Seen[V];
    if (S.empty())
      S.insert(V->begin(), V->end());
    if (S.insert(Parent).second)
      V->push_back(Parent);
  }

  /// The parents of a vector longer than this are also kept in a set.
  static constexpr size_t SeenAbove = 16;
  llvm::DenseMap<const ParentVector *, llvm::DenseSet<DynTypedNode>> Seen;

  std::vector<const void *> *Keys = nullptr;
  ParentIndex *Idx = nullptr;
  const llvm::DenseSet<const void *> *Multi = nullptr;
  llvm::SmallVector<Frame, 32> Stack;
};

ParentIndex::ParentIndex(ASTContext &Ctx, llvm::ArrayRef<Decl *> Roots) {
  // As clang traverses a scope: from the translation unit, which visits the
  // scope's declarations (skipping those it skips in any declaration
  // context) as its children.
  std::vector<Decl *> Saved = Ctx.getTraversalScope();
  Ctx.setTraversalScope(std::vector<Decl *>(Roots.begin(), Roots.end()));
  // First the keys, to size the array and to find the nodes reached more
  // than once (an initializer list's elements, under both of its forms).
  llvm::DenseSet<const void *> Multi;
  size_t Unique = 0;
  {
    std::vector<const void *> Keys;
    Builder(Keys).TraverseAST(Ctx);
    llvm::sort(Keys);
    for (size_t I = 0; I < Keys.size(); ++I) {
      if (I > 0 && Keys[I] == Keys[I - 1]) {
        Multi.insert(Keys[I]);
        continue;
      }
      ++Unique;
    }
  }
  Pointers.reserve(Unique);
  Builder B(*this, Multi);
  B.TraverseAST(Ctx);
  Ctx.setTraversalScope(Saved);
  for (const auto &[Key, E] : B.MultiParents)
    Pointers.push_back({Key, E});
  llvm::sort(Pointers, llvm::less_first());
}

ParentIndex::~ParentIndex() = default;

DynTypedNodeList ParentIndex::listOf(const Entry &E) {
  if (const auto *D = dyn_cast<const Decl *>(E))
    return DynTypedNode::create(*D);
  if (const auto *S = dyn_cast<const Stmt *>(E))
    return DynTypedNode::create(*S);
  if (const auto *N = dyn_cast<DynTypedNode *>(E))
    return *N;
  return llvm::ArrayRef<DynTypedNode>(*cast<ParentVector *>(E));
}

DynTypedNodeList ParentIndex::parents(const DynTypedNode &N) const {
  if (N.getNodeKind().hasPointerIdentity()) {
    const void *Key = N.getMemoizationData();
    auto It = llvm::lower_bound(Pointers, Key, [](const auto &P, const void *K) {
      return P.first < K;
    });
    if (It == Pointers.end() || It->first != Key)
      return llvm::ArrayRef<DynTypedNode>();
    return listOf(It->second);
  }
  auto It = Others.find(N);
  if (It == Others.end())
    return llvm::ArrayRef<DynTypedNode>();
  return listOf(It->second);
}

} // namespace pk

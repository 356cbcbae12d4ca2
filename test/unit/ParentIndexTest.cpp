//===- ParentIndexTest.cpp - the parent index against clang's parent map -===//
//
// pk::ParentIndex must give what ASTContext::getParents gives for every
// declaration and statement under the traversal scope, and for every node on
// the way up from them (TypeLocs of array bounds and parameter lists,
// nested-name specifiers, attributes), in the same order: the passes that
// walk upwards read it in place of clang's map.
//
//===----------------------------------------------------------------------===//
#include "pk/ParentIndex.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include "gtest/gtest.h"

#include <set>
#include <string>
#include <vector>

using namespace clang;

namespace {

/// Every declaration and statement, as clang's parent map traverses them.
struct Collect : RecursiveASTVisitor<Collect> {
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }
  bool VisitDecl(Decl *D) {
    Nodes.push_back(DynTypedNode::create(*D));
    return true;
  }
  bool VisitStmt(Stmt *S) {
    Nodes.push_back(DynTypedNode::create(*S));
    return true;
  }
  std::vector<DynTypedNode> Nodes;
};

std::string describe(const DynTypedNode &N, const SourceManager &SM) {
  std::string Out = N.getNodeKind().asStringRef().str();
  SourceLocation L = N.getSourceRange().getBegin();
  if (L.isValid())
    Out += " at line " + std::to_string(SM.getPresumedLineNumber(L));
  return Out;
}

/// Compares the two maps on every node of the scope and on every node met
/// walking up from one; returns the number of nodes compared.
/// The translation unit's top-level declarations (those of the main file
/// only when \p UserScopeOnly): the scope a port traverses.
std::vector<Decl *> topLevelDecls(ASTUnit &AST, bool UserScopeOnly) {
  std::vector<Decl *> Scope;
  for (Decl *D : AST.getASTContext().getTranslationUnitDecl()->decls())
    if (!UserScopeOnly ||
        AST.getSourceManager().isInMainFile(D->getLocation()))
      Scope.push_back(D);
  return Scope;
}

size_t compareAll(ASTUnit &AST, bool UserScopeOnly) {
  ASTContext &Ctx = AST.getASTContext();
  std::vector<Decl *> Scope = topLevelDecls(AST, UserScopeOnly);
  Ctx.setTraversalScope(Scope);
  pk::ParentIndex Idx(Ctx, Scope);

  Collect C;
  for (Decl *D : Scope)
    C.TraverseDecl(D);
  EXPECT_FALSE(C.Nodes.empty());
  size_t Compared = 0;
  std::vector<DynTypedNode> Work = C.Nodes;
  std::set<DynTypedNode> Seen;
  while (!Work.empty()) {
    DynTypedNode N = Work.back();
    Work.pop_back();
    if (!Seen.insert(N).second)
      continue;
    DynTypedNodeList Want = Ctx.getParents(N);
    DynTypedNodeList Got = Idx.parents(N);
    ++Compared;
    EXPECT_EQ(Got.size(), Want.size())
        << describe(N, AST.getSourceManager());
    if (Got.size() != Want.size())
      continue;
    for (size_t I = 0; I < Want.size(); ++I) {
      EXPECT_TRUE(Got[I] == Want[I])
          << describe(N, AST.getSourceManager()) << ": parent " << I
          << " is " << describe(Got[I], AST.getSourceManager())
          << ", clang says " << describe(Want[I], AST.getSourceManager());
      Work.push_back(Want[I]);
    }
  }
  return Compared;
}

const char *Code = R"cpp(
namespace ns { struct S { int v; static const int K = 4; }; }
template <typename T, int N> struct Box {
  T data[N * 2];
  T get(int i = N - 1) const { return data[i]; }
};
[[maybe_unused]] static int table[ns::S::K + 1] = {1, 2, 3};
struct Agg { int a; float b; };
__attribute__((aligned(16))) int aligned_var;
template <typename T> T twice(T x) { return x + x; }
int use(int n) {
  Box<float, 8> b;
  Agg g = {1, 2.0f};
  int local[sizeof(Agg) / 4];
  auto f = [&](int k) { return k * n + g.a; };
  for (int i = 0; i < n; ++i)
    if (i % 2) local[i % 2] = f(i) + twice(i) + (int)b.get();
  decltype(n + 1) d = ns::S::K;
  switch (d) { case ns::S::K: return 1; default: break; }
  static_assert(sizeof(int) == 4, "int");
  return local[0] + twice<long>(d);
}
)cpp";

TEST(ParentIndex, SameAsClangOnUserScope) {
  std::unique_ptr<ASTUnit> AST =
      tooling::buildASTFromCodeWithArgs(Code, {"-std=c++17"}, "input.cc");
  ASSERT_TRUE(AST);
  EXPECT_GT(compareAll(*AST, /*UserScopeOnly=*/true), 200u);
}

TEST(ParentIndex, SameAsClangOnWholeTranslationUnit) {
  // Implicit declarations (builtin typedefs) and the translation unit's
  // own children.
  std::unique_ptr<ASTUnit> AST =
      tooling::buildASTFromCodeWithArgs(Code, {"-std=c++17"}, "input.cc");
  ASSERT_TRUE(AST);
  EXPECT_GT(compareAll(*AST, /*UserScopeOnly=*/false), 200u);
}

TEST(ParentIndex, DefaultArgumentUsedByManyCalls) {
  // A default argument's expression is reached from every call that uses
  // it: one parent per call, in the order of the calls, each once, also
  // beyond the length where the index keeps a vector's parents in a set
  // too; a call reached twice (an initializer list's two forms) adds its
  // parent once.
  std::string Src = "int scale(int x, int k = 3 * 7) { return x * k; }\n"
                    "struct P { int a, b; };\n"
                    "int many(int n) {\n  int s = 0;\n";
  for (int I = 0; I < 100; ++I)
    Src += "  s += scale(n + " + std::to_string(I) + ");\n";
  Src += "  P p = {scale(1), scale(2)};\n  return s + p.a + p.b;\n}\n";
  std::unique_ptr<ASTUnit> AST =
      tooling::buildASTFromCodeWithArgs(Src, {"-std=c++17"}, "input.cc");
  ASSERT_TRUE(AST);
  EXPECT_GT(compareAll(*AST, /*UserScopeOnly=*/true), 500u);
  ASTContext &Ctx = AST->getASTContext();
  std::vector<Decl *> Scope = topLevelDecls(*AST, /*UserScopeOnly=*/true);
  pk::ParentIndex Idx(Ctx, Scope);
  const auto *Scale = cast<FunctionDecl>(Scope.front());
  const Expr *Default = Scale->getParamDecl(1)->getDefaultArg();
  ASSERT_TRUE(Default);
  DynTypedNodeList P = Idx.parents(*Default);
  EXPECT_EQ(P.size(), Ctx.getParents(*Default).size());
  // The parameter, and one CXXDefaultArgExpr per call.
  EXPECT_EQ(P.size(), 1u + 102u);
  std::set<const void *> Distinct;
  for (const DynTypedNode &N : P)
    Distinct.insert(N.getMemoizationData());
  EXPECT_EQ(Distinct.size(), P.size());
}

TEST(ParentIndex, KeepsOnlyNodesAboveStatementsAndDeclarations) {
  // A TypeLoc with nothing below it (the `float` of a parameter) has no
  // entry; the array bound's expression has the TypeLoc above it.
  std::unique_ptr<ASTUnit> AST = tooling::buildASTFromCodeWithArgs(
      "void f(float x) { int a[3 + 1]; (void)a; (void)x; }", {"-std=c++17"},
      "input.cc");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  std::vector<Decl *> Scope = topLevelDecls(*AST, /*UserScopeOnly=*/true);
  pk::ParentIndex Idx(Ctx, Scope);
  const auto *F = cast<FunctionDecl>(Scope.back());
  const ParmVarDecl *X = F->getParamDecl(0);
  // The parameter's parent is the function's type location, whose parent is
  // the function.
  DynTypedNodeList P = Idx.parents(*X);
  ASSERT_EQ(P.size(), 1u);
  ASSERT_TRUE(P[0].get<TypeLoc>());
  DynTypedNodeList PP = Idx.parents(P[0]);
  ASSERT_EQ(PP.size(), 1u);
  EXPECT_EQ(PP[0].get<FunctionDecl>(), F);
  // The parameter's own type location has nothing below it: not indexed.
  TypeLoc XT = X->getTypeSourceInfo()->getTypeLoc();
  EXPECT_EQ(Idx.parents(XT).size(), 0u);
  EXPECT_GT(Ctx.getParents(XT).size(), 0u);
}

} // namespace

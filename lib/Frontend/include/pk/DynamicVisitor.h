//===- DynamicVisitor.h - one RecursiveASTVisitor for every pass ---------===//
// Rules: none (shared infrastructure)
//
// clang::RecursiveASTVisitor is a CRTP template: every class deriving from
// it instantiates the traversal of every kind of declaration, statement,
// type and type location again, several seconds of compile time each and
// most of the build of the passes.  DynamicASTVisitor is that traversal
// instantiated once (DynamicVisitor.cpp), with virtual hooks: a pass derives
// from it and overrides the Visit and Traverse functions it needs, marked
// `override` (a hook whose signature differs would otherwise never run).
//
// The traversal is RecursiveASTVisitor's, node for node: the same order,
// the same should-visit rules (the three flags below replace the should*
// functions), data recursion through statements (no native stack frame per
// nested expression).  Statements of the kinds with a Traverse hook here
// (for loops) are traversed by recursion, as RecursiveASTVisitor does for a
// derived class that overrides their Traverse function.
//
// A pass that needs another hook adds it here.  Only the parent index
// (pk/ParentIndex.h), which overrides most of the traversal, instantiates
// RecursiveASTVisitor itself (test suite.ast-visitors).
//
//===----------------------------------------------------------------------===//
#ifndef PK_FRONTEND_DYNAMICVISITOR_H
#define PK_FRONTEND_DYNAMICVISITOR_H

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/TypeLoc.h"

namespace clang {
class ASTContext;
class TemplateArgumentLoc;
class NestedNameSpecifierLoc;
} // namespace clang

namespace pk {

/// The node classes with a virtual Visit hook: add one here when a pass
/// needs it.  Each costs a virtual call per node of its class and its
/// subclasses, so the catch-all classes (Stmt, Decl) have none.
#define PK_DYNAMIC_VISIT_NODES(X)                                              \
  X(Expr)                                                                      \
  X(CallExpr)                                                                  \
  X(CUDAKernelCallExpr)                                                        \
  X(CXXOperatorCallExpr)                                                       \
  X(CXXMemberCallExpr)                                                         \
  X(CXXConstructExpr)                                                          \
  X(CXXNewExpr)                                                                \
  X(CXXDeleteExpr)                                                             \
  X(CXXDependentScopeMemberExpr)                                               \
  X(DeclRefExpr)                                                               \
  X(MemberExpr)                                                                \
  X(BinaryOperator)                                                            \
  X(UnaryOperator)                                                             \
  X(ImplicitCastExpr)                                                          \
  X(ArraySubscriptExpr)                                                        \
  X(CompoundStmt)                                                              \
  X(DeclStmt)                                                                  \
  X(ForStmt)                                                                   \
  X(GotoStmt)                                                                  \
  X(IndirectGotoStmt)                                                          \
  X(GCCAsmStmt)                                                                \
  X(SwitchStmt)                                                                \
  X(FunctionDecl)                                                              \
  X(VarDecl)                                                                   \
  X(DeclaratorDecl)                                                            \
  X(TypedefNameDecl)                                                           \
  X(EnumConstantDecl)                                                          \
  X(NamespaceAliasDecl)                                                        \
  X(UsingDirectiveDecl)

class DynamicASTVisitor {
public:
  DynamicASTVisitor() = default;
  DynamicASTVisitor(const DynamicASTVisitor &) = default;
  DynamicASTVisitor &operator=(const DynamicASTVisitor &) = default;
  virtual ~DynamicASTVisitor();

  /// RecursiveASTVisitor's shouldVisitTemplateInstantiations(),
  /// shouldVisitImplicitCode() and shouldVisitLambdaBody().
  bool ShouldVisitTemplateInstantiations = false;
  bool ShouldVisitImplicitCode = false;
  bool ShouldVisitLambdaBody = true;

  // Entry points (and what an overriding hook calls to go on).
  bool TraverseAST(clang::ASTContext &Ctx);
  bool TraverseDecl(clang::Decl *D);
  bool TraverseStmt(clang::Stmt *S);
  bool TraverseTypeLoc(clang::TypeLoc TL);

  // Traverse hooks; the defaults traverse as RecursiveASTVisitor does.
  virtual bool TraverseFunctionDecl(clang::FunctionDecl *D);
  virtual bool TraverseCXXMethodDecl(clang::CXXMethodDecl *D);
  virtual bool TraverseForStmt(clang::ForStmt *S);
  virtual bool TraverseNestedNameSpecifierLoc(clang::NestedNameSpecifierLoc Q);
  virtual bool TraverseTemplateArgumentLoc(const clang::TemplateArgumentLoc &L);

  /// Called before a statement is traversed: false skips it and what it
  /// contains (the traversal goes on).
  virtual bool dataTraverseStmtPre(clang::Stmt *) { return true; }

  // Visit hooks: return false to stop the traversal.
#define PK_DYNAMIC_VISIT_DECLARE(CLASS)                                        \
  virtual bool Visit##CLASS(clang::CLASS *) { return true; }
  PK_DYNAMIC_VISIT_NODES(PK_DYNAMIC_VISIT_DECLARE)
#undef PK_DYNAMIC_VISIT_DECLARE
  virtual bool VisitTypeLoc(clang::TypeLoc) { return true; }
  virtual bool
  VisitTemplateSpecializationTypeLoc(clang::TemplateSpecializationTypeLoc) {
    return true;
  }
};

} // namespace pk

#endif // PK_FRONTEND_DYNAMICVISITOR_H

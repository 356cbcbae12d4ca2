//===- DynamicVisitor.cpp - the one instantiation of RecursiveASTVisitor --===//
// Rules: none (shared infrastructure)
//
// Impl is RecursiveASTVisitor<Impl>: each hook it defines forwards to the
// DynamicASTVisitor's virtual function, whose default calls back into
// RecursiveASTVisitor's own implementation (pk/DynamicVisitor.h).
//
//===----------------------------------------------------------------------===//
#include "pk/DynamicVisitor.h"

#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace pk {
namespace dynvisit {

struct Impl : RecursiveASTVisitor<Impl> {
  explicit Impl(DynamicASTVisitor &V) : V(V) {}
  DynamicASTVisitor &V;
  using Base = RecursiveASTVisitor<Impl>;

  bool shouldVisitTemplateInstantiations() const {
    return V.ShouldVisitTemplateInstantiations;
  }
  bool shouldVisitImplicitCode() const { return V.ShouldVisitImplicitCode; }
  bool shouldVisitLambdaBody() const { return V.ShouldVisitLambdaBody; }

  // Without a queue parameter: RecursiveASTVisitor then calls them by
  // recursion, as it does a derived class's override.
  bool TraverseFunctionDecl(FunctionDecl *D) {
    return V.TraverseFunctionDecl(D);
  }
  bool TraverseCXXMethodDecl(CXXMethodDecl *D) {
    return V.TraverseCXXMethodDecl(D);
  }
  bool TraverseForStmt(ForStmt *S) { return V.TraverseForStmt(S); }
  bool TraverseNestedNameSpecifierLoc(NestedNameSpecifierLoc Q) {
    return V.TraverseNestedNameSpecifierLoc(Q);
  }
  bool TraverseTemplateArgumentLoc(const TemplateArgumentLoc &L) {
    return V.TraverseTemplateArgumentLoc(L);
  }

  bool dataTraverseStmtPre(Stmt *S) { return V.dataTraverseStmtPre(S); }

#define PK_DYNAMIC_VISIT_FORWARD(CLASS)                                        \
  bool Visit##CLASS(CLASS *N) { return V.Visit##CLASS(N); }
  PK_DYNAMIC_VISIT_NODES(PK_DYNAMIC_VISIT_FORWARD)
#undef PK_DYNAMIC_VISIT_FORWARD
  bool VisitTypeLoc(TypeLoc TL) { return V.VisitTypeLoc(TL); }
  bool VisitTemplateSpecializationTypeLoc(TemplateSpecializationTypeLoc TL) {
    return V.VisitTemplateSpecializationTypeLoc(TL);
  }
};

} // namespace dynvisit

using dynvisit::Impl;

DynamicASTVisitor::~DynamicASTVisitor() = default;

bool DynamicASTVisitor::TraverseAST(ASTContext &Ctx) {
  return Impl(*this).TraverseAST(Ctx);
}
bool DynamicASTVisitor::TraverseDecl(Decl *D) {
  return Impl(*this).TraverseDecl(D);
}
bool DynamicASTVisitor::TraverseStmt(Stmt *S) {
  return Impl(*this).TraverseStmt(S);
}
bool DynamicASTVisitor::TraverseTypeLoc(TypeLoc TL) {
  return Impl(*this).TraverseTypeLoc(TL);
}
bool DynamicASTVisitor::TraverseFunctionDecl(FunctionDecl *D) {
  return Impl(*this).Impl::Base::TraverseFunctionDecl(D);
}
bool DynamicASTVisitor::TraverseCXXMethodDecl(CXXMethodDecl *D) {
  return Impl(*this).Impl::Base::TraverseCXXMethodDecl(D);
}
bool DynamicASTVisitor::TraverseForStmt(ForStmt *S) {
  return Impl(*this).Impl::Base::TraverseForStmt(S);
}
bool DynamicASTVisitor::TraverseNestedNameSpecifierLoc(
    NestedNameSpecifierLoc Q) {
  return Impl(*this).Impl::Base::TraverseNestedNameSpecifierLoc(Q);
}
bool DynamicASTVisitor::TraverseTemplateArgumentLoc(
    const TemplateArgumentLoc &L) {
  return Impl(*this).Impl::Base::TraverseTemplateArgumentLoc(L);
}

} // namespace pk

//===- Wave64WarpSizeConst.cpp - every use of warpSize --------------------===//
// Rules: PK2004, PK2111
//
// Every warpSize the user wrote: the entity (function or macro) it belongs
// to, so that the warpSize rewrite (PK2004) gives it the strategy of its
// code, and whether it is used as a constant expression (class 11, PK2111:
// warpSize is no constant expression from ROCm 7.0, and 64 before).
//
//===----------------------------------------------------------------------===//
#include "Wave64Internal.h"

#include "pk/DynamicVisitor.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"

using namespace pk;
using namespace pk::w64;
using namespace clang;

namespace {

class WarpSizeVisitor : public DynamicASTVisitor {
public:
  explicit WarpSizeVisitor(Wave64Analysis::Impl &I) : I(I) {}

  /// Every template argument as written is a constant context; the parent
  /// map does not lead there from an explicit argument of a function
  /// template call (`groupSum<warpSize>(v)`), so the traversal says it.
  bool TraverseTemplateArgumentLoc(const TemplateArgumentLoc &L) override {
    ++InTemplateArg;
    bool R = DynamicASTVisitor::TraverseTemplateArgumentLoc(L);
    --InTemplateArg;
    return R;
  }

  bool VisitDeclRefExpr(DeclRefExpr *DRE) override {
    if (DRE->getDecl()->getName() != "warpSize")
      return true;
    SourceLocation Spell = I.SM.getSpellingLoc(DRE->getLocation());
    if (!I.Src.isUserLoc(Spell))
      return true;
    const FunctionDecl *Fn = nullptr;
    bool Constant = InTemplateArg > 0;
    enclosing(DRE, Fn, Constant);
    int E = entityOf(Spell, Fn);
    if (E >= 0) {
      std::string File = I.Src.fileOf(Spell);
      unsigned Off = I.SM.getFileOffset(Spell);
      I.WarpSizeEnt[{File, Off}] = E;
      I.Ents[E].HasSites = true;
    }
    if (Constant)
      I.hazard(W64Class::WarpSizeConst, DRE->getBeginLoc(),
               "warpSize in a constant expression: it is no constant "
               "expression from ROCm 7.0 (and 64, not 32, before)");
    return true;
  }

private:
  Wave64Analysis::Impl &I;
  unsigned InTemplateArg = 0;

  /// The function around \p DRE, and whether it sits in a constant context
  /// (a constant expression, static_assert, template argument, case label,
  /// array bound, constexpr variable).
  void enclosing(const DeclRefExpr *DRE, const FunctionDecl *&Fn,
                 bool &Constant) {
    DynTypedNode N = DynTypedNode::create(*DRE);
    for (int Guard = 0; Guard < 64; ++Guard) {
      auto Ps = I.Src.parents(N);
      if (Ps.empty())
        break;
      N = Ps[0];
      if (N.get<ConstantExpr>() || N.get<StaticAssertDecl>() ||
          N.get<TemplateArgumentLoc>() || N.get<CaseStmt>())
        Constant = true;
      if (const auto *TL = N.get<TypeLoc>())
        if (TL->getAs<ArrayTypeLoc>())
          Constant = true;
      if (const auto *VD = N.get<VarDecl>()) {
        if (VD->isConstexpr())
          Constant = true;
        if (!isa<ParmVarDecl>(VD) && !VD->hasLocalStorage() && !Fn)
          break;
      }
      if (const auto *FD = N.get<FunctionDecl>()) {
        Fn = FD;
        break;
      }
    }
  }

  /// The entity of a warpSize spelled at \p Spell: the macro it is written
  /// in, else the function around it; -1 when neither.
  int entityOf(SourceLocation Spell, const FunctionDecl *Fn) {
    int Ent = -1;
    if (Fn) {
      auto It = I.Fns.find(Fn);
      if (It != I.Fns.end())
        Ent = It->second.Entity;
    }
    int E = Ent >= 0 ? I.entityFor(Spell, Ent) : -1;
    if (E < 0) {
      std::string F2, Name;
      unsigned O2;
      if (I.defineAt(Spell, F2, O2, &Name))
        E = I.macroEntity(F2, O2, Name);
    }
    return E;
  }
};

} // namespace

void Wave64Analysis::Impl::warpSizeUses() {
  WarpSizeVisitor Vis(*this);
  for (Decl *D : Src.userTopLevelDecls()) // user spellings only
    Vis.TraverseDecl(D);
}

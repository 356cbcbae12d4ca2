//===- Wave64ValueFlow.cpp - what a value depends on and what it is -------===//
// Rules: none (shared infrastructure)
//
// Every expression evaluates to a Val: what it depends on (thread index,
// lane id, warp id, warps per block, warp width, lane mask, lane rank, lane
// count) and, for the exact idioms, what it is (`tid & 31` is a lane id,
// `__ballot_sync(..)` a lane mask, `WARP_SIZE / 2` half the warp width,
// ...).  Variables, parameters and return values collect the Vals of
// everything assigned to them (flow-insensitive); their value is the merge.
// The idioms of the operators, calls and memory accesses are in the files
// of their hazard classes.
//
//===----------------------------------------------------------------------===//
#include "Wave64Internal.h"
#include "pk/BuiltinVars.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace pk::w64;
using namespace clang;

// ---- variables --------------------------------------------------------------

Val Wave64Analysis::Impl::merged(VarInfo &VI) {
  if (!VI.Dirty)
    return VI.Merged;
  // Dependences add up; what the value is must hold for every source.
  Val M;
  bool First = true;
  for (auto &[K, V] : VI.Sources) {
    M.Dep |= V.Dep;
    if (First) {
      M.Kind = V.Kind;
      M.Tok = V.Tok;
      M.Tok2 = V.Tok2;
      M.C = V.C;
      M.HasC = V.HasC;
      First = false;
    } else {
      M.Kind &= V.Kind;
      if (M.Tok != V.Tok)
        M.Tok = nullptr;
      M.HasC = M.HasC && V.HasC && M.C == V.C;
    }
  }
  if (VI.Sources.size() > 1)
    M.Kind &= ~(K_LIT32 | K_LIT31 | K_LIT16 | K_LIT5 | K_ZERO | K_ONE | K_FULL |
                K_W | K_HALFW | K_W1);
  VI.Merged = M;
  VI.Dirty = false;
  return M;
}

void Wave64Analysis::Impl::addSource(VarInfo &VI, const void *Key,
                                     const Val &V) {
  auto It = llvm::find_if(VI.Sources,
                          [&](const auto &KV) { return KV.first == Key; });
  if (It == VI.Sources.end()) {
    VI.Sources.push_back({Key, V});
    VI.Dirty = true;
    Changed = true;
    return;
  }
  Val &O = It->second;
  if (O.Dep != V.Dep || O.Kind != V.Kind || O.Tok != V.Tok) {
    O = V;
    VI.Dirty = true;
    Changed = true;
  }
}

void Wave64Analysis::Impl::addSpace(VarInfo &VI, Space S) {
  uint8_t Bit = uint8_t(1u << unsigned(S));
  if (!(VI.Spaces & Bit)) {
    VI.Spaces |= Bit;
    Changed = true;
  }
}

void Walker::assignTo(const Expr *LHS, const void *Key, const Val &V,
                      const Expr *RHS) {
  const Expr *L = LHS->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(L)) {
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
      VarInfo &VI = I.Vars[VD];
      if (!VI.LoopKind)
        I.addSource(VI, Key, V);
      if (RHS &&
          (VD->getType()->isPointerType() || VD->getType()->isReferenceType()))
        I.addSpace(VI, spaceOf(RHS));
    }
  }
}

// ---- expressions ------------------------------------------------------------

Val Walker::konst(int64_t C) {
  Val V;
  V.Kind = K_CONST;
  V.C = C;
  V.HasC = true;
  return V;
}

Val Walker::peek(const Expr *E) {
  bool Old = Rec;
  Rec = false;
  Val V = eval(E);
  Rec = Old;
  return V;
}

Val Walker::eval(const Expr *E) {
  if (!E)
    return {};
  if (tooDeep())
    return unknownDeep(E); // PK9003, Wave64Walk.cpp
  DepthScope G(Depth);
  return evalExpr(E);
}

Val Walker::evalExpr(const Expr *E) {
  if (const auto *PE = dyn_cast<ParenExpr>(E))
    return eval(PE->getSubExpr());
  if (const auto *CE = dyn_cast<ConstantExpr>(E))
    return eval(CE->getSubExpr());
  if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
    return eval(M->getSubExpr());
  if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
    return eval(B->getSubExpr());
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
    return eval(EWC->getSubExpr());
  if (const auto *CE = dyn_cast<CastExpr>(E))
    return eval(CE->getSubExpr());
  if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(E))
    return peek(DA->getExpr());
  if (const auto *SE = dyn_cast<SubstNonTypeTemplateParmExpr>(E))
    return substitutedParm(SE);
  if (const auto *IL = dyn_cast<IntegerLiteral>(E))
    return literal(IL);
  if (const auto *FL = dyn_cast<FloatingLiteral>(E)) {
    // A warp width written as a floating-point number (blockDim.x / 32.f,
    // lane < 32.0): no idiom widens it, so native warps would keep 32 where
    // the integer spellings around it become 64.  The kernel keeps logical
    // warps (a forced --wave64=native warns here, PK2012).
    bool Exact = false;
    llvm::APSInt Int(64, /*isUnsigned=*/true);
    if (Rel &&
        FL->getValue().convertToInteger(Int, llvm::APFloat::rmTowardZero,
                                        &Exact) == llvm::APFloat::opOK &&
        Exact && (Int == 32 || Int == 31 || Int == 16))
      block(FL->getBeginLoc(),
            llvm::formatv("the warp width is written as the floating-point "
                          "number '{0}', which native warps do not widen",
                          text(FL))
                .str());
    return konst(0);
  }
  if (isa<CharacterLiteral>(E) || isa<CXXBoolLiteralExpr>(E))
    return konst(0);
  if (isa<UnaryExprOrTypeTraitExpr>(E))
    return konst(0);
  if (std::optional<BuiltinMember> BM = builtinMember(E)) {
    Val V;
    if (BM->Var == "threadIdx") {
      V.Dep = D_TID;
      if (BM->Field == "x")
        V.Kind = K_TID;
    } else if (BM->Var == "blockDim") {
      V.Kind = K_BDIM | K_CONST;
    }
    return V;
  }
  if (const auto *POE = dyn_cast<PseudoObjectExpr>(E))
    return eval(POE->getSyntacticForm());
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return declRef(DRE);
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return binop(BO);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return unop(UO);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return conditional(CO);
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
    return subscript(ASE, nullptr);
  if (const auto *CE = dyn_cast<CallExpr>(E))
    return call(CE);
  if (const auto *LE = dyn_cast<LambdaExpr>(E)) {
    stmt(LE->getBody());
    return {};
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    Val B = eval(ME->getBase());
    Val V;
    V.Dep = B.Dep;
    return V;
  }
  // Anything else depends on what its operands depend on.
  Val V;
  for (const Stmt *C : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(C))
      V.Dep |= eval(CE).Dep;
    else if (C)
      stmt(C);
  return V;
}

Val Walker::literal(const IntegerLiteral *IL) {
  uint64_t V = IL->getValue().getLimitedValue();
  Val R = konst((int64_t)V);
  R.Tok = IL;
  if (V == 32)
    R.Kind |= K_LIT32;
  if (V == 31)
    R.Kind |= K_LIT31;
  if (V == 16)
    R.Kind |= K_LIT16;
  if (V == 5)
    R.Kind |= K_LIT5;
  if (V == 0)
    R.Kind |= K_ZERO;
  if (V == 1)
    R.Kind |= K_ONE;
  if (V == 0xffffffffull)
    R.Kind |= K_FULL;
  if ((V == 32 || V == 31) && I.inWarpMacro(IL)) {
    R.Kind |= V == 32 ? K_W : K_W1;
    R.Dep |= D_W;
    if (Rec)
      I.WUses.push_back({IL, Ent});
  }
  return R;
}

Val Walker::declRef(const DeclRefExpr *DRE) {
  const ValueDecl *D = DRE->getDecl();
  if (const auto *P = dyn_cast<NonTypeTemplateParmDecl>(D))
    return templateParm(P, DRE->getBeginLoc());
  if (const auto *EC = dyn_cast<EnumConstantDecl>(D)) {
    Val V = konst(EC->getInitVal().getSExtValue());
    // A named warp width, 'enum { kWarpSize = 32 }', is one like a constant.
    if (EC->getInitExpr() && EC->getInitVal() == 32 && EC->getIdentifier() &&
        warpName(EC->getName())) {
      V.Kind |= K_LIT32 | K_W;
      V.Dep |= D_W;
      V.Tok = DRE;
      if (Rec)
        I.WUses.push_back({DRE, Ent});
    }
    return V;
  }
  const auto *VD = dyn_cast<VarDecl>(D);
  if (!VD)
    return {};
  if (VD->getName() == "warpSize" && !I.Src.isUserLoc(VD->getLocation())) {
    Val V = konst(32);
    V.Kind |= K_W;
    V.Dep |= D_W;
    V.Tok = DRE;
    return V;
  }
  auto It = I.Vars.find(VD);
  if (It != I.Vars.end() && It->second.LoopKind) {
    Val V;
    unsigned LK = It->second.LoopKind;
    V.Kind = LK;
    V.Dep = LK == K_WIDX ? D_NWARPS : LK == K_SUBRED ? 0 : D_W;
    return V;
  }
  if (It != I.Vars.end() && !It->second.Sources.empty())
    return I.merged(It->second);
  if (VD->getType().isConstQualified() || VD->isConstexpr())
    return constantRef(DRE, VD);
  return {};
}

namespace {

bool warpLike(const llvm::APSInt &C) {
  if (C.getSignificantBits() > 64)
    return false;
  int64_t V = C.getExtValue();
  return V == 32 || V == 31 || V == 0xffffffffll;
}

std::string specName(const NamedDecl *S, const ASTContext &Ctx) {
  std::string N;
  llvm::raw_string_ostream OS(N);
  S->getNameForDiagnostic(OS, Ctx.getPrintingPolicy(), /*Qualified=*/false);
  return N;
}

/// The integral arguments given to \p P by the instantiations of the
/// function or class template that declares it (found from the parameter's
/// context or from \p FD, the function walked), each with its
/// specialization; false when that template is not found.
bool instantiationValues(
    const NonTypeTemplateParmDecl *P, const FunctionDecl *FD,
    std::vector<std::pair<llvm::APSInt, const NamedDecl *>> &Out) {
  unsigned Idx = P->getIndex();
  auto Declares = [&](const TemplateParameterList *TPL) {
    return TPL && Idx < TPL->size() && TPL->getParam(Idx) == P;
  };
  auto Take = [&](const TemplateArgumentList &Args, const NamedDecl *S) {
    if (Idx < Args.size() && Args[Idx].getKind() == TemplateArgument::Integral)
      Out.push_back({Args[Idx].getAsIntegral(), S});
  };
  for (const DeclContext *DC0 :
       {P->getDeclContext(), static_cast<const DeclContext *>(FD)})
    for (const DeclContext *DC = DC0; DC; DC = DC->getParent()) {
      if (const auto *F = dyn_cast<FunctionDecl>(DC))
        if (FunctionTemplateDecl *FT = F->getDescribedFunctionTemplate())
          if (Declares(FT->getTemplateParameters())) {
            for (const FunctionDecl *S : FT->specializations())
              if (const TemplateArgumentList *A =
                      S->getTemplateSpecializationArgs())
                Take(*A, S);
            return true;
          }
      if (const auto *R = dyn_cast<CXXRecordDecl>(DC))
        if (ClassTemplateDecl *CT = R->getDescribedClassTemplate())
          if (Declares(CT->getTemplateParameters())) {
            for (const ClassTemplateSpecializationDecl *S :
                 CT->specializations())
              Take(S->getTemplateArgs(), S);
            return true;
          }
    }
  return false;
}

} // namespace

Val Walker::templateParm(const NonTypeTemplateParmDecl *P, SourceLocation L) {
  // The walk reads a template's written body once for all its
  // instantiations, so a template argument is no token one edit could
  // widen: every instantiation would get it (reduce<32> and reduce<16>
  // share 'W').  A warp-like argument in any of them keeps the code's
  // 32-lane logical warps, reported at the read.
  Val V;
  V.Kind = K_CONST;
  if (!Rec || !Rel || P->isParameterPack())
    return V;
  std::vector<std::pair<llvm::APSInt, const NamedDecl *>> Vals;
  if (!instantiationValues(P, FD, Vals))
    return V;
  for (const auto &[C, S] : Vals)
    if (warpLike(C)) {
      block(L, llvm::formatv("template parameter '{0}' is {1} in '{2}': a "
                             "warp width that depends on a template argument "
                             "is not widened",
                             P->getName(), C.getExtValue(), specName(S, I.Ctx))
                   .str());
      break;
    }
  return V;
}

Val Walker::substitutedParm(const SubstNonTypeTemplateParmExpr *SE) {
  // Instantiated code read from outside its template
  // (WarpReduce<32>::kWidth): the argument is known, but its token is the
  // parameter in the template's body, shared by every instantiation.
  Val V = peek(SE->getReplacement());
  Val R;
  R.Kind = K_CONST;
  R.Dep = V.Dep & ~D_W;
  if (V.HasC) {
    R.C = V.C;
    R.HasC = true;
  }
  llvm::APSInt C(llvm::APInt(64, (uint64_t)V.C), /*isUnsigned=*/false);
  if (Rel && V.HasC && warpLike(C)) {
    std::string In = "an instantiation";
    if (const auto *S = dyn_cast_or_null<NamedDecl>(SE->getAssociatedDecl()))
      In = "'" + specName(S, I.Ctx) + "'";
    block(SE->getExprLoc(),
          llvm::formatv("template parameter '{0}' is {1} in {2}: a warp width "
                        "that depends on a template argument is not widened",
                        SE->getParameter()->getName(), V.C, In)
              .str());
  }
  return R;
}

Val Walker::constantRef(const DeclRefExpr *DRE, const VarDecl *VD) {
  // Constants: their initialiser.
  const Expr *Init = VD->getAnyInitializer();
  if (!Init)
    return {};
  if (ConstDepth > 8)
    return {};
  ++ConstDepth;
  Val V = eval(Init);
  --ConstDepth;
  // A named warp width: 'constexpr int kWarpSize = 32'.  Other literals keep
  // the literal as the token: they are edited where they are written.
  if ((!VD->hasLocalStorage() || !I.Vars.count(VD)) && (V.Kind & K_LIT32) &&
      VD->getIdentifier() && warpName(VD->getName())) {
    V.Kind |= K_W;
    V.Dep |= D_W;
    V.Tok = DRE;
    if (Rec)
      I.WUses.push_back({DRE, Ent});
  }
  V.Kind |= K_CONST;
  return V;
}

Val Walker::conditional(const ConditionalOperator *CO) {
  Val C = eval(CO->getCond());
  bool LW = laneWise(CO->getCond());
  Val T = eval(CO->getTrueExpr()), F2 = eval(CO->getFalseExpr());
  Val V;
  // A choice by the lane numbering (lane == last ? a : b) depends on it;
  // the first warp or lane 0 against the rest does not.
  V.Dep = (LW ? C.Dep : 0) | T.Dep | F2.Dep;
  V.Kind = T.Kind & F2.Kind & (K_MASK | K_CONST);
  return V;
}

Val Walker::unop(const UnaryOperator *UO) {
  Val S = eval(UO->getSubExpr());
  Val V;
  V.Dep = S.Dep;
  switch (UO->getOpcode()) {
  case UO_Not:
    if (S.Kind & K_ZERO) { // ~0 is the full mask
      V = konst(-1);
      V.Kind |= K_FULL;
      V.Tok = UO;
    } else if (S.Kind & K_MASK)
      V.Kind = K_MASK;
    break;
  case UO_Minus:
    if (S.Kind & K_ONE) {
      V = konst(-1);
      V.Kind |= K_FULL;
      V.Tok = UO;
    } else if (S.HasC)
      V = konst(-S.C);
    break;
  case UO_PreInc:
  case UO_PreDec:
  case UO_PostInc:
  case UO_PostDec: {
    // The variable takes another value: no longer a known constant.
    Val Changed;
    Changed.Dep = S.Dep;
    assignTo(UO->getSubExpr(), UO, Changed, nullptr);
    V = Changed;
    break;
  }
  case UO_Deref: {
    V.Dep = 0;
    Val Dummy;
    if (Rec)
      access(UO, UO->getSubExpr(), S, nullptr, Dummy, nullptr);
    break;
  }
  case UO_LNot:
    V.Kind = 0;
    break;
  case UO_AddrOf:
    V = S;
    V.Kind = 0;
    break;
  default:
    V.Kind = S.Kind & K_CONST;
    break;
  }
  return V;
}

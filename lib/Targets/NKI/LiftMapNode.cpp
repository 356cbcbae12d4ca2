//===- LiftMapNode.cpp - a map's values as element trees ------------------===//
// Rules: PK5006, PK5007
//
// The loads of a map's values are classified (the element, a row or column
// vector, the column read down by a column sum), the values become the
// element trees TileLowering lowers (LiftLower.h), and a parameter both
// read and written is checked to be read before its stores.
//
//===----------------------------------------------------------------------===//
#include "LiftMapImpl.h"

#include "pk/DynamicVisitor.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <functional>

using namespace pk;
using namespace pk::nki;
using namespace pk::nki::mapread;
using namespace pk::km;
using namespace clang;

namespace mapnode {

/// Whether \p S mentions \p It other than as the variable of a reduction
/// over it (where it is bound).
bool freeIn(SymP S, SymP It) {
  if (S == It)
    return true;
  if (S->K == SK::Reduce && S->Ops[0] == It)
    return false;
  for (SymP O : S->Ops)
    if (freeIn(O, It))
      return true;
  return false;
}

} // namespace mapnode

/// The kernel model's form of an arg-max or arg-min's index
/// (lib/Analysis/KernelArg.cpp): reduce(min, it, v(it) == best ? it :
/// ArgNone) for the first index, reduce(max, it, ... : ArgLow) for the
/// last, with best free of it.
std::optional<MapBuilder::ArgForm> MapBuilder::argForm(SymP S) {
  const bool Last = S->Op == "max";
  if (S->K != SK::Reduce || (S->Op != "min" && !Last))
    return std::nullopt;
  SymP It = S->Ops[0], Body = S->Ops[1];
  if (Body->K != SK::Select || Body->Ops[1] != It ||
      Body->Ops[2] != P.intc(Last ? SymPool::ArgLow : SymPool::ArgNone) ||
      Body->Ops[0]->K != SK::Cmp || Body->Ops[0]->Op != "==")
    return std::nullopt;
  SymP V = Body->Ops[0]->Ops[0], Best = Body->Ops[0]->Ops[1];
  if (mapnode::freeIn(Best, It))
    std::swap(V, Best);
  if (mapnode::freeIn(Best, It) || !mapnode::freeIn(V, It))
    return std::nullopt;
  return ArgForm{V, Best, Last};
}

/// The index of an arg-max or arg-min with its initial pair
/// (lib/Analysis/KernelArg.cpp): min(reduce(min, it, v == best ? it :
/// ArgNone), v0 == best ? i0 : ArgNone) (max and ArgLow for the last
/// index), a (P, 1) column: the reduction's RowArg, and for the pair the
/// 0/1 column of v0 == best times (i0 - ArgNone) plus ArgNone, exact in
/// float32 (every value an integer below 2^25).  Null where \p S is not
/// such an index.
NodeP MapBuilder::argIndex(SymP S, SourceLocation L) {
  if (S->K != SK::Bin || isFloatTy(S->T) || (S->Op != "min" && S->Op != "max"))
    return nullptr;
  const bool Last = S->Op == "max";
  const int64_t None = Last ? SymPool::ArgLow : SymPool::ArgNone;
  auto IsPair = [&](SymP X) {
    return X->K == SK::Select && X->Ops[2] == P.intc(None) &&
           X->Ops[0]->K == SK::Cmp && X->Ops[0]->Op == "==" &&
           !P.containsKind(X->Ops[1], SK::Load);
  };
  std::vector<SymP> Terms;
  std::function<void(SymP)> Flat = [&](SymP X) {
    if (X->K == SK::Bin && X->Op == S->Op && !isFloatTy(X->T)) {
      Flat(X->Ops[0]);
      Flat(X->Ops[1]);
    } else {
      Terms.push_back(X);
    }
  };
  Flat(S);
  bool AnyReduce = false;
  for (SymP X : Terms) {
    auto A = argForm(X);
    if (A && A->Last == Last)
      AnyReduce = true;
    else if (!IsPair(X))
      return nullptr;
  }
  if (!AnyReduce)
    return nullptr;
  NodeP Out;
  for (SymP X : Terms) {
    NodeP T;
    if (argForm(X)) {
      T = node(X, L);
    } else {
      NodeP V = node(X->Ops[0]->Ops[0], L);
      NodeP Best = V ? node(X->Ops[0]->Ops[1], L) : nullptr;
      NodeP I0 = Best ? node(X->Ops[1], L) : nullptr;
      if (!I0)
        return nullptr;
      if (V->K == Node::Scalar)
        std::swap(V, Best);
      if (V->K == Node::Scalar || I0->K != Node::Scalar) {
        refuse(RuleId::PK5007, L,
               "an arg-reduction's initial pair that is not a constant "
               "compared with the row's best");
        return nullptr;
      }
      T = argPairNode(V, Best, I0->Val, None);
    }
    if (!T)
      return nullptr;
    Out = Out ? binNode(Last ? "nl.maximum" : "nl.minimum", Out, T) : T;
  }
  return Out;
}

bool MapBuilder::classify(SymP S, SourceLocation L, std::set<SymP> &Seen) {
  if (!Seen.insert(S).second)
    return true;
  if (S->K == SK::Reduce) {
    // A sum down the columns: each element of a 1-D map reads the rows
    // 0..n of its column of a row-major matrix as wide as the map.
    if (CurIter)
      return notMap("a reduction inside a reduction", RuleId::PK5007);
    if (!OneD || !ColExt)
      return notMap("a reduction in a map over more than one coordinate (a "
                    "contraction)",
                    RuleId::PK5007);
    if (auto Arg = argForm(S)) {
      // The best value is classified as the map's own reduction, the
      // values compared with it as the terms of this one.
      if (!classify(Arg->Best, L, Seen))
        return false;
      CurIter = S->Ops[0];
      bool Ok = classify(Arg->Vals, L, Seen);
      CurIter = nullptr;
      HasReduce = true;
      if (!Ok)
        return false;
      if (RedKind != 'W')
        return refuse(RuleId::PK5007, L,
                      "an arg-reduction that is not along each element's "
                      "row (down the columns only sums are lowered)");
      return true;
    }
    CurIter = S->Ops[0];
    bool Ok = classify(S->Ops[1], L, Seen);
    CurIter = nullptr;
    HasReduce = true;
    if (!Ok)
      return false;
    if (!RedKind)
      return notMap("a reduction whose terms read no tensor", RuleId::PK5007);
    if (RedKind == 'R' && S->Op != "+")
      return refuse(RuleId::PK5007, L,
                    llvm::formatv("a {0}-reduction down the columns (along "
                                  "the partition axis): only sums are "
                                  "lowered there (nc_matmul with a column "
                                  "of ones)",
                                  S->Op)
                        .str());
    if (RedKind == 'W' && S->Op != "+" && S->Op != "max" && S->Op != "min")
      return refuse(RuleId::PK5007, L,
                    llvm::formatv("a {0}-reduction along a row: tensor_reduce "
                                  "lowers sums, maxima and minima",
                                  S->Op)
                        .str());
    return true;
  }
  if (S->K == SK::Load) {
    auto *PV = dyn_cast<ParmVarDecl>(S->D);
    if (!PV)
      return notMap("a load of something other than a parameter");
    char Lay = 0;
    std::string Rows;
    if (CurIter) {
      // Down the element's column, or along the element's row.
      auto Have = P.poly(S->Ops[0]);
      auto Down = P.poly(P.bin("+", P.bin("*", CurIter, ColExt), F));
      auto Along = P.poly(P.bin("+", P.bin("*", F, CurIter->Ops[1]), CurIter));
      char Kind = Have && Down && *Have == *Down     ? 'R'
                  : Have && Along && *Have == *Along ? 'W'
                  : S->Ops[0] == CurIter             ? 'V'
                                                     : 0;
      // v[c] in a reduction along the rows: a row vector ('V').
      bool Vec = Kind == 'V';
      if (Vec)
        Kind = 'W';
      if (Kind && RedKind && Kind != RedKind)
        return notMap("reductions both down the columns and along the rows",
                      RuleId::PK5007);
      if (Kind) {
        RedKind = Kind;
        Lay = Vec ? 'V' : Kind;
        auto R = pySize(CurIter->Ops[1]);
        if (!R)
          return notMap("a reduction over a loop whose end is not a size",
                        RuleId::PK5007);
        Rows = R->pyAtom();
      }
    } else {
      Lay = S->Ops[0] == F                 ? 'e'
            : Col && S->Ops[0] == Col      ? 'r'
            : Row && S->Ops[0] == Row      ? 'c'
                                           : 0;
    }
    if (!Lay)
      return notMap(llvm::formatv("'{0}' is read at an index that is not the "
                                  "element, its row or its column{1}",
                                  PV->getName(),
                                  CurIter ? " (inside a reduction: not down "
                                            "its column)"
                                          : "")
                        .str());
    auto [It, New] = Uses.insert({PV, MapSpec::Use{Lay, true, false, Rows}});
    if (!New && Lay == 'R' && It->second.Rows != Rows)
      return notMap(llvm::formatv("'{0}' is reduced over different numbers "
                                  "of rows",
                                  PV->getName())
                        .str(),
                    RuleId::PK5007);
    if (!New && It->second.Layout != Lay)
      return notMap(llvm::formatv("'{0}' is read both as the element and as "
                                  "a row or column vector",
                                  PV->getName())
                        .str());
    It->second.Read = true;
    return true;
  }
  for (SymP O : S->Ops)
    if (!classify(O, L, Seen))
      return false;
  return true;
}

NodeP MapBuilder::node(SymP S, SourceLocation L) {
  auto M = Memo.find(S);
  if (M != Memo.end())
    return M->second;
  auto N = std::make_shared<Node>();
  N->Ty = dtypeOfSym(S->T);
  auto Fail = [&](std::string Msg) -> NodeP {
    refuse(RuleId::PK5007, L, std::move(Msg));
    return nullptr;
  };
  // The element's row or column as a value (a 2-D space): nisa.iota,
  // exact in float32 below 2^24 (asserted).
  SymP Ix = S->K == SK::Cast && isFloatTy(S->T) ? S->Ops[0] : S;
  if (IndexView && ((Col && Ix == Col) || (Row && Ix == Row))) {
    N->K = Node::Index;
    N->Ty = DType::F32;
    N->Layout = Ix == Col ? 'c' : 'r';
    PyExpr E = Ix == Col ? ViewEx : ViewEy;
    std::string Why = std::string("the element's ") +
                      (Ix == Col ? "column" : "row") +
                      " is a value, exact in float32 below 2^24";
    if (std::find_if(IndexChecks.begin(), IndexChecks.end(), [&](auto &C) {
          return C.second == Why;
        }) == IndexChecks.end())
      IndexChecks.push_back(
          {PyExpr::compare(E, "<=", PyExpr::integer(1 << 24)), Why});
    Memo[S] = N;
    return N;
  }
  bool Scalar = !P.containsKind(S, SK::Load);
  if (Scalar && (P.contains(S, G(0)) || P.contains(S, G(1)) ||
                 P.contains(S, G(2)) || (Row && P.contains(S, Row)) ||
                 (Col && P.contains(S, Col))))
    return Fail("the element's index is used as a value other than as a "
                "2-D space's row or column (which nisa.iota generates): a "
                "flat index, or arithmetic on the index");
  switch (S->K) {
  case SK::Flt:
    N->K = Node::Scalar;
    N->Val = PyExpr::real(S->F);
    break;
  case SK::Param:
    if (!S->D)
      return Fail("a value with no tile equivalent");
    N->K = Node::Scalar;
    N->Val = PyExpr::name(pyName(S->D->getName()));
    if (auto T = dtypeOf(S->D->getType()))
      N->Ty = *T;
    break;
  case SK::Int:
    N->K = Node::Scalar;
    N->Val = PyExpr::integer(S->I);
    break;
  case SK::Load: {
    auto *PV = cast<ParmVarDecl>(S->D);
    N->K = Node::Load;
    N->Name = PV->getName().str();
    N->Layout = Uses.at(PV).Layout == 'V' ? 'r' : Uses.at(PV).Layout;
    if (auto T = dtypeOf(PV->getType()->getPointeeType()))
      N->Ty = *T;
    break;
  }
  case SK::Cast: {
    NodeP A = node(S->Ops[0], L);
    if (!A)
      return nullptr;
    if (A->K == Node::Scalar) {
      N->K = Node::Scalar;
      N->Val = isFloatTy(S->T) && !isFloatTy(S->Ops[0]->T)
                   ? PyExpr::call("float", {A->Val})
                   : A->Val;
      if (!isFloatTy(S->T) && isFloatTy(S->Ops[0]->T))
        return Fail("a floating value converted to an integer");
      break;
    }
    if (!isFloatTy(S->T) || !isFloatTy(S->Ops[0]->T))
      return Fail("a conversion of integer element values (the tile "
                  "engines compute in float32)");
    N->K = Node::Cast;
    N->A = A;
    break;
  }
  case SK::Bin: {
    if (NodeP Arg = argIndex(S, L)) {
      Memo[S] = Arg;
      return Arg;
    }
    static const std::map<std::string, std::string> Alu = {
        {"+", "nl.add"},      {"-", "nl.subtract"}, {"*", "nl.multiply"},
        {"/", "nl.divide"},   {"max", "nl.maximum"}, {"min", "nl.minimum"},
        {"pow", "nl.power"}};
    auto Fn = Alu.find(S->Op.str());
    if (Fn == Alu.end() || !isFloatTy(S->T))
      return Fail(llvm::formatv("operation '{0}' on {1} element values has "
                                "no tile operation in the lifter{2}",
                                S->Op, isFloatTy(S->T) ? "floating" : "integer",
                                isFloatTy(S->T)
                                    ? ""
                                    : " (the engines compute in float32, "
                                      "exact only below 2^24)")
                      .str());
    NodeP A = node(S->Ops[0], L), B = A ? node(S->Ops[1], L) : nullptr;
    if (!A || !B)
      return nullptr;
    if (A->K == Node::Scalar && B->K == Node::Scalar) {
      N->K = Node::Scalar;
      N->Val = PyExpr::apply(S->Op, A->Val, B->Val);
      break;
    }
    N->K = Node::Bin;
    N->Fn = Fn->second;
    N->A = A;
    N->B = B;
    break;
  }
  case SK::Un: {
    static const std::map<std::string, std::string> Act = {
        {"exp", "nl.exp"},   {"log", "nl.log"},   {"sqrt", "nl.sqrt"},
        {"rsqrt", "nl.rsqrt"}, {"tanh", "nl.tanh"}, {"abs", "nl.abs"},
        {"erf", "nl.erf"},   {"sin", "nl.sin"},   {"cos", "nl.cos"}};
    NodeP A = node(S->Ops[0], L);
    if (!A)
      return nullptr;
    if (S->Op == "neg") {
      if (A->K == Node::Scalar) {
        N->K = Node::Scalar;
        N->Val = PyExpr::unary("-", A->Val);
        break;
      }
      N->K = Node::Bin;
      N->Fn = "nl.multiply";
      N->A = A;
      N->B = std::make_shared<Node>();
      N->B->K = Node::Scalar;
      N->B->Val = PyExpr::real(-1.0);
      N->B->Ty = A->Ty;
      break;
    }
    auto Fn = Act.find(S->Op.str());
    if (Fn == Act.end() || A->K == Node::Scalar)
      return Fail(llvm::formatv("function '{0}' {1} has no tile operation in "
                                "the lifter",
                                S->Op,
                                A->K == Node::Scalar ? "of a scalar"
                                                     : "of element values")
                      .str());
    N->K = Node::Unary;
    N->Fn = Fn->second;
    N->A = A;
    break;
  }
  case SK::Reduce: {
    if (auto Arg = argForm(S)) {
      // The column of the row's best (first or last on ties).
      NodeP A = node(Arg->Vals, L), Best = A ? node(Arg->Best, L) : nullptr;
      auto D = pySize(S->Ops[0]->Ops[1]);
      if (!A || !Best)
        return nullptr;
      if (A->K == Node::Scalar || !D)
        return Fail("an arg-reduction of a value that does not read the "
                    "row");
      N->K = Node::RowArg;
      N->Ty = DType::F32;
      N->A = A;
      N->B = Best;
      N->Depth = *D;
      N->Fn = Arg->Last ? "nl.maximum" : "nl.minimum";
      N->Val = PyExpr::integer(Arg->Last ? SymPool::ArgLow : SymPool::ArgNone);
      break;
    }
    NodeP A = node(S->Ops[1], L);
    if (!A)
      return nullptr;
    auto D = pySize(S->Ops[0]->Ops[1]);
    if (A->K == Node::Scalar || !D)
      return Fail("a sum down the columns of a value that does not read "
                  "them");
    N->K = RedKind == 'W' ? Node::RowRed : Node::ColSum;
    N->Ty = DType::F32;
    if (!isFloatTy(S->T)) {
      // Integers: a max or min of int32 or uint32 elements along the row is
      // exact on 16-bit halves; the engines add and multiply in float32.
      const DType IT = dtypeOfSym(S->T);
      const bool MaxMin = S->Op == "max" || S->Op == "min";
      if (!MaxMin || RedKind != 'W' || (S->T != Ty::I32 && S->T != Ty::U32))
        return Fail(
            llvm::formatv("an integer {0} {1} (the engines compute in float32, "
                          "exact only below 2^24; int32 and uint32 maxima and "
                          "minima along a row are lowered exactly)",
                          S->Op == "+"   ? "sum"
                          : S->Op == "*" ? "product"
                                         : S->Op.str(),
                          RedKind == 'W' ? "along a row" : "down the columns")
                .str());
      if (A->K != Node::Load || A->Ty != IT)
        return Fail(llvm::formatv("an {0} {1} of values that are not {0} "
                                  "elements read from a tensor",
                                  dtypeName(IT), S->Op)
                        .str());
      N->Ty = IT;
    }
    N->A = A;
    N->Depth = *D;
    N->Fn = S->Op == "max"   ? "nl.maximum"
            : S->Op == "min" ? "nl.minimum"
                             : "nl.add";
    break;
  }
  case SK::Select: {
    // `c ? 1 : 0` (or `c ? 0 : 1`) is the comparison's own 0/1 value (the
    // engines' comparison operators give 1.0 and 0.0).
    SymP C = S->Ops[0];
    auto Is = [](SymP X, int V) {
      if (X->K == SK::Cast)
        X = X->Ops[0];
      return (X->K == SK::Flt && X->F == double(V)) ||
             (X->K == SK::Int && X->I == V);
    };
    static const std::map<std::string, std::pair<const char *, const char *>>
        Cmp = {{"==", {"nl.equal", "nl.not_equal"}},
               {"!=", {"nl.not_equal", "nl.equal"}},
               {"<", {"nl.less", "nl.greater_equal"}},
               {"<=", {"nl.less_equal", "nl.greater"}},
               {">", {"nl.greater", "nl.less_equal"}},
               {">=", {"nl.greater_equal", "nl.less"}}};
    bool Pos = Is(S->Ops[1], 1) && Is(S->Ops[2], 0),
         Neg = Is(S->Ops[1], 0) && Is(S->Ops[2], 1);
    auto It = C->K == SK::Cmp ? Cmp.find(C->Op.str()) : Cmp.end();
    if ((Pos || Neg) && It != Cmp.end() && isFloatTy(S->T)) {
      // Integers compare in float32: exact when one side is the element's
      // index (below 2^24, asserted), since rounding keeps the order.
      auto IsIndex = [&](SymP X) {
        return (Col && X == Col) || (Row && X == Row);
      };
      if (!isFloatTy(C->Ops[0]->T) && !IsIndex(C->Ops[0]) &&
          !IsIndex(C->Ops[1]))
        return Fail("a comparison of integers that are not the element's "
                    "index (computed in float32, exact only below 2^24)");
      N->K = Node::Bin;
      N->Ty = DType::F32;
      N->Fn = Pos ? It->second.first : It->second.second;
      N->A = node(C->Ops[0], L);
      N->B = N->A ? node(C->Ops[1], L) : nullptr;
      if (!N->B)
        return nullptr;
      if (N->A->K == Node::Scalar && N->B->K == Node::Scalar)
        return Fail("a comparison of two scalars used as a value");
      break;
    }
    return Fail("a per-element condition (a select that is not a max or "
                "min, nor a comparison's 0/1 value): the current NKI dialect "
                "has no select operation");
  }
  case SK::Cmp:
    return Fail("a per-element condition (a select that is not a max or "
                "min): the current NKI dialect has no select operation");
  default:
    return Fail("a value with no tile equivalent: " + P.str(S));
  }
  Memo[S] = N;
  return N;
}

/// A parameter both read and written: every read is before its stores in
/// the kernel (or inside the stored expression), as the model reads global
/// memory as it was when the kernel started.
bool MapBuilder::readBeforeWrite(const ParmVarDecl *PV) {
  struct Refs : DynamicASTVisitor {
    const ParmVarDecl *PV;
    std::vector<SourceRange> Stores; ///< whole assignments
    std::vector<SourceRange> RHS;
    std::vector<SourceLocation> Reads;
    std::set<const DeclRefExpr *> Written;
    bool Other = false;
    void store(const Expr *LHS, const Expr *Whole, const Expr *Rhs) {
      auto *A = dyn_cast<ArraySubscriptExpr>(LHS->IgnoreParenImpCasts());
      if (!A)
        return;
      auto *D = dyn_cast<DeclRefExpr>(A->getBase()->IgnoreParenImpCasts());
      if (!D || D->getDecl() != PV)
        return;
      Written.insert(D);
      Stores.push_back(Whole->getSourceRange());
      RHS.push_back(Rhs->getSourceRange());
    }
    bool VisitBinaryOperator(BinaryOperator *B) override {
      if (B->isAssignmentOp())
        store(B->getLHS(), B, B->getRHS());
      return true;
    }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *C) override {
      if (C->isAssignmentOp() && C->getNumArgs() == 2)
        store(C->getArg(0), C, C->getArg(1));
      return true;
    }
    bool VisitDeclRefExpr(DeclRefExpr *D) override {
      if (D->getDecl() == PV)
        Reads.push_back(D->getLocation());
      return true;
    }
  } R;
  R.PV = PV;
  R.TraverseStmt(const_cast<clang::Stmt *>(FD->getBody()));
  const SourceManager &SM = TC.SM();
  auto Before = [&](SourceLocation A, SourceLocation B) {
    return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(A),
                                        SM.getExpansionLoc(B));
  };
  auto Within = [&](SourceLocation A, SourceRange Rg) {
    SourceLocation X = SM.getExpansionLoc(A);
    return !Before(X, Rg.getBegin()) && !Before(Rg.getEnd(), X);
  };
  if (R.Stores.empty())
    return false; // stored through a helper or an alias: not followed
  for (SourceLocation L : R.Reads) {
    bool IsStoreBase = false;
    for (SourceRange S : R.Stores)
      if (Within(L, S) && !std::any_of(R.RHS.begin(), R.RHS.end(),
                                       [&](SourceRange Rh) {
                                         return Within(L, Rh);
                                       }))
        IsStoreBase = true;
    if (IsStoreBase)
      continue;
    for (size_t I = 0; I < R.Stores.size(); ++I)
      if (!Before(L, R.Stores[I].getBegin()) && !Within(L, R.RHS[I]))
        return false;
  }
  return true;
}


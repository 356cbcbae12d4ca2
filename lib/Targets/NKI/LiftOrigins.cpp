//===- LiftOrigins.cpp - which source lines became which tile operations --===//
// Rules: PK5001
//
// Every tile operation of a lifted kernel carries its origin (rule, lines of
// the kernel's file, why).  A lifter may set it (Op::From); this pass gives
// every other operation an origin read from the kernel's source, whatever
// lifter made it:
//   - a DMA from a parameter's tensor: the lines that read that parameter;
//   - a DMA to a parameter's tensor: the lines that store to it (an
//     assignment through it, a compound assignment, an atomic on it, a call
//     that takes a pointer to non-const data into it);
//   - an activation or reduction: the lines that call what it computes (the
//     math function, the warp shuffles or atomics of a reduction);
//   - an operation whose result flows, through the tiles that read it, into
//     a DMA to a parameter: the lines of the stores to that parameter, the
//     statements whose values it computes;
//   - any other (a memset of a scratch tile nothing stores): the kernel's
//     body.
// Pointers declared from a parameter (`float *row = out + i * n`) count as
// that parameter.
//
//===----------------------------------------------------------------------===//
#include "Lift.h"
#include "pk/ASTUtil.h"
#include "pk/KernelModel.h"

#include "pk/DynamicVisitor.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <map>
#include <set>

using namespace pk;
using namespace pk::nki;
using namespace clang;

namespace {

using pk::nki::Stmt;

/// The lines of the kernel's file at which each parameter (or a pointer
/// declared from it) is read and written.
struct ParamLines {
  std::map<const ValueDecl *, std::set<unsigned>> Reads, Writes;
  /// The lines that call each function (by name).
  std::map<std::string, std::set<unsigned>> Calls;
};

/// Whether a call of \p Name computes what the operation \p O computes:
/// its math function (the kernel model's reading of the call, km::
/// mathUnaryOp: nl.exp for expf, __expf, exp; nl.maximum for fmaxf, max),
/// or, for a tensor_reduce, a warp collective or atomic that combines
/// across lanes.
bool computes(const Op &O, llvm::StringRef Name) {
  if (O.Kind == OpKind::Reduce &&
      (Name.starts_with("__shfl") || Name.starts_with("__reduce_") ||
       Name.starts_with("atomic") || Name == "reduce"))
    return true;
  if (O.Kind != OpKind::Activation && O.Kind != OpKind::Reduce &&
      O.Kind != OpKind::TensorTensor)
    return false;
  llvm::StringRef Fn = O.Fn;
  if (!Fn.consume_front("nl."))
    return false;
  llvm::StringRef U = km::mathUnaryOp(Name), B = km::mathBinaryOp(Name);
  return (!U.empty() && U == Fn) || (B == "max" && Fn == "maximum") ||
         (B == "min" && Fn == "minimum");
}

class ParamUseVisitor : public DynamicASTVisitor {
public:
  ParamUseVisitor(const SourceManager &SM, FileID File, ParamLines &Out)
      : SM(SM), File(File), Out(Out) {}

  std::map<const VarDecl *, const ParmVarDecl *> Alias;

  /// The parameter a pointer expression is based on: through parentheses,
  /// casts, pointer arithmetic and address-of-element, and the pointers
  /// declared from a parameter.
  const ParmVarDecl *baseParam(const Expr *E) const {
    for (int Depth = 0; E && Depth < 16; ++Depth) {
      E = E->IgnoreParenCasts();
      if (auto *DRE = dyn_cast<DeclRefExpr>(E)) {
        if (auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl()))
          return P;
        if (auto *V = dyn_cast<VarDecl>(DRE->getDecl())) {
          auto It = Alias.find(V);
          return It == Alias.end() ? nullptr : It->second;
        }
        return nullptr;
      }
      if (auto *AS = dyn_cast<ArraySubscriptExpr>(E))
        E = AS->getBase();
      else if (auto *UO = dyn_cast<UnaryOperator>(E)) {
        if (UO->getOpcode() != UO_Deref && UO->getOpcode() != UO_AddrOf)
          return nullptr;
        E = UO->getSubExpr();
      } else if (auto *BO = dyn_cast<BinaryOperator>(E)) {
        if (!BO->isAdditiveOp())
          return nullptr;
        E = BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                      : BO->getRHS();
      } else if (auto *ME = dyn_cast<MemberExpr>(E))
        E = ME->getBase(); // a field of an element (float2 .x)
      else
        return nullptr;
    }
    return nullptr;
  }

  unsigned lineOf(SourceLocation L) const {
    L = SM.getFileLoc(L);
    if (L.isInvalid() || SM.getFileID(L) != File)
      return 0;
    return SM.getSpellingLineNumber(L);
  }

  void note(std::map<const ValueDecl *, std::set<unsigned>> &M,
            const ParmVarDecl *P, SourceLocation L) {
    if (unsigned Line = P ? lineOf(L) : 0)
      M[P].insert(Line);
  }

  bool VisitVarDecl(VarDecl *V) override {
    // A pointer declared from a parameter, or a reference to an element
    // of one (`float &o = y[i]`).
    if ((V->getType()->isPointerType() || V->getType()->isReferenceType()) &&
        V->getInit())
      if (const ParmVarDecl *P = baseParam(V->getInit())) {
        Alias[V] = P;
        if (V->getType()->isReferenceType())
          Refs.insert(V);
      }
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *BO) override {
    if (BO->isAssignmentOp())
      assignment(BO->getLHS(), BO->isCompoundAssignmentOp(),
                 BO->getOperatorLoc());
    return true;
  }
  /// An assignment of a class type (__half, __nv_bfloat16, float2 with
  /// operators): operator= or a compound operator on the element.
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) override {
    if (OC->isAssignmentOp() && OC->getNumArgs() == 2)
      assignment(OC->getArg(0), OC->getOperator() != OO_Equal,
                 OC->getOperatorLoc());
    return true;
  }

  bool VisitCallExpr(CallExpr *CE) override {
    // By name as written (a template's unresolved calls too).
    llvm::StringRef Name = calleeName(CE);
    if (unsigned Line = Name.empty() ? 0 : lineOf(CE->getBeginLoc()))
      Out.Calls[Name.str()].insert(Line);
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD || !FD->getIdentifier() || CE->getNumArgs() == 0)
      return true;
    // A pointer into a parameter passed to a function: written through
    // when the function's parameter points to non-const data (an atomic,
    // wmma::store_matrix_sync, a user helper), read when to const data
    // (wmma::load_matrix_sync).
    for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
      const Expr *A = CE->getArg(I);
      // An element of a parameter bound to a reference parameter: written
      // through when the reference is to non-const data.
      if (I < FD->getNumParams() &&
          FD->getParamDecl(I)->getType()->isLValueReferenceType() &&
          !A->getType()->isPointerType()) {
        const ParmVarDecl *P = baseParam(A);
        if (!P)
          continue;
        if (!FD->getParamDecl(I)
                 ->getType()
                 ->getPointeeType()
                 .isConstQualified()) {
          note(Out.Writes, P, CE->getBeginLoc());
          markStored(A);
        }
        note(Out.Reads, P, CE->getBeginLoc());
        continue;
      }
      if (!A->getType()->isPointerType())
        continue;
      const ParmVarDecl *P = baseParam(A);
      if (!P)
        continue;
      bool Writes = FD->getName().starts_with("atomic");
      if (!Writes && I < FD->getNumParams()) {
        QualType T = FD->getParamDecl(I)->getType();
        Writes = T->isPointerType() && !T->getPointeeType().isConstQualified();
      }
      if (Writes) {
        note(Out.Writes, P, CE->getBeginLoc());
        markStored(A);
      }
      note(Out.Reads, P, CE->getBeginLoc());
    }
    return true;
  }

  /// Every other access through a parameter is a read (a subscript or
  /// dereference whose value is used).
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *AS) override {
    if (!Stored.count(AS))
      note(Out.Reads, baseParam(AS), AS->getBeginLoc());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) override {
    if (UO->getOpcode() == UO_Deref && !Stored.count(UO))
      note(Out.Reads, baseParam(UO), UO->getBeginLoc());
    return true;
  }

private:
  /// A store through a pointer: p[i] = v, *p = v, p[i].x = v (not the
  /// pointer variable itself being assigned).
  void assignment(const Expr *LHS, bool Compound, SourceLocation Loc) {
    const Expr *L = LHS->IgnoreParenCasts();
    auto *DR = dyn_cast<DeclRefExpr>(L);
    bool Ref = DR && isa<VarDecl>(DR->getDecl()) &&
               Refs.count(cast<VarDecl>(DR->getDecl()));
    if (!Ref && !isa<ArraySubscriptExpr>(L) && !isa<MemberExpr>(L) &&
        !(isa<UnaryOperator>(L) &&
          cast<UnaryOperator>(L)->getOpcode() == UO_Deref))
      return;
    const ParmVarDecl *P = baseParam(L);
    note(Out.Writes, P, Loc);
    if (Compound)
      note(Out.Reads, P, Loc);
    markStored(L);
  }

  /// The stored-to element and what names it (a field's element, the
  /// element whose address an atomic takes).
  void markStored(const Expr *E) {
    for (int Depth = 0; E && Depth < 8; ++Depth) {
      E = E->IgnoreParenCasts();
      Stored.insert(E);
      if (auto *ME = dyn_cast<MemberExpr>(E))
        E = ME->getBase();
      else if (auto *UO = dyn_cast<UnaryOperator>(E);
               UO && UO->getOpcode() == UO_AddrOf)
        E = UO->getSubExpr();
      else
        break;
    }
  }

  const SourceManager &SM;
  FileID File;
  ParamLines &Out;
  /// Stored-to expressions, visited before their subexpressions (the
  /// visitor is pre-order), so they are not counted as reads.
  std::set<const Expr *> Stored;
  /// References to an element of a parameter (Alias holds which).
  std::set<const VarDecl *> Refs;
};

std::string lineText(const std::set<unsigned> &Lines) {
  if (Lines.empty())
    return "";
  if (Lines.size() == 1)
    return llvm::formatv("line {0}", *Lines.begin()).str();
  if (*Lines.rbegin() - *Lines.begin() + 1 == Lines.size())
    return llvm::formatv("lines {0}-{1}", *Lines.begin(), *Lines.rbegin())
        .str();
  std::string R = "lines ";
  bool First = true;
  for (unsigned L : Lines) {
    R += (First ? "" : ", ") + std::to_string(L);
    First = false;
  }
  return R;
}

void flatten(std::vector<Stmt> &Body, std::vector<Op *> &Ops) {
  for (Stmt &S : Body) {
    if (S.K == Stmt::LoopStmt)
      flatten(S.L->Body, Ops);
    else if (S.K == Stmt::OpStmt && S.O.Kind != OpKind::Alloc)
      Ops.push_back(&S.O);
  }
}

} // namespace

void nki::attributeOrigins(const TargetContext &TC, const FunctionDecl *FD,
                           Kernel &K) {
  const SourceManager &SM = TC.SM();
  const clang::Stmt *Body = FD->getBody();
  if (!Body)
    return;
  SourceLocation KB = SM.getFileLoc(Body->getBeginLoc()),
                 KE = SM.getFileLoc(Body->getEndLoc());
  FileID File = SM.getFileID(KB);
  Origin Whole;
  Whole.Line = SM.getSpellingLineNumber(KB);
  Whole.EndLine = SM.getFileID(KE) == File ? SM.getSpellingLineNumber(KE)
                                           : Whole.Line;
  Whole.Why = "the kernel's " + K.Family;

  ParamLines PL;
  ParamUseVisitor V(SM, File, PL);
  V.TraverseStmt(const_cast<clang::Stmt *>(Body));

  // The tensors of the parameters, by their Python names.
  // An in-out parameter's output is a copy returned in its place (`y_out`,
  // the lifters' name for it).
  // The parameters' own names first: a copy's name never takes the place of
  // a parameter that has it.
  std::map<std::string, const ParmVarDecl *> TensorParam;
  std::vector<std::pair<std::string, const ParmVarDecl *>> Copies;
  for (const Param &P : K.Params) {
    if (!P.IsTensor)
      continue;
    for (const ParmVarDecl *D : FD->parameters())
      if (D->getName() == P.Name) {
        std::string Py = P.PyName.empty() ? P.Name : P.PyName;
        TensorParam[Py] = D;
        if (P.R == Param::InOut)
          Copies.push_back({Py + "_out", D});
      }
  }
  for (const auto &[Name, D] : Copies)
    TensorParam.emplace(Name, D);
  auto ParamOf = [&](const Access &A) -> const ParmVarDecl * {
    auto It = TensorParam.find(A.Tensor);
    return It == TensorParam.end() ? nullptr : It->second;
  };
  auto Range = [&](const std::set<unsigned> &Lines, std::string Why) {
    Origin O;
    O.Line = *Lines.begin();
    O.EndLine = *Lines.rbegin();
    O.Why = std::move(Why);
    return O;
  };

  std::vector<Op *> Ops;
  flatten(K.Body, Ops);
  // Which parameters each tile's values reach: backwards over the program,
  // twice for what a loop carries to its next iteration.
  std::map<std::string, std::set<const ParmVarDecl *>> Feeds;
  auto Reaches = [&](const Op &O) {
    std::set<const ParmVarDecl *> R;
    if (O.Kind == OpKind::DmaCopy)
      if (const ParmVarDecl *P = ParamOf(O.Dst))
        R.insert(P);
    auto It = Feeds.find(O.Dst.Tensor);
    if (It != Feeds.end())
      R.insert(It->second.begin(), It->second.end());
    return R;
  };
  for (int Round = 0; Round < 2; ++Round)
    for (auto I = Ops.rbegin(); I != Ops.rend(); ++I) {
      std::set<const ParmVarDecl *> R = Reaches(**I);
      if (R.empty())
        continue;
      for (const Operand &S : (*I)->Srcs)
        if (S.IsTile && !ParamOf(S.Tile))
          Feeds[S.Tile.Tensor].insert(R.begin(), R.end());
    }

  for (Op *O : Ops) {
    if (O->From.known())
      continue;
    if (O->Kind == OpKind::DmaCopy) {
      if (const ParmVarDecl *P = ParamOf(O->Dst)) {
        const std::set<unsigned> &L = PL.Writes[P];
        if (!L.empty()) {
          O->From = Range(L, llvm::formatv("the stores to '{0}' ({1})",
                                           P->getName(), lineText(L)));
          continue;
        }
      }
      if (!O->Srcs.empty() && O->Srcs[0].IsTile)
        if (const ParmVarDecl *P = ParamOf(O->Srcs[0].Tile)) {
          const std::set<unsigned> &L = PL.Reads[P];
          if (!L.empty()) {
            O->From = Range(L, llvm::formatv("the reads of '{0}' ({1})",
                                             P->getName(), lineText(L)));
            continue;
          }
        }
    }
    std::set<const ParmVarDecl *> R = Reaches(*O);
    std::set<unsigned> Lines;
    std::string Names;
    for (const ParmVarDecl *P : R) {
      const std::set<unsigned> &W = PL.Writes[P];
      if (W.empty())
        continue;
      Lines.insert(W.begin(), W.end());
      Names += (Names.empty() ? "'" : ", '") + P->getName().str() + "'";
    }
    std::string Toward =
        Lines.empty() ? ""
                      : llvm::formatv("what {0} store{1} to {2}",
                                      lineText(Lines),
                                      Lines.size() == 1 ? "s" : "", Names)
                            .str();
    // The calls in the kernel that the operation computes: a math
    // function, a reduction's collectives.
    std::set<unsigned> CallLines;
    std::vector<std::string> Called;
    for (const auto &[Name, Lines] : PL.Calls)
      if (computes(*O, Name)) {
        CallLines.insert(Lines.begin(), Lines.end());
        Called.push_back(Name);
      }
    if (!CallLines.empty()) {
      O->From = Range(
          CallLines,
          llvm::formatv("{0} ({1}){2}{3}", llvm::join(Called, ", "),
                        lineText(CallLines), Toward.empty() ? "" : ", toward ",
                        Toward));
      continue;
    }
    if (!Lines.empty()) {
      O->From = Range(Lines, "computes " + Toward);
      continue;
    }
    O->From = Whole;
  }
}

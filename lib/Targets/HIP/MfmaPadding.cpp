//===- MfmaPadding.cpp - LDS row pitch of MFMA staging arrays (PK3017) ----===//
// Rules: PK3017
//
// An array's row pitch can change when its elements are only reached by
// full subscripts (`S[i][j]`, any number of dimensions) and by the pointer
// arguments of fragment loads and stores whose leading dimension is the row
// pitch: every element keeps its indices, only the distance between rows
// changes.  The pitch grows (never shrinks), so any column index that was in
// bounds stays in bounds.  Any other use (a pointer kept or passed on,
// sizeof, a cast) keeps the pitch as written.  Fragment calls on other
// shared memory (dynamic, 1-D with a hand-made pitch) get advice only.
//
//===----------------------------------------------------------------------===//
#include "MfmaPadding.h"
#include "MfmaRules.h"
#include "pk/ASTUtil.h"
#include "pk/Rules.h"

#include "pk/DynamicVisitor.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/FormatVariadic.h"

#include <set>

using namespace pk;
using namespace pk::mfma;
using namespace clang;

namespace {

constexpr uint64_t LdsBytes =
    64 * 1024; // a CU's LDS (a workgroup's most), gfx90a, gfx942

/// `&S[i]..[j]` or `S[i]..[k]` (decayed) with S a variable: S, the number
/// of subscripts, and whether the address is taken.
const VarDecl *subscripted(const Expr *E, unsigned &Depth, bool &AddrOf) {
  E = E->IgnoreParenImpCasts();
  const auto *U = dyn_cast<UnaryOperator>(E);
  AddrOf = U && U->getOpcode() == UO_AddrOf;
  return subscriptBase(AddrOf ? U->getSubExpr() : E, &Depth);
}

const char *instruction(lds::Mapping M) {
  return M == lds::Mapping::Pair16 ? "v_mfma_f32_16x16x16"
                                   : "v_mfma_f32_32x32x8";
}

/// References to the candidate arrays, and the __shared__ bytes per function.
class Refs : public DynamicASTVisitor {
public:
  explicit Refs(const std::set<const VarDecl *> &Want) : Want(Want) {}
  bool VisitDeclRefExpr(DeclRefExpr *E) override {
    if (const auto *V = dyn_cast<VarDecl>(E->getDecl()); V && Want.count(V))
      Of[V].push_back(E);
    return true;
  }
  bool VisitVarDecl(VarDecl *V) override {
    if (V->hasAttr<CUDASharedAttr>() && !V->getType()->isDependentType() &&
        V->getType()->isConstantSizeType() && !V->hasExternalStorage())
      Shared[V->getParentFunctionOrMethod()] +=
          V->getASTContext().getTypeSizeInChars(V->getType()).getQuantity();
    return true;
  }
  const std::set<const VarDecl *> &Want;
  std::map<const VarDecl *, std::vector<const DeclRefExpr *>> Of;
  std::map<const DeclContext *, uint64_t> Shared;
};

struct Staged {
  const VarDecl *V = nullptr;
  std::vector<uint64_t> Dims;
  uint64_t ElemBytes = 0;
  std::vector<const StagingOp *> Ops;
  std::vector<lds::Use> Uses;
  std::string Blocked; // why the pitch is kept
  bool Tell = true;    // whether that is worth a note
};

class Planner {
public:
  Planner(TargetContext &TC, const std::vector<StagingOp> &Ops)
      : TC(TC), Ctx(TC.Ctx()), Ops(Ops) {}

  void run() {
    collect();
    advise();
    if (Arrays.empty())
      return;
    std::set<const VarDecl *> Want;
    for (auto &[V, S] : Arrays)
      Want.insert(V);
    Refs R(Want);
    R.TraverseDecl(Ctx.getTranslationUnitDecl());
    for (auto &[V, S] : Arrays) {
      if (S.Blocked.empty())
        checkRefs(S, R.Of[V]);
      // Shared bytes of the function, with the growth already planned.
      plan(S, R.Shared[V->getParentFunctionOrMethod()]);
    }
  }

private:
  TargetContext &TC;
  ASTContext &Ctx;
  const std::vector<StagingOp> &Ops;
  llvm::MapVector<const VarDecl *, Staged> Arrays;
  /// The pointer arguments of the fragment operations (outermost node).
  std::set<const Expr *> FragPtrs;

  unsigned line(SourceLocation L) const {
    return TC.SM().getExpansionLineNumber(L);
  }
  /// Keeps the pitch of \p S; \p Tell: say why when the accesses conflict
  /// (not when the array is not a row-per-row tile: its cost is not known).
  void block(Staged &S, std::string Why, bool Tell = true) {
    if (S.Blocked.empty())
      S.Blocked = std::move(Why);
    S.Tell = S.Tell && Tell;
  }

  void collect() {
    for (const StagingOp &Op : Ops) {
      unsigned Depth;
      bool AddrOf;
      const VarDecl *V = subscripted(Op.Ptr, Depth, AddrOf);
      QualType Elem;
      std::vector<uint64_t> D;
      if (V && V->hasAttr<CUDASharedAttr>())
        D = constantArrayDims(V->getType(), &Elem);
      if (D.size() < 2 || Elem->isDependentType() || Elem->isIncompleteType() ||
          !TC.isUserLoc(V->getLocation())) {
        loose(Op); // shared memory reached otherwise: advice only
        continue;
      }
      Staged &S = Arrays[V];
      S.V = V;
      S.Dims = D;
      S.ElemBytes = Ctx.getTypeSizeInChars(Elem).getQuantity();
      S.Ops.push_back(&Op);
      const unsigned Line = line(Op.Call->getBeginLoc());
      if (!(AddrOf ? Depth == D.size() : Depth + 1 == D.size())) {
        block(S, llvm::formatv("the fragment pointer at line {0} is not the "
                               "address of an element",
                               Line));
        continue;
      }
      FragPtrs.insert(Op.Ptr->IgnoreParenImpCasts());
      if (Op.Traffic.empty()) {
        block(S, llvm::formatv("the fragment layout at line {0} is not known",
                               Line));
        continue;
      }
      for (lds::Traffic T : Op.Traffic)
        for (int Parity = 0; Parity < (Op.M == lds::Mapping::Tile32 ? 2 : 1);
             ++Parity)
          S.Uses.push_back({Op.M, T, Parity});
      std::optional<llvm::APSInt> Ld = Op.Ld->isValueDependent()
                                           ? std::nullopt
                                           : Op.Ld->getIntegerConstantExpr(Ctx);
      if (!Ld)
        block(S,
              llvm::formatv("the leading dimension at line {0} is not a "
                            "constant",
                            Line),
              false);
      else if (Ld->getExtValue() != (int64_t)D.back())
        block(S,
              llvm::formatv("the leading dimension at line {0} ({1}) is not "
                            "the row pitch ({2})",
                            Line, Ld->getExtValue(), D.back()),
              false);
    }
  }

  // ---- shared memory that is not a constant-size array of rows ------------

  /// Fragment operations on shared memory that PK3017 cannot re-plan (dynamic
  /// shared memory, 1-D arrays with a hand-made pitch, pointers into them),
  /// by (the shared variable, leading dimension, element size).
  std::map<std::tuple<const VarDecl *, int64_t, unsigned>,
           std::vector<const StagingOp *>>
      Loose;

  /// The __shared__ variable \p E points into (through subscripts, pointer
  /// arithmetic, casts and local pointers initialised from one), or null.
  static const VarDecl *sharedRoot(const Expr *E, int Hops = 0) {
    while (true) {
      E = E->IgnoreParenCasts();
      if (const auto *U = dyn_cast<UnaryOperator>(E);
          U && U->getOpcode() == UO_AddrOf)
        E = U->getSubExpr();
      else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
        E = AS->getBase();
      else if (const auto *BO = dyn_cast<BinaryOperator>(E);
               BO && BO->isAdditiveOp())
        E = BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                     : BO->getRHS();
      else
        break;
    }
    const auto *DR = dyn_cast<DeclRefExpr>(E);
    const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    if (!V)
      return nullptr;
    if (V->hasAttr<CUDASharedAttr>())
      return V;
    if (Hops < 4 && V->hasLocalStorage() && V->getType()->isPointerType() &&
        V->getInit())
      return sharedRoot(V->getInit(), Hops + 1);
    return nullptr;
  }

  void loose(const StagingOp &Op) {
    const VarDecl *Root = sharedRoot(Op.Ptr);
    QualType Pointee = Op.Ptr->getType()->getPointeeType();
    if (!Root || Op.Traffic.empty() || Pointee.isNull() ||
        Pointee->isIncompleteType() || Pointee->isDependentType() ||
        Op.Ld->isValueDependent())
      return;
    std::optional<llvm::APSInt> Ld = Op.Ld->getIntegerConstantExpr(Ctx);
    if (!Ld || Ld->getExtValue() <= 0)
      return;
    const unsigned ES = Ctx.getTypeSizeInChars(Pointee).getQuantity();
    Loose[{Root, Ld->getExtValue(), ES}].push_back(&Op);
  }

  /// A note where a constant leading dimension makes the fragment accesses
  /// conflict and a larger one would not: the user can change it by hand.
  void advise() {
    for (const auto &[Key, Group] : Loose) {
      const auto &[Root, Ld, ES] = Key;
      std::vector<lds::Use> Uses;
      for (const StagingOp *Op : Group)
        for (lds::Traffic T : Op->Traffic)
          for (int Parity = 0; Parity < (Op->M == lds::Mapping::Tile32 ? 2 : 1);
               ++Parity)
            Uses.push_back({Op->M, T, Parity});
      lds::PitchPlan Plan = lds::planPitch(Uses, ES, Ld);
      if (Plan.Pitch == Ld)
        continue;
      TC.finding(
          Group.front()->Call->getBeginLoc(), RuleId::PK3017, Severity::Note,
          llvm::formatv("the MFMA fragment loads and stores on '{0}' with "
                        "leading dimension {1} ({2}) take {3} LDS cycles; "
                        "with a row pitch and leading dimension of {4} they "
                        "would take {5} (conflict-free: {6}). The pitch is "
                        "not re-planned here: only __shared__ arrays of "
                        "constant size reached as S[i][j] are",
                        Root->getName(), Ld, instruction(Group.front()->M),
                        Plan.Before.Cycles, Plan.Pitch, Plan.After.Cycles,
                        Plan.After.Ideal)
              .str());
    }
  }

  const Expr *parentExpr(const Expr *E) {
    auto Ps = TC.parents(*E);
    return Ps.size() == 1 ? Ps[0].get<Expr>() : nullptr;
  }

  /// Every reference is a full subscript or inside a fragment pointer.
  void checkRefs(Staged &S, const std::vector<const DeclRefExpr *> &Rs) {
    for (const DeclRefExpr *R : Rs) {
      const Expr *Cur = R;
      unsigned Depth = 0;
      while (const Expr *P = parentExpr(Cur)) {
        if (isa<ParenExpr>(P)) {
          Cur = P;
          continue;
        }
        if (const auto *IC = dyn_cast<ImplicitCastExpr>(P);
            IC && IC->getCastKind() == CK_ArrayToPointerDecay) {
          Cur = P;
          continue;
        }
        if (const auto *AS = dyn_cast<ArraySubscriptExpr>(P);
            AS && AS->getBase() == Cur) {
          ++Depth;
          Cur = P;
          continue;
        }
        break;
      }
      bool Ok;
      if (Depth == S.Dims.size()) {
        // An element: fine unless its address is taken outside a fragment
        // operation.
        const Expr *P = parentExpr(Cur);
        while (P && isa<ParenExpr>(P))
          P = parentExpr(P);
        const auto *U = dyn_cast_or_null<UnaryOperator>(P);
        Ok = !U || U->getOpcode() != UO_AddrOf || FragPtrs.count(U);
      } else {
        Ok = FragPtrs.count(Cur->IgnoreParenImpCasts()) != 0;
      }
      if (!Ok) {
        block(S, llvm::formatv("line {0} uses '{1}' other than as an element",
                               line(R->getBeginLoc()), S.V->getName()));
        return;
      }
    }
  }

  /// The file range of \p E (its tokens as written in a user file).
  bool fileRange(const Expr *E, std::string &File, unsigned &B, unsigned &Len) {
    CharSourceRange FR = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(E->getSourceRange()), TC.SM(),
        Ctx.getLangOpts());
    if (FR.isInvalid() || !TC.isUserLoc(FR.getBegin()))
      return false;
    File = TC.fileOf(FR.getBegin());
    B = TC.SM().getFileOffset(FR.getBegin());
    unsigned E2 = TC.SM().getFileOffset(FR.getEnd());
    if (E2 <= B)
      return false;
    Len = E2 - B;
    return true;
  }

  /// `E + Add`, parenthesised unless E binds at least as tightly as '+'.
  static std::string plus(const Expr *E, llvm::StringRef Text, int64_t Add) {
    const Expr *I = E->IgnoreImpCasts();
    bool Tight = isa<IntegerLiteral>(I) || isa<DeclRefExpr>(I) ||
                 isa<ParenExpr>(I) || isa<CallExpr>(I);
    if (const auto *BO = dyn_cast<BinaryOperator>(I))
      Tight = BO->isAdditiveOp() || BO->isMultiplicativeOp();
    return llvm::formatv(Tight ? "{0} + {1}" : "({0}) + {1}", Text, Add).str();
  }

  void plan(Staged &S, uint64_t &SharedBytes) {
    const int64_t Pitch = S.Dims.back();
    if (S.Uses.empty())
      return;
    lds::PitchPlan Plan = lds::planPitch(S.Uses, S.ElemBytes, Pitch);
    const lds::Cost &Now = Plan.Before;
    const char *Instr = instruction(S.Ops.front()->M);
    const std::string Name = S.V->getName().str();
    auto note = [&](const std::string &Msg) {
      TC.finding(S.V->getLocation(), RuleId::PK3017, Severity::Note, Msg);
    };
    if (!S.Blocked.empty()) {
      if (S.Tell && Now.Cycles > Now.Ideal)
        note(llvm::formatv("'{0}': the MFMA fragment loads and stores ({1}) "
                           "take {2} LDS cycles where {3} would be "
                           "conflict-free, but the row pitch is kept: {4}",
                           Name, Instr, Now.Cycles, Now.Ideal, S.Blocked)
                 .str());
      return;
    }
    if (Plan.Pitch == Pitch)
      return; // conflict-free already, or nothing better within a turn
    uint64_t Rows = 1;
    for (size_t I = 0; I + 1 < S.Dims.size(); ++I)
      Rows *= S.Dims[I];
    const uint64_t Growth = Rows * (Plan.Pitch - Pitch) * S.ElemBytes;
    if (SharedBytes + Growth > LdsBytes) {
      note(llvm::formatv("'{0}': the row pitch is kept: {1} more bytes of "
                         "shared memory would exceed the 64 KiB of LDS",
                         Name, Growth)
               .str());
      return;
    }
    // Fewer workgroups per CU would cost more than the conflicts.
    const uint64_t Fit = workgroupsPerCU(S.V, SharedBytes),
                   FitAfter = workgroupsPerCU(S.V, SharedBytes + Growth);
    if (FitAfter < Fit && TC.Opts.Padding != LdsPadding::Always) {
      note(llvm::formatv(
               "'{0}': the row pitch is kept: {1} more bytes of "
               "shared memory would lower the workgroups that fit in "
               "a CU from {2} to {3} (64 KiB of LDS); the MFMA fragment "
               "loads and stores ({4}) take {5} LDS cycles where {6} "
               "would be conflict-free, {7} with a pitch of {8} "
               "(--lds-padding=always re-plans it anyway)",
               Name, Growth, Fit, FitAfter, Instr, Now.Cycles, Now.Ideal,
               Plan.After.Cycles, Plan.Pitch)
               .str());
      return;
    }
    // Every edit's range first: all or nothing.
    const Expr *Size = declaredPitch(S.V);
    struct Site {
      const Expr *E;
      std::string File;
      unsigned B = 0, Len = 0;
    };
    if (!Size) {
      note(llvm::formatv("'{0}': the row pitch is kept: its array type is "
                         "named through an alias",
                         Name)
               .str());
      return;
    }
    std::vector<Site> Sites = {{Size}};
    for (const StagingOp *Op : S.Ops)
      Sites.push_back({Op->Ld});
    for (Site &St : Sites)
      if (!fileRange(St.E, St.File, St.B, St.Len)) {
        note(llvm::formatv("'{0}': the row pitch is kept: {1} at line {2} is "
                           "written inside a macro",
                           Name,
                           St.E == Size ? "its last dimension"
                                        : "the leading dimension",
                           line(St.E->getBeginLoc()))
                 .str());
        return;
      }
    const int64_t Add = Plan.Pitch - Pitch;
    std::string Why = llvm::formatv(
        "row pitch of '{0}' {1} -> {2} elements ({3} -> {4} bytes): the MFMA "
        "fragment loads and stores ({5}) take {6} -> {7} LDS cycles "
        "(conflict-free: {8}; 32 banks x 4 bytes, 128 bytes per phase)",
        Name, Pitch, Plan.Pitch, Pitch * S.ElemBytes, Plan.Pitch * S.ElemBytes,
        Instr, Now.Cycles, Plan.After.Cycles, Plan.After.Ideal);
    std::set<std::pair<std::string, unsigned>> Done;
    for (const Site &St : Sites) {
      if (!Done.insert({St.File, St.B}).second)
        continue; // one leading dimension reached twice (a template)
      std::string Text = TC.contents(St.File).substr(St.B, St.Len).str();
      TC.edit(St.File, St.B, St.Len, plus(St.E, Text, Add), RuleId::PK3017,
              Why);
    }
    note(Why + llvm::formatv("; shared memory +{0} bytes", Growth).str());
    SharedBytes += Growth;
  }

  /// Workgroups of \p V's kernel that fit in one CU with \p Bytes of LDS
  /// each: the LDS bound, capped by the 32 waves a CU holds (4 SIMDs x 8 on
  /// gfx90a and gfx942) for the block size of __launch_bounds__ (one wave per
  /// workgroup when there is none: the most workgroups possible).
  uint64_t workgroupsPerCU(const VarDecl *V, uint64_t Bytes) {
    uint64_t Waves = 1;
    if (const auto *FD =
            dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod()))
      if (const auto *LB = FD->getAttr<CUDALaunchBoundsAttr>())
        if (std::optional<llvm::APSInt> N =
                LB->getMaxThreads()->isValueDependent()
                    ? std::nullopt
                    : LB->getMaxThreads()->getIntegerConstantExpr(Ctx))
          Waves = std::max<uint64_t>(1, (N->getZExtValue() + 63) / 64);
    const uint64_t ByWaves = 32 / Waves;
    return Bytes ? std::min(ByWaves, LdsBytes / Bytes) : ByWaves;
  }

  /// The size expression of the declaration's last dimension.
  const Expr *declaredPitch(const VarDecl *V) {
    const TypeSourceInfo *TSI = V->getTypeSourceInfo();
    if (!TSI)
      return nullptr;
    TypeLoc TL = TSI->getTypeLoc();
    const Expr *Last = nullptr;
    while (true) {
      TL = TL.IgnoreParens();
      auto AT = TL.getAs<ArrayTypeLoc>();
      if (!AT)
        break;
      Last = AT.getSizeExpr();
      TL = AT.getElementLoc();
    }
    return Last;
  }
};

} // namespace

void mfma::planLdsPadding(TargetContext &TC,
                          const std::vector<StagingOp> &Ops) {
  Planner(TC, Ops).run();
}

/// mem_row_major (true) or mem_col_major (false) as a constant argument.
static std::optional<bool> memRowMajor(const Expr *E) {
  const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *EC = DR ? dyn_cast<EnumConstantDecl>(DR->getDecl()) : nullptr;
  if (EC && EC->getName() == "mem_row_major")
    return true;
  if (EC && EC->getName() == "mem_col_major")
    return false;
  return std::nullopt;
}

void mfma::planStagingPadding(TargetContext &TC, const FragmentPlan &P,
                              const WarpTiles &Tiles, MfmaShape Shape) {
  std::vector<StagingOp> Ops;
  for (const FragCall &C : P.Calls) {
    const bool Load = C.Name == "load_matrix_sync";
    if ((!Load && C.Name != "store_matrix_sync") || C.CE->getNumArgs() < 3)
      continue;
    const Expr *Frag = C.CE->getArg(Load ? 0 : 1);
    auto FT = fragType(Frag->getType());
    if (!FT || FT->Dependent || !FT->supported())
      continue;
    StagingOp Op;
    Op.Call = C.CE;
    Op.Ptr = C.CE->getArg(Load ? 1 : 0);
    Op.Ld = C.CE->getArg(2);
    // The helper mapping the call gets: a tile's, the diagonal blocks of
    // one 32x32x8 (--mfma-shape=32x32x8), or a 16x16x16 per logical warp.
    const VarDecl *Arr = subscriptBase(Frag);
    Op.M = Arr && Tiles.Fused.count(Arr)  ? lds::Mapping::Tile32
           : Shape == MfmaShape::M32N32K8 ? lds::Mapping::Diagonal32
                                          : lds::Mapping::Pair16;
    if (FT->U == Use::Acc) {
      std::optional<bool> Row =
          C.CE->getNumArgs() > 3 ? memRowMajor(C.CE->getArg(3)) : std::nullopt;
      if (!Row || *Row)
        Op.Traffic.push_back(lds::Traffic::AccRowMajor);
      if (!Row || !*Row)
        Op.Traffic.push_back(Load ? lds::Traffic::AccColMajorLoad
                                  : lds::Traffic::AccColMajorStore);
    } else if (FT->RowMajor) {
      Op.Traffic.push_back((FT->U == Use::A) == *FT->RowMajor
                               ? lds::Traffic::OperandContiguous
                               : lds::Traffic::OperandStrided);
    }
    Ops.push_back(std::move(Op));
  }
  planLdsPadding(TC, Ops);
}

//===- LiftRowsRead.h - the row reader of the kernel model's traces -------===//
// Rules: none (declarations)
//
// The reader of LiftRows.cpp (its run in LiftRowsRun.cpp): what a trace
// of the kernel model computes, as a row program.
//
//===----------------------------------------------------------------------===//
#ifndef PK_NKI_LIFTROWSREAD_H
#define PK_NKI_LIFTROWSREAD_H

#include "LiftRowsImpl.h"
#include "LiftSym.h"

#include "pk/DynamicVisitor.h"
#include "clang/AST/ASTContext.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <functional>
#include <set>
#include <unordered_map>

namespace rowsread {

using namespace pk;
using namespace pk::nki;
using namespace pk::nki::rows;
using namespace pk::km;
using namespace clang;

struct RowOf {
  int64_t A = 0, O = 0;
};

/// Idx = Pitch * (A * blockIdx.x + O) + Col.
struct Decomp {
  bool HasRow = false;
  RowOf R;
  km::Mono Pitch;
  /// The pitch as a value: the monomial, or a constant row length (a
  /// column variable over [0, E) with E dividing blockIdx.x's
  /// coefficient); null: no pitch (one value per row).
  SymP PitchS = nullptr;
  SymP Col = nullptr;
};

class Reader {
public:
  Reader(ASTContext &Ctx, const FunctionDecl *FD, const Trace &Tr, SymPool &P)
      : Ctx(Ctx), FD(FD), Tr(Tr), P(P), Row(P.atom(RowAtom)) {}

  rows::Verdict run();

private:
  ASTContext &Ctx;
  const FunctionDecl *FD;
  const Trace &Tr;
  SymPool &P;
  SymP Row;
  rows::Verdict V;
  rows::Program Pr;
  SourceLocation Here;
  int64_t LoadA = 0;
  std::set<SymP> Complete;
  /// Normalised values do not depend on the thread: a load's row offset
  /// is in its row atom (RowOffAtom + offset) until the store's row
  /// replaces it (atRow).
  std::unordered_map<SymP, SymP> NormMemo;
  std::unordered_map<SymP, int64_t> RowsMemo;
  std::map<std::pair<SymP, int64_t>, SymP> AtRowMemo;
  /// Loads of a row's element at a fixed column: where, and the column.
  /// merge() folds those just before a reduction's loop into it; the
  /// others are per-row values (Program::FieldLoads).
  std::map<SymP, std::pair<SourceLocation, int64_t>> FixedCol;
  /// Records the fixed-column loads left in \p S, the value stored at row
  /// offset \p O, as per-row values.
  void fixedColumns(SymP S, int64_t O);
  /// The row offset the loads in \p S read at: NoRow when none does,
  /// SeveralRows when they read several.
  enum : int64_t { NoRow = -1, SeveralRows = -2 };
  int64_t rowsIn(SymP S);
  /// \p S (normalised) for the store of row offset \p O: every row atom
  /// must be O's, which becomes the row.
  std::optional<SymP> atRow(SymP S, int64_t O);
  SymP rowAtom(int64_t O) { return P.atom(RowOffAtom + unsigned(O)); }
  /// The row index as a value: A * blockIdx.x + C (RowValAtom), A the
  /// rows per block it assumes (checked against the program's).
  SymP rowVal(int64_t C) { return P.atom(RowValAtom + unsigned(C)); }
  int64_t RowValA = 0;
  /// \p S, an integer A * blockIdx.x + C (A > 0, 0 <= C < MaxRowVal), as
  /// rowVal(C); null when it is not one.
  SymP asRowVal(SymP S);

  bool fail(RuleId R, SourceLocation L, std::string M) {
    if (!V.Why)
      V.Why = Refusal{R, L.isValid() ? L : FD->getLocation(), std::move(M)};
    return false;
  }
  bool notMine(int Line = __builtin_LINE()) {
    if (std::getenv("PK_NKI_MODEL_DEBUG") && !V.NotMine)
      llvm::errs() << "model: not a row program (reader line " << Line << ")\n";
    V.NotMine = true;
    return false;
  }

  /// \p Idx of an access to \p Of (null: any) as a row and a column.
  std::optional<Decomp> decompose(SymP Idx, const ValueDecl *Of = nullptr);
  /// Record fields: the row length W of each tensor whose threads each
  /// access a few constant offsets (`reinterpret_cast<cfloat *>(a)[i]`'s
  /// re at 2i and im at 2i + 1, all at A * blockIdx.x + c), read as rows
  /// of W columns, one row per thread (LiftRowsFields.cpp).
  std::map<const ValueDecl *, int64_t> FieldPitch;
  void fieldPitches(const std::vector<km::Store> &Sts);
  /// A contraction sum_k A[row, k] * B[col, k] (or B[k, col]) over the
  /// row's column variable col: reduce("dot", k, product) with its
  /// operands' uses recorded (LiftRowsDot.cpp); none when \p S is not one.
  std::optional<SymP> dot(SymP S, unsigned T);
  /// Folds the stores' values and the stores of a lane's fixed columns
  /// into column variables (LiftRowsDot.cpp): the trace the reader reads.
  std::vector<km::Store> folded();
  SymP norm(SymP S, unsigned T);
  SymP normNew(SymP S, unsigned T);
  /// A reduction over j whose loads read the row at columns a * j + b
  /// (vectors of a columns, lane b): one reduction per lane over the
  /// columns b, b + a * step, ... (LiftRowsMerge.cpp), which merge() joins
  /// into one over the row; none when \p S is not one.
  std::optional<SymP> strided(SymP S, unsigned T);
  /// A partial sum rescaled to another maximum (online softmax: the
  /// product of reduce(+, c, exp(x - m)) and exp(m - M), \p Terms already
  /// normalised): reduce(+, c, exp(x - M)), the same sum at M
  /// (LiftRowsMerge.cpp); null when the product is not one.
  SymP rescaled(const std::vector<SymP> &Terms);
  SymP merge(llvm::StringRef Op, std::vector<SymP> Terms, Ty T);
  SymP fullIter(SymP End) { return P.iter(nullptr, P.intc(0), End, P.intc(1)); }
  /// \p S in the kernel's names (a message), as Python when it is a size.
  std::string sizeText(SymP S) {
    if (auto E = pySize(S))
      return E->py();
    return P.str(S);
  }
  bool complete(SymP S);
  std::optional<SymP> rowBound(SymP Guard, const RowOf &R);
};

} // namespace rowsread

#endif

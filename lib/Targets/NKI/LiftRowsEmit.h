//===- LiftRowsEmit.h - the row program emitter
//----------------------------===//
// Rules: none (declarations)
//
// The emitter of LiftRowsEmit.cpp, shared with LiftRowsArg.cpp (arg-
// reductions and exact int32 max/min).
//
//===----------------------------------------------------------------------===//
#ifndef PK_NKI_LIFTROWSEMIT_H
#define PK_NKI_LIFTROWSEMIT_H

#include "LiftLower.h"
#include "LiftRowsImpl.h"
#include "LiftSym.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <functional>
#include <set>

namespace rowsemit {

using namespace pk;
using namespace pk::nki;
using namespace pk::nki::rows;
using namespace pk::km;
using namespace clang;

class Emitter {
public:
  Emitter(TargetContext &TC, const FunctionDecl *FD, const rows::Program &Pr,
          SymPool &P, Kernel &K)
      : TC(TC), FD(FD), Pr(Pr), P(P), K(K), B(K.Body) {}

  bool run(const std::vector<std::pair<BlockShape, int64_t>> &Shapes, bool DimY,
           bool SharedBytes);
  std::optional<Refusal> Why;

private:
  TargetContext &TC;
  const FunctionDecl *FD;
  const rows::Program &Pr;
  SymPool &P;
  Kernel &K;
  Builder B;
  std::map<std::string, std::string> HbmName; ///< loads: param -> tensor
  std::map<const ParmVarDecl *, std::string> OutName;
  std::map<const ParmVarDecl *, DType> PTy;
  std::map<SymP, std::string> ColTile; ///< closed values in (P, 1) tiles
  std::map<const ParmVarDecl *, std::string> RowColTile; ///< s[row] inputs
  /// A record's fields read singly: (tensor, column) -> its (P, 1) tile.
  std::map<std::pair<const ParmVarDecl *, int64_t>, std::string> FieldTile;
  /// Contractions' A operands: the tile's rows transposed, [Depth, np_].
  std::map<const ParmVarDecl *, std::string> StatTile;
  PyExpr RowsE, ColsE;
  PyExpr Chunk = 512; ///< columns per tile (128 under a MovT dot)
  SourceLocation Here;

  bool fail(RuleId R, std::string M) {
    if (!Why)
      Why = Refusal{R, Here.isValid() ? Here : FD->getLocation(), std::move(M)};
    return false;
  }
  std::optional<PyExpr> py(SymP S);
  NodeP node(SymP S);
  NodeP nodeNew(SymP S);
  NodeP dotNode(SymP S);
  std::map<SymP, NodeP> Memo; ///< one tree per value: loads once per chunk
  bool closed(SymP S);
  bool closedNew(SymP S);
  std::map<SymP, bool> Closed;
  std::set<SymP> Visited;
  void reductions(SymP S, std::vector<SymP> &Out, std::set<SymP> &Seen);
  bool reduce(SymP R);
  bool argReduce(SymP R);
  bool intReduce(SymP R);
  NodeP argPair(SymP S);
  /// A select whose condition compares the column with the row plus a
  /// constant and one of whose values is a constant (a causal mask, `c <=
  /// t ? v : 0`): nisa.affine_select; null when \p S is not one.
  NodeP causalSelect(SymP S);
  /// For a value E = s * (row - col) + k (s = 1 or -1, col a column
  /// variable), the affine_select offset and comparison that hold where
  /// `0 Cmp E`; false when E is not one.
  bool rowColPredicate(SymP E, llvm::StringRef Cmp, PyExpr &Offset,
                       std::string &Fn);
  bool ArgUsed = false;     ///< a first-index arg form was lowered
  bool ArgLastUsed = false; ///< a last-index one
  std::string column(const Operand &O, DType Ty);
};

inline const char *aluOf(llvm::StringRef Op) {
  if (Op == "+")
    return "nl.add";
  if (Op == "-")
    return "nl.subtract";
  if (Op == "*")
    return "nl.multiply";
  if (Op == "/")
    return "nl.divide";
  if (Op == "max")
    return "nl.maximum";
  if (Op == "min")
    return "nl.minimum";
  if (Op == "pow")
    return "nl.power";
  return nullptr;
}

} // namespace rowsemit

#endif

//===- LiftRowsImpl.h - the row program between analysis and emission -----===//
// Rules: PK5001
#ifndef PK_NKI_LIFTROWSIMPL_H
#define PK_NKI_LIFTROWSIMPL_H

#include "LiftRows.h"
#include "pk/KernelModel.h"

#include "clang/AST/Decl.h"
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace pk {
namespace nki {
namespace rows {

/// Atoms of the normalised program: the row (a partition) and the column
/// (the free axis) every element value is a function of.
enum : unsigned { RowAtom = 1 };
/// The row of a load while its thread's row is not yet known: the atom
/// RowOffAtom + o for row offset o within the block (below
/// MaxRowsPerBlock: one thread per row of a block of up to 1024 threads).
enum : unsigned { RowOffAtom = 1u << 20, MaxRowsPerBlock = 1024 };
/// The row index as a value (`t` in `c <= t`) while the thread's row is
/// not yet known: the atom RowValAtom + C for A * blockIdx.x + C, which is
/// the row plus C - o for the store of row offset o (atRow).
enum : unsigned {
  RowValAtom = RowOffAtom + MaxRowsPerBlock,
  MaxRowVal = 2 * MaxRowsPerBlock
};

/// How a pointer parameter is accessed, relative to the thread's row.
struct TensorUse {
  /// Stat: the rows of A in a contraction sum_k A[row, k] * B(col, k)
  /// ([rows, Depth]); MovT: B as [cols, Depth]; Mov: B as [Depth, cols].
  enum Kind { None, Matrix, RowVec, RowCol, Stat, MovT, Mov } K = None;
  km::SymP Pitch = nullptr; ///< Matrix, Mov: elements per row
  km::SymP Depth = nullptr; ///< Stat, MovT, Mov: the contraction's length
  /// Matrix: accessed at a column variable (its pitch is the program's
  /// column count); else only at the fixed columns of Fields.
  bool Whole = false;
  std::set<int64_t> Fields; ///< Matrix: columns read or stored singly
  bool Read = false, Written = false, Accum = false;
};

/// One output of the row program.
struct RowStore {
  const clang::ParmVarDecl *P = nullptr;
  km::SymP Val = nullptr; ///< normalised: Loads of Matrix/RowVec/RowCol
  bool Map = false;       ///< out[row, j] for every column j; else out[row]
  bool Accum = false;     ///< atomicAdd: out[row] += Val
  std::string AccOp = "+"; ///< Accum: "+", or "max"/"min" (atomicMax/Min)
  /// Not Map: the column of a Matrix the per-row value is stored at (a
  /// record's field); -1: out[row] of a per-row output.
  int64_t Field = -1;
  clang::SourceLocation Loc;
};

/// The kernel as a row program at one block shape.
struct Program {
  int64_t A = 1;           ///< rows per block
  km::SymP Rows = nullptr; ///< the row bound; null: grid_x * A
  km::SymP Cols = nullptr; ///< the column count of maps and reductions
  km::SymP Col = nullptr;  ///< the column variable: Iter(0, Cols, 1)
  std::map<const clang::ParmVarDecl *, TensorUse> Uses;
  std::vector<RowStore> Stores;
  unsigned Reductions = 0;
  /// The fewest columns the program is right for: a reduction that read
  /// its first elements before a loop from column s (s; the output asserts
  /// it), else 0.
  int64_t MinCols = 0;
  /// Column counts the program assumes divisible: (X, a) where a loop over
  /// X / a vectors of a columns reads every column (the output asserts
  /// X % a == 0; the kernel leaves a remainder's columns out).
  std::vector<std::pair<km::SymP, int64_t>> Multiples;
  /// Loads of single columns of a Matrix (normalised) -> that column: a
  /// per-row value each, loaded once per tile of rows.
  std::map<km::SymP, int64_t> FieldLoads;
  /// Reductions over the columns c < row + k (a causal range, Row the
  /// row atom): the largest k, the output asserting that every row's
  /// range is within the row (rows - 1 + k <= Cols); none: INT64_MIN.
  int64_t CausalK = INT64_MIN;
  /// Sizes the program needs at least (X, a): X >= a, asserted by the
  /// output (a fixed column c of rows of a symbolic length: c + 1).
  std::vector<std::pair<km::SymP, int64_t>> AtLeast;
  /// The grid dimension that reaches every row ("grid_x"); empty: a single
  /// row that every launch reaches.
  std::string RowGrid = "grid_x";
  /// Sums over the grid: each launch expression must reach its bound.
  std::vector<std::pair<std::string, km::SymP>> Reach;
  /// A rendering that is equal for equal programs (block-shape checks).
  std::string Key;
};

/// Why a block shape's trace is not a row program: the rule and reason,
/// or, with NotMine, that the kernel is of another kind.
struct Verdict {
  std::optional<Program> Prog;
  std::optional<Refusal> Why;
  bool NotMine = false;
};

/// Atomic accumulations summed over the blocks along x (LiftRowsGrid.cpp).
struct GridSum {
  bool Applies = false;         ///< some atomicAdd's address has no blockIdx.x
  std::optional<km::Trace> Tr;  ///< the trace with the sums as its stores
  std::string RowGrid;          ///< as Program::RowGrid
  std::vector<std::pair<std::string, km::SymP>> Reach;
  std::optional<Refusal> Why;   ///< what is not such a sum
};
GridSum sumOverGrid(const km::Trace &Tr, km::SymPool &P);

/// Per-block partial reductions of a 1-D input (LiftPartials.cpp): every
/// output is stored once, at blockIdx.x, with the sum over the elements x
/// < N that the block visits of H(x); block b visits the chunk [b * W, (b
/// + 1) * W) and, with Stride, the same chunk of every round of W *
/// gridDim.x elements after it.
struct PartialOut {
  const clang::ParmVarDecl *P = nullptr;
  km::SymP H = nullptr; ///< of the loads at the element atom
  clang::SourceLocation Loc;
  /// How the block's elements meet: "+", "max" or "min".
  std::string Op = "+";
  /// max/min: the constants the threads start from (the value of a block
  /// with no element), met with the elements; none: Op's identity.
  std::optional<double> Init;
  /// max/min of one element per thread: the constant a thread whose
  /// element is past the end contributes (blocks that are not whole).
  std::optional<double> CondInit;
};
struct PartialProgram {
  int64_t W = 0;
  bool Stride = false;
  km::SymP N = nullptr;
  std::vector<PartialOut> Outs;
  /// W over the block's threads (block_x), when it is a multiple of them.
  int64_t PerThread = 0;
  std::string Key;
};
struct PartialVerdict {
  std::optional<PartialProgram> Prog;
  std::optional<Refusal> Why;
  bool NotMine = true;
};
/// The trace of one block shape read as per-block partial sums.
PartialVerdict readPartials(const km::Trace &Tr, km::SymPool &P,
                            const km::BlockShape &S);
/// The tile program of \p Pr, proven at \p Shapes.
bool emitPartials(TargetContext &TC, const clang::FunctionDecl *FD,
                  const PartialProgram &Pr, km::SymPool &P,
                  const std::vector<km::BlockShape> &Shapes, Kernel &K,
                  std::optional<Refusal> &Why);
/// Reads the trace of one block shape as a row program.
Verdict analyse(clang::ASTContext &Ctx, const clang::FunctionDecl *FD,
                const km::Trace &Tr, km::SymPool &P);

/// Emits the tile program of \p Pr into \p K; the valid block shapes and
/// the rows per block of each (for the launch check).  False with \p Why
/// when an operation has no tile equivalent.
bool emit(TargetContext &TC, const clang::FunctionDecl *FD, const Program &Pr,
          km::SymPool &P,
          const std::vector<std::pair<km::BlockShape, int64_t>> &Shapes,
          bool DimY, bool SharedBytes, Kernel &K, std::optional<Refusal> &Why);

} // namespace rows
} // namespace nki
} // namespace pk

#endif

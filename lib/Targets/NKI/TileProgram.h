//===- TileProgram.h - the NKI tile program as data -----------------------===//
// Rules: PK5001
//
// What the NKI lifter produces and the emitter prints: a kernel interface
// (tensors in HBM with shapes over the scalar parameters, scalars, launch
// dimensions), tiles in SBUF or PSUM with shapes and dtypes, and a sequence
// of tile operations and loops over tiles.  Shapes, bounds and scalar
// operands are typed expression trees (PyExpr.h) over the kernel's scalar
// parameters and loop variables (NKI evaluates them at trace time); only
// the emitter prints them as Python.  verifyTileTypes checks their types
// and that every name they read is bound.
//
//===----------------------------------------------------------------------===//
#ifndef PK_NKI_TILEPROGRAM_H
#define PK_NKI_TILEPROGRAM_H

#include "PyExpr.h"
#include "pk/Rules.h"
#include "llvm/Support/JSON.h"
#include <memory>
#include <string>
#include <vector>

namespace pk {
namespace nki {

enum class Mem { HBM, SBUF, PSUM };
/// I64: 64-bit integer scalar parameters only (sizes); never a tile.
enum class DType { F32, F16, BF16, I32, U32, I64 };

/// "float32", "float16", ... (the names of nl dtypes and of the contract).
const char *dtypeName(DType T);
const char *memName(Mem M);

/// A tensor: an HBM parameter or output, or a tile in SBUF/PSUM.
struct Tensor {
  std::string Name;
  Mem Space = Mem::SBUF;
  DType Ty = DType::F32;
  std::vector<PyExpr> Shape; ///< integers
};

/// A rectangular access of a tensor: one slice per dimension, each
/// `lo:hi` (integers); an empty slice list is the whole tensor.
struct Access {
  std::string Tensor;
  std::vector<std::pair<PyExpr, PyExpr>> Slices;
  /// A view of the slice with another shape (`.reshape((a, b))`): a run of
  /// a 1-D HBM tensor seen as rows of a tile.
  std::vector<PyExpr> Reshape;
};

/// An operand of an element-wise operation: a tile access, or a scalar
/// (a number: a constant, a scalar parameter, or arithmetic of them).
struct Operand {
  bool IsTile = false;
  Access Tile;
  PyExpr Scalar;
  static Operand tile(Access A) {
    Operand O;
    O.IsTile = true;
    O.Tile = std::move(A);
    return O;
  }
  static Operand scalar(PyExpr S) {
    Operand O;
    O.Scalar = std::move(S);
    return O;
  }
};

enum class OpKind {
  Alloc,        ///< Dst.Tensor = nl.ndarray(shape, dtype, buffer)
  DmaCopy,      ///< nisa.dma_copy(dst, src): HBM <-> SBUF
  TensorCopy,   ///< nisa.tensor_copy(dst, src): PSUM/SBUF -> SBUF, casts
  TensorTensor, ///< nisa.tensor_tensor(dst, a, b, op)
  TensorScalar, ///< nisa.tensor_scalar(dst, a, op, operand, reverse0)
  Activation,   ///< nisa.activation(dst, op, a)
  Reciprocal,   ///< nisa.reciprocal(dst, a)
  Reduce,       ///< nisa.tensor_reduce(dst, op, a, axis=1, keepdims=True)
  Matmul,       ///< nisa.nc_matmul(dst, stationary, moving)
  Transpose,    ///< nisa.nc_transpose(dst, a)
  Memset,       ///< nisa.memset(dst, value)
  /// nisa.iota(dst, pattern=[[1, Srcs[1]]], offset=Srcs[0]): offset,
  /// offset + 1, ... along the free axis of every partition; with Srcs[2]
  /// and Srcs[3], pattern=[[Srcs[2], Srcs[1]]] and
  /// channel_multiplier=Srcs[3] (a row index: step 0, multiplier 1)
  Iota,
  /// nisa.affine_select(dst, pattern=[[-1, Srcs[2]]], offset=Srcs[1],
  /// channel_multiplier=1, on_true_tile=Srcs[0], on_false_value=Srcs[3],
  /// cmp_op=Fn): on_true where offset + p - x cmp 0 (partition p, free
  /// element x), else the scalar; with offset = p0 + k - f0, the predicate
  /// compares row + k with column f0 + x (a causal mask)
  AffineSelect,
};

/// Where a tile operation comes from: the rule that produced it, the lines
/// of the kernel's file it computes, and why.  The report's NKI section
/// lists, per kernel, which source lines became which tile operations.
/// A lifter may set an operation's origin; the lift driver reads one from
/// the kernel's source for every operation left without (Line 0:
/// nki::attributeOrigins).
struct Origin {
  RuleId Rule = RuleId::PK5001;
  unsigned Line = 0, EndLine = 0; ///< 1-based, inclusive
  std::string Why;
  bool known() const { return Line != 0; }
};

struct Op {
  OpKind Kind = OpKind::Alloc;
  Access Dst;
  std::vector<Operand> Srcs;
  std::string Fn;       ///< nl.add, nl.exp, ... (ALU or activation op)
  bool Reverse = false; ///< tensor_scalar: operand op data
  Tensor Alloc;         ///< for Alloc
  Origin From;          ///< provenance (not printed in the Python)
};

struct Loop;
/// A statement: an operation, a loop over tiles, a Python assignment of a
/// trace-time value (tile bounds), or a trace-time check of an assumption
/// on the sizes (`assert Value, "Var"`).
struct Stmt {
  enum Kind { OpStmt, LoopStmt, Assign, Check } K = OpStmt;
  Op O;
  std::shared_ptr<Loop> L;
  /// Assign: the variable; Check: why the condition must hold.
  std::string Var;
  PyExpr Value; ///< Assign: the value; Check: the condition (a bool)
};

/// for Var in range(Begin, End, Step): Body
struct Loop {
  std::string Var;
  PyExpr Begin, End, Step;
  std::vector<Stmt> Body;
};

/// A parameter of the calling convention (docs/nki.md).
struct Param {
  std::string Name;   ///< as in CUDA (the calling convention's name)
  std::string PyName; ///< the Python parameter (keywords get a '_')
  bool IsTensor = false;
  DType Ty = DType::F32;
  std::vector<PyExpr> Shape; ///< tensors
  enum Role { In, Out, InOut } R = In;
};

struct Kernel {
  std::string Name;
  /// The Python function, where the CUDA name would shadow or rebind a name
  /// the module needs (a module, a builtin, another kernel); else empty.
  std::string PyName;
  std::vector<Param> Params;
  std::vector<std::string> Launch; ///< grid_x, block_x, ...
  std::vector<Stmt> Body;
  /// The tensors returned (the "out"/"inout" parameters, in CUDA order).
  std::vector<std::string> Returns;
  /// What the lifter recognised (the kernel family), for the report.
  std::string Family;
};

/// A sequential tile program builder: appends to the innermost open loop.
class Builder {
public:
  explicit Builder(std::vector<Stmt> &Top) { Stack.push_back(&Top); }
  void op(Op O);
  /// An operation of kind \p K writing \p Dst from \p Srcs (\p Fn: the
  /// activation or ALU function, where the kind has one).
  void op(OpKind K, Access Dst, std::vector<Operand> Srcs, std::string Fn = "");
  /// `Var = Value`; returns Var as an expression.
  PyExpr assign(std::string Var, PyExpr Value);
  /// `assert Cond, "Why"` when the kernel is traced.
  void check(PyExpr Cond, std::string Why);
  /// Opens `for Var in range(Begin, End, Step)`; close() ends it.  Returns
  /// Var as an expression.
  PyExpr open(std::string Var, PyExpr Begin, PyExpr End, PyExpr Step);
  /// One tile of [0, End) per iteration: opens `for Lo in range(0, End,
  /// Step)` and assigns `Hi = min(End, Lo + Step)` and `Count = Hi - Lo`;
  /// close() ends it.
  void chunks(std::string Lo, std::string Hi, std::string Count, PyExpr End,
              PyExpr Step);
  void close();
  /// A fresh tile name with prefix \p P.
  std::string fresh(const std::string &P);

  /// Allocates a tile and returns its name.
  std::string alloc(const std::string &Prefix, Mem M, DType T,
                    std::vector<PyExpr> Shape);

private:
  std::vector<std::vector<Stmt> *> Stack;
  unsigned Counter = 0;
};

/// A printed tile operation and its origin: what the report's NKI section
/// shows.
struct PrintedOp {
  unsigned OutLine = 0; ///< 1-based line of the Python output
  std::string Kernel;   ///< the CUDA name
  OpKind Kind = OpKind::Alloc;
  const Origin *From = nullptr; ///< into the kernels printed
};

/// The NKI Python text of \p Ks: the imports, one @nki.jit function per
/// kernel, and the PK_KERNELS calling-convention table.  \p Header lines
/// (diagnostics) go first as `#` comments.  With \p Printed, every tile
/// operation (not the allocations) with its output line, in output order.
std::string emitPython(const std::vector<Kernel> &Ks,
                       const std::vector<std::string> &Header,
                       std::vector<PrintedOp> *Printed = nullptr);
/// "nisa.tensor_reduce", ...: the call an operation is printed as
/// ("nl.ndarray" for an allocation).
const char *opCallName(OpKind K);
/// The tile program as JSON (for --dump-tile-ir style inspection and tests).
llvm::json::Value toJson(const Kernel &K);
/// Checks the types of \p K's expressions: shapes, slice bounds, loop
/// bounds and reshapes are integers, checks are booleans, scalar operands
/// numbers, and every name an expression reads is a parameter, a launch
/// dimension, a loop variable or a variable assigned before it (or a
/// Python builtin the output may call).  Returns the first violation,
/// naming the statement, or an empty string.
std::string verifyTileTypes(const Kernel &K);
/// Why the program's tiles fit on-chip memory, for the PK5001 note: the
/// largest SBUF tile and all SBUF allocations together in bytes per
/// partition against the smallest generation's SBUF (trn1, 192 KiB per
/// partition), and the largest PSUM tile against one 2 KiB bank, from the
/// shapes that are constants; tiles sized by the kernel's arguments are
/// counted and named (the simulator checks them when traced).
std::string capacityNote(const Kernel &K);
/// How many tile operations (not allocations) the program has, loops
/// counted once (the static size; the traced count depends on the sizes).
unsigned staticOpCount(const std::vector<Stmt> &Body);

} // namespace nki
} // namespace pk

#endif

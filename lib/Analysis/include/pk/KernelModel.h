//===- KernelModel.h - a kernel as the symbolic execution of one block ----===//
// Rules: none (shared analysis; the NKI lifter reports its findings)
//
// What a kernel computes, independent of how it is spelled: every thread of
// one block is executed in lockstep over the kernel's AST, with the thread
// indices and the block shape concrete and everything else symbolic (the
// block index, the grid, the scalar parameters, the contents of global
// memory).  Values are expressions in a hash-consed pool (equal values are
// the same pointer; integer arithmetic is kept as canonical polynomials),
// so that
//   - locals are followed through any assignments, aliases and helpers;
//   - shared memory is a set of slots with a value each, and barriers,
//     shuffles and warp-synchronous steps move values between threads
//     exactly as the hardware would;
//   - a loop whose trip count the block shape decides (a shared-memory
//     tree, a butterfly, a tile's inner loop) is unrolled; a loop whose
//     trip count the sizes decide is summarised once with a symbolic
//     iteration variable, its accumulations becoming Reduce terms;
//   - every global store is recorded with its address, value and guard.
// Whoever lifts the kernel (lib/Targets/NKI/LiftRows.cpp) reads the
// recorded stores, not the source's spelling.  Where the model cannot
// follow the kernel, Failure says which construct and why.
//
//===----------------------------------------------------------------------===//
#ifndef PK_ANALYSIS_KERNELMODEL_H
#define PK_ANALYSIS_KERNELMODEL_H

#include "pk/Polynomial.h"

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace clang {
class ASTContext;
class QualType;
class Expr;
class FunctionDecl;
class Stmt;
class ValueDecl;
} // namespace clang

namespace pk {
namespace km {

/// The element type of a value.
enum class Ty : uint8_t { I32, U32, I64, F32, F16, BF16, Bool };
bool isFloatTy(Ty T);
/// A record of N fields of one scalar type (float4, int2, a user's
/// `struct { float re, im; }`): N, and the fields' type in \p Elem; 0 for
/// any other type.  The model reads a local of such a type as N lanes (a
/// local array of N), and a pointer to one as stepping N scalars.
unsigned lanesOf(clang::QualType Q, clang::QualType *Elem = nullptr);

enum class SK : uint8_t {
  Int,      ///< integer constant I
  Flt,      ///< floating constant F
  Param,    ///< a scalar kernel parameter D
  BlockIdx, ///< blockIdx.{x,y,z}: I = 0, 1, 2
  GridDim,  ///< gridDim.{x,y,z}
  Iter,     ///< the variable of a summarised loop: Ops {start, end, step}
  Carried,  ///< a loop-carried local D while its loop is summarised
  Ptr,      ///< pointer: D (global parameter or __shared__ array) + Ops[0]
  Load,     ///< D[Ops[0]] of a global parameter
  Bin,      ///< Op(Ops[0], Ops[1])
  Un,       ///< Op(Ops[0])
  Cmp,      ///< Ops[0] Op Ops[1], a Bool
  Select,   ///< Ops[0] ? Ops[1] : Ops[2]
  Cast,     ///< Ops[0] converted to T
  Reduce,   ///< Op over the Iter Ops[0] of Ops[1]
  Undef,    ///< a value no thread wrote
};

struct Sym {
  SK K = SK::Undef;
  Ty T = Ty::F32;
  unsigned Id = 0;  ///< creation order: deterministic canonical ordering
  uint32_t Kinds = 0; ///< bit K set: a value of kind K occurs in this one
  uint32_t Hash = 0;  ///< of the fields that identify it (SymPool::make)
  int64_t I = 0;    ///< Int value; BlockIdx/GridDim dimension; Iter tag
  double F = 0;     ///< Flt value
  const clang::ValueDecl *D = nullptr;
  const clang::Stmt *Site = nullptr; ///< Iter/Carried: the loop
  llvm::StringRef Op; ///< interned: "+", "-", "*", "/", "%", "max", "exp", ...
  std::vector<const Sym *> Ops;

  bool isConst() const { return K == SK::Int || K == SK::Flt; }
  bool isInt() const { return !isFloatTy(T); }
};
using SymP = const Sym *;

/// An integer polynomial (pk/Polynomial.h): monomial (atoms, sorted by Id)
/// -> coefficient, the monomials ordered by degree, then by their atoms'
/// Ids (deterministic).
struct SymIdLess {
  bool operator()(SymP A, SymP B) const { return A->Id < B->Id; }
};
using Mono = std::vector<SymP>;
struct MonoLess {
  bool operator()(const Mono &A, const Mono &B) const;
};
using Poly = Polynomial<SymP, SymIdLess, MonoLess>;

/// The pool: every value of one analysis.  Constructors simplify (constant
/// folding, identities, canonical operand order, integer polynomials).
class SymPool {
public:
  SymPool();
  ~SymPool();
  SymP intc(int64_t V, Ty T = Ty::I32);
  SymP flt(double V, Ty T = Ty::F32);
  SymP boolc(bool B) { return intc(B ? 1 : 0, Ty::Bool); }
  SymP param(const clang::ValueDecl *D, Ty T);
  SymP blockIdx(unsigned Dim);
  SymP gridDim(unsigned Dim);
  /// \p Tag tells apart iteration variables made by analyses on the model
  /// (a sum read from unrolled terms) over the same range; 0 for loops.
  SymP iter(const clang::Stmt *Site, SymP Start, SymP End, SymP Step,
            unsigned Tag = 0);
  SymP carried(const clang::ValueDecl *D, const clang::Stmt *Site, Ty T);
  SymP ptr(const clang::ValueDecl *D, SymP Off, Ty Elem);
  SymP load(const clang::ValueDecl *D, SymP Idx, Ty T);
  SymP bin(llvm::StringRef Op, SymP A, SymP B);
  SymP un(llvm::StringRef Op, SymP A);
  SymP cmp(llvm::StringRef Op, SymP A, SymP B);
  SymP select(SymP C, SymP A, SymP B);
  SymP cast(Ty T, SymP A);
  SymP reduce(llvm::StringRef Op, SymP It, SymP Body);
  SymP undef(Ty T = Ty::F32);
  /// A named atom for analyses built on the model (a row, a column): an
  /// integer Param with no declaration, told apart by \p Tag.
  SymP atom(unsigned Tag);
  SymP logicalAnd(SymP A, SymP B);
  SymP logicalNot(SymP A);

  /// The polynomial of an integer value (atoms: anything that is not +, -,
  /// * or a constant); none for a float.
  std::optional<Poly> poly(SymP S);
  SymP fromPoly(const Poly &P, Ty T = Ty::I32);
  /// \p S's operation on \p Ops (re-simplified): S itself when the
  /// operands are its own; null for a kind with no operands to replace.
  SymP rebuild(SymP S, const std::vector<SymP> &Ops);
  /// \p S with every occurrence of the keys replaced (re-simplified).
  SymP subst(SymP S, const std::map<SymP, SymP> &M);
  /// \p S with its integer divisions and remainders in one chain
  /// (delinearised indices): where a value X is divided or taken modulo by
  /// several sizes one of which, K, divides the others (X / (T * K),
  /// (X / K) % T, X % K), each X / (K * Q) becomes (X / K) / Q and each X
  /// % (K * Q) becomes ((X / K) % Q) * K + X % K; then every polynomial's
  /// (X / Q) * Q * M + (X % Q) * M is X * M (truncating division, non-zero
  /// sizes: both identities hold for every sign).
  SymP delinearise(SymP S);
  /// The operands of \p S as a chain of \p Op (a + b + c: a, b, c);
  /// \p S itself when it is not one.
  std::vector<SymP> operandsOf(SymP S, llvm::StringRef Op);
  /// Whether \p S contains \p X (or any Carried / Undef / Load when asked).
  bool contains(SymP S, SymP X);
  bool containsKind(SymP S, SK K);
  /// A hash equal for values equal up to the order and grouping of
  /// commutative, associative operations (+, *, max, min) on floats:
  /// (a * b) * c and c * (b * a) meet.
  uint64_t acHash(SymP S);
  /// A readable rendering for diagnostics and tests.
  std::string str(SymP S);
  /// The identity of a reduction operator (0, 1, -inf, +inf), or null.
  SymP identity(llvm::StringRef Op, Ty T);

  /// Arg-reductions (KernelArg.cpp).  The index of a (value, index) pair
  /// that wins a first-index arg-max (arg-min) over a set of pairs is
  /// kept as the minimum over the set of `v == best ? i : ArgNone`, with
  /// best the set's max (min): a min of terms `reduce(min, it, v(it) ==
  /// best ? it : ArgNone)` and `v0 == best ? i0 : ArgNone`.
  static constexpr int64_t ArgNone = int64_t(1) << 24;
  /// A last-index arg-max (arg-min) -- ties to the larger index: `>=` in
  /// the loop, a combine that prefers the larger index -- is the maximum
  /// over the set of `v == best ? i : ArgLow` instead (ArgLow below every
  /// index, as far below 0 as ArgNone is above: both exact in float32).
  static constexpr int64_t ArgLow = -(int64_t(1) << 24);
  /// The carried pair of a summarised loop: the value's new value is
  /// \p Val = Dir(\p OldV, reduce(Dir, \p It, \p G)); the index's is
  /// `Cand ? It : OldI`.  Returns the index after the loop, or null with
  /// \p Why.  \p Strict: the candidate wins only when strictly better.
  SymP argLoop(llvm::StringRef Dir, bool Strict, SymP It, SymP G, SymP Val,
               SymP OldV, SymP OldI, std::string &Why);
  /// `C ? A : B` where C compares two (value, index) pairs: the combined
  /// value or index of a first-index arg-max or arg-min, or null.
  SymP argSelect(SymP C, SymP A, SymP B);
  /// Whether \p C compares two pairs as an arg-reduction the lifter does
  /// not read (ties to the larger index, no tie-break): the reason.
  std::string argWhy(SymP C, SymP A, SymP B);

private:
  std::string strFull(SymP S, unsigned Depth);
  SymP make(Sym S);
  std::deque<Sym> Store;
  /// Hash-consing: every value by its fields (kind, type, constants,
  /// declarations, operator and operands), compared in place.
  /// Structural identity of pool values (their operands by identity): an
  /// open-addressing set over each value's hash, computed once (make).
  struct SameInfo {
    static SymP getEmptyKey() { return llvm::DenseMapInfo<SymP>::getEmptyKey(); }
    static SymP getTombstoneKey() {
      return llvm::DenseMapInfo<SymP>::getTombstoneKey();
    }
    static unsigned getHashValue(SymP S);
    static bool isEqual(SymP A, SymP B);
  };
  llvm::DenseSet<SymP, SameInfo> Map;
  std::unordered_map<SymP, uint64_t> Hashes;
  llvm::StringSet<> Interned;
  llvm::StringRef intern(llvm::StringRef S);
};

/// A global store (or atomic accumulation) by one thread.
struct Store {
  unsigned Thread = 0;
  const clang::ValueDecl *P = nullptr; ///< the pointer parameter
  SymP Idx = nullptr, Val = nullptr;
  SymP Guard = nullptr;   ///< the symbolic condition under which it happens
  llvm::StringRef Acc;    ///< "" a store; "+" atomicAdd, "max", "min"
  clang::SourceLocation Loc;
};

/// Why the model does not follow a kernel.
struct Failure {
  enum Kind {
    Unsupported,   ///< a statement or call the model does not execute
    DataDependent, ///< an address or trip count that reads memory
    Divergent,     ///< a barrier/shuffle under a thread-dependent condition
    Race,          ///< shared memory read/written across warps unsynchronised
    Carried,       ///< a loop-carried value that is not an accumulation
    Undefined,     ///< a value no thread wrote reaches a store
    Shape,         ///< only at this block shape (an array it overruns)
    Layout,        ///< stores that depend on the WMMA fragment layout
    NoTile,        ///< understood, but with no tile operation (a bit cast)
  } K = Unsupported;
  clang::SourceLocation Loc;
  std::string Msg;
};

/// The block shape the kernel is executed at.
struct BlockShape {
  unsigned X = 1, Y = 1, Z = 1;
  unsigned size() const { return X * Y * Z; }
};

/// The result of executing one block.
struct Trace {
  BlockShape Shape;
  std::vector<Store> Stores;
  std::optional<Failure> F;
  /// Kernel parameters read or written through pointers, and scalars.
  std::vector<const clang::ValueDecl *> Params;
  /// The thread coordinates (x, y, z) of each thread.
  std::vector<std::array<unsigned, 3>> Tid;
  unsigned Barriers = 0, Shuffles = 0;
  /// WMMA: mma_sync calls executed; whether fragment elements (x[i]) were
  /// indexed, and where first.
  unsigned Mmas = 0;
  bool FragElems = false;
  clang::SourceLocation FragElemLoc;
  bool UsesDimY = false, UsesDimZ = false, UsesSharedBytes = false;
  /// Parameters a thread read after storing to them itself where the model
  /// did not forward one of its stores (another element, another
  /// condition): such a read may see memory the kernel changed.  A read
  /// of the element the thread stored is its stored value (forwarded).
  std::vector<const clang::ValueDecl *> ReadAfterOwnStore;
};

/// The model's operation for a call of the C math function \p Name with one
/// argument ("exp" for expf, __expf and exp; "recip" for __frcp_rn), or "".
llvm::StringRef mathUnaryOp(llvm::StringRef Name);
/// The same for two arguments ("max" for fmaxf, fmax, max, __hmax; "+"
/// for __hadd), or "".
llvm::StringRef mathBinaryOp(llvm::StringRef Name);

/// Executes \p FD (a __global__ function) for one block of \p Shape, in
/// warps of \p Wave lanes (32: CUDA; 64: HIP sources, which run on the
/// 64-lane wavefronts of CDNA): warpSize, the default shuffle width and
/// the lanes __syncwarp orders.  Symbols go to \p Pool, which must outlive
/// the trace.  \p BlockParam, an integer parameter, is bound to the
/// block's x size (a kernel given its block size as an argument; the
/// caller asserts that the launch passes it so).
Trace executeBlock(clang::ASTContext &Ctx, const clang::FunctionDecl *FD,
                   BlockShape Shape, SymPool &Pool, unsigned Wave = 32,
                   const clang::ParmVarDecl *BlockParam = nullptr);

} // namespace km
} // namespace pk

#endif

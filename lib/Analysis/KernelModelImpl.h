//===- KernelModelImpl.h - the executor behind KernelModel.h --------------===//
// Rules: none (shared analysis)
#ifndef PK_ANALYSIS_KERNELMODELIMPL_H
#define PK_ANALYSIS_KERNELMODELIMPL_H

#include "pk/ASTUtil.h"
#include "pk/KernelModel.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include <map>

namespace pk {
namespace km {

Ty tyOf(clang::QualType Q);
bool isScalarType(clang::QualType Q);
const clang::Expr *stripE(const clang::Expr *E);

/// A cooperative group type: 0 the thread block, N a tile of N threads.
std::optional<int64_t> groupSize(clang::QualType Q);

using Mask = std::vector<unsigned>;
using Vals = std::vector<SymP>; ///< one per thread of the block

struct ThreadState {
  llvm::DenseMap<const clang::VarDecl *, SymP> Env;
  llvm::DenseMap<const clang::VarDecl *, std::vector<SymP>> Arrays;
  /// WMMA fragments: this lane's elements (KernelModelWmma.cpp).
  llvm::DenseMap<const clang::VarDecl *, std::vector<SymP>> Frags;
  SymP Guard = nullptr; ///< null: true
  bool Live = true;
  /// This thread's plain stores to parameters (indices into Trace::Stores):
  /// a later read of the same element gets the value stored, a later store
  /// replaces it (forwardOwn).
  std::vector<size_t> Own;
};

struct Slot {
  SymP V = nullptr;
  int WPhase = -1, RPhase = -1;
  unsigned Writer = 0;
  uint64_t ReadWarps = 0;
  bool Atomic = false;
  unsigned LoopDepth = 0;
  unsigned WSync = 0; ///< the writer's warp's __syncwarp count
  /// Readers since the last barrier: thread and its warp's sync count.
  std::vector<std::pair<unsigned, unsigned>> Readers;
};

struct SharedArr {
  Ty Elem = Ty::F32;
  int64_t Size = -1;
  std::map<int64_t, Slot> Slots;
};

/// A WMMA fragment type: the matrix it holds (R x C), its element type,
/// its operand layout (0 row-major, 1 col-major, -1 none) and its elements
/// per lane (num_elements).
struct FragInfo {
  enum UseK { A, B, Acc } Use = Acc;
  int64_t R = 0, C = 0;
  Ty Elem = Ty::F32;
  int Layout = -1;
  unsigned E = 0;
  bool Ok = false; ///< false: Why says what is not modelled
};
/// The fragment type \p Q (none: not a fragment); Ok false with \p Why
/// for a fragment the model does not follow.
std::optional<FragInfo> fragInfo(clang::QualType Q, std::string &Why);

/// Runs \p FD again with the other fragment layout when \p Tr indexed
/// fragment elements, and fails \p Tr when the stores differ.
void checkFragLayout(clang::ASTContext &Ctx, const clang::FunctionDecl *FD,
                     BlockShape Shape, SymPool &Pool, unsigned Wave,
                     Trace &Tr);

/// A device function being executed: what each thread returned.
struct Frame {
  Vals Ret;
  std::vector<char> Done;
  /// A function returning a record of one scalar type (lanesOf): its
  /// lanes' values per thread (Lanes of them, of type LaneElem).
  unsigned Lanes = 0;
  clang::QualType LaneElem;
  std::vector<Vals> RetLanes;
};

class Exec {
public:
  Exec(clang::ASTContext &Ctx, const clang::FunctionDecl *FD, BlockShape Shape,
       SymPool &P, Trace &Tr, unsigned Wave);
  void run();
  /// Which lane holds which fragment element (KernelModelWmma.cpp).
  unsigned FragLayout = 0;
  /// A parameter bound to the block's x size (the kernel's block size
  /// passed as an argument); null: none.
  const clang::ParmVarDecl *BlockParam = nullptr;

private:
  clang::ASTContext &Ctx;
  const clang::FunctionDecl *FD;
  BlockShape Shape;
  SymPool &P;
  Trace &Tr;
  std::vector<ThreadState> Th;
  std::map<const clang::VarDecl *, SharedArr> Shared;
  std::map<const clang::VarDecl *, const clang::VarDecl *> Alias;
  /// References bound to memory (`float &o = out[i]`, a `float4 &`
  /// parameter given `x4[i]`): each thread's address.
  std::map<const clang::VarDecl *, Vals> RefAddr;
  /// Binds the reference \p V to the lvalue \p E in memory; false (failed)
  /// when E is not an address the model follows.
  bool bindRef(const clang::VarDecl *V, const clang::Expr *E, const Mask &M);
  std::vector<Frame> Frames;
  int Phase = 0;
  unsigned Wave = 32; ///< lanes per warp (64 for HIP's wavefronts)
  std::vector<unsigned> WarpSync = std::vector<unsigned>(32, 0);
  unsigned SymBranch = 0, LoopDepth = 0, Depth = 0;
  /// The guard every live thread of the block had when the outermost
  /// symbolic branch was entered (the conditions of earlier returns), when
  /// it is the same for all of them: if false, no thread of the block is
  /// left to read shared memory, so a shared store under the branch needs
  /// only the branch's own conditions.  Null: none or not uniform.
  SymP UniformBase = nullptr;
  /// Summarised loops being executed: their iteration variables per thread.
  std::vector<const clang::Stmt *> Summarised;

  bool failed() const { return Tr.F.has_value(); }
  void fail(Failure::Kind K, clang::SourceLocation L, std::string M);
  Mask live(const Mask &M) const;

  // Statements (KernelModel.cpp, KernelModelLoops.cpp).
  void exec(const clang::Stmt *S, const Mask &M);
  void declare(const clang::DeclStmt *DS, const Mask &M);
  /// The N lanes of a value of a lanes record type (lanesOf): an
  /// initialiser list, make_float4-style calls of N arguments, a copy, or
  /// an lvalue (a local, an element through a pointer); false (failed)
  /// for any other.
  bool evalLanes(const clang::Expr *E, unsigned N, clang::QualType Elem,
                 const Mask &M, std::vector<Vals> &Out);
  /// Whether each pointer of \p Ptrs is not null (\p NonNull) or null:
  /// every pointer the model follows points to a parameter's memory or a
  /// local or shared array, so a caller of the lifted kernel passes every
  /// tensor (docs/nki.md).
  Vals nonNull(const Vals &Ptrs, const Mask &M, clang::SourceLocation L,
               bool NonNull);
  /// Lane \p K of the record at address \p A.
  SymP lanePtr(SymP A, unsigned K, clang::QualType Elem);
  /// Reads the N lanes of the records at \p A (one address per thread).
  bool readLanes(const Vals &A, unsigned N, clang::QualType Elem, const Mask &M,
                 clang::SourceLocation L, std::vector<Vals> &Out);
  /// Stores \p Lanes at the records at \p A.
  void storeLanesAt(const Vals &A, const std::vector<Vals> &Lanes,
                    clang::QualType Elem, const Mask &M,
                    clang::SourceLocation L);
  /// Stores \p Lanes at the lvalue \p Dst of a lanes record type.
  void storeLanes(const clang::Expr *Dst, const std::vector<Vals> &Lanes,
                  clang::QualType Elem, const Mask &M);
  void execIf(const clang::IfStmt *I, const Mask &M);
  void execLoop(const clang::Stmt *Loop, const clang::Stmt *Init,
                const clang::Expr *Cond, const clang::Expr *Inc,
                const clang::Stmt *Body, const Mask &M);
  void summarise(const clang::Stmt *Loop, const clang::Expr *Cond,
                 const clang::Expr *Inc, const clang::Stmt *Body,
                 const clang::VarDecl *V, const Mask &M);
  /// The carried local K of a summarised loop as the index of a value
  /// carried with it (an arg-max): its value after the loop, or null
  /// (with \p Why when it is such an index the model does not lower).
  SymP argIndex(const clang::Stmt *Loop, const clang::Stmt *Body,
                const std::vector<const clang::VarDecl *> &Carried,
                const std::vector<SymP> &Old, const std::vector<SymP> &New,
                size_t K, SymP It, std::string &Why);
  bool hasCollective(const clang::Stmt *S);
  void barrier(const Mask &M, clang::SourceLocation L);

  // Memory.
  /// The store of thread \p T to element \p Off of \p D under the thread's
  /// present condition, if it made one: exactly there, or in a loop over
  /// the same range as a loop variable of \p Off (`o[c] = ...` in one loop,
  /// `o[c] /= s` in the next).  Its index into Trace::Stores, and in \p Ren
  /// the renaming of its loop variable to \p Off's.
  std::optional<size_t> ownStore(unsigned T, const clang::ValueDecl *D,
                                 SymP Off, std::map<SymP, SymP> &Ren);
  SymP readPtr(SymP Ptr, unsigned T, clang::SourceLocation L);
  void writePtr(SymP Ptr, unsigned T, SymP Val, clang::SourceLocation L,
                llvm::StringRef Acc = "");

  // Expressions (KernelModelEval.cpp).
  Vals eval(const clang::Expr *E, const Mask &M);
  Vals evalExpr(const clang::Expr *E, const Mask &M); ///< eval's cases
  Vals evalAddr(const clang::Expr *E, const Mask &M);
  Vals evalBinary(const clang::BinaryOperator *B, const Mask &M);
  Vals evalUnary(const clang::UnaryOperator *U, const Mask &M);
  Vals evalCall(const clang::CallExpr *C, const Mask &M);
  Vals evalShuffle(const clang::CallExpr *C, llvm::StringRef Kind,
                   unsigned First, const Mask &M, int64_t Width = 0);
  // WMMA fragments (KernelModelWmma.cpp).
  std::map<const clang::VarDecl *, FragInfo> FragTy;
  std::pair<int64_t, int64_t> fragRC(const FragInfo &F, unsigned Lane,
                                     unsigned El) const;
  std::pair<unsigned, unsigned> fragHolder(const FragInfo &F, int64_t R,
                                           int64_t C) const;
  const clang::VarDecl *fragVar(const clang::Expr *E);
  const clang::VarDecl *fragElem(const clang::Expr *E, const Mask &M,
                                 Vals &Idx);
  void declareFrag(const clang::VarDecl *V, const FragInfo &F, const Mask &M);
  bool wholeWarps(const Mask &M, clang::SourceLocation L,
                  std::vector<unsigned> &Warps);
  bool wmmaCall(const clang::CallExpr *C, const Mask &M, Vals &R);
  // Cooperative groups (KernelModelGroups.cpp).
  SymP groupValue(int64_t Size);
  bool groupCall(const clang::CallExpr *C, const Mask &M, Vals &R);
  /// A carried local \p K updated as a running rescale (online softmax:
  /// S = S * exp(M' - M) + c * exp(t - M) with M = max(M', g) another
  /// carried local's update): its value after the loop, S0 * exp(M0 - M)
  /// + sum over the iterations of c * exp(t - M) at M's final value; null
  /// when the update is not one (KernelModelLoops.cpp).
  /// Whether \p S reads a placeholder of \p Loop's carried locals.
  bool readsCarried(SymP S, const clang::Stmt *Loop);
  SymP onlineSum(const clang::Stmt *Loop,
                 const std::vector<const clang::VarDecl *> &Carried,
                 const std::vector<SymP> &Old, const std::vector<SymP> &New,
                 size_t K, SymP It);
  /// Executes \p F inline for \p C; its value, or with \p Lanes (a
  /// function returning a record of one scalar type) the record's lanes
  /// there.
  Vals inlineCall(const clang::FunctionDecl *F, const clang::CallExpr *C,
                  const Mask &M, std::vector<Vals> *Lanes = nullptr);
  /// Assigns \p V to the lvalue \p L for the threads of \p M (after all of
  /// them evaluated V).
  void assign(const clang::Expr *L, const Vals &V, const Mask &M,
              llvm::StringRef Acc = "");
  const clang::VarDecl *localVar(const clang::Expr *E);
  Vals arith(llvm::StringRef Op, const Vals &A, const Vals &B, const Mask &M,
             clang::SourceLocation L);
  SymP arith1(llvm::StringRef Op, SymP A, SymP B, clang::SourceLocation L);
  SymP convert(SymP V, clang::QualType To);
};

/// Loads and stores with a cache hint (__ldg, __stcs, ...): *p read or
/// written.
inline bool isCacheHintLoad(llvm::StringRef N) {
  return N == "__ldg" || N == "__ldcg" || N == "__ldca" || N == "__ldcs" ||
         N == "__ldlu" || N == "__ldcv";
}

inline bool isCacheHintStore(llvm::StringRef N) {
  return N == "__stwb" || N == "__stcg" || N == "__stcs" || N == "__stwt";
}

} // namespace km
} // namespace pk

#endif

//===- KernelModelGroups.cpp - cooperative groups in the kernel model -----===//
// Rules: none (shared analysis)
//
// A group is a value of the model: the thread block, or a tile of N
// consecutive threads (tiled_partition<N>).  Its members mean what the
// CUDA Programming Guide says: thread_rank() is the rank in the group,
// size()/num_threads() its size, meta_group_rank()/meta_group_size() the
// tile's index and the number of tiles in the block, sync() a barrier of
// the group, shfl/shfl_down/shfl_up/shfl_xor the warp shuffles with the
// tile's width; cg::reduce(tile, v, op) leaves the reduction of v over the
// tile in every thread of it.
//
//===----------------------------------------------------------------------===//
#include "KernelModelImpl.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;
using namespace pk::km;
using namespace clang;

namespace {
enum : unsigned { BlockTag = 50000, TileTag = 60000 };
}

std::optional<int64_t> km::groupSize(QualType Q) {
  Q = Q.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  const CXXRecordDecl *RD = Q->getAsCXXRecordDecl();
  if (!RD)
    return std::nullopt;
  std::string N = RD->getQualifiedNameAsString();
  if (N.find("cooperative_groups") == std::string::npos)
    return std::nullopt;
  llvm::StringRef Name = RD->getName();
  if (Name == "thread_block")
    return 0;
  if (Name == "thread_block_tile" || Name.contains("tile")) {
    if (auto *S = dyn_cast<ClassTemplateSpecializationDecl>(RD))
      if (S->getTemplateArgs().size() >= 1 &&
          S->getTemplateArgs()[0].getKind() == TemplateArgument::Integral)
        return S->getTemplateArgs()[0].getAsIntegral().getExtValue();
  }
  return std::nullopt;
}

SymP Exec::groupValue(int64_t Size) {
  return P.atom(Size == 0 ? BlockTag : TileTag + unsigned(Size));
}

/// The group a value stands for: 0 the block, N a tile; none otherwise.
static std::optional<int64_t> groupOf(SymP V) {
  if (V && V->K == SK::Param && !V->D && V->I >= BlockTag) {
    if (V->I == BlockTag)
      return 0;
    return V->I - TileTag;
  }
  return std::nullopt;
}

bool Exec::groupCall(const CallExpr *C, const Mask &M, Vals &R) {
  unsigned BS = Shape.size();
  auto Lin = [&](unsigned T) { return T; }; // threads are in linear order
  // Member functions of a group (static members are called through a
  // member expression too).
  const Expr *Obj = nullptr;
  std::string Fn;
  if (auto *MC = dyn_cast<CXXMemberCallExpr>(C)) {
    Obj = MC->getImplicitObjectArgument();
    if (MC->getMethodDecl())
      Fn = MC->getMethodDecl()->getNameAsString();
  } else if (auto *ME = dyn_cast<MemberExpr>(C->getCallee()->IgnoreParenImpCasts())) {
    Obj = ME->getBase();
    Fn = ME->getMemberDecl()->getNameAsString();
  }
  if (Obj)
    Obj = Obj->IgnoreParenImpCasts();
  if (Obj && groupSize(Obj->getType())) {
    Vals G = eval(Obj, M);
    if (failed())
      return true;
    auto Gs = groupOf(G[M[0]]);
    if (!Gs) {
      fail(Failure::Unsupported, C->getBeginLoc(),
           "a cooperative group the model does not follow");
      return true;
    }
    int64_t N = *Gs ? *Gs : BS;
    if (llvm::StringRef(Fn).starts_with("operator")) {
      // A conversion between group types (thread_block_tile<32, block>
      // to thread_block_tile<32>): the same threads.
      R = G;
      return true;
    }
    if (Fn == "thread_rank") {
      for (unsigned T : M)
        R[T] = P.intc(Lin(T) % N, Ty::U32);
      return true;
    }
    if (Fn == "size" || Fn == "num_threads") {
      for (unsigned T : M)
        R[T] = P.intc(N, Ty::U32);
      return true;
    }
    if (Fn == "meta_group_rank" || Fn == "meta_group_size") {
      for (unsigned T : M)
        R[T] = P.intc(Fn == "meta_group_rank" ? Lin(T) / N : BS / N, Ty::U32);
      return true;
    }
    if (Fn == "sync") {
      if (*Gs == 0)
        barrier(M, C->getBeginLoc());
      else
        for (unsigned T : M)
          ++WarpSync[T / Wave];
      for (unsigned T : M)
        R[T] = P.intc(0);
      return true;
    }
    llvm::StringRef Kind = llvm::StringSwitch<llvm::StringRef>(llvm::StringRef(Fn))
                               .Case("shfl", "idx")
                               .Case("shfl_down", "down")
                               .Case("shfl_up", "up")
                               .Case("shfl_xor", "xor")
                               .Default("");
    if (!Kind.empty() && *Gs && *Gs <= 32) {
      R = evalShuffle(C, Kind, 0, M, *Gs);
      return true;
    }
    fail(Failure::Unsupported, C->getBeginLoc(),
         llvm::formatv("cooperative-groups member '{0}' is not modelled", Fn)
             .str());
    return true;
  }
  llvm::StringRef N = calleeName(C);
  const FunctionDecl *F = C->getDirectCallee();
  std::string Q = F ? F->getQualifiedNameAsString() : "";
  if (Q.find("cooperative_groups") == std::string::npos)
    return false;
  if (N == "this_thread_block") {
    for (unsigned T : M)
      R[T] = groupValue(0);
    return true;
  }
  if (N == "tiled_partition") {
    auto Gs = groupSize(C->getType());
    if (!Gs || *Gs <= 0 || *Gs > 32 || (*Gs & (*Gs - 1))) {
      fail(Failure::Unsupported, C->getBeginLoc(),
           "tiled_partition with a size that is not a power of two up to "
           "32 known at compile time");
      return true;
    }
    for (unsigned T : M)
      R[T] = groupValue(*Gs);
    return true;
  }
  if (N == "sync" && C->getNumArgs() == 1) {
    Vals G = eval(C->getArg(0), M);
    auto Gs = groupOf(G[M[0]]);
    if (Gs && *Gs == 0)
      barrier(M, C->getBeginLoc());
    for (unsigned T : M)
      R[T] = P.intc(0);
    return true;
  }
  if (N == "reduce" && C->getNumArgs() == 3) {
    Vals G = eval(C->getArg(0), M), V = eval(C->getArg(1), M);
    if (failed())
      return true;
    auto Gs = groupOf(G[M[0]]);
    std::string OpT = C->getArg(2)->getType().getAsString();
    const char *Op = OpT.find("plus") != std::string::npos      ? "+"
                     : OpT.find("greater") != std::string::npos ? "max"
                     : OpT.find("less") != std::string::npos    ? "min"
                                                                : nullptr;
    if (!Gs || !*Gs || !Op) {
      fail(Failure::Unsupported, C->getBeginLoc(),
           "cg::reduce over a group or with an operation the model does "
           "not follow (tiles with plus, greater or less are)");
      return true;
    }
    ++Tr.Shuffles;
    std::vector<char> Active(Th.size(), 0);
    for (unsigned T : M)
      Active[T] = 1;
    for (unsigned T : M) {
      unsigned Base = T - T % unsigned(*Gs);
      SymP Acc = nullptr;
      for (unsigned L = 0; L < unsigned(*Gs); ++L) {
        unsigned S = Base + L;
        SymP X = S < Th.size() && Active[S] ? V[S] : P.undef(V[T]->T);
        Acc = Acc ? P.bin(Op, Acc, X) : X;
      }
      R[T] = Acc;
    }
    return true;
  }
  return false;
}

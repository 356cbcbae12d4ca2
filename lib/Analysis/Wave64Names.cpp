//===- Wave64Names.cpp - the warp constructs the analysis recognises ------===//
// Rules: none (shared infrastructure)
//
// Names of warp intrinsics, cooperative-groups tiles, tensor-core calls and
// the CUDA built-in variables, as the pre-scan and the walk recognise them.
//
//===----------------------------------------------------------------------===//
#include "Wave64Internal.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace pk {
namespace w64 {

bool isShuffleName(llvm::StringRef N) {
  return N == "__shfl_sync" || N == "__shfl_up_sync" ||
         N == "__shfl_down_sync" || N == "__shfl_xor_sync" || N == "__shfl" ||
         N == "__shfl_up" || N == "__shfl_down" || N == "__shfl_xor";
}

bool isVoteName(llvm::StringRef N) {
  return N == "__ballot_sync" || N == "__any_sync" || N == "__all_sync" ||
         N == "__activemask" || N == "__ballot" || N == "__any" || N == "__all";
}

bool isWmmaCall(const CallExpr *CE) {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return false;
  std::string Q = FD->getQualifiedNameAsString();
  return llvm::StringRef(Q).starts_with("nvcuda::wmma::");
}

bool isUnsupportedWarpName(llvm::StringRef N) {
  return N == "__match_any_sync" || N == "__match_all_sync" ||
         N == "__uni_sync" || N.starts_with("__reduce_") || N == "__fns";
}

bool tileType(QualType T, unsigned &N) {
  if (T.isNull())
    return false;
  if (const auto *PT = T->getAs<PointerType>())
    T = PT->getPointeeType();
  T = T.getNonReferenceType().getCanonicalType();
  const auto *TST = T->getAs<TemplateSpecializationType>();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  const ClassTemplateSpecializationDecl *CTS =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  llvm::StringRef Name;
  if (CTS)
    Name = CTS->getName();
  else if (TST)
    if (TemplateDecl *TD = TST->getTemplateName().getAsTemplateDecl())
      Name = TD->getName();
  if (Name != "thread_block_tile" && !Name.ends_with("thread_block_tile_base"))
    return false;
  N = 0;
  if (CTS && CTS->getTemplateArgs().size() >= 1 &&
      CTS->getTemplateArgs()[0].getKind() == TemplateArgument::Integral)
    N = CTS->getTemplateArgs()[0].getAsIntegral().getZExtValue();
  return true;
}

bool tileOf(const Expr *Obj, unsigned &N) {
  // Through the derived-to-base cast of members declared in a base class.
  return Obj && (tileType(Obj->IgnoreImpCasts()->getType(), N) ||
                 tileType(Obj->getType(), N));
}

const FunctionDecl *canonFn(const FunctionDecl *FD) {
  if (!FD)
    return nullptr;
  if (const FunctionDecl *P = FD->getTemplateInstantiationPattern())
    FD = P;
  if (const FunctionDecl *D = FD->getDefinition())
    FD = D;
  return FD;
}

bool warpName(llvm::StringRef N) {
  std::string L = N.lower();
  return llvm::StringRef(L).contains("warp") ||
         (llvm::StringRef(L).contains("lane") &&
          !llvm::StringRef(L).contains("mask"));
}

} // namespace w64
} // namespace pk

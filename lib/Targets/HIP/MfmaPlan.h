//===- MfmaPlan.h - the fragments, loads, stores and mma calls of a TU ----===//
// Rules: none (shared infrastructure)
//
// The tensor-core rules read one FragmentPlan: what a translation unit does
// with nvcuda::wmma (qualified names, using directives, aliases, fragment
// declarations and calls), its inline PTX, kernels and launches.  It is
// built once by scanFragments and only read afterwards; what the rules
// compute from it is passed between them as explicit results (MfmaRules.h).
//
//===----------------------------------------------------------------------===//
#ifndef PK_TARGETS_HIP_MFMAPLAN_H
#define PK_TARGETS_HIP_MFMAPLAN_H

#include "pk/TargetContext.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/NestedNameSpecifier.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/SetVector.h"
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace pk {
namespace mfma {

// ---- nvcuda::wmma entities --------------------------------------------------

/// nvcuda::wmma itself.
bool isWmmaNS(const clang::DeclContext *DC);
/// nvcuda (at translation-unit scope).
bool isNvcudaNS(const clang::NamespaceDecl *N);
/// A declaration inside nvcuda::wmma (at any depth).
bool inWmma(const clang::Decl *D);

enum class Use { A, B, Acc, Other };
enum class Elem { F16, BF16, F32, Other };

/// One reading of a fragment type's template arguments.
struct FragType {
  Use U = Use::Other;
  int M = 0, N = 0, K = 0;
  Elem E = Elem::Other;
  std::string ElemName;
  /// A and B: row_major (true) or col_major (false); empty when not given.
  std::optional<bool> RowMajor;
  bool Dependent = false;

  /// m16n16k16 with half or bf16 operands and a float accumulator (or a
  /// dependent type, checked in the instantiations).
  bool supported() const;
  /// `fragment<matrix_a, 16, 16, 16, half>` for messages.
  std::string describe() const;
};

/// The fragment type behind \p T (through references, arrays and typedefs).
std::optional<FragType> fragType(clang::QualType T);

/// Callee name and whether it is an nvcuda::wmma function (also for
/// unresolved calls in templates).
bool wmmaCallee(const clang::CallExpr *CE, llvm::StringRef &Name);

// ---- the plan ---------------------------------------------------------------

/// A call of fill_fragment, load_matrix_sync, store_matrix_sync or mma_sync.
struct FragCall {
  const clang::CallExpr *CE;
  std::string Name;
  const clang::FunctionDecl *Fn; ///< the enclosing function
};

/// A WMMA use the port does not handle (PK3015).
struct UnportedUse {
  clang::SourceLocation Loc;
  std::string What;
};

/// Everything of a TU that the tensor-core rules work on, in source order.
struct FragmentPlan {
  /// Some nvcuda::wmma name, type or call appears (also in system headers).
  bool AnyWmma = false;
  /// `nvcuda::wmma::` qualifiers, `using namespace nvcuda[::wmma]`, and
  /// aliases of nvcuda::wmma in user files.
  std::vector<clang::NestedNameSpecifierLoc> Quals;
  std::vector<const clang::UsingDirectiveDecl *> Usings;
  std::vector<const clang::NamespaceAliasDecl *> Aliases;
  /// Fragment operations in user files.
  std::vector<FragCall> Calls;
  /// mma_sync saturation arguments that are not a constant false (PK3015).
  std::vector<const clang::Expr *> Satf;
  /// Calls of functions defined in user files. Their callers are found
  /// where they are needed (findWaveUse, for files with fragment or PTX
  /// code): finding them walks up the parent index, which a file without
  /// any would otherwise build for nothing.
  std::vector<const clang::CallExpr *> UserCalls;
  /// WMMA types and functions the port does not handle (PK3015).
  std::vector<UnportedUse> Unsupported;
  /// frag.x (PK3010), also in templates.
  std::vector<const clang::MemberExpr *> ElemRefs;
  std::vector<const clang::CXXDependentScopeMemberExpr *> DependentElemRefs;
  std::vector<const clang::GCCAsmStmt *> Asms;
  std::vector<const clang::FunctionDecl *> Kernels;
  std::vector<const clang::CUDAKernelCallExpr *> Launches;
  /// Files that declare fragments, with the operand element types declared
  /// there (an empty set for accumulators only).
  std::map<std::string, std::set<Elem>> FileElems;
  std::set<Elem> AllElems;
  /// The first bf16 operand fragment (PK3012).
  clang::SourceLocation FirstBF16;
  /// Declarations of (arrays of) supported fragments, in source order.
  std::vector<const clang::DeclaratorDecl *> FragDecls;
  /// Local arrays of fragments, and every reference to an array of
  /// fragments.
  llvm::SetVector<const clang::VarDecl *> FragArrays;
  std::vector<const clang::DeclRefExpr *> ArrayRefs;
};

/// Scans the TU (template patterns, not instantiations).
FragmentPlan scanFragments(TargetContext &TC);

/// Fragment types of template instantiations (the patterns have dependent
/// fragment types): operand element types, and the unsupported ones.
struct InstantiatedFragments {
  std::set<Elem> Elems;
  std::vector<std::pair<clang::SourceLocation, std::string>> Bad;
};
InstantiatedFragments scanInstantiations(TargetContext &TC);

// ---- small AST queries shared by the rules ----------------------------------

/// The statement that contains \p S (the first parent), or null.
const clang::Stmt *parentStmt(TargetContext &TC, const clang::Stmt *S);
/// The function whose body contains \p S, or null.
const clang::FunctionDecl *enclosingFunction(TargetContext &TC,
                                             const clang::Stmt *S);
/// \p E names \p V (through parentheses and implicit casts).
bool refersTo(const clang::Expr *E, const clang::VarDecl *V);
/// The loop variable \p V of \p F starts at 0 and steps by 1 (++v, v++,
/// v += 1).
bool fromZeroByOne(TargetContext &TC, const clang::ForStmt *F,
                   const clang::VarDecl *V);
/// Source text for a message: whitespace collapsed, at most 60 characters.
std::string brief(llvm::StringRef Text);

} // namespace mfma
} // namespace pk
#endif

//===- UnknownApi.cpp - source-API names that nothing translates ----------===//
// Rules: PK1033
//
// The rename tables and the semantic rules translate the names of the source
// API they know.  A name they do not know (a runtime function of a newer
// toolkit, an enumerator, a deprecated alias, a driver-API call) used to pass
// through unchanged: the output then names what the target's headers do not
// declare, and the first sign was the target compiler's "undeclared
// identifier", with nothing in the report.  This pass runs after every
// rewrite pass and reports each use of such a name: an identifier in a user
// file that
//  - begins like a name of the source API (cuda..., CUDA_..., cu[A-Z]...,
//    cublas..., the cub namespace, ... for CUDA -> HIP; hip..., HIP_...,
//    hipblas..., rocprim, ... for HIP -> CUDA),
//  - names what a system header of the parse declares (a declaration at file
//    scope or a macro: the bundled CUDA declarations, a toolkit, HIP),
//  - is not declared or defined by the program itself,
//  - is not under an edit of the target nor reported by a rule there, and
//  - does not come from a header the include pass already reported as
//    having no counterpart (its uses are that finding's), nor from one whose
//    names the output defines itself (math_constants.h, PK1014).
// Member names (after `.`, `->`) and names qualified by a namespace other
// than the global one are not file-scope names and are left to the rules of
// their scope.
//
//===----------------------------------------------------------------------===//
#include "pk/Target.h"
#include "pk/TargetContext.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include <set>

using namespace pk;
using namespace clang;

namespace {

/// Whether \p Name begins like a name of the source API: one of the
/// prefixes, followed by the end of the name, an upper-case letter, a digit
/// or '_' (cudaMalloc, CUDA_R_32F, cuda::std, cuInit; not cudaless).
bool hasApiPrefix(llvm::StringRef Name, bool FromCuda) {
  static const char *const Cuda[] = {
      "cuda",     "CUDA",     "cublasLt", "cublas", "CUBLAS", "curand",
      "CURAND",   "cusparse", "CUSPARSE", "cufft",  "CUFFT",  "cusolver",
      "CUSOLVER", "cudnn",    "CUDNN",    "nvrtc",  "NVRTC",  "cub",
      "CUB",      "cu",       "CU"};
  static const char *const Hip[] = {
      "hip",     "HIP",       "hipblasLt", "hipblas", "HIPBLAS",  "hiprand",
      "HIPRAND", "hipsparse", "HIPSPARSE", "hipcub",  "HIPCUB",   "hipfft",
      "HIPFFT",  "rocblas",   "rocprim",   "rocrand", "rocthrust"};
  for (const char *P : FromCuda ? llvm::ArrayRef(Cuda) : llvm::ArrayRef(Hip)) {
    llvm::StringRef Rest = Name;
    if (!Rest.consume_front(P))
      continue;
    bool Short = llvm::StringRef(P).size() == 2; // cu, CU: cuInit, CUresult
    if (Rest.empty())
      return !Short;
    char C = Rest.front();
    if (llvm::isUpper(C) || (!Short && (llvm::isDigit(C) || C == '_')) ||
        (Short && C == '_' && llvm::StringRef(P) == "CU"))
      return true;
  }
  return false;
}

class UnknownApiPass {
public:
  UnknownApiPass(TargetContext &TC, bool FromCuda)
      : TC(TC), FromCuda(FromCuda), PP(TC.PF.AST->getPreprocessor()) {
    // Every name the program declares, fields, parameters and block-scope
    // names included (`s.cudaStream` names the program's own field). Its
    // macros are told apart by where they are defined (apiHeader).
    collectUserDeclaredNames(TC, Program, /*WithFields=*/true);
    for (const UnportedInclude &U : TC.Facts.UnportedIncludes)
      Unported.insert(llvm::sys::path::filename(U.Header));
    for (const std::string &H : TC.Facts.ProvidedHeaders)
      Unported.insert(H);
  }

  void run() {
    std::set<std::string> Done;
    for (const std::string &File : TC.PF.UserFiles)
      if (Done.insert(File).second)
        scan(File);
  }

private:
  /// Where \p Name is declared or defined, when only system headers do it
  /// (the file's name), else empty.
  llvm::StringRef apiHeader(llvm::StringRef Name) {
    auto Cached = Known.find(Name);
    if (Cached != Known.end())
      return Cached->second;
    std::string &Header = Known[Name];
    if (Program.count(Name))
      return Header;
    auto It = PP.getIdentifierTable().find(Name);
    IdentifierInfo *II =
        It == PP.getIdentifierTable().end() ? nullptr : It->second;
    if (!II)
      return Header;
    const SourceManager &SM = TC.SM();
    auto FromSystem = [&](SourceLocation L) {
      if (L.isInvalid())
        return false;
      SourceLocation F = SM.getFileLoc(L);
      if (!SM.isInSystemHeader(F))
        return false;
      Header = llvm::sys::path::filename(SM.getFilename(F)).str();
      return !Header.empty();
    };
    if (const MacroInfo *MI = PP.getMacroInfo(II)) {
      if (!FromSystem(MI->getDefinitionLoc()))
        Header.clear();
      return Header;
    }
    bool Any = false;
    for (const NamedDecl *ND :
         TC.Ctx().getTranslationUnitDecl()->lookup(DeclarationName(II))) {
      if (!FromSystem(ND->getLocation())) {
        Header.clear();
        return Header;
      }
      Any = true;
    }
    if (!Any)
      Header.clear();
    return Header;
  }

  void scan(const std::string &File) {
    llvm::StringRef Buf = TC.contents(File);
    const FileEdits *FE = TC.Edits.find(File);
    // Uses a rule reported already (a table's PK1010 for a name HIP lacks).
    std::set<unsigned> Reported;
    for (const Finding &F : TC.Findings)
      if (F.File == File)
        Reported.insert(F.Offset);
    bool InInclude = false;
    for (RawTokenCursor C(TC, Buf); !C.done(); C.advance()) {
      const RawToken &T = C[0];
      if (T.StartOfLine)
        InInclude = false;
      if (T.Kind == tok::hash && T.StartOfLine &&
          (C[1].Text == "include" || C[1].Text == "include_next" ||
           C[1].Text == "import")) {
        InInclude = true; // header names are the include pass's
        continue;
      }
      if (InInclude || T.Kind != tok::raw_identifier ||
          !hasApiPrefix(T.Text, FromCuda))
        continue;
      const RawToken &Before = C[-1];
      if (!T.StartOfLine &&
          (Before.Kind == tok::period || Before.Kind == tok::arrow))
        continue; // a member
      if (!T.StartOfLine && Before.Kind == tok::coloncolon &&
          C[-2].Kind == tok::raw_identifier && !C[-1].StartOfLine)
        continue; // qualified by a namespace or class
      if ((FE && FE->covers(T.Offset)) || Reported.count(T.Offset))
        continue; // translated (or part of a larger edit), or reported
      llvm::StringRef Header = apiHeader(T.Text);
      if (Header.empty() || Unported.count(Header))
        continue;
      TC.finding(
          File, T.Offset, RuleId::PK1033, Severity::Warning,
          llvm::formatv("'{0}' ({1}) is not translated: no table or rule of "
                        "port-kernel knows a {2} counterpart; the output "
                        "keeps the name, which {2}'s headers do not declare",
                        T.Text, Header, FromCuda ? "HIP" : "CUDA")
              .str());
    }
  }

  TargetContext &TC;
  bool FromCuda;
  Preprocessor &PP;
  llvm::StringSet<> Program;
  /// Headers whose names are not reported: flagged already, or provided.
  llvm::StringSet<> Unported;
  llvm::StringMap<std::string> Known;
};

} // namespace

void pk::reportUnknownApiNames(TargetContext &TC, bool FromCuda) {
  if (!TC.PF.AST)
    return;
  UnknownApiPass(TC, FromCuda).run();
}

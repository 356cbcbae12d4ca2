//===- RuntimeInclude.cpp - nvcc's implicit runtime include, made explicit ===//
// Rules: PK1012
//
// nvcc includes cuda_runtime.h in every .cu file before its first line, so
// most CUDA programs never include it.  HIP compilers do not: a HIP output
// that uses kernels, built-in variables, launches or the HIP API needs
// <hip/hip_runtime.h>, and it must come before any other HIP header
// (hip_cooperative_groups.h and hip_fp16.h need it first).  This pass adds
// the include before the first #include of the file (or at its top) unless
// the first HIP-related include already is the runtime.
//
//===----------------------------------------------------------------------===//
#include "HipPasses.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include <vector>

using namespace pk;
using namespace clang;

namespace {

/// Headers that declare the whole runtime (built-in variables included).
bool runtimeHeader(llvm::StringRef H) {
  return H == "cuda_runtime.h" || H == "cuda.h" || H == "hip/hip_runtime.h";
}

/// Whether \p Buf uses something nvcc's implicit include declares: CUDA
/// keywords and built-in variables, launches, or a name of the rename
/// tables (the runtime API, its types, device intrinsics).
bool usesRuntime(const TargetContext &TC, llvm::StringRef Buf) {
  static const llvm::StringSet<> Words = {
      "__global__",    "__device__",  "__host__",          "__shared__",
      "__constant__",  "__managed__", "__launch_bounds__", "threadIdx",
      "blockIdx",      "blockDim",    "gridDim",           "warpSize",
      "__syncthreads", "dim3"};
  Lexer L(SourceLocation::getFromRawEncoding(1), TC.Ctx().getLangOpts(),
          Buf.begin(), Buf.begin(), Buf.end());
  Token Tok;
  bool LineIsDirective = false;
  while (!L.LexFromRawLexer(Tok)) {
    if (Tok.isAtStartOfLine())
      LineIsDirective = Tok.is(tok::hash);
    if (LineIsDirective)
      continue;
    if (Tok.is(tok::lesslessless))
      return true;
    if (Tok.isNot(tok::raw_identifier))
      continue;
    llvm::StringRef Name = Tok.getRawIdentifier();
    if (Words.count(Name) || TC.DB.lookup(Name, true))
      return true;
  }
  return false;
}

} // namespace

void pk::hip::insertRuntimeInclude(TargetContext &TC) {
  if (TC.PF.Language == Lang::HIP)
    return; // hipcc's inputs include what they use
  for (const std::string &File : TC.PF.UserFiles) {
    llvm::StringRef Buf = TC.contents(File);
    if (Buf.empty())
      continue;
    // The first #include outside conditionals (a header guard does not
    // count); an include inside a conditional is preceded at the
    // outermost #if that holds it.
    std::vector<unsigned> Open; // #if* offsets
    int Guard = -1;             // depth of a header guard, if any
    unsigned Count = 0;
    bool Found = false, Needed = true, AnyHip = false, AnyTable = false;
    // After a UTF-8 byte-order mark, which must stay first.
    unsigned Start = Buf.starts_with("\xEF\xBB\xBF") ? 3 : 0;
    unsigned At = Start, AfterGuard = Start, AfterPragma = Start;
    std::string GuardName;
    forEachDirective(Buf, [&](const Directive &D) {
      ++Count;
      if (D.Keyword.starts_with("if")) {
        if (Count == 1 && D.Keyword == "ifndef") {
          Guard = 1;
          GuardName = D.Rest
                          .take_while([](char C) {
                            return llvm::isAlnum(C) || C == '_';
                          })
                          .str();
        }
        Open.push_back(D.Begin);
        return;
      }
      if (D.Keyword == "endif") {
        if (!Open.empty())
          Open.pop_back();
        return;
      }
      if (Count == 2 && Guard == 1 && D.Keyword == "define" &&
          D.Rest.starts_with(GuardName))
        AfterGuard = D.End;
      if (Count <= 2 && D.Keyword == "pragma" && D.Rest.starts_with("once"))
        AfterGuard = AfterPragma = D.End;
      if (D.Keyword != "include" || D.Header.empty())
        return;
      unsigned Depth = Open.size();
      bool Guarded = Guard == 1 && AfterGuard && Depth >= 1;
      if (!Found) {
        Found = true;
        unsigned Base = Guarded ? 1 : 0;
        At = Depth > Base ? Open[Base] : D.Begin;
      }
      // The first HIP-related include: a CUDA header of the tables or a
      // local header.
      if (AnyHip) {
        AnyTable |= TC.DB.lookupHeader(D.Header, true) != nullptr;
        return;
      }
      bool Table = TC.DB.lookupHeader(D.Header, true) != nullptr;
      AnyTable |= Table;
      if (!D.Angled || Table || runtimeHeader(D.Header)) {
        AnyHip = true;
        if (runtimeHeader(D.Header))
          Needed = false;
      }
    });
    if (!Needed)
      continue;
    if (!AnyTable && !usesRuntime(TC, Buf))
      continue;
    // No include: at the top (after #pragma once); an #ifndef at the top
    // need not be a guard of the whole file.
    if (!Found)
      At = AfterPragma;
    TC.edit(File, At, 0, "#include <hip/hip_runtime.h>\n", RuleId::PK1012,
            "nvcc includes cuda_runtime.h implicitly; HIP compilers need "
            "<hip/hip_runtime.h> before any other HIP header");
  }
}

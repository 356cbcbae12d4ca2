//===- NvccMacros.cpp - nvcc's predefined macros in HIP output ------------===//
// Rules: PK1026, PK1035
//
// The CUDA parse defines what nvcc predefines (__NVCC__, __CUDACC__,
// __CUDACC_VER_MAJOR__/MINOR__/BUILD__; ParsedFile::NvccMacros), so code
// that tests them is translated on the branch nvcc takes.  hipcc and clang
// define none of them: compiled as HIP, `#ifdef __NVCC__` would choose the
// other branch, which was not translated (or means "not a CUDA compiler").
// This pass writes the parse's values where the user's files name them:
//
//   __NVCC__, __CUDACC__       ->  __HIP__ (in #ifdef, #ifndef, defined(),
//                                  #if and code): what HIP compilers define
//                                  in their place, so that a .cpp the host
//                                  compiler builds alone keeps the other
//                                  branch, as it did with nvcc's sources
//   #ifdef X / #elifdef X      ->  #if 1 / #elif 1     (the version macros)
//   #ifndef X / #elifndef X    ->  #if 0 / #elif 0
//   defined(X), defined X      ->  1
//   X (in #if or in code)      ->  its value (13 for __CUDACC_VER_MAJOR__)
//
// so the HIP output takes the branch the translation was made on.  A file
// that #defines or #undefs one of them keeps that name as written.
//
// PK1035: __CUDA_ARCH__ is defined only in nvcc's device pass (the parse,
// a host parse, has it undefined, as nvcc's host pass does). HIP compilers
// never define it, so a kernel body under `#if __CUDA_ARCH__ >= 700` would
// compile to nothing on AMD: silently. clang's device pass defines
// __HIP_DEVICE_COMPILE__ (as 1) instead, so
//
//   #ifdef __CUDA_ARCH__ / defined(__CUDA_ARCH__) -> ... __HIP_DEVICE_COMPILE__
//   __CUDA_ARCH__ (in #if or code)  -> (__HIP_DEVICE_COMPILE__ * 700)
//
// 0 in the host pass (an undefined name in #if is 0, as __CUDA_ARCH__ was),
// 700 in the device pass: the branch nvcc takes for sm_70, the oldest
// architecture whose semantics (independent thread scheduling, the *_sync
// intrinsics) the ports assume; newer architectures' branches use features
// (cp.async, tensor-memory and warpgroup instructions) HIP does not have.
//
//===----------------------------------------------------------------------===//
#include "HipPasses.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include <vector>

using namespace pk;
using namespace clang;

namespace pk_nvcc_macros {

constexpr llvm::StringLiteral kArch = "__CUDA_ARCH__";
constexpr int kArchValue = 700;

void rewriteFile(TargetContext &TC, llvm::StringRef File,
                 const llvm::StringMap<std::string> &Values) {
  llvm::StringRef Buf = TC.contents(File);
  // Every edit below is at a token spelled as one of the names: a file
  // that spells none of them is not lexed.
  if (llvm::none_of(Values.keys(),
                    [&](llvm::StringRef N) { return Buf.contains(N); }) &&
      !Buf.contains(kArch))
    return;
  // Names the file defines or undefines itself are left as written.
  llvm::StringSet<> Own;
  for (RawTokenCursor C(TC, Buf); !C.done(); C.advance())
    if (C[0].StartOfLine && C[0].Kind == tok::hash &&
        (C[1].Text == "define" || C[1].Text == "undef") &&
        (Values.count(C[2].Text) || C[2].Text == kArch))
      Own.insert(C[2].Text);
  const bool Arch = !Own.count(kArch);
  const std::string ArchWhy =
      "__CUDA_ARCH__ is defined only in nvcc's device pass; HIP compilers "
      "never define it, and clang's device pass defines "
      "__HIP_DEVICE_COMPILE__ instead";
  const std::string ArchValue =
      llvm::formatv("(__HIP_DEVICE_COMPILE__ * {0})", kArchValue).str();
  auto Value = [&](llvm::StringRef Name) -> const std::string * {
    if (Name.empty() || Own.count(Name))
      return nullptr;
    auto It = Values.find(Name);
    return It == Values.end() ? nullptr : &It->second;
  };
  // The compiler-identity macros: defined in every translation unit the
  // CUDA compiler builds and in none the host compiler builds alone.
  auto Identity = [](llvm::StringRef Name) {
    return Name == "__NVCC__" || Name == "__CUDACC__";
  };
  auto WhyHip = [](llvm::StringRef Name) {
    return llvm::formatv("{0} is defined where nvcc compiles a translation "
                         "unit; __HIP__ is where a HIP compiler does (a .cpp "
                         "the host compiler builds alone has neither), so "
                         "the translated branch is kept",
                         Name)
        .str();
  };
  auto Why = [](llvm::StringRef Name, llvm::StringRef V) {
    return llvm::formatv("{0} is {1} in the CUDA parse (nvcc or its headers "
                         "define it) and "
                         "undefined for HIP compilers: its value keeps the "
                         "branch that was translated",
                         Name, V)
        .str();
  };
  // Tokens past the end read as an end-of-file token that starts a line and
  // has no text (RawTokenCursor), so no lookahead below reads past it.
  bool InDirective = false, Skip = false;
  for (RawTokenCursor C(TC, Buf); !C.done(); C.advance()) {
    const RawToken &T = C[0];
    if (T.StartOfLine) {
      InDirective = T.Kind == tok::hash;
      // Message and pragma text is not evaluated: left as written.
      static const llvm::StringSet<> Verbatim = {"error",   "warning", "pragma",
                                                 "include", "line",    "ident"};
      Skip = InDirective && Verbatim.contains(C[1].Text);
    }
    if (Skip)
      continue;
    // #ifdef X, #ifndef X, #elifdef X, #elifndef X.
    if (T.StartOfLine && T.Kind == tok::hash && !C[1].StartOfLine &&
        !C[2].StartOfLine) {
      const RawToken &KwTok = C[1], &Name = C[2];
      llvm::StringRef Kw = KwTok.Text;
      bool Neg = Kw == "ifndef" || Kw == "elifndef";
      bool Pos = Kw == "ifdef" || Kw == "elifdef";
      if ((Neg || Pos) && Arch && Name.Text == kArch) {
        TC.edit(File, Name.Offset, Name.Length, "__HIP_DEVICE_COMPILE__",
                RuleId::PK1035,
                llvm::formatv("#{0} {1}: {2}", Kw, Name.Text, ArchWhy).str());
        C.advance(2);
        continue;
      }
      if ((Neg || Pos) && Value(Name.Text) && Identity(Name.Text)) {
        TC.edit(File, Name.Offset, Name.Length, "__HIP__", RuleId::PK1026,
                llvm::formatv("#{0} {1}: {2}", Kw, Name.Text,
                              WhyHip(Name.Text))
                    .str());
        C.advance(2);
        continue;
      }
      if ((Neg || Pos) && Value(Name.Text)) {
        std::string New = (Kw.starts_with("elif") ? "elif " : "if ") +
                          std::string(Neg ? "0" : "1");
        unsigned B = KwTok.Offset;
        unsigned E = Name.Offset + Name.Length;
        TC.edit(File, B, E - B, New, RuleId::PK1026,
                llvm::formatv("#{0} {1}: {2}", Kw, Name.Text,
                              Why(Name.Text, "defined"))
                    .str());
        C.advance(2);
        continue;
      }
    }
    if (T.Kind != tok::raw_identifier)
      continue;
    // defined(X), defined X (only meaningful in a directive).
    if (InDirective && T.Text == "defined") {
      int J = 1;
      bool Paren = C[J].Kind == tok::l_paren;
      if (Paren)
        ++J;
      const RawToken &Name = C[J];
      if (!Name.StartOfLine && Arch && Name.Text == kArch &&
          (!Paren || C[J + 1].Kind == tok::r_paren)) {
        TC.edit(File, Name.Offset, Name.Length, "__HIP_DEVICE_COMPILE__",
                RuleId::PK1035, "defined(__CUDA_ARCH__): " + ArchWhy);
        C.advance(Paren ? J + 1 : J);
        continue;
      }
      if (!Name.StartOfLine && Value(Name.Text) &&
          (!Paren || C[J + 1].Kind == tok::r_paren)) {
        int Last = Paren ? J + 1 : J;
        if (Identity(Name.Text)) {
          TC.edit(File, Name.Offset, Name.Length, "__HIP__", RuleId::PK1026,
                  "defined(" + Name.Text.str() + "): " + WhyHip(Name.Text));
          C.advance(Last);
          continue;
        }
        unsigned B = T.Offset, E = C[Last].Offset + C[Last].Length;
        TC.edit(File, B, E - B, "1", RuleId::PK1026,
                "defined(" + Name.Text.str() +
                    "): " + Why(Name.Text, "defined"));
        C.advance(Last);
        continue;
      }
    }
    if (Arch && T.Text == kArch) {
      TC.edit(File, T.Offset, T.Length, ArchValue, RuleId::PK1035,
              ArchWhy + llvm::formatv(": {0} is 0 in the host pass and {1} "
                                      "in the device pass, the value of "
                                      "sm_70, whose branch the port takes",
                                      ArchValue, kArchValue)
                            .str());
      continue;
    }
    if (const std::string *V = Value(T.Text)) {
      // Not the name of a #define or #undef (those files keep it anyway).
      if (Identity(T.Text))
        TC.edit(File, T.Offset, T.Length, "__HIP__", RuleId::PK1026,
                WhyHip(T.Text));
      else
        TC.edit(File, T.Offset, T.Length, *V, RuleId::PK1026, Why(T.Text, *V));
    }
  }
}

} // namespace pk_nvcc_macros

void pk::hip::writeNvccMacroValues(TargetContext &TC) {
  llvm::StringMap<std::string> Values;
  for (const auto &[Name, Value] : TC.PF.NvccMacros)
    Values[Name] = Value;
  for (const std::string &File : TC.PF.UserFiles)
    pk_nvcc_macros::rewriteFile(TC, File, Values);
}

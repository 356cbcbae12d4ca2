//===- Highlight.cpp - token classes for syntax highlighting --------------===//
// Rules: none (report rendering)
//
// C++/CUDA/HIP text is lexed with clang's raw lexer (no preprocessor, no
// AST): keywords come from clang's identifier table for CUDA C++17, comments
// are kept as tokens, and a directive line from its '#' on is one class.
// Python has no lexer in LLVM, so NKI outputs get a small tokenizer here.
//
//===----------------------------------------------------------------------===//
#include "Highlight.h"
#include "pk/Escape.h"
#include "clang/Basic/IdentifierTable.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Path.h"

using namespace pk;

static bool isGpuName(llvm::StringRef S) {
  return llvm::StringSwitch<bool>(S)
      .Cases("__global__", "__device__", "__host__", "__shared__",
             "__constant__", "__forceinline__", "__launch_bounds__", true)
      .Cases("threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", true)
      .Cases("__syncthreads", "__syncwarp", "__restrict__", true)
      .Default(S.starts_with("__shfl") || S.starts_with("__ballot") ||
               S.starts_with("__any") || S.starts_with("__all") ||
               S.starts_with("__builtin_amdgcn") || S.starts_with("nvcuda"));
}

std::vector<TokClass> pk::highlightCpp(llvm::StringRef Text0) {
  std::string Text = Text0.str(); // the raw lexer reads up to a NUL
  std::vector<TokClass> C(Text.size(), TokClass::Plain);
  clang::LangOptions LO;
  LO.CPlusPlus = LO.CPlusPlus11 = LO.CPlusPlus14 = LO.CPlusPlus17 = 1;
  LO.LineComment = LO.Bool = LO.CUDA = 1;
  clang::IdentifierTable Ids(LO);
  const char *B = Text.c_str();
  clang::Lexer L(clang::SourceLocation(), LO, B, B, B + Text.size());
  L.SetCommentRetentionState(true);
  auto Mark = [&](size_t From, size_t To, TokClass K) {
    for (size_t I = From; I < To && I < C.size(); ++I)
      C[I] = K;
  };
  clang::Token T;
  while (true) {
    L.LexFromRawLexer(T);
    if (T.is(clang::tok::eof))
      break;
    size_t End = L.getBufferLocation() - B;
    size_t Begin = End - T.getLength();
    if (T.is(clang::tok::hash) && T.isAtStartOfLine()) {
      // The directive up to the end of its (possibly continued) line.
      size_t E = Begin;
      while (E < Text.size() && Text[E] != '\n')
        E += (Text[E] == '\\' && E + 1 < Text.size() && Text[E + 1] == '\n')
                 ? 2
                 : 1;
      Mark(Begin, E, TokClass::Preproc);
      // Comments on the line keep their class: lex on from here.
      continue;
    }
    TokClass K = TokClass::Plain;
    if (T.is(clang::tok::comment))
      K = TokClass::Comment;
    else if (clang::tok::isStringLiteral(T.getKind()) ||
             T.isOneOf(clang::tok::char_constant,
                       clang::tok::wide_char_constant,
                       clang::tok::utf8_char_constant,
                       clang::tok::utf16_char_constant,
                       clang::tok::utf32_char_constant))
      K = TokClass::String;
    else if (T.is(clang::tok::numeric_constant))
      K = TokClass::Number;
    else if (T.is(clang::tok::raw_identifier)) {
      llvm::StringRef Name = T.getRawIdentifier();
      if (isGpuName(Name))
        K = TokClass::Attr;
      else if (Ids.get(Name).getTokenID() != clang::tok::identifier)
        K = TokClass::Keyword;
    }
    if (K != TokClass::Plain)
      Mark(Begin, End, K);
  }
  return C;
}

std::vector<TokClass> pk::highlightPython(llvm::StringRef S) {
  std::vector<TokClass> C(S.size(), TokClass::Plain);
  auto IsKeyword = [](llvm::StringRef W) {
    return llvm::StringSwitch<bool>(W)
        .Cases("False", "None", "True", "and", "as", "assert", "break", true)
        .Cases("class", "continue", "def", "del", "elif", "else", "except",
               true)
        .Cases("finally", "for", "from", "global", "if", "import", "in", true)
        .Cases("is", "lambda", "nonlocal", "not", "or", "pass", "raise", true)
        .Cases("return", "try", "while", "with", "yield", true)
        .Default(false);
  };
  size_t I = 0;
  while (I < S.size()) {
    char Ch = S[I];
    size_t J = I + 1;
    TokClass K = TokClass::Plain;
    if (Ch == '#') {
      J = S.find('\n', I);
      J = J == llvm::StringRef::npos ? S.size() : J;
      K = TokClass::Comment;
    } else if (Ch == '"' || Ch == '\'') {
      llvm::StringRef Q = S.substr(I, 3) == std::string(3, Ch) ? S.substr(I, 3)
                                                               : S.substr(I, 1);
      J = I + Q.size();
      while (J < S.size() && !S.substr(J).starts_with(Q)) {
        if (S[J] == '\\')
          ++J;
        else if (Q.size() == 1 && S[J] == '\n')
          break;
        ++J;
      }
      J = std::min(S.size(), J + (J < S.size() && S[J] != '\n' ? Q.size() : 0));
      K = TokClass::String;
    } else if (llvm::isDigit(Ch)) {
      while (J < S.size() &&
             (llvm::isAlnum(S[J]) || S[J] == '.' || S[J] == '_'))
        ++J;
      K = TokClass::Number;
    } else if (llvm::isAlpha(Ch) || Ch == '_') {
      while (J < S.size() && (llvm::isAlnum(S[J]) || S[J] == '_'))
        ++J;
      llvm::StringRef W = S.slice(I, J);
      K = IsKeyword(W)                           ? TokClass::Keyword
          : W == "nki" || W == "nl" || W == "np" ? TokClass::Attr
                                                 : TokClass::Plain;
    } else if (Ch == '@' && (I == 0 || S[I - 1] == '\n' || S[I - 1] == ' ')) {
      while (J < S.size() &&
             (llvm::isAlnum(S[J]) || S[J] == '_' || S[J] == '.'))
        ++J;
      K = TokClass::Preproc;
    }
    for (size_t P = I; P < J; ++P)
      C[P] = K;
    I = J;
  }
  return C;
}

std::vector<TokClass> pk::highlightFile(llvm::StringRef Name,
                                        llvm::StringRef Text) {
  if (llvm::sys::path::extension(Name) == ".py")
    return highlightPython(Text);
  return highlightCpp(Text);
}

static const char *className(TokClass K) {
  switch (K) {
  case TokClass::Keyword:
    return "tk-kw";
  case TokClass::Attr:
    return "tk-gpu";
  case TokClass::Comment:
    return "tk-com";
  case TokClass::String:
    return "tk-str";
  case TokClass::Number:
    return "tk-num";
  case TokClass::Preproc:
    return "tk-pp";
  case TokClass::Plain:
    break;
  }
  return nullptr;
}

void pk::writeHighlighted(llvm::raw_ostream &OS, llvm::StringRef Text,
                          llvm::ArrayRef<TokClass> Classes, size_t Begin,
                          size_t End) {
  End = std::min(End, Text.size());
  size_t I = Begin;
  while (I < End) {
    TokClass K = I < Classes.size() ? Classes[I] : TokClass::Plain;
    size_t J = I + 1;
    while (J < End && (J < Classes.size() ? Classes[J] : TokClass::Plain) == K)
      ++J;
    const char *Cls = className(K);
    if (Cls)
      OS << "<span class=\"" << Cls << "\">";
    OS << htmlEscape(Text.slice(I, J)); // invisible controls shown
    if (Cls)
      OS << "</span>";
    I = J;
  }
}

//===- RawTokens.h - raw-lexed tokens of a CUDA target input ---*- C++ -*-===//
// Rules: none
//
// The CUDA target's token-level passes (HIP launches and intrinsics, helper
// blocks, MFMA fragments) read a file as raw tokens with their offsets.
//
//===----------------------------------------------------------------------===//
#ifndef PK_TARGETS_CUDA_RAWTOKENS_H
#define PK_TARGETS_CUDA_RAWTOKENS_H

#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringRef.h"

#include <utility>
#include <vector>

namespace pk {
namespace cuda {

using clang::tok::TokenKind;
namespace tok = clang::tok;

struct Tok {
  TokenKind Kind;
  unsigned Off, Len;
  llvm::StringRef Text;
};

inline std::vector<Tok> lex(llvm::StringRef Buf, const clang::LangOptions &LO) {
  std::vector<Tok> V;
  clang::Lexer L(clang::SourceLocation::getFromRawEncoding(1), LO, Buf.begin(),
                 Buf.begin(), Buf.end());
  clang::Token T;
  while (!L.LexFromRawLexer(T)) {
    unsigned Off = T.getLocation().getRawEncoding() - 1;
    V.push_back(
        {T.getKind(), Off, T.getLength(), Buf.substr(Off, T.getLength())});
  }
  if (T.getLength()) {
    unsigned Off = T.getLocation().getRawEncoding() - 1;
    V.push_back(
        {T.getKind(), Off, T.getLength(), Buf.substr(Off, T.getLength())});
  }
  return V;
}

/// Top-level arguments of the bracketed list opening at token \p Open
/// ('(' or '<'); returns the index of the closing token or 0.
inline size_t args(const std::vector<Tok> &T, size_t Open,
                   std::vector<std::pair<size_t, size_t>> &Out) {
  bool Angle = T[Open].Kind == tok::less;
  int Depth = 0;
  size_t Start = Open + 1;
  for (size_t I = Open; I < T.size(); ++I) {
    TokenKind K = T[I].Kind;
    bool Opens = K == tok::l_paren || K == tok::l_square || K == tok::l_brace ||
                 (Angle && K == tok::less);
    bool Closes = K == tok::r_paren || K == tok::r_square ||
                  K == tok::r_brace || (Angle && K == tok::greater);
    if (Angle && K == tok::greatergreater) {
      // `>>` closes two template lists.
      Depth -= 2;
      if (Depth <= 0) {
        Out.push_back({Start, I});
        return Depth == 0 ? I : 0;
      }
      continue;
    }
    if (Opens)
      ++Depth;
    else if (Closes) {
      if (--Depth == 0) {
        if (I > Start)
          Out.push_back({Start, I});
        return I;
      }
    } else if (K == tok::comma && Depth == 1) {
      Out.push_back({Start, I});
      Start = I + 1;
    }
  }
  return 0;
}

} // namespace cuda
} // namespace pk

#endif

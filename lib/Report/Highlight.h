//===- Highlight.h - token classes for syntax highlighting ------*- C++ -*-===//
// Rules: none (report rendering)
#ifndef PK_REPORT_HIGHLIGHT_H
#define PK_REPORT_HIGHLIGHT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <vector>

namespace pk {

enum class TokClass : uint8_t {
  Plain,
  Keyword,
  Attr, ///< CUDA/HIP qualifiers and builtins (__global__, threadIdx, ...)
  Comment,
  String,
  Number,
  Preproc,
};

/// The class of every byte of \p Text, lexed as CUDA/C++ with clang's raw
/// lexer (comments kept; keywords from clang's identifier table).
std::vector<TokClass> highlightCpp(llvm::StringRef Text);
/// The same for Python (NKI outputs): a small tokenizer of its own.
std::vector<TokClass> highlightPython(llvm::StringRef Text);
/// Chooses by the file name's extension.
std::vector<TokClass> highlightFile(llvm::StringRef Name, llvm::StringRef Text);

/// Writes bytes [Begin, End) of \p Text as HTML-escaped text with a
/// <span class="tk-..."> per run of one class (no line terminator).
void writeHighlighted(llvm::raw_ostream &OS, llvm::StringRef Text,
                      llvm::ArrayRef<TokClass> Classes, size_t Begin,
                      size_t End);

} // namespace pk
#endif

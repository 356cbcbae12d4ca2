//===- MacroDepth.h - a bound on nested macro arguments --------*- C++ -*-===//
// Rules: PK9001
//
// clang pre-expands each macro argument recursively and copies the rest of
// the argument at every level: time and memory grow with the square of the
// nesting depth (10,000 levels: 3.6 GB; 20,000: about 14 GB).  Before a file
// is parsed, a raw-lexer scan of it and of the local headers it includes
// measures how deeply parentheses nest inside invocations of its
// function-like macros; deeper than the limit is an error at the line of the
// invocation, and clang is never asked to expand it.
//
//===----------------------------------------------------------------------===//
#ifndef PK_FRONTEND_MACRODEPTH_H
#define PK_FRONTEND_MACRODEPTH_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>

namespace pk {

/// Default of --max-macro-depth: above the 10,000 levels that port in
/// 3.6 GB, below what needs more than a few GB.
constexpr unsigned DefaultMaxMacroDepth = 12000;

/// Scans \p File and the local headers it includes with quotes (found next
/// to the including file or in the -iquote/-I/-isystem directories of
/// \p CompileArgs, relative to \p WorkDir), each once, in the order a
/// preprocessor reaches them.  Function-like macros are those #defined in
/// the files scanned.  Returns an error
/// `FILE:LINE:COL: error: macro arguments nested N deep, more than the limit
/// L (--max-macro-depth); ... [PK9001]` for the first invocation nested
/// deeper than \p Limit; 0 disables the check.  Linear in the size of the
/// files.
llvm::Error checkMacroDepth(llvm::StringRef File,
                            llvm::ArrayRef<std::string> CompileArgs,
                            llvm::StringRef WorkDir, unsigned Limit);

/// The limit parseFile applies (--max-macro-depth; DefaultMaxMacroDepth
/// until set; 0 = none), for the whole process.
unsigned macroDepthLimit();
void setMacroDepthLimit(unsigned Limit);

} // namespace pk

#endif

//===- CompDb.h - compilation-database helpers of the front end -*- C++ -*-===//
// Rules: PK9001
//
// What parseFile (Frontend.cpp) uses of the compilation-database code
// (CompileFlags.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef PK_FRONTEND_COMPDB_H
#define PK_FRONTEND_COMPDB_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <string>
#include <vector>

namespace clang::tooling {
class CompilationDatabase;
struct CompileCommand;
} // namespace clang::tooling

namespace pk::compdb {

/// The clang flags of one compilation-database command (nvcc or clang/gcc,
/// behind a compiler launcher or not) for the file \p AbsFile; relative
/// paths stay relative to the command's directory.
llvm::Expected<std::vector<std::string>>
commandFlags(const clang::tooling::CompileCommand &Cmd,
             llvm::StringRef AbsFile);

/// \p Flags with the paths of include directories and forced includes made
/// absolute against \p Dir (the others as they are).
std::vector<std::string> absolutePathFlags(llvm::ArrayRef<std::string> Flags,
                                           llvm::StringRef Dir);

/// The compilation database of \p Dir, or `DIR: error: cannot load ...`.
llvm::Expected<std::unique_ptr<clang::tooling::CompilationDatabase>>
loadCompDb(llvm::StringRef Dir);

} // namespace pk::compdb

#endif

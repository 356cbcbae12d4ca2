//===- Inputs.h - which files a run reads ---------------------------------===//
// Rules: PK9001
#ifndef PK_INPUTS_H
#define PK_INPUTS_H

#include "pk/Frontend.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace pk {

/// One input file of a run.
struct InputFile {
  std::string Path; ///< absolute
  std::string Root; ///< directory the input's layout is relative to
  FileKind Kind;
};

/// Collects the files under \p Paths (directories recursively, hidden
/// entries skipped), sorted and without duplicates, classified by
/// extension and content.
llvm::Error collectInputs(llvm::ArrayRef<std::string> Paths,
                          std::vector<InputFile> &Out);

/// Absolute, dot-free form of \p P.
std::string absPath(llvm::StringRef P);
/// True when \p Child is \p Dir or lies under it.
bool isUnder(llvm::StringRef Child, llvm::StringRef Dir);
/// The deepest directory containing both \p A and \p B.
std::string commonDir(llvm::StringRef A, llvm::StringRef B);
/// Header extensions (.cuh, .h, .hpp, ...).
bool isHeaderExt(llvm::StringRef P);

} // namespace pk
#endif

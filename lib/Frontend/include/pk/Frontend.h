//===- Frontend.h - parse a CUDA/HIP file once -----------------------------===//
#ifndef PK_FRONTEND_H
#define PK_FRONTEND_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTUnit;
}

namespace pk {

enum class Lang { CUDA, HIP };

struct FrontendOptions {
  std::string CompDbDir;               ///< -p DIR (empty: defaults)
  std::vector<std::string> ExtraArgs;  ///< --extra-arg
  std::vector<std::string> ExtraArgsBefore; ///< --extra-arg-before
  /// --cuda-path: empty = auto-detect ($CUDA_PATH, $CUDA_HOME,
  /// /usr/local/cuda); "none" = use the bundled declarations.
  std::string CudaPath;
  /// Parse for the emulator: CUDA/HIP mode against the emulator's shims.
  bool EmuParse = false;
  bool Verbose = false;
};

/// Returns the CUDA toolkit to parse against, or "" when none is usable (the
/// bundled declarations are used then).
std::string detectCudaToolkit(const FrontendOptions &O);

/// Language of a source by extension and content: .hip/.hiph -> HIP;
/// .cu/.cuh -> CUDA; .cpp/.h/... -> HIP when it includes hip headers or uses
/// hip* APIs, CUDA when it uses CUDA constructs, otherwise not a GPU source.
enum class FileKind { CUDA, HIP, PlainCXX, Other };
FileKind classifyFile(llvm::StringRef Path, llvm::StringRef Content);

/// A parsed translation unit: the AST every target consumes.
struct ParsedFile {
  std::string Path; ///< absolute path of the main file
  Lang Language = Lang::CUDA;
  bool BundledDecls = false; ///< parsed without a CUDA toolkit
  std::unique_ptr<clang::ASTUnit> AST;
  /// Main file and the local (non-system) headers of the TU, absolute paths.
  std::vector<std::string> UserFiles;
  std::vector<std::string> CommandLine; ///< the clang command used
  ~ParsedFile();
};

/// Parses \p Path once.  Any clang error fails the parse (the AST of a TU
/// with errors is never trusted); the message lists clang's diagnostics.
llvm::Expected<std::unique_ptr<ParsedFile>>
parseFile(llvm::StringRef Path, Lang L, const FrontendOptions &O);

/// Paths configured at build time.
struct FrontendPaths {
  static std::string resourceDir();
  static std::string bundledDeclsDir();
  static std::string cuda13ShimDir();
  static std::string emuShimDir();
  static std::string hipIncludeDir();
};

} // namespace pk
#endif

//===- ValidateCase.h - case specs, driver generation, result parsing -----===//
// Rules: none (validation harness)
//
// The pieces of `validate` below runValidate(), exposed for unit tests.
//
//===----------------------------------------------------------------------===//
#ifndef PK_VALIDATECASE_H
#define PK_VALIDATECASE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pk {
namespace validate {

enum class ElemType { Float, Double, Int, Unsigned, Half, BF16, UInt8 };
enum class InitKind { Zero, Uniform, Iota, Const };

/// Spelling in case.yaml ("float", "bf16", ...).
llvm::StringRef elemTypeName(ElemType T);
/// Size in bytes of one element.
unsigned elemTypeSize(ElemType T);
bool elemTypeIsInteger(ElemType T);
llvm::StringRef initKindName(InitKind K);

struct ArgSpec {
  std::string Name;
  ElemType Type = ElemType::Float;
  std::optional<uint64_t> Count; ///< set: a buffer; unset: a scalar
  std::optional<std::string> Value;
  std::optional<InitKind> Init;
  std::optional<double> Lo, Hi;
  std::optional<uint64_t> Seed;
  std::optional<bool> Output;

  // Derived by the parser.
  double Number = 0.0; ///< Value as a number (0 when absent)
  unsigned Line = 0;   ///< line of the entry in case.yaml

  bool isBuffer() const { return Count.has_value(); }
  bool isOutput() const { return Output.value_or(false); }
  InitKind init() const { return Init.value_or(InitKind::Zero); }
  double lo() const { return Lo.value_or(0.0); }
  double hi() const { return Hi.value_or(1.0); }
  uint64_t seed() const { return Seed.value_or(0); }
};

struct CaseSpec {
  std::string Name;
  std::string Description;
  std::string Source;    ///< kernel file, relative to the case dir
  std::string Entry;     ///< kernel name, possibly with template arguments
  std::string Reference; ///< reference function in the reference source
  std::string ReferenceSource = "ref.cpp";
  unsigned Grid[3] = {1, 1, 1};
  unsigned Block[3] = {1, 1, 1};
  uint64_t SharedBytes = 0;
  std::vector<ArgSpec> Args;
  double AbsTol = 1e-5;
  double RelTol = 1e-4;

  std::string Dir;      ///< absolute case directory
  std::string SpecPath; ///< the case.yaml it came from

  std::string sourcePath() const;
  std::string referencePath() const;
};

/// Parses \p Text (the contents of \p FileName, used in messages).  Relative
/// file names are resolved against \p CaseDir; when \p CheckFiles is set the
/// kernel and reference sources must exist and define the entry and
/// reference functions.  Errors read "file:line:col: error: message".
llvm::Expected<CaseSpec> parseCaseSpecText(llvm::StringRef Text,
                                           llvm::StringRef FileName,
                                           llvm::StringRef CaseDir,
                                           bool CheckFiles = true);
/// Reads and parses a case.yaml file.
llvm::Expected<CaseSpec> parseCaseSpecFile(llvm::StringRef Path);

/// Finds case.yaml files: a path may be a case.yaml, a case dir, or a parent
/// directory searched recursively.  Results are sorted and deduplicated.
llvm::Expected<std::vector<std::string>>
findCaseSpecs(const std::vector<std::string> &Paths);

enum class Lang { CUDA, HIP };

struct DriverConfig {
  Lang Language = Lang::CUDA;
  std::string
      PreparedSource; ///< #include'd kernel source (prepared for the emulator)
  std::string ReferenceSource;
  std::string RuntimeHeader; ///< pkv_rt.h
  /// Named in the result line; empty: read from PKV_VARIANT when the
  /// driver runs (so that the driver's text is the same for every variant).
  std::string Variant = "original";
  /// Defines pkemu::launch with a triple-chevron launch so the driver builds
  /// with nvcc against the unprepared source (checks on real GPUs).
  bool NativeLaunch = false;
};

/// The driver program for \p Spec: allocates and fills the buffers, launches
/// the entry through pkemu::launch, runs the reference, compares and prints
/// one JSON result line (see pkv_rt.h).
std::string generateDriver(const CaseSpec &Spec, const DriverConfig &Cfg);

/// The text of pkv_rt.h, embedded at build time.
llvm::StringRef driverRuntimeHeader();

/// C++ spelling of an element type in the given language.
llvm::StringRef elemTypeCxx(ElemType T, Lang L);

// Pieces of generated driver programs (DriverGen.cpp), shared by the
// emulator and NKI drivers.
/// The pkv_rt.h element-type and initialiser constants (pkv::T_F32, ...).
llvm::StringRef driverElemType(ElemType T);
llvm::StringRef driverInitKind(InitKind K);
/// A double as a C++ literal that reads back exactly.
std::string cxxDoubleLiteral(double D);
/// \p S as a C++ string literal.
std::string cxxStringLiteral(llvm::StringRef S);
/// The C++ initialiser of scalar argument \p A in its element type.
std::string cxxScalarInit(const ArgSpec &A);

/// One output's comparison, as printed by the driver.
struct OutputResult {
  std::string Name;
  uint64_t Count = 0, Mismatches = 0, NanMismatches = 0;
  double MaxAbs = 0, MaxRel = 0;
  int64_t FirstBad = -1;
  double Got = 0, Want = 0;
};

struct DriverResult {
  std::string Status; ///< "pass", "mismatch" or "error"
  std::string Message;
  std::vector<OutputResult> Outputs;
};

/// Finds the driver's result line in \p Stdout and parses it.
llvm::Expected<DriverResult> parseDriverResult(llvm::StringRef Stdout);

/// The `pkemu: error:` lines of an emulator report (and what follows each,
/// up to \p MaxLines lines in all).
std::string emulatorReport(llvm::StringRef Stderr, unsigned MaxLines = 12);

/// The first diagnostics of a failed compile: lines containing "error", with
/// their file:line prefix, up to \p MaxLines.
std::string compileErrorSummary(llvm::StringRef Log, unsigned MaxLines = 6);

} // namespace validate
} // namespace pk

#endif // PK_VALIDATECASE_H

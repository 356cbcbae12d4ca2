//===- NKIRun.h - validate NKI outputs on the NKI simulator -----*- C++ -*-===//
// Rules: none (validation harness)
//
// `validate --to nki`: an NKI output (.py) is run by lib/NKISim/pk_nki_run.py
// (the real `nki` package when installed, the NumPy simulator otherwise) on
// the case's inputs, and its outputs are compared with the case's CPU
// reference by a small generated C++ program (the reference driver).  See
// docs/nki.md and docs/validate.md.
//
//===----------------------------------------------------------------------===//
#ifndef PK_NKIRUN_H
#define PK_NKIRUN_H

#include "pk/PortService.h"
#include "pk/ValidateCase.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pk {
namespace validate {

struct NkiRunConfig {
  std::string ClangXX;       ///< builds the reference driver
  std::string Python;        ///< python3 with NumPy
  std::string Runner;        ///< lib/NKISim/pk_nki_run.py
  std::string RuntimeHeader; ///< pkv_rt.h (written by the harness)
  std::string Variant = "nki";
  unsigned TimeoutSec = 300;          ///< the whole cell; 0 = none
  std::size_t OutputLimit = 4u << 20; ///< bytes kept of each step's streams
};

/// Whether `validate` runs \p T's outputs with the NKI runner instead of the
/// SIMT emulator (the "nki" target of pk/TargetList.def).
bool runsOnNkiSimulator(Target T);

/// Python and the runner as configured at build time.
NkiRunConfig defaultNkiRunConfig();

struct NkiOutcome {
  bool Passed = false;
  std::string Kind;   ///< not-lifted, interface, simulator, nki-python,
                      ///< compile, run, crash, timeout, interrupted, mismatch
  std::string Reason; ///< one line
  std::string Detail; ///< further lines
  std::vector<OutputResult> Outputs;
  int ExitCode = 0;
  std::optional<uint64_t> Ops; ///< traced operations (simulator only)
  std::string Backend;         ///< "simulator" or "nki"
};

/// The NKI kernel's name for a case entry: "sgemm_tiled<16>" -> "sgemm_tiled".
std::string nkiKernelName(llvm::StringRef Entry);

/// The reference driver: `driver inputs DIR` writes each buffer's initial
/// contents to DIR/arg<I>.bin; `driver compare DIR` runs the reference on the
/// same inputs and compares each output with DIR/out<I>.bin, printing the
/// result line of pkv_rt.h.
std::string generateNkiDriver(const CaseSpec &Spec,
                              llvm::StringRef RuntimeHeader,
                              llvm::StringRef Variant = "nki");

/// The runner's description of the case (pk_nki_run.py's CASE.json).
llvm::json::Value nkiCaseJson(const CaseSpec &Spec);

/// Runs \p PyFile's kernel for \p Spec in \p Dir and compares.
NkiOutcome runNkiCase(const CaseSpec &Spec, llvm::StringRef PyFile,
                      llvm::StringRef Dir, const NkiRunConfig &Cfg);

} // namespace validate
} // namespace pk

#endif // PK_NKIRUN_H

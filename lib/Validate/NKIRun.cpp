//===- NKIRun.cpp - validate NKI outputs on the NKI simulator -------------===//
// Rules: none (validation harness)

#include "pk/NKIRun.h"
#include "Process.h"
#include "pk/DataDir.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <cmath>

using namespace llvm;

#ifndef PK_PYTHON3
#define PK_PYTHON3 "/usr/bin/python3"
#endif

namespace pk {
namespace validate {

bool runsOnNkiSimulator(Target T) { return targetName(T) == "nki"; }

NkiRunConfig defaultNkiRunConfig() {
  NkiRunConfig C;
  C.Python = PK_PYTHON3;
  C.Runner = pk::dataPath("nkisim/pk_nki_run.py");
  return C;
}

std::string nkiKernelName(StringRef Entry) {
  StringRef Name = Entry.split('<').first.trim();
  size_t Colon = Name.rfind("::");
  if (Colon != StringRef::npos)
    Name = Name.drop_front(Colon + 2);
  return Name.str();
}

namespace {

std::string joinPath(StringRef A, StringRef B) {
  SmallString<256> P(A);
  sys::path::append(P, B);
  return std::string(P);
}

std::string readFileOr(StringRef Path) {
  auto B = MemoryBuffer::getFile(Path);
  return B ? (*B)->getBuffer().str() : std::string();
}

std::string tailLines(StringRef Text, unsigned N) {
  SmallVector<StringRef, 64> Lines;
  Text.rtrim().split(Lines, '\n');
  std::string R;
  for (size_t I = Lines.size() > N ? Lines.size() - N : 0; I < Lines.size();
       ++I)
    R += Lines[I].rtrim().str() + "\n";
  return StringRef(R).rtrim().str();
}

/// One step of a cell under the cell's remaining time.
struct Step {
  int Code = 0;
  bool TimedOut = false, Crashed = false, ExecFailed = false,
       Interrupted = false;
  std::string ErrMsg, Out, Err;
  bool failed() const {
    return Code != 0 || TimedOut || Crashed || ExecFailed || Interrupted;
  }
};

class Clock {
public:
  explicit Clock(unsigned Limit)
      : Limit(Limit), Start(std::chrono::steady_clock::now()) {}
  /// Seconds left (at least 1), or 0 for no limit.
  unsigned left() const {
    if (!Limit)
      return 0;
    double Used =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
            .count();
    return Used >= Limit ? 1 : std::max(1u, Limit - (unsigned)Used);
  }
  unsigned Limit;

private:
  std::chrono::steady_clock::time_point Start;
};

/// Runs one step in its own session, in \p Dir, killed with everything it
/// started at \p Timeout seconds (0: none) or when port-kernel is
/// interrupted; keeps \p Cap bytes of each stream, also written to
/// Dir/Name.out and Dir/Name.err.
Step runStep(StringRef Program, ArrayRef<std::string> Args, StringRef Dir,
             StringRef Name, unsigned Timeout, std::size_t Cap) {
  Step S;
  if (ChildInterruptGuard::interrupted()) {
    S.Interrupted = true;
    S.ErrMsg = "interrupted";
    return S;
  }
  // In the cell's directory: what the kernel or the simulator writes to a
  // relative path stays in the scratch directory.
  BoundedResult R = runBounded(Program, Args, std::nullopt, Timeout, Cap,
                               /*MergeStderr=*/false, Dir);
  S.Code = R.Code;
  S.TimedOut = R.TimedOut;
  S.Interrupted = R.Interrupted;
  S.ExecFailed = R.ExecFailed;
  S.Crashed = R.Signal && !R.TimedOut && !R.Interrupted;
  S.ErrMsg = R.ErrMsg;
  S.Out = std::move(R.Out.Text);
  S.Err = std::move(R.Err.Text);
  std::error_code EC;
  raw_fd_ostream(joinPath(Dir, (Name + ".out").str()), EC) << S.Out;
  raw_fd_ostream(joinPath(Dir, (Name + ".err").str()), EC) << S.Err;
  return S;
}

/// Fills \p O from a failed step; returns false.
bool stepFailed(const Step &S, StringRef What, const Clock &C, NkiOutcome &O) {
  O.ExitCode = S.Code;
  if (S.ExecFailed) {
    O.Kind = "run";
    O.Reason = ("cannot run " + What + ": " + S.ErrMsg).str();
  } else if (S.Interrupted) {
    O.Kind = "interrupted";
    O.Reason = "interrupted";
  } else if (S.TimedOut) {
    O.Kind = "timeout";
    O.Reason =
        formatv("{0} timed out (the cell's limit is {1} s)", What, C.Limit)
            .str();
  } else if (S.Crashed) {
    O.Kind = "crash";
    O.Reason = (What + " crashed: " + S.ErrMsg).str();
  } else {
    O.Kind = "run";
    O.Reason = formatv("{0} failed (exit status {1})", What, S.Code).str();
  }
  O.Detail = tailLines(S.Err.empty() ? S.Out : S.Err, 8);
  return false;
}

Error writeText(StringRef Path, StringRef Text) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_Text);
  if (EC)
    return createStringError(EC, "cannot write " + Path + ": " + EC.message());
  OS << Text;
  return Error::success();
}

} // namespace

std::string generateNkiDriver(const CaseSpec &Spec, StringRef RuntimeHeader,
                              StringRef Variant) {
  bool UsesHalf = false, UsesBF16 = false;
  for (const ArgSpec &A : Spec.Args) {
    UsesHalf |= A.Type == ElemType::Half;
    UsesBF16 |= A.Type == ElemType::BF16;
  }
  std::string Buf;
  raw_string_ostream OS(Buf);
  OS << "// Reference driver for case '" << Spec.Name << "' (" << Variant
     << "), generated by port-kernel validate.\n"
     << "// `driver inputs DIR` writes the inputs; `driver compare DIR` runs "
        "the reference\n// and compares it with DIR/out<I>.bin.\n";
  OS << "#include " << cxxStringLiteral(RuntimeHeader) << "\n";
  OS << "#include <tuple>\n#include <type_traits>\n\n";
  // The reference sees 2-byte element types of its own (no kernel here).
  if (UsesHalf)
    OS << "struct pk_half { unsigned short bits; };\n"
       << "inline float pk_half_to_float(pk_half h) { return "
          "pkv::halfBitsToFloat(h.bits); }\n"
       << "inline pk_half pk_float_to_half(float f) { pk_half h; h.bits = "
          "pkv::floatToHalfBits(f); return h; }\n";
  if (UsesBF16)
    OS << "struct pk_bf16 { unsigned short bits; };\n"
       << "inline float pk_bf16_to_float(pk_bf16 h) { return "
          "pkv::bf16BitsToFloat(h.bits); }\n"
       << "inline pk_bf16 pk_float_to_bf16(float f) { pk_bf16 h; h.bits = "
          "pkv::floatToBf16Bits(f); return h; }\n";
  OS << "\n// The CPU reference.\n";
  OS << "#include " << cxxStringLiteral(Spec.referencePath()) << "\n\n";
  OS << "template <class F> struct pkv_sig;\n"
     << "template <class R, class... P> struct pkv_sig<R (*)(P...)> {\n"
     << "  static constexpr size_t arity = sizeof...(P);\n"
     << "  template <size_t I> using arg = std::tuple_element_t<I, "
        "std::tuple<P...>>;\n"
     << "  template <size_t I> using elem =\n"
     << "      std::remove_cv_t<std::remove_pointer_t<std::decay_t<arg<I>>>>;\n"
     << "};\n"
     << "typedef pkv_sig<decltype(&" << Spec.Reference << ")> pkv_ref_sig;\n"
     << "static_assert(pkv_ref_sig::arity == " << Spec.Args.size()
     << ", \"case.yaml lists " << Spec.Args.size()
     << " arguments; the reference takes a different number\");\n\n";
  OS << "static std::string pkv_file(const char *Dir, const char *Stem, int "
        "I) {\n"
     << "  return std::string(Dir) + \"/\" + Stem + std::to_string(I) + "
        "\".bin\";\n}\n\n";
  OS << "int main(int argc, char **argv) {\n"
     << "  if (argc != 3 || (std::string(argv[1]) != \"inputs\" && "
        "std::string(argv[1]) != \"compare\")) {\n"
     << "    std::fprintf(stderr, \"usage: %s inputs|compare DIR\\n\", "
        "argv[0]);\n"
     << "    return 2;\n  }\n"
     << "  const bool pkv_write = std::string(argv[1]) == \"inputs\";\n"
     << "  pkv::Report pkvReport(" << cxxStringLiteral(Spec.Name) << ", "
     << cxxStringLiteral(Variant) << ");\n";
  for (size_t I = 0; I < Spec.Args.size(); ++I) {
    const ArgSpec &A = Spec.Args[I];
    std::string Ix = std::to_string(I);
    if (!A.isBuffer()) {
      OS << "  typedef pkv_ref_sig::elem<" << I << "> pkv_t" << Ix << ";\n"
         << "  pkv_t" << Ix << " pkv_a" << Ix << " = pkv_t" << Ix << "("
         << cxxScalarInit(A) << "); // " << A.Name << "\n";
      continue;
    }
    OS << "  // " << A.Name << ": " << elemTypeName(A.Type) << "[" << *A.Count
       << "], init " << initKindName(A.init())
       << (A.isOutput() ? ", output" : "") << "\n";
    OS << "  static_assert(std::is_pointer<std::decay_t<pkv_ref_sig::arg<" << I
       << ">>>::value, \"'" << A.Name
       << "' is a buffer in case.yaml but the reference does not take a "
          "pointer\");\n";
    OS << "  const size_t pkv_n" << Ix << " = " << *A.Count << ";\n"
       << "  std::vector<unsigned char> pkv_h" << Ix << "(pkv_n" << Ix << " * "
       << elemTypeSize(A.Type) << ");\n"
       << "  pkv::fill(pkv_h" << Ix << ".data(), " << driverElemType(A.Type)
       << ", pkv_n" << Ix << ", " << driverInitKind(A.init()) << ", "
       << cxxDoubleLiteral(A.lo()) << ", " << cxxDoubleLiteral(A.hi()) << ", "
       << A.seed() << "ull, " << cxxDoubleLiteral(A.Number) << ");\n";
  }
  OS << "  if (pkv_write) {\n";
  for (size_t I = 0; I < Spec.Args.size(); ++I)
    if (Spec.Args[I].isBuffer())
      OS << "    {\n"
         << "      std::string P = pkv_file(argv[2], \"arg\", " << I << ");\n"
         << "      FILE *F = std::fopen(P.c_str(), \"wb\");\n"
         << "      if (!F || std::fwrite(pkv_h" << I << ".data(), 1, pkv_h" << I
         << ".size(), F) != pkv_h" << I << ".size() || std::fclose(F) != 0)\n"
         << "        pkvReport.fail(\"cannot write \" + P);\n"
         << "    }\n";
  OS << "    return 0;\n  }\n";
  // Compare: the outputs the runner wrote, the reference on copies.
  for (size_t I = 0; I < Spec.Args.size(); ++I) {
    const ArgSpec &A = Spec.Args[I];
    if (!A.isBuffer())
      continue;
    OS << "  std::vector<unsigned char> pkv_r" << I << " = pkv_h" << I << ";\n";
    if (!A.isOutput())
      continue;
    OS << "  std::vector<unsigned char> pkv_o" << I << "(pkv_h" << I
       << ".size());\n"
       << "  {\n"
       << "    std::string P = pkv_file(argv[2], \"out\", " << I << ");\n"
       << "    FILE *F = std::fopen(P.c_str(), \"rb\");\n"
       << "    if (!F)\n"
       << "      pkvReport.fail(\"no output file \" + P);\n"
       << "    size_t Got = std::fread(pkv_o" << I << ".data(), 1, pkv_o" << I
       << ".size(), F);\n"
       << "    int Extra = std::fgetc(F);\n"
       << "    std::fclose(F);\n"
       << "    if (Got != pkv_o" << I << ".size() || Extra != EOF)\n"
       << "      pkvReport.fail(P + \" does not hold \" + "
          "std::to_string(pkv_n"
       << I << ") + \" elements of " << elemTypeName(A.Type) << "\");\n"
       << "  }\n";
  }
  OS << "  " << Spec.Reference << "(";
  for (size_t I = 0; I < Spec.Args.size(); ++I) {
    if (I)
      OS << ", ";
    if (Spec.Args[I].isBuffer())
      OS << "(pkv_ref_sig::arg<" << I << ">)pkv_r" << I << ".data()";
    else
      OS << "pkv_a" << I;
  }
  OS << ");\n";
  for (size_t I = 0; I < Spec.Args.size(); ++I) {
    const ArgSpec &A = Spec.Args[I];
    if (A.isBuffer() && A.isOutput())
      OS << "  pkvReport.compare(" << cxxStringLiteral(A.Name) << ", "
         << driverElemType(A.Type) << ", pkv_o" << I << ".data(), pkv_r" << I
         << ".data(), pkv_n" << I << ", " << cxxDoubleLiteral(Spec.AbsTol)
         << ", " << cxxDoubleLiteral(Spec.RelTol) << ");\n";
  }
  OS << "  return pkvReport.finish();\n}\n";
  return OS.str();
}

json::Value nkiCaseJson(const CaseSpec &Spec) {
  json::Array Args;
  for (size_t I = 0; I < Spec.Args.size(); ++I) {
    const ArgSpec &A = Spec.Args[I];
    json::Object O{{"name", A.Name}, {"type", elemTypeName(A.Type)}};
    if (A.isBuffer()) {
      O["count"] = (int64_t)*A.Count;
      O["file"] = "arg" + std::to_string(I) + ".bin";
      if (A.isOutput()) {
        O["output"] = true;
        O["result"] = "out" + std::to_string(I) + ".bin";
      }
    } else if (elemTypeIsInteger(A.Type)) {
      O["value"] = (int64_t)A.Number;
    } else {
      O["value"] = A.Number;
    }
    Args.push_back(std::move(O));
  }
  return json::Object{
      {"case", Spec.Name},
      {"grid", json::Array{Spec.Grid[0], Spec.Grid[1], Spec.Grid[2]}},
      {"block", json::Array{Spec.Block[0], Spec.Block[1], Spec.Block[2]}},
      {"shared_bytes", (int64_t)Spec.SharedBytes},
      {"args", std::move(Args)}};
}

NkiOutcome runNkiCase(const CaseSpec &Spec, StringRef PyFile, StringRef Dir,
                      const NkiRunConfig &Cfg) {
  NkiOutcome O;
  Clock C(Cfg.TimeoutSec);
  if (PyFile.empty()) {
    O.Kind = "not-lifted";
    O.Reason =
        "not lifted: the port wrote no NKI output for " + Spec.sourcePath();
    return O;
  }
  // 1. The reference driver.
  std::string Driver = joinPath(Dir, "nki-ref.cpp");
  std::string Exe = joinPath(Dir, "nki-ref");
  if (Error E = writeText(
          Driver, generateNkiDriver(Spec, Cfg.RuntimeHeader, Cfg.Variant))) {
    O.Kind = "run";
    O.Reason = toString(std::move(E));
    return O;
  }
  Step S = runStep(Cfg.ClangXX, {"-std=c++17", "-O1", "-o", Exe, Driver}, Dir,
                   "compile", C.left(), Cfg.OutputLimit);
  if (S.failed()) {
    stepFailed(S, "compiling the reference driver", C, O);
    if (O.Kind == "run" && !S.ExecFailed && !S.Interrupted) {
      O.Kind = "compile";
      O.Detail = compileErrorSummary(S.Err + S.Out);
      O.Reason =
          "compile error: " + StringRef(O.Detail).split('\n').first.str();
    }
    return O;
  }
  // 2. The inputs and the runner's case description.
  S = runStep(Exe, {"inputs", Dir.str()}, Dir, "inputs", C.left(),
              Cfg.OutputLimit);
  if (S.failed())
    return stepFailed(S, "writing the inputs", C, O), O;
  std::string CaseJson = joinPath(Dir, "case.json");
  if (Error E = writeText(CaseJson,
                          formatv("{0:2}", nkiCaseJson(Spec)).str() + "\n")) {
    O.Kind = "run";
    O.Reason = toString(std::move(E));
    return O;
  }
  // 3. The kernel, on the simulator (or the real nki package).
  std::string ResultPath = joinPath(Dir, "nki-result.json");
  sys::fs::remove(ResultPath);
  std::string Kernel = nkiKernelName(Spec.Entry);
  S = runStep(
      Cfg.Python,
      {Cfg.Runner, "--result", ResultPath, PyFile.str(), Kernel, CaseJson}, Dir,
      "nki", C.left(), Cfg.OutputLimit);
  std::string ResultText = readFileOr(ResultPath);
  Expected<json::Value> R = json::parse(ResultText);
  const json::Object *RO = R ? R->getAsObject() : nullptr;
  if (!R)
    consumeError(R.takeError());
  if (!RO || S.TimedOut || S.ExecFailed || S.Crashed || S.Interrupted)
    return stepFailed(S, "the NKI runner", C, O), O;
  O.ExitCode = S.Code;
  if (auto B = RO->getString("backend"))
    O.Backend = B->str();
  if (auto N = RO->getInteger("ops"))
    O.Ops = (uint64_t)*N;
  StringRef Status = RO->getString("status").value_or("");
  StringRef Message = RO->getString("message").value_or("");
  StringRef Detail = RO->getString("detail").value_or("");
  if (Status == "not-lifted") {
    O.Kind = "not-lifted";
    O.Reason = ("not lifted: " + Message).str();
    O.Detail = Detail.str();
    return O;
  }
  if (Status != "ok") {
    StringRef K = RO->getString("kind").value_or("run");
    O.Kind = K == "python" ? "nki-python" : K.str();
    O.Reason = (K == "interface"   ? "interface: " + Message
                : K == "simulator" ? "simulator: " + Message
                                   : Message)
                   .str();
    O.Detail = Detail.empty() ? tailLines(S.Err, 8) : Detail.str();
    return O;
  }
  // 4. The reference and the comparison.
  S = runStep(Exe, {"compare", Dir.str()}, Dir, "compare", C.left(),
              Cfg.OutputLimit);
  Expected<DriverResult> DR = parseDriverResult(S.Out);
  if (!DR) {
    consumeError(DR.takeError());
    return stepFailed(S, "the reference driver", C, O), O;
  }
  O.Outputs = DR->Outputs;
  if (DR->Status == "error") {
    O.Kind = "run";
    O.Reason = "runtime error: " + DR->Message;
    return O;
  }
  if (DR->Status == "mismatch") {
    O.Kind = "mismatch";
    std::string Parts;
    for (const OutputResult &Out : DR->Outputs) {
      if (!Out.Mismatches)
        continue;
      if (!Parts.empty())
        Parts += "; ";
      Parts += formatv("{0}[{1}] = {2} (want {3}); {4} of {5} differ", Out.Name,
                       Out.FirstBad, format("%.7g", Out.Got),
                       format("%.7g", Out.Want), Out.Mismatches, Out.Count)
                   .str();
      if (Out.NanMismatches)
        Parts += formatv(" ({0} NaN)", Out.NanMismatches).str();
    }
    O.Reason = "mismatch: " + Parts;
    return O;
  }
  O.Passed = true;
  return O;
}

} // namespace validate
} // namespace pk

//===- Lift.cpp - helpers shared by the NKI lifters -----------------------===//
// Rules: none (shared infrastructure)
//
// The NKI dtypes of C types, the Python names of user identifiers (Python
// keywords, builtins and the output's modules get a trailing underscore;
// while a kernel is lifted, the naming scope of LiftDriver.cpp also keeps
// them clear of the names the generated code binds), Python float
// literals, and the AST helpers the lifters share.
//
//===----------------------------------------------------------------------===//
#include "LiftInternal.h"
#include <cmath>

using namespace pk;
using namespace pk::nki;
using namespace clang;

std::optional<DType> nki::dtypeOf(QualType T) {
  T = T.getCanonicalType().getUnqualifiedType();
  if (const auto *BT = T->getAs<BuiltinType>()) {
    switch (BT->getKind()) {
    case BuiltinType::Float:
      return DType::F32;
    case BuiltinType::Half:
    case BuiltinType::Float16:
      return DType::F16;
    case BuiltinType::BFloat16:
      return DType::BF16;
    case BuiltinType::Int:
      return DType::I32;
    case BuiltinType::UInt:
      return DType::U32;
    default:
      return std::nullopt;
    }
  }
  std::string S = T.getAsString();
  if (S.find("bfloat16") != std::string::npos)
    return DType::BF16;
  if (S.find("half") != std::string::npos)
    return DType::F16;
  return std::nullopt;
}

unsigned nki::waveOf(const TargetContext &TC) {
  return TC.PF.Language == Lang::HIP ? 64 : 32;
}

std::optional<DType> nki::scalarDtypeOf(QualType T) {
  if (auto D = dtypeOf(T))
    return D;
  T = T.getCanonicalType().getUnqualifiedType();
  if (T->isIntegerType() && !T->isBooleanType() && !T->isEnumeralType())
    return DType::I64;
  return std::nullopt;
}

namespace pk {
namespace nki {
namespace lift {

bool isPythonReserved(llvm::StringRef N) {
  static const llvm::StringSet<> Reserved = {"ArithmeticError",
                                             "AssertionError",
                                             "AttributeError",
                                             "BaseException",
                                             "BaseExceptionGroup",
                                             "BlockingIOError",
                                             "BrokenPipeError",
                                             "BufferError",
                                             "BytesWarning",
                                             "ChildProcessError",
                                             "ConnectionAbortedError",
                                             "ConnectionError",
                                             "ConnectionRefusedError",
                                             "ConnectionResetError",
                                             "DeprecationWarning",
                                             "EOFError",
                                             "Ellipsis",
                                             "EncodingWarning",
                                             "EnvironmentError",
                                             "Exception",
                                             "ExceptionGroup",
                                             "False",
                                             "FileExistsError",
                                             "FileNotFoundError",
                                             "FloatingPointError",
                                             "FutureWarning",
                                             "GeneratorExit",
                                             "IOError",
                                             "ImportError",
                                             "ImportWarning",
                                             "IndentationError",
                                             "IndexError",
                                             "InterruptedError",
                                             "IsADirectoryError",
                                             "KeyError",
                                             "KeyboardInterrupt",
                                             "LookupError",
                                             "MemoryError",
                                             "ModuleNotFoundError",
                                             "NameError",
                                             "None",
                                             "NotADirectoryError",
                                             "NotImplemented",
                                             "NotImplementedError",
                                             "OSError",
                                             "OverflowError",
                                             "PK_KERNELS",
                                             "PendingDeprecationWarning",
                                             "PermissionError",
                                             "ProcessLookupError",
                                             "RecursionError",
                                             "ReferenceError",
                                             "ResourceWarning",
                                             "RuntimeError",
                                             "RuntimeWarning",
                                             "StopAsyncIteration",
                                             "StopIteration",
                                             "SyntaxError",
                                             "SyntaxWarning",
                                             "SystemError",
                                             "SystemExit",
                                             "TabError",
                                             "TimeoutError",
                                             "True",
                                             "TypeError",
                                             "UnboundLocalError",
                                             "UnicodeDecodeError",
                                             "UnicodeEncodeError",
                                             "UnicodeError",
                                             "UnicodeTranslateError",
                                             "UnicodeWarning",
                                             "UserWarning",
                                             "ValueError",
                                             "Warning",
                                             "ZeroDivisionError",
                                             "abs",
                                             "aiter",
                                             "all",
                                             "and",
                                             "anext",
                                             "any",
                                             "as",
                                             "ascii",
                                             "assert",
                                             "async",
                                             "await",
                                             "bin",
                                             "bool",
                                             "break",
                                             "breakpoint",
                                             "bytearray",
                                             "bytes",
                                             "callable",
                                             "chr",
                                             "class",
                                             "classmethod",
                                             "compile",
                                             "complex",
                                             "continue",
                                             "copyright",
                                             "credits",
                                             "def",
                                             "del",
                                             "delattr",
                                             "dict",
                                             "dir",
                                             "divmod",
                                             "elif",
                                             "else",
                                             "enumerate",
                                             "eval",
                                             "except",
                                             "exec",
                                             "exit",
                                             "filter",
                                             "finally",
                                             "float",
                                             "for",
                                             "format",
                                             "from",
                                             "frozenset",
                                             "getattr",
                                             "global",
                                             "globals",
                                             "hasattr",
                                             "hash",
                                             "help",
                                             "hex",
                                             "id",
                                             "if",
                                             "import",
                                             "in",
                                             "input",
                                             "int",
                                             "is",
                                             "isinstance",
                                             "issubclass",
                                             "iter",
                                             "lambda",
                                             "len",
                                             "license",
                                             "list",
                                             "locals",
                                             "map",
                                             "max",
                                             "memoryview",
                                             "min",
                                             "next",
                                             "nisa",
                                             "nki",
                                             "nl",
                                             "nonlocal",
                                             "not",
                                             "object",
                                             "oct",
                                             "open",
                                             "or",
                                             "ord",
                                             "pass",
                                             "pow",
                                             "print",
                                             "property",
                                             "quit",
                                             "raise",
                                             "range",
                                             "repr",
                                             "return",
                                             "reversed",
                                             "round",
                                             "set",
                                             "setattr",
                                             "slice",
                                             "sorted",
                                             "staticmethod",
                                             "str",
                                             "sum",
                                             "super",
                                             "try",
                                             "tuple",
                                             "type",
                                             "vars",
                                             "while",
                                             "with",
                                             "yield",
                                             "zip"};
  return Reserved.count(N);
}

thread_local PyNameScope *CurrentNames = nullptr;

const Expr *strip(const Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    if (auto *C = dyn_cast<CStyleCastExpr>(E)) {
      if (C->getType()->isIntegerType() &&
          C->getSubExpr()->getType()->isIntegerType()) {
        E = C->getSubExpr();
        continue;
      }
    }
    if (auto *C = dyn_cast<CXXFunctionalCastExpr>(E)) {
      if (C->getType()->isIntegerType() &&
          C->getSubExpr()->getType()->isIntegerType()) {
        E = C->getSubExpr();
        continue;
      }
    }
    if (auto *C = dyn_cast<CXXStaticCastExpr>(E)) {
      if (C->getType()->isIntegerType() &&
          C->getSubExpr()->getType()->isIntegerType()) {
        E = C->getSubExpr();
        continue;
      }
    }
    return E;
  }
}

bool isFloat(DType T) {
  return T == DType::F32 || T == DType::F16 || T == DType::BF16;
}

} // namespace lift
} // namespace nki
} // namespace pk

std::string nki::pyName(llvm::StringRef N) {
  if (!lift::CurrentNames)
    return lift::isPythonReserved(N) ? (N + "_").str() : N.str();
  lift::PyNameScope &S = *lift::CurrentNames;
  auto It = S.Final.find(N.str());
  if (It != S.Final.end())
    return It->second;
  // A name that would shadow or rebind one the output needs gets
  // underscores until it is free; the result is never another identifier
  // of the kernel, so two user names never become one.
  auto Clash = [&](llvm::StringRef C) {
    return lift::isPythonReserved(C) || S.Avoid.count(C) || S.Taken.count(C);
  };
  std::string R = N.str();
  if (Clash(R)) {
    do
      R += "_";
    while (Clash(R) || S.User.count(R));
  }
  S.Taken.insert(R);
  S.Final[N.str()] = R;
  return R;
}

std::string nki::pyFloat(double V) {
  if (std::isinf(V))
    return V > 0 ? "float(\"inf\")" : "float(\"-inf\")";
  if (std::isnan(V))
    return "float(\"nan\")";
  char Buf[64];
  snprintf(Buf, sizeof Buf, "%.9g", V);
  std::string S = Buf;
  if (S.find_first_of(".eEn") == std::string::npos)
    S += ".0";
  return S;
}

//===- CaseSpec.cpp - case.yaml parsing with LLVM YAML I/O ----------------===//
// Rules: none (validation harness)

#include "pk/ValidateCase.h"
#include "pk/SafeIO.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLTraits.h"
#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <set>

using namespace llvm;
using namespace pk::validate;

namespace pk {
namespace validate {

StringRef elemTypeName(ElemType T) {
  switch (T) {
  case ElemType::Float:
    return "float";
  case ElemType::Double:
    return "double";
  case ElemType::Int:
    return "int";
  case ElemType::Unsigned:
    return "unsigned";
  case ElemType::Half:
    return "half";
  case ElemType::BF16:
    return "bf16";
  case ElemType::UInt8:
    return "uint8";
  }
  return "?";
}

unsigned elemTypeSize(ElemType T) {
  switch (T) {
  case ElemType::Float:
  case ElemType::Int:
  case ElemType::Unsigned:
    return 4;
  case ElemType::Double:
    return 8;
  case ElemType::Half:
  case ElemType::BF16:
    return 2;
  case ElemType::UInt8:
    return 1;
  }
  return 0;
}

bool elemTypeIsInteger(ElemType T) {
  return T == ElemType::Int || T == ElemType::Unsigned || T == ElemType::UInt8;
}

StringRef initKindName(InitKind K) {
  switch (K) {
  case InitKind::Zero:
    return "zero";
  case InitKind::Uniform:
    return "uniform";
  case InitKind::Iota:
    return "iota";
  case InitKind::Const:
    return "const";
  }
  return "?";
}

std::string CaseSpec::sourcePath() const {
  SmallString<256> P(Dir);
  sys::path::append(P, Source);
  return std::string(P);
}

std::string CaseSpec::referencePath() const {
  SmallString<256> P(Dir);
  sys::path::append(P, ReferenceSource);
  return std::string(P);
}

} // namespace validate
} // namespace pk

namespace {

/// State shared by the YAML traits while one spec is read.
struct ParseContext {
  StringRef Text; ///< the whole document (to turn locations into lines)
  std::string CaseDir;
  bool CheckFiles = true;
  std::string SourceText; ///< the kernel source, once `source` was read
  bool HaveSource = false;
  std::string RefText;
  bool HaveRef = false;
  std::string RefFile = "ref.cpp";
  StringSet<> ArgNames;
  yaml::IO *IO = nullptr;

  unsigned lineOf(const char *P) const {
    if (P < Text.begin() || P > Text.end())
      return 0;
    return 1 + std::count(Text.begin(), P, '\n');
  }
};

// Wrapper scalar types: their input() checks run with the scalar's location,
// so errors point at the offending value.
struct SourceFileName {
  std::string V;
};
struct RefFileName {
  std::string V;
};
struct EntryName {
  std::string V;
};
struct RefFuncName {
  std::string V;
};
struct CaseName {
  std::string V;
};
struct DimValue {
  unsigned V = 1;
};
struct Dims {
  std::vector<DimValue> V;
};
struct Tolerance {
  double Abs = 1e-5, Rel = 1e-4;
};

bool isIdentifier(StringRef S) {
  if (S.empty() || !(std::isalpha((unsigned char)S[0]) || S[0] == '_'))
    return false;
  return llvm::all_of(
      S, [](char C) { return std::isalnum((unsigned char)C) || C == '_'; });
}

/// True when \p Ident occurs in \p Text as a whole word.
bool mentionsWord(StringRef Text, StringRef Ident) {
  size_t Pos = 0;
  while ((Pos = Text.find(Ident, Pos)) != StringRef::npos) {
    auto IsWordChar = [](char C) {
      return std::isalnum((unsigned char)C) || C == '_';
    };
    bool Before = Pos == 0 || !IsWordChar(Text[Pos - 1]);
    size_t End = Pos + Ident.size();
    bool After = End >= Text.size() || !IsWordChar(Text[End]);
    if (Before && After)
      return true;
    Pos = End;
  }
  return false;
}

StringRef readLocalFile(ParseContext &C, StringRef Name, std::string &Into,
                        bool &Have, std::string &Err) {
  if (Name.empty())
    return "must not be empty";
  if (sys::path::is_absolute(Name)) {
    Err = ("'" + Name + "' must be relative to the case directory").str();
    return Err;
  }
  if (!C.CheckFiles)
    return {};
  SmallString<256> P(C.CaseDir);
  sys::path::append(P, Name);
  pk::noteRead(P, "a file of the case");
  auto Buf = MemoryBuffer::getFile(P);
  if (!Buf) {
    Err = ("cannot read '" + Name +
           "' in the case directory: " + Buf.getError().message())
              .str();
    return Err;
  }
  Into = (*Buf)->getBuffer().str();
  Have = true;
  return {};
}

thread_local std::string
    ScalarErr; // storage for messages returned as StringRef

} // namespace

namespace llvm {
namespace yaml {

template <> struct ScalarTraits<ElemType> {
  static void output(const ElemType &T, void *, raw_ostream &OS) {
    OS << elemTypeName(T);
  }
  static StringRef input(StringRef S, void *, ElemType &T) {
    static const std::pair<const char *, ElemType> Names[] = {
        {"float", ElemType::Float}, {"double", ElemType::Double},
        {"int", ElemType::Int},     {"unsigned", ElemType::Unsigned},
        {"half", ElemType::Half},   {"bf16", ElemType::BF16},
        {"uint8", ElemType::UInt8}};
    for (auto &N : Names)
      if (S == N.first) {
        T = N.second;
        return {};
      }
    ScalarErr =
        ("unknown type '" + S +
         "' (expected float, double, int, unsigned, half, bf16 or uint8)")
            .str();
    return ScalarErr;
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::None; }
};

template <> struct ScalarTraits<InitKind> {
  static void output(const InitKind &K, void *, raw_ostream &OS) {
    OS << initKindName(K);
  }
  static StringRef input(StringRef S, void *, InitKind &K) {
    if (S == "zero")
      K = InitKind::Zero;
    else if (S == "uniform")
      K = InitKind::Uniform;
    else if (S == "iota")
      K = InitKind::Iota;
    else if (S == "const")
      K = InitKind::Const;
    else {
      ScalarErr =
          ("unknown init '" + S + "' (expected zero, uniform, iota or const)")
              .str();
      return ScalarErr;
    }
    return {};
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::None; }
};

template <> struct ScalarTraits<CaseName> {
  static void output(const CaseName &N, void *, raw_ostream &OS) { OS << N.V; }
  static StringRef input(StringRef S, void *, CaseName &N) {
    if (S.empty() ||
        !llvm::all_of(S,
                      [](char C) {
                        return std::isalnum((unsigned char)C) || C == '_' ||
                               C == '-' || C == '.';
                      }) ||
        S[0] == '.') {
      ScalarErr = ("invalid case name '" + S +
                   "' (use letters, digits, '_', '-' and '.')")
                      .str();
      return ScalarErr;
    }
    N.V = S.str();
    return {};
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::None; }
};

template <> struct ScalarTraits<SourceFileName> {
  static void output(const SourceFileName &N, void *, raw_ostream &OS) {
    OS << N.V;
  }
  static StringRef input(StringRef S, void *Ctx, SourceFileName &N) {
    auto &C = *static_cast<ParseContext *>(Ctx);
    N.V = S.str();
    StringRef E = readLocalFile(C, S, C.SourceText, C.HaveSource, ScalarErr);
    return E;
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::None; }
};

template <> struct ScalarTraits<RefFileName> {
  static void output(const RefFileName &N, void *, raw_ostream &OS) {
    OS << N.V;
  }
  static StringRef input(StringRef S, void *Ctx, RefFileName &N) {
    auto &C = *static_cast<ParseContext *>(Ctx);
    N.V = S.str();
    C.RefFile = S.str();
    return readLocalFile(C, S, C.RefText, C.HaveRef, ScalarErr);
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::None; }
};

template <> struct ScalarTraits<EntryName> {
  static void output(const EntryName &N, void *, raw_ostream &OS) { OS << N.V; }
  static StringRef input(StringRef S, void *Ctx, EntryName &N) {
    auto &C = *static_cast<ParseContext *>(Ctx);
    StringRef Base = S.take_until([](char Ch) { return Ch == '<'; }).rtrim();
    StringRef Rest =
        S.drop_front(S.take_until([](char Ch) { return Ch == '<'; }).size());
    if (!isIdentifier(Base) || (!Rest.empty() && !Rest.ends_with(">"))) {
      ScalarErr =
          ("invalid entry '" + S +
           "' (expected a kernel name, optionally with template arguments)")
              .str();
      return ScalarErr;
    }
    if (C.HaveSource && !mentionsWord(C.SourceText, Base)) {
      ScalarErr =
          ("entry '" + Base + "' does not appear in the kernel source").str();
      return ScalarErr;
    }
    N.V = S.str();
    return {};
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::None; }
};

template <> struct ScalarTraits<RefFuncName> {
  static void output(const RefFuncName &N, void *, raw_ostream &OS) {
    OS << N.V;
  }
  static StringRef input(StringRef S, void *Ctx, RefFuncName &N) {
    auto &C = *static_cast<ParseContext *>(Ctx);
    if (!isIdentifier(S)) {
      ScalarErr =
          ("invalid reference '" + S + "' (expected a function name)").str();
      return ScalarErr;
    }
    if (!C.HaveRef && C.CheckFiles) {
      StringRef E =
          readLocalFile(C, C.RefFile, C.RefText, C.HaveRef, ScalarErr);
      if (!E.empty())
        return E;
    }
    if (C.HaveRef && !mentionsWord(C.RefText, S)) {
      ScalarErr =
          ("reference '" + S + "' does not appear in the reference source")
              .str();
      return ScalarErr;
    }
    N.V = S.str();
    return {};
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::None; }
};

template <> struct ScalarTraits<DimValue> {
  static void output(const DimValue &D, void *, raw_ostream &OS) { OS << D.V; }
  static StringRef input(StringRef S, void *, DimValue &D) {
    unsigned long long V;
    if (getAsUnsignedInteger(S, 10, V) || V == 0 || V > 0x7fffffffULL) {
      ScalarErr = ("expected a positive integer, got '" + S + "'").str();
      return ScalarErr;
    }
    D.V = (unsigned)V;
    return {};
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::None; }
};

template <> struct SequenceTraits<Dims> {
  static size_t size(IO &, Dims &D) { return D.V.size(); }
  static DimValue &element(IO &IO, Dims &D, size_t I) {
    if (I == 3)
      IO.setError("at most 3 dimensions (x, y, z)");
    if (D.V.size() <= I)
      D.V.resize(I + 1);
    return D.V[I];
  }
  static const bool flow = true;
};

template <> struct MappingTraits<Tolerance> {
  static void mapping(IO &IO, Tolerance &T) {
    IO.mapOptional("abs", T.Abs, 1e-5);
    IO.mapOptional("rel", T.Rel, 1e-4);
  }
  static std::string validate(IO &, Tolerance &T) {
    if (!(T.Abs >= 0) || !(T.Rel >= 0))
      return "tolerances must be non-negative";
    return {};
  }
};

template <> struct MappingTraits<ArgSpec> {
  static void mapping(IO &IO, ArgSpec &A) {
    auto &C = *static_cast<ParseContext *>(IO.getContext());
    if (!IO.outputting())
      if (const Node *N = static_cast<yaml::Input &>(IO).getCurrentNode())
        A.Line = C.lineOf(N->getSourceRange().Start.getPointer());
    IO.mapRequired("name", A.Name);
    IO.mapRequired("type", A.Type);
    IO.mapOptional("count", A.Count);
    IO.mapOptional("value", A.Value);
    IO.mapOptional("init", A.Init);
    IO.mapOptional("lo", A.Lo);
    IO.mapOptional("hi", A.Hi);
    IO.mapOptional("seed", A.Seed);
    IO.mapOptional("output", A.Output);
  }

  static std::string validate(IO &IO, ArgSpec &A) {
    auto &C = *static_cast<ParseContext *>(IO.getContext());
    std::string Who = "argument '" + A.Name + "'";
    if (!isIdentifier(A.Name))
      return "invalid argument name '" + A.Name + "' (expected a C identifier)";
    if (!C.ArgNames.insert(A.Name).second)
      return "duplicate argument name '" + A.Name + "'";

    // The value, parsed according to the element type.
    if (A.Value) {
      StringRef V = StringRef(*A.Value).trim();
      if (elemTypeIsInteger(A.Type)) {
        long long I;
        if (V.getAsInteger(0, I))
          return Who + ": value '" + *A.Value + "' is not an integer";
        long long Min = A.Type == ElemType::Int ? INT32_MIN : 0;
        long long Max = A.Type == ElemType::Int     ? INT32_MAX
                        : A.Type == ElemType::UInt8 ? 255
                                                    : (long long)UINT32_MAX;
        if (I < Min || I > Max)
          return Who + ": value " + *A.Value + " is out of range for " +
                 elemTypeName(A.Type).str();
        A.Number = (double)I;
      } else {
        double D;
        if (V.getAsDouble(D))
          return Who + ": value '" + *A.Value + "' is not a number";
        A.Number = D;
      }
    }

    if (!A.isBuffer()) {
      if (!A.Value)
        return Who + ": a scalar needs 'value' (or give 'count' for a buffer)";
      if (A.isOutput())
        return Who + ": a scalar cannot be an output";
      if (A.Init || A.Lo || A.Hi || A.Seed)
        return Who + ": 'init', 'lo', 'hi' and 'seed' apply to buffers only";
      return {};
    }

    if (*A.Count == 0)
      return Who + ": count must be positive";
    if (*A.Count > (1ull << 31))
      return Who + ": count is too large";
    switch (A.init()) {
    case InitKind::Const:
      if (!A.Value)
        return Who + ": init: const needs 'value'";
      break;
    case InitKind::Uniform:
      if (A.Value)
        return Who + ": 'value' is only used with init: const";
      if (A.lo() > A.hi())
        return Who + ": lo must not exceed hi";
      if (elemTypeIsInteger(A.Type)) {
        if (A.lo() != std::floor(A.lo()) || A.hi() != std::floor(A.hi()))
          return Who + ": lo and hi must be integers for " +
                 elemTypeName(A.Type).str();
        double Min = A.Type == ElemType::Int ? (double)INT32_MIN : 0.0;
        double Max = A.Type == ElemType::Int     ? (double)INT32_MAX
                     : A.Type == ElemType::UInt8 ? 255.0
                                                 : (double)UINT32_MAX;
        if (A.lo() < Min || A.hi() > Max)
          return Who + ": lo..hi is out of range for " +
                 elemTypeName(A.Type).str();
      }
      break;
    case InitKind::Zero:
    case InitKind::Iota:
      if (A.Value)
        return Who + ": 'value' is only used with init: const";
      if (A.Lo || A.Hi || A.Seed)
        return Who + ": 'lo', 'hi' and 'seed' are only used with init: uniform";
      break;
    }
    return {};
  }
};

} // namespace yaml
} // namespace llvm

LLVM_YAML_IS_SEQUENCE_VECTOR(ArgSpec)

namespace {

struct RawSpec {
  CaseName Name;
  std::string Description;
  SourceFileName Source;
  RefFileName RefSource{"ref.cpp"};
  EntryName Entry;
  RefFuncName Reference;
  Dims Grid, Block;
  uint64_t SharedBytes = 0;
  std::vector<ArgSpec> Args;
  Tolerance Tol;
};

} // namespace

namespace llvm {
namespace yaml {
template <> struct MappingTraits<RawSpec> {
  static void mapping(IO &IO, RawSpec &S) {
    // Order matters: files are read before the names that must occur in them.
    IO.mapRequired("name", S.Name);
    IO.mapOptional("description", S.Description);
    IO.mapRequired("source", S.Source);
    IO.mapOptional("reference_source", S.RefSource);
    IO.mapRequired("entry", S.Entry);
    IO.mapRequired("reference", S.Reference);
    IO.mapRequired("grid", S.Grid);
    IO.mapRequired("block", S.Block);
    IO.mapOptional("shared_bytes", S.SharedBytes, 0);
    IO.mapRequired("args", S.Args);
    IO.mapOptional("tolerance", S.Tol);
  }
};
} // namespace yaml
} // namespace llvm

namespace {

struct DiagCollector {
  std::vector<std::string> Messages;
};

void collectDiag(const SMDiagnostic &D, void *Ctx) {
  auto &C = *static_cast<DiagCollector *>(Ctx);
  std::string S;
  raw_string_ostream OS(S);
  OS << D.getFilename() << ":" << D.getLineNo() << ":" << (D.getColumnNo() + 1)
     << ": error: " << D.getMessage();
  C.Messages.push_back(OS.str());
}

/// Line of a top-level key (for checks made after the YAML was read).
unsigned keyLine(StringRef Text, StringRef Key) {
  unsigned Line = 1;
  for (StringRef Rest = Text; !Rest.empty(); ++Line) {
    auto [L, Tail] = Rest.split('\n');
    if (L.starts_with(Key) &&
        L.drop_front(Key.size()).ltrim(" \t").starts_with(":"))
      return Line;
    Rest = Tail;
  }
  return 1;
}

} // namespace

namespace pk {
namespace validate {

Expected<CaseSpec> parseCaseSpecText(StringRef Text, StringRef FileName,
                                     StringRef CaseDir, bool CheckFiles) {
  auto Fail = [&](unsigned Line, const Twine &Msg) -> Error {
    return createStringError(inconvertibleErrorCode(), FileName + ":" +
                                                           Twine(Line) +
                                                           ":1: error: " + Msg);
  };
  if (Text.trim().empty())
    return Fail(1, "empty case spec");
  // LLVM's YAML reader recurses per level: the nesting is bounded first.
  if (Error E = pk::checkYamlNesting(Text, FileName))
    return std::move(E);

  ParseContext Ctx;
  Ctx.Text = Text;
  Ctx.CaseDir = CaseDir.str();
  Ctx.CheckFiles = CheckFiles;
  DiagCollector Diags;
  RawSpec Raw;
  {
    yaml::Input In(MemoryBufferRef(Text, FileName), &Ctx, collectDiag, &Diags);
    Ctx.IO = &In;
    In >> Raw;
    if (In.error()) {
      if (Diags.Messages.empty())
        return Fail(1,
                    "invalid case spec (expected a mapping with name, source, "
                    "entry, reference, grid, block and args)");
      return createStringError(inconvertibleErrorCode(),
                               Diags.Messages.front());
    }
  }

  CaseSpec S;
  S.Name = Raw.Name.V;
  S.Description = Raw.Description;
  S.Source = Raw.Source.V;
  S.ReferenceSource = Raw.RefSource.V;
  S.Entry = Raw.Entry.V;
  S.Reference = Raw.Reference.V;
  S.SharedBytes = Raw.SharedBytes;
  S.Args = std::move(Raw.Args);
  S.AbsTol = Raw.Tol.Abs;
  S.RelTol = Raw.Tol.Rel;
  S.SpecPath = FileName.str();
  S.Dir = CaseDir.str();

  for (auto [Key, D, Out] :
       {std::tuple<const char *, Dims *, unsigned *>{"grid", &Raw.Grid, S.Grid},
        {"block", &Raw.Block, S.Block}}) {
    if (D->V.empty())
      return Fail(keyLine(Text, Key), Twine(Key) + " needs 1 to 3 dimensions");
    for (size_t I = 0; I < 3; ++I)
      Out[I] = I < D->V.size() ? D->V[I].V : 1;
  }
  uint64_t Threads = (uint64_t)S.Block[0] * S.Block[1] * S.Block[2];
  if (Threads > 1024)
    return Fail(keyLine(Text, "block"),
                "a block has at most 1024 threads (this one has " +
                    Twine(Threads) + ")");
  if (S.Block[2] > 64)
    return Fail(keyLine(Text, "block"), "block z is at most 64");
  if (S.Grid[1] > 65535 || S.Grid[2] > 65535)
    return Fail(keyLine(Text, "grid"), "grid y and z are at most 65535");
  if (S.SharedBytes > 228 * 1024)
    return Fail(keyLine(Text, "shared_bytes"), "shared_bytes exceeds 228 KiB");
  if (S.Args.empty())
    return Fail(keyLine(Text, "args"),
                "args must list the kernel's parameters");
  if (llvm::none_of(S.Args, [](const ArgSpec &A) { return A.isOutput(); }))
    return Fail(keyLine(Text, "args"), "no argument has output: true");
  return S;
}

Expected<CaseSpec> parseCaseSpecFile(StringRef Path) {
  SmallString<256> Abs(Path);
  if (std::error_code EC = sys::fs::make_absolute(Abs))
    return createStringError(EC, Path + ": error: " + EC.message());
  sys::path::remove_dots(Abs, true);
  pk::noteRead(Abs, "the case file");
  auto Buf = MemoryBuffer::getFile(Abs);
  if (!Buf)
    return createStringError(Buf.getError(), Path + ": error: cannot read: " +
                                                 Buf.getError().message());
  return parseCaseSpecText((*Buf)->getBuffer(), Path,
                           sys::path::parent_path(Abs));
}

Expected<std::vector<std::string>>
findCaseSpecs(const std::vector<std::string> &Paths) {
  std::set<std::string> Found;
  for (const std::string &P : Paths) {
    sys::fs::file_status St;
    if (std::error_code EC = sys::fs::status(P, St))
      return createStringError(EC, P + ": error: " + EC.message());
    if (sys::fs::is_regular_file(St)) {
      // A case file is YAML; a source of a case stands for the case.yaml
      // beside it; any other file is not a case (never parsed as one).
      StringRef Ext = sys::path::extension(P);
      if (Ext == ".yaml" || Ext == ".yml") {
        Found.insert(P);
        continue;
      }
      SmallString<256> Beside(sys::path::parent_path(P));
      if (Beside.empty())
        Beside = ".";
      sys::path::append(Beside, "case.yaml");
      if (sys::fs::is_regular_file(Beside)) {
        Found.insert(std::string(Beside));
        continue;
      }
      return createStringError(inconvertibleErrorCode(),
                               P + ": error: not a case: give a case "
                                   "directory or its case.yaml (there is no "
                                   "case.yaml beside this file)");
    }
    if (!sys::fs::is_directory(St))
      return createStringError(inconvertibleErrorCode(),
                               P + ": error: not a file or directory");
    SmallString<256> Direct(P);
    sys::path::append(Direct, "case.yaml");
    if (sys::fs::exists(Direct)) {
      Found.insert(std::string(Direct));
      continue;
    }
    std::error_code EC;
    for (sys::fs::recursive_directory_iterator It(P, EC), End; It != End && !EC;
         It.increment(EC)) {
      if (sys::path::filename(It->path()) == "case.yaml")
        Found.insert(It->path());
    }
    if (EC)
      return createStringError(EC, P + ": error: " + EC.message());
  }
  return std::vector<std::string>(Found.begin(), Found.end());
}

} // namespace validate
} // namespace pk

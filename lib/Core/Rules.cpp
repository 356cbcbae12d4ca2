// Rules: none (the rule table, its registry and the rename-table loader)
#include "pk/Rules.h"
#include "pk/SafeIO.h"
#include "pk/PortService.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"
#include "llvm/Support/YAMLTraits.h"
#include <algorithm>

using namespace pk;

// ---- YAML mapping ---------------------------------------------------------

namespace {
struct YEntry {
  std::string Cuda, Hip, Unsupported, Note, Kind;
  std::optional<bool> Reverse;
  bool HasHip = false;
};
struct YTable {
  std::string Rule, Title, Kind;
  std::vector<YEntry> Entries;
};
} // namespace

LLVM_YAML_IS_SEQUENCE_VECTOR(YEntry)

namespace llvm::yaml {
/// True when reading failed already (a document that does not parse).
static bool inputFailed(IO &Io) {
  return !Io.outputting() && static_cast<Input &>(Io).error();
}
template <> struct MappingTraits<YEntry> {
  static void mapping(IO &IO, YEntry &E) {
    IO.mapRequired("cuda", E.Cuda);
    std::optional<std::string> Hip;
    IO.mapOptional("hip", Hip);
    if (Hip) {
      E.Hip = *Hip;
      E.HasHip = true;
    }
    IO.mapOptional("unsupported", E.Unsupported);
    IO.mapOptional("note", E.Note);
    IO.mapOptional("kind", E.Kind);
    IO.mapOptional("reverse", E.Reverse);
  }
  static std::string validate(IO &Io, YEntry &E) {
    // After a syntax error there is no node to attach a message to (setError
    // would dereference a null node): the syntax error is reported instead.
    if (inputFailed(Io))
      return "";
    if (E.Cuda.empty())
      return "entry has an empty 'cuda' name";
    if (!E.HasHip && E.Unsupported.empty())
      return "entry '" + E.Cuda + "' needs either 'hip' or 'unsupported'";
    if (E.HasHip && !E.Unsupported.empty())
      return "entry '" + E.Cuda + "' has both 'hip' and 'unsupported'";
    return "";
  }
};
template <> struct MappingTraits<YTable> {
  static void mapping(IO &IO, YTable &T) {
    IO.mapRequired("rule", T.Rule);
    IO.mapOptional("title", T.Title);
    IO.mapOptional("kind", T.Kind);
    IO.mapRequired("entries", T.Entries);
  }
  static std::string validate(IO &Io, YTable &T) {
    if (inputFailed(Io))
      return ""; // see YEntry
    if (T.Rule.size() != 6 || T.Rule.compare(0, 2, "PK") != 0 ||
        !std::all_of(T.Rule.begin() + 2, T.Rule.end(), ::isdigit))
      return "rule ID '" + T.Rule + "' is not of the form PKnnnn";
    if (!T.Kind.empty() && T.Kind != "header")
      return "unknown table kind '" + T.Kind + "' (expected 'header')";
    return "";
  }
};
} // namespace llvm::yaml

// ---- registry -------------------------------------------------------------

llvm::StringRef pk::severityName(Severity S) {
  switch (S) {
  case Severity::Note:
    return "note";
  case Severity::Warning:
    return "warning";
  case Severity::Error:
    return "error";
  }
  return "warning";
}

namespace {
struct TargetRow {
  Target T;
  const char *Name;
  EmuLanguage Emu;
};
const TargetRow Targets[] = {
#define PK_TARGET(ID, NAME, EMU, FACTORY) {Target::ID, NAME, EmuLanguage::EMU},
#include "pk/TargetList.def"
};
} // namespace

llvm::StringRef pk::targetName(Target T) {
  return Targets[static_cast<unsigned>(T)].Name;
}
EmuLanguage pk::targetEmuLanguage(Target T) {
  return Targets[static_cast<unsigned>(T)].Emu;
}
std::optional<Target> pk::findTarget(llvm::StringRef Name) {
  for (const TargetRow &R : Targets)
    if (Name == R.Name)
      return R.T;
  return std::nullopt;
}
std::vector<Target> pk::allTargets() {
  std::vector<Target> V;
  for (const TargetRow &R : Targets)
    V.push_back(R.T);
  return V;
}

namespace {
const RuleSpec Table[] = {
#define PK_RULE(ID, KIND, TARGETS, TITLE)                                      \
  {RuleId::ID, #ID, RuleKind::KIND, TARGETS, TITLE},
#include "pk/RuleTable.def"
};
} // namespace

llvm::StringRef pk::ruleKindName(RuleKind K) {
  switch (K) {
  case RuleKind::Rename:
    return "rename";
  case RuleKind::Rewrite:
    return "rewrite";
  case RuleKind::Diagnostic:
    return "diagnostic";
  }
  return "?";
}

llvm::ArrayRef<RuleSpec> pk::ruleTable() { return Table; }
const RuleSpec &pk::ruleSpec(RuleId Id) {
  return Table[static_cast<unsigned>(Id)];
}
llvm::StringRef pk::ruleName(RuleId Id) { return ruleSpec(Id).Name; }
std::optional<RuleId> pk::findRuleId(llvm::StringRef Name) {
  for (const RuleSpec &R : Table)
    if (Name == R.Name)
      return R.Id;
  return std::nullopt;
}

RuleRegistry::RuleRegistry() {
  for (const RuleSpec &R : Table)
    Rules[R.Name] = {R.Name, R.Title, ruleKindName(R.Kind).str()};
}
RuleRegistry &RuleRegistry::get() {
  static RuleRegistry R;
  return R;
}
void RuleRegistry::addUser(RuleInfo R) { Rules[R.ID] = std::move(R); }
const RuleInfo *RuleRegistry::find(llvm::StringRef ID) const {
  auto It = Rules.find(ID);
  return It == Rules.end() ? nullptr : &It->second;
}
std::vector<RuleInfo> RuleRegistry::all() const {
  std::vector<RuleInfo> V;
  for (const auto &E : Rules)
    V.push_back(E.second);
  std::sort(V.begin(), V.end(),
            [](const RuleInfo &A, const RuleInfo &B) { return A.ID < B.ID; });
  return V;
}

// ---- rename tables --------------------------------------------------------

llvm::Error RenameDB::loadDirectory(llvm::StringRef Dir) {
  std::error_code EC;
  std::vector<std::string> Files;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    if (llvm::sys::path::extension(It->path()) == ".yaml")
      Files.push_back(It->path());
  if (EC)
    return llvm::createStringError(EC,
                                   "%s: error: cannot read rule directory: %s",
                                   Dir.str().c_str(), EC.message().c_str());
  std::sort(Files.begin(), Files.end());
  for (const auto &F : Files)
    if (llvm::Error E = loadFile(F, /*BuiltIn=*/true))
      return E;
  return llvm::Error::success();
}

static bool isIdentifier(llvm::StringRef S) {
  if (S.empty() || !(isalpha((unsigned char)S[0]) || S[0] == '_'))
    return false;
  return llvm::all_of(
      S, [](char C) { return isalnum((unsigned char)C) || C == '_'; });
}

/// C++ keywords (and the alternative tokens) a rename table must not map:
/// renaming them would rewrite the language, not an API.
static bool isCxxKeyword(llvm::StringRef S) {
  static const char *const Words[] = {
      "alignas",       "alignof",     "and",
      "and_eq",        "asm",         "auto",
      "bitand",        "bitor",       "bool",
      "break",         "case",        "catch",
      "char",          "char8_t",     "char16_t",
      "char32_t",      "class",       "compl",
      "concept",       "const",       "consteval",
      "constexpr",     "constinit",   "const_cast",
      "continue",      "co_await",    "co_return",
      "co_yield",      "decltype",    "default",
      "delete",        "do",          "double",
      "dynamic_cast",  "else",        "enum",
      "explicit",      "export",      "extern",
      "false",         "float",       "for",
      "friend",        "goto",        "if",
      "inline",        "int",         "long",
      "mutable",       "namespace",   "new",
      "noexcept",      "not",         "not_eq",
      "nullptr",       "operator",    "or",
      "or_eq",         "private",     "protected",
      "public",        "register",    "reinterpret_cast",
      "requires",      "return",      "short",
      "signed",        "sizeof",      "static",
      "static_assert", "static_cast", "struct",
      "switch",        "template",    "this",
      "thread_local",  "throw",       "true",
      "try",           "typedef",     "typeid",
      "typename",      "union",       "unsigned",
      "using",         "virtual",     "void",
      "volatile",      "wchar_t",     "while",
      "xor",           "xor_eq"};
  return llvm::is_contained(Words, S);
}

/// "PATH:LINE:COL: error: MSG" for the byte at \p Offset of \p Text.
static std::string errorAt(llvm::StringRef Path, llvm::StringRef Text,
                           size_t Offset, const llvm::Twine &Msg) {
  llvm::StringRef Before = Text.take_front(Offset);
  size_t Line = Before.count('\n') + 1;
  size_t LineStart = Before.rfind('\n');
  size_t Col =
      Offset - (LineStart == llvm::StringRef::npos ? 0 : LineStart + 1) + 1;
  return llvm::formatv("{0}:{1}:{2}: error: {3}", Path, Line, Col, Msg.str())
      .str();
}

/// Checks what the YAML reader cannot be trusted with: that \p Text is
/// UTF-8, holds one document, and that the document is a mapping whose
/// 'entries' are a sequence of mappings.  Returns the first problem as
/// "PATH:LINE:COL: error: ..." (or "" when there is none); syntax errors are
/// left to the reader.
static std::string checkRuleFileShape(llvm::StringRef Path,
                                      llvm::StringRef Text) {
  const auto *Begin = reinterpret_cast<const llvm::UTF8 *>(Text.begin());
  const auto *End = reinterpret_cast<const llvm::UTF8 *>(Text.end());
  const llvm::UTF8 *P = Begin;
  if (!llvm::isLegalUTF8String(&P, End))
    return errorAt(Path, Text, P - Begin,
                   "invalid UTF-8; a rule file is UTF-8 text");

  llvm::SourceMgr SM;
  std::string SyntaxError;
  SM.setDiagHandler(
      [](const llvm::SMDiagnostic &, void *Ctx) {
        *static_cast<std::string *>(Ctx) = "syntax";
      },
      &SyntaxError);
  llvm::yaml::Stream S(Text, SM);
  auto Where = [&](llvm::yaml::Node *N) -> size_t {
    const char *At = N->getSourceRange().Start.getPointer();
    return At && At >= Text.begin() && At <= Text.end() ? At - Text.begin() : 0;
  };
  auto What = [](llvm::yaml::Node *N) {
    if (llvm::isa<llvm::yaml::SequenceNode>(N))
      return "a sequence";
    if (llvm::isa<llvm::yaml::MappingNode>(N))
      return "a mapping";
    return "a scalar";
  };
  auto Doc = S.begin();
  llvm::yaml::Node *Root = Doc == S.end() ? nullptr : Doc->getRoot();
  if (!SyntaxError.empty())
    return ""; // the reader reports it, with its position
  if (!Root || llvm::isa<llvm::yaml::NullNode>(Root))
    return errorAt(Path, Text, 0,
                   "the rule file is empty; expected a mapping with 'rule', "
                   "'title' and 'entries'");
  auto *Map = llvm::dyn_cast<llvm::yaml::MappingNode>(Root);
  if (!Map)
    return errorAt(Path, Text, Where(Root),
                   llvm::Twine("expected a mapping with 'rule', 'title' and "
                               "'entries', found ") +
                       What(Root));
  for (llvm::yaml::KeyValueNode &KV : *Map) {
    auto *Key = llvm::dyn_cast_or_null<llvm::yaml::ScalarNode>(KV.getKey());
    llvm::SmallString<16> KeyBuf;
    if (!Key || Key->getValue(KeyBuf) != "entries" || !KV.getValue())
      continue;
    auto *Seq = llvm::dyn_cast<llvm::yaml::SequenceNode>(KV.getValue());
    if (!Seq) {
      if (llvm::isa<llvm::yaml::NullNode>(KV.getValue()))
        continue; // "entries:" with nothing: an empty table
      return errorAt(Path, Text, Where(KV.getValue()),
                     llvm::Twine("'entries' must be a sequence of mappings, "
                                 "found ") +
                         What(KV.getValue()));
    }
    for (llvm::yaml::Node &E : *Seq)
      if (!llvm::isa<llvm::yaml::MappingNode>(&E))
        return errorAt(Path, Text, Where(&E),
                       llvm::Twine("an entry must be a mapping with 'cuda' "
                                   "and 'hip' (or 'unsupported'), found ") +
                           What(&E));
  }
  if (!SyntaxError.empty())
    return "";
  ++Doc;
  if (Doc != S.end()) {
    llvm::yaml::Node *Next = Doc->getRoot();
    if (SyntaxError.empty() && Next && !llvm::isa<llvm::yaml::NullNode>(Next))
      return errorAt(Path, Text, Where(Next),
                     "a rule file holds one table; a second document starts "
                     "here");
  }
  return "";
}

llvm::Error RenameDB::loadFile(llvm::StringRef Path, bool BuiltIn) {
  if (llvm::sys::fs::is_directory(Path))
    return llvm::createStringError(
        std::make_error_code(std::errc::is_a_directory),
        "%s:1:1: error: cannot read rule file: it is a directory, not a YAML "
        "rename table",
        Path.str().c_str());
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  if (!Buf)
    return llvm::createStringError(
        Buf.getError(), "%s: error: cannot read rule file: %s",
        Path.str().c_str(), Buf.getError().message().c_str());
  // LLVM's YAML reader recurses per level: the nesting is bounded first.
  if (llvm::Error E = checkYamlNesting((*Buf)->getBuffer(), Path))
    return E;
  std::string Shape = checkRuleFileShape(Path, (*Buf)->getBuffer());
  if (!Shape.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), Shape);
  std::string Diag;
  auto Handler = [](const llvm::SMDiagnostic &D, void *Ctx) {
    auto *Out = static_cast<std::string *>(Ctx);
    if (Out->empty())
      *Out = llvm::formatv("{0}:{1}:{2}: error: {3}", D.getFilename(),
                           D.getLineNo(), D.getColumnNo() + 1, D.getMessage())
                 .str();
  };
  llvm::yaml::Input In((*Buf)->getMemBufferRef(), nullptr, Handler, &Diag);
  YTable T;
  In >> T;
  if (In.error())
    return llvm::createStringError(
        In.error(), Diag.empty() ? (Path + ": invalid rule file").str() : Diag);

  auto Fail = [&](const llvm::Twine &Msg) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   (Path + ": error: " + Msg).str());
  };
  std::optional<RuleId> Known = findRuleId(T.Rule);
  if (BuiltIn) {
    if (!Known || ruleSpec(*Known).Kind != RuleKind::Rename)
      return Fail("rule " + T.Rule +
                  " is not a rename rule of the rule table (RuleTable.def)");
    if (!T.Title.empty() && T.Title != ruleSpec(*Known).Title)
      return Fail("title differs from the rule table's title of " + T.Rule +
                  " ('" + ruleSpec(*Known).Title + "')");
    T.Title = ruleSpec(*Known).Title;
  } else {
    if (Known)
      return Fail("rule ID " + T.Rule +
                  " is already used by a built-in rule; give the table an "
                  "ID of its own (see `port-kernel rules`)");
    if (T.Title.empty())
      return Fail("a rule file needs a 'title'");
  }
  if (!LoadedRules.insert(T.Rule).second)
    return Fail("rule " + T.Rule +
                " is declared by another loaded table; "
                "each rule ID has one table");
  bool IsHeaderTable = T.Kind == "header";
  for (const YEntry &Y : T.Entries) {
    if (IsHeaderTable)
      continue;
    llvm::SmallVector<llvm::StringRef, 2> Names{Y.Cuda};
    if (Y.HasHip)
      Names.push_back(Y.Hip);
    for (llvm::StringRef N : Names) {
      if (!isIdentifier(N))
        return Fail(
            "'" + N + "' in entry '" + Y.Cuda +
            "' is not an identifier; a rename maps one name to another");
      if (isCxxKeyword(N))
        return Fail("'" + N + "' in entry '" + Y.Cuda +
                    "' is a C++ keyword; rename tables map API names, not the "
                    "language");
    }
  }
  if (!BuiltIn)
    RuleRegistry::get().addUser({T.Rule, T.Title, "rename"});
  RenameTable Tab;
  Tab.Rule = T.Rule;
  Tab.Title = T.Title;
  Tab.Kind = T.Kind;
  bool IsHeader = T.Kind == "header";
  for (YEntry &Y : T.Entries) {
    RenameEntry E;
    E.Cuda = Y.Cuda;
    E.Hip = Y.Hip;
    E.Unsupported = Y.Unsupported;
    E.Note = Y.Note;
    E.Kind = Y.Kind;
    E.Reverse = Y.Reverse.value_or(true);
    E.RuleID = T.Rule;
    E.File = Path.str();
    auto &Fwd = IsHeader ? HdrToHip : CudaToHip;
    auto &Bwd = IsHeader ? HdrToCuda : HipToCuda;
    if (Fwd.count(E.Cuda))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "%s: error: '%s' is already mapped by %s",
                                     Path.str().c_str(), E.Cuda.c_str(),
                                     Fwd[E.Cuda].File.c_str());
    Fwd[E.Cuda] = E;
    if (E.Unsupported.empty() && E.Reverse && !E.Hip.empty() &&
        !Bwd.count(E.Hip)) {
      RenameEntry R = E;
      std::swap(R.Cuda, R.Hip); // for HIP -> CUDA the "Hip" field is the result
      Bwd[E.Hip] = R;
    }
    Tab.Entries.push_back(std::move(E));
    ++NumEntries;
  }
  Tables.push_back(std::move(Tab));
  return llvm::Error::success();
}

const RenameEntry *RenameDB::lookup(llvm::StringRef Name, bool ToHip) const {
  const auto &M = ToHip ? CudaToHip : HipToCuda;
  auto It = M.find(Name);
  return It == M.end() ? nullptr : &It->second;
}
const RenameEntry *RenameDB::lookupHeader(llvm::StringRef Name,
                                          bool ToHip) const {
  const auto &M = ToHip ? HdrToHip : HdrToCuda;
  auto It = M.find(Name);
  return It == M.end() ? nullptr : &It->second;
}

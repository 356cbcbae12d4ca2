//===- Config.cpp - .port-kernel.yaml configuration files -----------------===//
// Rules: none (configuration; docs/configuration.md)
#include "pk/Config.h"
#include "pk/SafeIO.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLTraits.h"
#include <algorithm>

using namespace pk;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

// ---- glob lists -----------------------------------------------------------

bool pk::ruleGlobMatch(llvm::StringRef Glob, llvm::StringRef Rule) {
  // Iterative '*' matching with backtracking to the last star.
  size_t G = 0, R = 0, Star = llvm::StringRef::npos, Mark = 0;
  while (R < Rule.size()) {
    if (G < Glob.size() && Glob[G] == '*') {
      Star = G++;
      Mark = R;
    } else if (G < Glob.size() && Glob[G] == Rule[R]) {
      ++G;
      ++R;
    } else if (Star != llvm::StringRef::npos) {
      G = Star + 1;
      R = ++Mark;
    } else {
      return false;
    }
  }
  while (G < Glob.size() && Glob[G] == '*')
    ++G;
  return G == Glob.size();
}

RuleGlobList RuleGlobList::parse(llvm::StringRef Text,
                                 llvm::StringRef Origin) {
  RuleGlobList L;
  llvm::SmallVector<llvm::StringRef, 8> Items;
  Text.split(Items, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Item0 : Items) {
    llvm::SmallVector<llvm::StringRef, 2> Lines;
    Item0.split(Lines, '\n', -1, false);
    for (llvm::StringRef Item : Lines) {
      Item = Item.trim();
      if (Item.empty())
        continue;
      RulePattern P;
      P.Positive = !Item.consume_front("-");
      P.Glob = Item.trim().str();
      P.Origin = Origin.str();
      L.Pats.push_back(std::move(P));
    }
  }
  return L;
}

void RuleGlobList::append(const RuleGlobList &Later) {
  llvm::append_range(Pats, Later.Pats);
}

const RulePattern *RuleGlobList::decide(llvm::StringRef Rule) const {
  for (auto It = Pats.rbegin(); It != Pats.rend(); ++It)
    if (ruleGlobMatch(It->Glob, Rule))
      return &*It;
  return nullptr;
}

bool RuleGlobList::contains(llvm::StringRef Rule) const {
  const RulePattern *P = decide(Rule);
  return P && P->Positive;
}

std::string RuleGlobList::str() const {
  std::vector<std::string> S;
  for (const RulePattern &P : Pats)
    S.push_back(P.spelling());
  return llvm::join(S, ",");
}

// ---- parsing ----------------------------------------------------------------

namespace {

/// What the scalar readers check values against, and their last error.
struct ParseCtx {
  const ConfigSchema *Schema;
  std::string Err;
};

struct YStr {
  std::string S;
};
struct YTargets : YStr {};
struct YWave64 : YStr {};
struct YMfma : YStr {};
struct YLds : YStr {};
struct YPath : YStr {};
struct YRocm {
  unsigned V = 0;
};

struct YConfig {
  std::optional<YStr> Checks, WarningsAsErrors;
  std::optional<YTargets> To;
  std::optional<YWave64> Wave64;
  std::optional<YMfma> MfmaShape;
  std::optional<YLds> LdsPadding;
  std::optional<YRocm> RocmVersion;
  std::optional<std::vector<YPath>> Rules;
  std::optional<YPath> Baseline, SrcRoot;
  std::optional<bool> InheritParentConfig;
};

const char *const Keys[] = {"Checks",      "WarningsAsErrors",
                            "To",          "Wave64",
                            "MfmaShape",   "LdsPadding",
                            "RocmVersion", "Rules",
                            "Baseline",    "SrcRoot",
                            "InheritParentConfig"};

llvm::StringRef choose(void *Ctx, llvm::StringRef Key, llvm::StringRef V,
                       const std::vector<std::string> &Allowed,
                       std::string &Out) {
  auto *C = static_cast<ParseCtx *>(Ctx);
  if (llvm::is_contained(Allowed, V)) {
    Out = V.str();
    return {};
  }
  C->Err = llvm::formatv("{0}: '{1}' is not one of {2}", Key, V,
                         llvm::join(Allowed, ", "))
               .str();
  return C->Err;
}

} // namespace

namespace llvm {
namespace yaml {
#define PK_STR_TRAITS(T, ...)                                                 \
  template <> struct ScalarTraits<T> {                                         \
    static void output(const T &V, void *, raw_ostream &OS) { OS << V.S; }     \
    static StringRef input(StringRef S, void *Ctx, T &V) __VA_ARGS__                  \
    static QuotingType mustQuote(StringRef) { return QuotingType::Single; }    \
  };
PK_STR_TRAITS(YStr, {
  (void)Ctx;
  V.S = S.str();
  return {};
})
PK_STR_TRAITS(YWave64, {
  return choose(Ctx, "Wave64", S, static_cast<ParseCtx *>(Ctx)->Schema->Wave64,
                V.S);
})
PK_STR_TRAITS(YMfma, {
  return choose(Ctx, "MfmaShape", S,
                static_cast<ParseCtx *>(Ctx)->Schema->MfmaShape, V.S);
})
PK_STR_TRAITS(YLds, {
  return choose(Ctx, "LdsPadding", S,
                static_cast<ParseCtx *>(Ctx)->Schema->LdsPadding, V.S);
})
PK_STR_TRAITS(YPath, {
  auto *C = static_cast<ParseCtx *>(Ctx);
  if (S.trim().empty()) {
    C->Err = "a path may not be empty";
    return C->Err;
  }
  V.S = S.str();
  return {};
})
PK_STR_TRAITS(YTargets, {
  auto *C = static_cast<ParseCtx *>(Ctx);
  SmallVector<StringRef, 4> Parts;
  S.split(Parts, ',', -1, false);
  std::vector<std::string> Names;
  for (StringRef P : Parts) {
    P = P.trim();
    if (P.empty())
      continue;
    if (!is_contained(C->Schema->Targets, P)) {
      C->Err = formatv("To: unknown target '{0}' (targets: {1})", P,
                       join(C->Schema->Targets, ", "))
                   .str();
      return C->Err;
    }
    Names.push_back(P.str());
  }
  if (Names.empty()) {
    C->Err = formatv("To names no target (targets: {0})",
                     join(C->Schema->Targets, ", "))
                 .str();
    return C->Err;
  }
  V.S = join(Names, ",");
  return {};
})
#undef PK_STR_TRAITS

template <> struct ScalarTraits<YRocm> {
  static void output(const YRocm &V, void *, raw_ostream &OS) { OS << V.V; }
  static StringRef input(StringRef S, void *Ctx, YRocm &V) {
    auto *C = static_cast<ParseCtx *>(Ctx);
    unsigned N = 0;
    if (S.getAsInteger(10, N) || !is_contained(C->Schema->RocmVersion, N)) {
      std::vector<std::string> A;
      for (unsigned R : C->Schema->RocmVersion)
        A.push_back(std::to_string(R));
      C->Err = formatv("RocmVersion: '{0}' is not one of {1}", S, join(A, ", "))
                   .str();
      return C->Err;
    }
    V.V = N;
    return {};
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::None; }
};

template <> struct MappingTraits<YConfig> {
  static void mapping(IO &Io, YConfig &C) {
    Io.mapOptional("Checks", C.Checks);
    Io.mapOptional("WarningsAsErrors", C.WarningsAsErrors);
    Io.mapOptional("To", C.To);
    Io.mapOptional("Wave64", C.Wave64);
    Io.mapOptional("MfmaShape", C.MfmaShape);
    Io.mapOptional("LdsPadding", C.LdsPadding);
    Io.mapOptional("RocmVersion", C.RocmVersion);
    Io.mapOptional("Rules", C.Rules);
    Io.mapOptional("Baseline", C.Baseline);
    Io.mapOptional("SrcRoot", C.SrcRoot);
    Io.mapOptional("InheritParentConfig", C.InheritParentConfig);
  }
};
} // namespace yaml
} // namespace llvm
LLVM_YAML_IS_SEQUENCE_VECTOR(YPath)

std::string ConfigLayer::origin(llvm::StringRef Key) const {
  auto It = KeyLine.find(Key.str());
  if (IsFile && It != KeyLine.end())
    return llvm::formatv("{0}:{1}", Name, It->second).str();
  if (Name == CommandLineName)
    return optionOfKey(Key).str();
  return Name;
}

/// "NAME:LINE:COL: error: MSG" for the byte at \p Offset of \p Text.
static std::string errorAt(llvm::StringRef Name, llvm::StringRef Text,
                           size_t Offset, const llvm::Twine &Msg) {
  llvm::StringRef Before = Text.take_front(Offset);
  size_t Line = Before.count('\n') + 1;
  size_t LineStart = Before.rfind('\n');
  size_t Col =
      Offset - (LineStart == llvm::StringRef::npos ? 0 : LineStart + 1) + 1;
  return llvm::formatv("{0}:{1}:{2}: error: {3}", Name, Line, Col, Msg.str())
      .str();
}

static llvm::Error err(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg.str());
}

llvm::Expected<ConfigLayer> pk::parseConfig(llvm::StringRef Text,
                                            llvm::StringRef Name,
                                            llvm::StringRef BaseDir,
                                            const ConfigSchema &Schema,
                                            bool IsFile) {
  const auto *Begin = reinterpret_cast<const llvm::UTF8 *>(Text.begin());
  const auto *End = reinterpret_cast<const llvm::UTF8 *>(Text.end());
  const llvm::UTF8 *P = Begin;
  if (!llvm::isLegalUTF8String(&P, End))
    return err(errorAt(Name, Text, P - Begin,
                       "invalid UTF-8; a configuration is UTF-8 text"));
  // LLVM's YAML reader recurses per level: the nesting is bounded first.
  if (llvm::Error E = checkYamlNesting(Text, Name))
    return std::move(E);

  // What the reader lets through: a key given twice (the last would win
  // silently) and a second document (ignored).  Syntax errors are left to
  // the reader, which reports them with their position.
  {
    llvm::SourceMgr SM;
    bool Syntax = false;
    SM.setDiagHandler(
        [](const llvm::SMDiagnostic &, void *C) { *static_cast<bool *>(C) = true; },
        &Syntax);
    llvm::yaml::Stream S(Text, SM);
    auto OffsetOf = [&](llvm::yaml::Node *N) -> size_t {
      const char *At = N->getSourceRange().Start.getPointer();
      return At && At >= Text.begin() && At <= Text.end() ? At - Text.begin()
                                                          : 0;
    };
    unsigned Docs = 0;
    std::string Problem;
    for (auto Doc = S.begin(); Doc != S.end() && !Syntax && Problem.empty();
         ++Doc) {
      llvm::yaml::Node *Root = Doc->getRoot();
      if (!Root || llvm::isa<llvm::yaml::NullNode>(Root))
        continue;
      if (++Docs == 2) {
        size_t Off = OffsetOf(Root);
        size_t Dash = Text.take_front(Off).rfind("---");
        Problem = errorAt(Name, Text, Dash == llvm::StringRef::npos ? Off : Dash,
                          "a configuration holds one YAML document; a second "
                          "one starts here");
        break;
      }
      auto *Map = llvm::dyn_cast<llvm::yaml::MappingNode>(Root);
      if (!Map)
        continue; // the reader says what is wrong
      std::vector<std::string> Seen;
      for (llvm::yaml::KeyValueNode &KV : *Map) {
        auto *Key = llvm::dyn_cast_or_null<llvm::yaml::ScalarNode>(KV.getKey());
        if (Key) {
          llvm::SmallString<32> Buf;
          std::string K = Key->getValue(Buf).str();
          if (llvm::is_contained(Seen, K) && Problem.empty())
            Problem = errorAt(Name, Text, OffsetOf(Key),
                              "'" + K + "' is given twice; give each key "
                                        "once");
          Seen.push_back(K);
        }
        if (KV.getValue())
          KV.getValue()->skip();
      }
    }
    if (!Syntax && !Problem.empty())
      return err(Problem);
  }

  ParseCtx Ctx{&Schema, ""};
  std::string Diag;
  struct HCtx {
    std::string *Out;
    std::string Name;
  } H{&Diag, Name.str()};
  auto Handler = [](const llvm::SMDiagnostic &D, void *C) {
    auto *HC = static_cast<HCtx *>(C);
    if (!HC->Out->empty())
      return;
    std::string Msg = D.getMessage().str();
    // The reader's terse words, with what was expected.
    if (Msg == "unexpected scalar")
      Msg = "a list or mapping where one value belongs (only Rules takes a "
            "list)";
    else if (Msg == "not a sequence")
      Msg = "Rules takes a list of files, e.g. Rules: [extra.yaml]";
    else if (Msg == "not a mapping")
      Msg = "a configuration is a mapping of keys to values, e.g. Checks: "
            "'-*,PK21*'";
    else if (Msg == "invalid boolean")
      Msg = "InheritParentConfig is true or false";
    else if (Msg == "unknown node kind")
      Msg = "YAML aliases are not used in a configuration; write the value";
    if (llvm::StringRef(Msg).starts_with("unknown key"))
      Msg += llvm::formatv(" (keys: {0}; docs/configuration.md)",
                           llvm::join(llvm::ArrayRef<const char *>(Keys), ", "))
                 .str();
    *HC->Out = llvm::formatv("{0}:{1}:{2}: error: {3}", HC->Name,
                             D.getLineNo(), D.getColumnNo() + 1, Msg)
                   .str();
  };
  llvm::yaml::Input In(llvm::MemoryBufferRef(Text, Name), &Ctx, Handler, &H);
  YConfig Y;
  In >> Y;
  if (In.error())
    return err(Diag.empty() ? (Name + ": error: not a valid configuration")
                            : llvm::Twine(Diag));
  ConfigLayer L;
  L.Name = Name.str();
  L.IsFile = IsFile;
  // The line of each key (for "FILE:LINE" origins): the first line that
  // starts with it, at any indentation (flow mappings: the first line).
  for (const char *K : Keys) {
    size_t Line = 1;
    llvm::StringRef Rest = Text;
    unsigned Found = 0;
    while (!Rest.empty() && !Found) {
      auto [Ln, Next] = Rest.split('\n');
      llvm::StringRef T = Ln.ltrim(" \t{,");
      if (T.consume_front(K) && T.ltrim().starts_with(":"))
        Found = Line;
      Rest = Next;
      ++Line;
    }
    L.KeyLine[K] = Found ? Found : 1;
  }
  auto Abs = [&](const std::string &S) {
    llvm::SmallString<256> A(S);
    if (!path::is_absolute(A)) {
      A = BaseDir;
      path::append(A, S);
    }
    path::remove_dots(A, /*remove_dot_dot=*/true);
    return std::string(A);
  };
  if (Y.Checks)
    L.Checks = Y.Checks->S;
  if (Y.WarningsAsErrors)
    L.WarningsAsErrors = Y.WarningsAsErrors->S;
  if (Y.To)
    L.To = Y.To->S;
  if (Y.Wave64)
    L.Wave64 = Y.Wave64->S;
  if (Y.MfmaShape)
    L.MfmaShape = Y.MfmaShape->S;
  if (Y.LdsPadding)
    L.LdsPadding = Y.LdsPadding->S;
  if (Y.RocmVersion)
    L.RocmVersion = Y.RocmVersion->V;
  if (Y.Rules) {
    L.Rules.emplace();
    for (const YPath &R : *Y.Rules)
      L.Rules->push_back(Abs(R.S));
  }
  if (Y.Baseline)
    L.Baseline = Abs(Y.Baseline->S);
  if (Y.SrcRoot)
    L.SrcRoot = Abs(Y.SrcRoot->S);
  L.InheritParentConfig = Y.InheritParentConfig.value_or(false);
  return L;
}

llvm::Expected<ConfigLayer> pk::readConfigFile(llvm::StringRef Path,
                                               const ConfigSchema &Schema) {
  std::string Abs = absPathOf(Path);
  fs::file_status St;
  if (std::error_code EC = fs::status(Abs, St, /*follow=*/true))
    return err(Abs + ": error: cannot read the configuration file: " +
               EC.message());
  if (St.type() != fs::file_type::regular_file)
    return err(Abs + ": error: cannot read the configuration file: " +
               (St.type() == fs::file_type::directory_file
                    ? "it is a directory"
                    : "it is not a regular file") +
               "; a configuration is a YAML file");
  auto Buf = readFile(Abs, "a configuration file", MaxConfigBytes);
  if (!Buf)
    return Buf.takeError();
  return parseConfig((*Buf)->getBuffer(), Abs, path::parent_path(Abs), Schema,
                     /*IsFile=*/true);
}

std::string pk::absPathOf(llvm::StringRef P) {
  llvm::SmallString<256> A(P);
  fs::make_absolute(A);
  path::remove_dots(A, /*remove_dot_dot=*/true);
  return std::string(A);
}

// ---- resolving ---------------------------------------------------------------

ConfigResolver::ConfigResolver(ConfigSchema S, std::optional<ConfigLayer> E,
                               ConfigLayer CL)
    : Schema(std::move(S)), Explicit(std::move(E)),
      CommandLine(std::move(CL)) {}

llvm::Expected<const ConfigLayer *>
ConfigResolver::layerIn(const std::string &Dir) {
  auto It = LayerInDir.find(Dir);
  if (It != LayerInDir.end())
    return It->second;
  llvm::SmallString<256> P(Dir);
  path::append(P, ConfigFileName);
  fs::file_status St;
  // lstat: a link that cannot be followed (a loop, a dangling link) is
  // there, and an error, not "no configuration".
  if (fs::status(P, St, /*follow=*/false) ||
      St.type() == fs::file_type::file_not_found) {
    LayerInDir[Dir] = nullptr;
    return nullptr;
  }
  auto L = readConfigFile(P, Schema);
  if (!L)
    return L.takeError();
  auto Owned = std::make_unique<ConfigLayer>(std::move(*L));
  const ConfigLayer *Ptr = Owned.get();
  FileLayers[std::string(P)] = std::move(Owned);
  LayerInDir[Dir] = Ptr;
  return Ptr;
}

llvm::Expected<std::vector<const ConfigLayer *>>
ConfigResolver::chainFor(const std::string &Dir) {
  // The nearest file, and its parents' while it inherits.
  std::vector<const ConfigLayer *> Chain; // nearest first
  bool Inherit = true;
  for (llvm::StringRef D = Dir; !D.empty() && Inherit;
       D = path::parent_path(D)) {
    auto L = layerIn(D.str());
    if (!L)
      return L.takeError();
    if (*L) {
      Chain.push_back(*L);
      Inherit = (*L)->InheritParentConfig;
    }
    if (path::parent_path(D) == D)
      break;
  }
  std::reverse(Chain.begin(), Chain.end());
  return Chain;
}

llvm::Expected<const EffectiveConfig *>
ConfigResolver::forPath(llvm::StringRef Path0) {
  std::lock_guard<std::recursive_mutex> G(M);
  std::string Path = absPathOf(Path0);
  std::string Dir =
      fs::is_directory(Path) ? Path : path::parent_path(Path).str();
  if (auto It = ByDir.find(Dir); It != ByDir.end())
    return It->second.get();

  std::vector<const ConfigLayer *> Layers;
  if (!Explicit || Explicit->InheritParentConfig) {
    auto Chain = chainFor(Dir);
    if (!Chain)
      return Chain.takeError();
    Layers = std::move(*Chain);
  }
  if (Explicit)
    Layers.push_back(&*Explicit);
  Layers.push_back(&CommandLine);

  auto C = std::make_unique<EffectiveConfig>();
  C->Layers = Layers;
  C->Checks = RuleGlobList::parse("*", "default");
  auto Def = [&](const char *K) {
    auto It = Schema.Defaults.find(K);
    return EffectiveConfig::Value{It == Schema.Defaults.end() ? ""
                                                              : It->second,
                                  {}};
  };
  C->To = Def("To");
  C->Wave64 = Def("Wave64");
  C->MfmaShape = Def("MfmaShape");
  C->LdsPadding = Def("LdsPadding");
  C->RocmVersion = Def("RocmVersion");
  C->Baseline = Def("Baseline");
  C->SrcRoot = Def("SrcRoot");
  for (const ConfigLayer *L : Layers) {
    if (L->IsFile)
      C->Files.push_back(L->Name);
    if (L->Checks) {
      C->Checks.append(RuleGlobList::parse(*L->Checks, L->origin("Checks")));
      C->ChecksFrom.push_back(L->origin("Checks"));
    }
    if (L->WarningsAsErrors) {
      C->WarningsAsErrors.append(RuleGlobList::parse(
          *L->WarningsAsErrors, L->origin("WarningsAsErrors")));
      C->WarningsAsErrorsFrom.push_back(L->origin("WarningsAsErrors"));
    }
    auto Set = [&](EffectiveConfig::Value &V, const std::optional<std::string>
                                                  &S,
                   const char *K) {
      if (S)
        V = {*S, {L->origin(K)}};
    };
    Set(C->To, L->To, "To");
    Set(C->Wave64, L->Wave64, "Wave64");
    Set(C->MfmaShape, L->MfmaShape, "MfmaShape");
    Set(C->LdsPadding, L->LdsPadding, "LdsPadding");
    Set(C->Baseline, L->Baseline, "Baseline");
    Set(C->SrcRoot, L->SrcRoot, "SrcRoot");
    if (L->RocmVersion)
      C->RocmVersion = {std::to_string(*L->RocmVersion),
                        {L->origin("RocmVersion")}};
    if (L->Rules) {
      // A file adds its tables to its parents'; the command line's --rules
      // replace them.
      if (!L->IsFile && L == &CommandLine)
        C->Rules.clear(), C->RulesFrom.clear();
      for (const std::string &R : *L->Rules)
        if (!llvm::is_contained(C->Rules, R))
          C->Rules.push_back(R);
      C->RulesFrom.push_back(L->origin("Rules"));
    }
  }
  const EffectiveConfig *Ptr = C.get();
  ByDir[Dir] = std::move(C);
  return Ptr;
}

FindingAction pk::decideFinding(const EffectiveConfig &C, llvm::StringRef Rule,
                                llvm::StringRef Kind, Severity Sev) {
  if (!C.Checks.contains(Rule)) {
    bool Edits = Kind == "rewrite" || Kind == "rename";
    if (Sev == Severity::Error || (Edits && Sev == Severity::Warning))
      ; // kept: it says the output is (or may be) wrong
    else
      return FindingAction::Drop;
  }
  if (Sev == Severity::Warning && C.WarningsAsErrors.contains(Rule))
    return FindingAction::Promote;
  return FindingAction::Keep;
}

FindingAction ConfigResolver::decide(llvm::StringRef File, llvm::StringRef Rule,
                                     Severity Sev) {
  std::lock_guard<std::recursive_mutex> G(M);
  auto C = forPath(File);
  if (!C) {
    std::string E = llvm::toString(C.takeError());
    if (FirstError.empty())
      FirstError = E;
    return FindingAction::Keep;
  }
  const RuleInfo *R = RuleRegistry::get().find(Rule);
  return decideFinding(**C, Rule, R ? llvm::StringRef(R->Kind) : "diagnostic",
                       Sev);
}

llvm::Error ConfigResolver::takeError() {
  std::lock_guard<std::recursive_mutex> G(M);
  if (FirstError.empty())
    return llvm::Error::success();
  std::string E = std::move(FirstError);
  FirstError.clear();
  return err(E);
}

std::vector<std::string> ConfigResolver::files() const {
  std::lock_guard<std::recursive_mutex> G(M);
  std::vector<std::string> V;
  for (const auto &[P, L] : FileLayers)
    V.push_back(P);
  return V;
}

llvm::Error ConfigResolver::validatePatterns(llvm::raw_ostream &Diag) {
  std::lock_guard<std::recursive_mutex> G(M);
  std::vector<RuleInfo> All = RuleRegistry::get().all();
  std::vector<const ConfigLayer *> Layers;
  for (const auto &[P, L] : FileLayers)
    Layers.push_back(L.get());
  if (Explicit)
    Layers.push_back(&*Explicit);
  Layers.push_back(&CommandLine);
  for (const ConfigLayer *L : Layers)
    for (const char *Key : {"Checks", "WarningsAsErrors"}) {
      const std::optional<std::string> &Text =
          llvm::StringRef(Key) == "Checks" ? L->Checks : L->WarningsAsErrors;
      if (!Text)
        continue;
      std::string Origin = L->origin(Key);
      RuleGlobList List = RuleGlobList::parse(*Text, Origin);
      for (const RulePattern &P : List.patterns()) {
        std::vector<const RuleInfo *> Hits;
        for (const RuleInfo &R : All)
          if (ruleGlobMatch(P.Glob, R.ID))
            Hits.push_back(&R);
        if (Hits.empty()) {
          std::string W =
              llvm::formatv("{0}: warning: {1}: '{2}' matches no rule (see "
                            "`port-kernel rules`); it selects nothing",
                            Origin, Key, P.spelling())
                  .str();
          if (!llvm::is_contained(Warned, W)) {
            Warned.push_back(W);
            Diag << W << "\n";
          }
          continue;
        }
        // Disabling a rule that edits the output by its name: refused.
        if (llvm::StringRef(Key) == "Checks" && !P.Positive &&
            !P.hasWildcard())
          for (const RuleInfo *R : Hits)
            if (R->Kind == "rewrite" || R->Kind == "rename")
              return err(llvm::formatv(
                  "{0}: error: Checks: '{1}' disables {2}, a {3} rule ({4}): "
                  "the output needs its edits to be correct, and its "
                  "warnings say where an edit could not be made, so hiding "
                  "them would leave a silently wrong output; {3} rules "
                  "cannot be disabled (a wildcard such as '-*' leaves their "
                  "warnings on; docs/configuration.md)",
                  Origin, P.spelling(), R->ID, R->Kind, R->Title));
      }
    }
  return llvm::Error::success();
}

llvm::StringRef pk::optionOfKey(llvm::StringRef Key) {
  return llvm::StringSwitch<llvm::StringRef>(Key)
      .Case("Checks", "--checks")
      .Case("WarningsAsErrors", "--warnings-as-errors")
      .Case("To", "--to")
      .Case("Wave64", "--wave64")
      .Case("MfmaShape", "--mfma-shape")
      .Case("LdsPadding", "--lds-padding")
      .Case("RocmVersion", "--rocm-version")
      .Case("Rules", "--rules")
      .Case("Baseline", "--baseline")
      .Case("SrcRoot", "--src-root")
      .Default("");
}

std::pair<std::string, std::vector<std::string>>
EffectiveConfig::get(llvm::StringRef Key) const {
  if (Key == "Checks")
    return {Checks.str(), ChecksFrom};
  if (Key == "WarningsAsErrors")
    return {WarningsAsErrors.str(), WarningsAsErrorsFrom};
  if (Key == "Rules")
    return {llvm::join(Rules, ","), RulesFrom};
  const Value *V = llvm::StringSwitch<const Value *>(Key)
                       .Case("To", &To)
                       .Case("Wave64", &Wave64)
                       .Case("MfmaShape", &MfmaShape)
                       .Case("LdsPadding", &LdsPadding)
                       .Case("RocmVersion", &RocmVersion)
                       .Case("Baseline", &Baseline)
                       .Case("SrcRoot", &SrcRoot)
                       .Default(nullptr);
  return V ? std::make_pair(V->V, V->From)
           : std::make_pair(std::string(), std::vector<std::string>());
}

llvm::Expected<const EffectiveConfig *>
ConfigResolver::runConfig(llvm::ArrayRef<std::string> Files,
                          llvm::ArrayRef<llvm::StringRef> Keys) {
  if (Files.empty()) {
    llvm::SmallString<256> Cwd;
    fs::current_path(Cwd);
    return forPath(Cwd);
  }
  auto First = forPath(Files.front());
  if (!First)
    return First.takeError();
  for (const std::string &F : Files.drop_front()) {
    auto C = forPath(F);
    if (!C)
      return C.takeError();
    if (*C == *First)
      continue;
    for (llvm::StringRef K : Keys) {
      auto [A, AFrom] = (*First)->get(K);
      auto [B, BFrom] = (*C)->get(K);
      if (A == B)
        continue;
      auto Where = [](const std::vector<std::string> &From) {
        return From.empty() ? std::string("the default")
                            : llvm::join(From, ", ");
      };
      return err(llvm::formatv(
          "port-kernel: error: the configurations of the inputs disagree on "
          "{0}, which applies to the whole run, not to one file: {1} gets "
          "'{2}' from {3}, {4} gets '{5}' from {6}; make the configuration "
          "files agree, or give {7} on the command line",
          K, Files.front(), A, Where(AFrom), F, B, Where(BFrom),
          optionOfKey(K)));
    }
  }
  return *First;
}

// ---- dumping -----------------------------------------------------------------

static std::string quoted(llvm::StringRef S) {
  std::string Q = "'";
  for (char C : S) {
    if (C == '\'')
      Q += "''";
    else
      Q += C;
  }
  return Q + "'";
}

static std::string fromText(const std::vector<std::string> &From) {
  return From.empty() ? "default" : llvm::join(From, ", ");
}

void pk::writeEffectiveConfig(llvm::raw_ostream &OS, const EffectiveConfig &C,
                              llvm::StringRef ForFile) {
  OS << "# port-kernel configuration of " << ForFile << "\n";
  if (C.Files.empty())
    OS << "# configuration files: none\n";
  else
    OS << "# configuration files (farthest first): "
       << llvm::join(C.Files, ", ") << "\n";
  auto Line = [&](llvm::StringRef Key, const std::string &Value,
                  const std::vector<std::string> &From) {
    OS << Key << ": " << Value << "   # " << fromText(From) << "\n";
  };
  std::vector<std::string> CF = C.ChecksFrom;
  CF.insert(CF.begin(), "default '*'");
  Line("Checks", quoted(C.Checks.str()), CF);
  Line("WarningsAsErrors", quoted(C.WarningsAsErrors.str()),
       C.WarningsAsErrorsFrom);
  Line("To", quoted(C.To.V), C.To.From);
  Line("Wave64", quoted(C.Wave64.V), C.Wave64.From);
  Line("MfmaShape", quoted(C.MfmaShape.V), C.MfmaShape.From);
  Line("LdsPadding", quoted(C.LdsPadding.V), C.LdsPadding.From);
  Line("RocmVersion", C.RocmVersion.V, C.RocmVersion.From);
  std::vector<std::string> R;
  for (const std::string &P : C.Rules)
    R.push_back(quoted(P));
  Line("Rules", "[" + llvm::join(R, ", ") + "]", C.RulesFrom);
  if (C.Baseline.V.empty())
    OS << "# Baseline: not set\n";
  else
    Line("Baseline", quoted(C.Baseline.V), C.Baseline.From);
  if (C.SrcRoot.V.empty())
    OS << "# SrcRoot: not set (the current directory)\n";
  else
    Line("SrcRoot", quoted(C.SrcRoot.V), C.SrcRoot.From);
}

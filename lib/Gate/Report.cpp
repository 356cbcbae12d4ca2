//===- Report.cpp - check reports: fingerprints, JSON, SARIF, merging -----===//
// Rules: none (reports of findings)
#include "pk/Gate.h"
#include "pk/Escape.h"
#include "pk/SafeIO.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <set>
#include <tuple>

using namespace pk;
namespace json = llvm::json;
namespace fs = llvm::sys::fs;

/// The key of partialFingerprints (versioned: a change of the hashed fields
/// gets a new key instead of silently different values).
static constexpr const char *FingerprintKey = "portKernelLine/v1";
/// The JSON report's format: a reader refuses any other (a report of a
/// later or earlier layout would be misread, and a baseline with it would
/// silently match nothing).
static constexpr const char *CheckReportFormat = "check-report/1";
static constexpr const char *SarifSchema =
    "https://json.schemastore.org/sarif-2.1.0.json";

namespace {
/// Line \p Line (1-based) of \p Contents whose line starts are \p Starts.
llvm::StringRef lineAt(llvm::StringRef Contents,
                       const std::vector<size_t> &Starts, unsigned Line) {
  if (Line == 0 || Line > Starts.size())
    return "";
  return Contents.drop_front(Starts[Line - 1]).split('\n').first;
}
std::vector<size_t> lineStarts(llvm::StringRef Contents) {
  std::vector<size_t> Starts = {0};
  for (size_t I = Contents.find('\n'); I != llvm::StringRef::npos;
       I = Contents.find('\n', I + 1))
    Starts.push_back(I + 1);
  return Starts;
}
std::string normalize(llvm::StringRef L) {
  std::string Out;
  bool Space = false;
  for (char C : L) {
    if (llvm::isSpace(C)) {
      Space = !Out.empty();
      continue;
    }
    if (Space)
      Out += ' ';
    Space = false;
    Out += C;
  }
  return Out;
}
} // namespace

std::string pk::normalizedLine(llvm::StringRef Contents, unsigned Line) {
  return normalize(lineAt(Contents, lineStarts(Contents), Line));
}

void pk::assignFingerprints(
    std::vector<GateFinding> &Fs,
    const std::function<std::string(const GateFinding &)> &ContentsOf) {
  std::vector<size_t> Order(Fs.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::stable_sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    return std::tie(Fs[A].File, Fs[A].Line, Fs[A].Col) <
           std::tie(Fs[B].File, Fs[B].Line, Fs[B].Col);
  });
  // Each file's text and line starts once: a line is then found by index,
  // not by scanning from the top for every finding (quadratic in a large
  // file with many findings).
  std::map<std::string, std::pair<std::string, std::vector<size_t>>> Texts;
  std::map<std::string, unsigned> Seen;
  for (size_t I : Order) {
    GateFinding &F = Fs[I];
    auto T = Texts.find(F.File);
    if (T == Texts.end()) {
      std::string Text = ContentsOf(F);
      std::vector<size_t> Starts = lineStarts(Text);
      T = Texts.emplace(F.File, std::make_pair(std::move(Text), std::move(Starts)))
              .first;
    }
    std::string Key =
        F.Target + '\0' + F.Rule + '\0' + F.File + '\0' +
        normalize(lineAt(T->second.first, T->second.second, F.Line));
    unsigned Index = Seen[Key]++;
    llvm::MD5 H;
    H.update(Key);
    H.update(llvm::StringRef("\0", 1));
    H.update(std::to_string(Index));
    llvm::MD5::MD5Result R;
    H.final(R);
    F.Fingerprint = R.digest().str().str().substr(0, 32);
  }
}

std::string pk::baselineKey(const GateFinding &F) {
  return F.Target + '\0' + F.Rule + '\0' + F.File + '\0' + F.Fingerprint;
}

void pk::sortAndDedupe(std::vector<GateFinding> &Fs) {
  std::stable_sort(Fs.begin(), Fs.end(),
                   [](const GateFinding &A, const GateFinding &B) {
                     return std::tie(A.File, A.Line, A.Col, A.Rule, A.Target,
                                     A.Message, A.Fingerprint) <
                            std::tie(B.File, B.Line, B.Col, B.Rule, B.Target,
                                     B.Message, B.Fingerprint);
                   });
  std::set<std::string> Keys;
  llvm::erase_if(Fs, [&](const GateFinding &F) {
    return !Keys.insert(baselineKey(F)).second;
  });
}

static std::string fileUri(llvm::StringRef AbsPath, bool Dir);

void pk::writeReportJson(const GateReport &R, llvm::raw_ostream &OS) {
  // Written as it goes, not built as a json::Value tree first (a large
  // report's tree took about 17 bytes of memory per byte written), in the
  // form printing such a tree with an indent of 2 gives: each object's keys
  // in sorted order (unit test GateReport.JsonIsCanonicalAndReadsBack).
  // JSON strings are UTF-8: a file name that is not keeps its bytes in
  // "file_uri" (percent-encoded), which a reader prefers, and is shown with
  // its odd bytes visible in "file"; json::Value mends other invalid text.
  json::OStream J(OS, 2);
  bool Utf8Root = json::isUTF8(R.SrcRoot);
  J.object([&] {
    J.attributeArray("findings", [&] {
      for (const GateFinding &F : R.Findings) {
        bool Utf8 = json::isUTF8(F.File);
        J.object([&] {
          if (!F.Relative)
            J.attribute("absolute", true);
          if (!F.BaselineState.empty())
            J.attribute("baseline", F.BaselineState);
          J.attribute("col", F.Col);
          J.attribute("file", Utf8 ? F.File : showControls(F.File));
          if (!Utf8)
            J.attribute("file_uri", uriEncode(F.File));
          J.attribute("fingerprint", F.Fingerprint);
          J.attribute("line", F.Line);
          J.attribute("message", showControls(F.Message));
          if (F.Promoted)
            J.attribute("promoted", true);
          J.attribute("rule", F.Rule);
          J.attribute("severity", F.Level);
          if (!F.Suppressed.empty())
            J.attribute("suppressed", F.Suppressed);
          J.attribute("target", F.Target);
        });
      }
    });
    J.attribute("format", CheckReportFormat);
    if (R.MergedFrom)
      J.attribute("mergedFrom", R.MergedFrom);
    J.attribute("srcRoot", Utf8Root ? R.SrcRoot : showControls(R.SrcRoot));
    if (!Utf8Root)
      J.attribute("srcRootUri", fileUri(R.SrcRoot, /*Dir=*/true));
    J.attribute("tool", "port-kernel");
  });
}

static std::string fileUri(llvm::StringRef AbsPath, bool Dir) {
  std::string U = "file://" + uriEncode(AbsPath);
  if (Dir && !llvm::StringRef(U).ends_with("/"))
    U += '/';
  return U;
}

/// A relative path as a URI reference (percent-encoded).
static std::string relUri(llvm::StringRef Rel) { return uriEncode(Rel); }

static std::string levelOfKind(llvm::StringRef Kind) {
  return Kind == "diagnostic" ? "warning" : "note";
}

json::Value pk::reportToSarif(const GateReport &R, llvm::StringRef ToolVersion,
                              llvm::StringRef RulesUriBase) {
  std::string Base = RulesUriBase.str();
  if (!Base.empty() && Base.back() != '/')
    Base += '/';
  std::vector<RuleInfo> Rules = RuleRegistry::get().all();
  // A finding of a rule nobody registered still gets a descriptor.
  std::set<std::string> Known;
  for (const RuleInfo &I : Rules)
    Known.insert(I.ID);
  for (const GateFinding &F : R.Findings)
    if (Known.insert(F.Rule).second)
      Rules.push_back({F.Rule, F.Rule, "diagnostic"});
  std::sort(Rules.begin(), Rules.end(),
            [](const RuleInfo &A, const RuleInfo &B) { return A.ID < B.ID; });
  json::Array RuleObjs;
  std::map<std::string, size_t> Index;
  for (const RuleInfo &I : Rules) {
    Index[I.ID] = RuleObjs.size();
    std::string Doc = ruleDoc(I.ID).str();
    if (Doc.empty())
      Doc = "# " + I.ID + ": " + I.Title + "\n";
    json::Object Props{{"kind", I.Kind}};
    if (std::optional<RuleId> Id = findRuleId(I.ID))
      Props["targets"] = ruleSpec(*Id).Targets;
    json::Object Rule{
        {"id", I.ID},
        {"name", I.ID},
        {"shortDescription", json::Object{{"text", I.Title}}},
        {"fullDescription", json::Object{{"text", I.Title}}},
        {"help", json::Object{{"text", Doc}, {"markdown", Doc}}},
        {"defaultConfiguration", json::Object{{"level", levelOfKind(I.Kind)}}},
        {"properties", std::move(Props)}};
    // Only rules of the table have a page under docs/rules/.
    if (!Base.empty() && findRuleId(I.ID))
      Rule["helpUri"] = Base + relUri(I.ID) + ".md";
    RuleObjs.push_back(std::move(Rule));
  }
  json::Array Results;
  for (const GateFinding &F : R.Findings) {
    json::Object Art{
        {"uri", F.Relative ? relUri(F.File) : fileUri(F.File, /*Dir=*/false)}};
    if (F.Relative)
      Art["uriBaseId"] = "%SRCROOT%";
    json::Object Region{{"startLine", std::max(1u, F.Line)}};
    if (F.Col)
      Region["startColumn"] = F.Col;
    json::Object Res{
        {"ruleId", F.Rule},
        {"ruleIndex", Index[F.Rule]},
        {"level", F.Level},
        {"message", json::Object{{"text", showControls(F.Message)}}},
        {"locations", json::Array{json::Object{
                          {"physicalLocation",
                           json::Object{{"artifactLocation", std::move(Art)},
                                        {"region", std::move(Region)}}}}}},
        {"partialFingerprints", json::Object{{FingerprintKey, F.Fingerprint}}},
        {"properties", F.Promoted ? json::Object{{"target", F.Target},
                                                 {"promoted", true}}
                                  : json::Object{{"target", F.Target}}}};
    if (!F.BaselineState.empty())
      Res["baselineState"] = F.BaselineState;
    if (!F.Suppressed.empty())
      Res["suppressions"] =
          json::Array{json::Object{{"kind", F.Suppressed}}};
    Results.push_back(std::move(Res));
  }
  json::Object Tool{{"name", "port-kernel"},
                    {"version", ToolVersion},
                    {"rules", std::move(RuleObjs)}};
  if (!Base.empty())
    Tool["informationUri"] = Base + "README.md";
  json::Object Run{{"tool", json::Object{{"driver", std::move(Tool)}}},
                   {"results", std::move(Results)}};
  if (R.MergedFrom)
    Run["properties"] = json::Object{{"mergedFrom", R.MergedFrom}};
  if (!R.SrcRoot.empty())
    Run["originalUriBaseIds"] = json::Object{
        {"%SRCROOT%", json::Object{{"uri", fileUri(R.SrcRoot, true)}}}};
  return json::Object{{"$schema", SarifSchema},
                      {"version", "2.1.0"},
                      {"runs", json::Array{std::move(Run)}}};
}

static llvm::Error bad(llvm::StringRef Path, const llvm::Twine &Why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 (Path + ": error: " + Why).str());
}

static llvm::Expected<GateReport> readJsonReport(llvm::StringRef Path,
                                                 const json::Object &Root) {
  GateReport R;
  if (Root.getString("tool") != "port-kernel")
    return bad(Path, "not a port-kernel check report: no \"tool\": "
                     "\"port-kernel\"");
  if (Root.getString("format") != CheckReportFormat)
    return bad(Path, llvm::formatv("a check report of format '{0}'; this "
                                   "version reads '{1}': record it again with "
                                   "this version",
                                   showControls(Root.getString("format")
                                                    .value_or("(none)")),
                                   CheckReportFormat));
  if (auto U = Root.getString("srcRootUri")) {
    llvm::StringRef P = *U;
    P.consume_front("file://");
    R.SrcRoot = uriDecode(P);
    if (R.SrcRoot.size() > 1 && R.SrcRoot.back() == '/')
      R.SrcRoot.pop_back();
  } else if (auto S = Root.getString("srcRoot")) {
    R.SrcRoot = S->str();
  }
  R.MergedFrom = Root.getInteger("mergedFrom").value_or(0);
  const json::Array *Fs = Root.getArray("findings");
  if (!Fs)
    return bad(Path, "not a port-kernel check report: no 'findings' array");
  size_t I = 0;
  for (const json::Value &V : *Fs) {
    ++I;
    const json::Object *O = V.getAsObject();
    GateFinding F;
    auto Str = [&](llvm::StringRef K, std::string &Out) {
      if (auto S = O->getString(K)) {
        Out = S->str();
        return true;
      }
      return false;
    };
    if (!O || !Str("target", F.Target) || !Str("rule", F.Rule) ||
        !Str("file", F.File) || !Str("fingerprint", F.Fingerprint))
      return bad(Path, llvm::formatv("finding {0} lacks target, rule, file or "
                                     "fingerprint",
                                     I));
    if (auto U = O->getString("file_uri"))
      F.File = uriDecode(*U);
    Str("severity", F.Level);
    Str("message", F.Message);
    Str("baseline", F.BaselineState);
    Str("suppressed", F.Suppressed);
    F.Promoted = O->getBoolean("promoted").value_or(false);
    F.Line = O->getInteger("line").value_or(0);
    F.Col = O->getInteger("col").value_or(0);
    F.Relative = !O->getBoolean("absolute").value_or(false);
    R.Findings.push_back(std::move(F));
  }
  return R;
}

static llvm::Expected<GateReport> readSarifReport(llvm::StringRef Path,
                                                  const json::Object &Root) {
  GateReport R;
  const json::Array *Runs = Root.getArray("runs");
  if (Root.getString("version") != "2.1.0" || !Runs)
    return bad(Path, "not SARIF 2.1.0 (no version \"2.1.0\" or no runs)");
  for (const json::Value &RV : *Runs) {
    const json::Object *Run = RV.getAsObject();
    if (!Run)
      return bad(Path, "a run is not an object");
    if (const json::Object *B = Run->getObject("originalUriBaseIds"))
      if (const json::Object *S = B->getObject("%SRCROOT%"))
        if (auto U = S->getString("uri"); U && R.SrcRoot.empty()) {
          llvm::StringRef P = *U;
          P.consume_front("file://");
          std::string D = uriDecode(P);
          if (D.size() > 1 && D.back() == '/')
            D.pop_back();
          R.SrcRoot = D;
        }
    if (const json::Object *P = Run->getObject("properties"))
      R.MergedFrom = P->getInteger("mergedFrom").value_or(R.MergedFrom);
    const json::Array *Results = Run->getArray("results");
    if (!Results)
      return bad(Path, "a run has no results array");
    size_t I = 0;
    for (const json::Value &V : *Results) {
      ++I;
      const json::Object *O = V.getAsObject();
      auto Fail = [&](const char *What) {
        return bad(Path, llvm::formatv("result {0}: {1}", I, What));
      };
      if (!O)
        return Fail("not an object");
      GateFinding F;
      if (auto S = O->getString("ruleId"))
        F.Rule = S->str();
      else
        return Fail("no ruleId");
      F.Level = O->getString("level").value_or("warning").str();
      if (const json::Object *M = O->getObject("message"))
        F.Message = M->getString("text").value_or("").str();
      if (const json::Object *P = O->getObject("properties")) {
        F.Target = P->getString("target").value_or("").str();
        F.Promoted = P->getBoolean("promoted").value_or(false);
      }
      if (const json::Object *P = O->getObject("partialFingerprints"))
        F.Fingerprint = P->getString(FingerprintKey).value_or("").str();
      if (F.Fingerprint.empty())
        return Fail("no port-kernel partialFingerprints");
      F.BaselineState = O->getString("baselineState").value_or("").str();
      if (const json::Array *Sup = O->getArray("suppressions"))
        if (!Sup->empty() && Sup->front().getAsObject())
          F.Suppressed = Sup->front()
                             .getAsObject()
                             ->getString("kind")
                             .value_or("inSource")
                             .str();
      const json::Array *Locs = O->getArray("locations");
      const json::Object *PL =
          Locs && !Locs->empty() && Locs->front().getAsObject()
              ? Locs->front().getAsObject()->getObject("physicalLocation")
              : nullptr;
      const json::Object *Art =
          PL ? PL->getObject("artifactLocation") : nullptr;
      if (!Art || !Art->getString("uri"))
        return Fail("no physical location");
      llvm::StringRef U = *Art->getString("uri");
      F.Relative = Art->getString("uriBaseId").has_value();
      if (!F.Relative)
        U.consume_front("file://");
      F.File = uriDecode(U);
      if (const json::Object *Reg = PL->getObject("region")) {
        F.Line = Reg->getInteger("startLine").value_or(0);
        F.Col = Reg->getInteger("startColumn").value_or(0);
      }
      R.Findings.push_back(std::move(F));
    }
  }
  return R;
}

llvm::Expected<GateReport> pk::readReport(llvm::StringRef Path,
                                          CheckFormat *Format,
                                          llvm::StringRef Role) {
  // Bounded: size and nesting are checked before the recursive parser
  // runs (SafeIO.h).
  auto Buf = readFile(Path, Role, DefaultMaxJsonBytes);
  if (!Buf)
    return Buf.takeError();
  return parseReport((*Buf)->getBuffer(), Path, Format);
}

llvm::Expected<GateReport> pk::parseReport(llvm::StringRef Text,
                                           llvm::StringRef Path,
                                           CheckFormat *Format) {
  auto V = parseJsonBounded(Text, Path);
  if (!V)
    return V.takeError();
  const json::Object *Root = V->getAsObject();
  if (!Root)
    return bad(Path, "not a report: the top level is not an object");
  bool Sarif = Root->get("runs") != nullptr;
  if (Format)
    *Format = Sarif ? CheckFormat::Sarif : CheckFormat::Json;
  return Sarif ? readSarifReport(Path, *Root) : readJsonReport(Path, *Root);
}

int pk::mergeReports(llvm::StringRef Out, llvm::ArrayRef<std::string> Ins,
                     llvm::StringRef ToolVersion, llvm::raw_ostream &Diag,
                     llvm::StringRef RulesUriBase) {
  if (!RulesUriBase.empty() && !RulesUriBase.contains("://")) {
    Diag << "port-kernel: error: --rules-uri-base " << RulesUriBase
         << ": not an absolute URI (scheme://...)\n";
    return 2;
  }
  if (Ins.empty()) {
    Diag << "port-kernel: error: merge-reports needs OUT and at least one "
            "input report\n";
    return 2;
  }
  if (Out.empty()) {
    Diag << "port-kernel: error: merge-reports: OUT is empty\n";
    return 2;
  }
  GateReport All;
  std::optional<CheckFormat> Fmt;
  std::string RootOf;
  size_t N = 0;
  for (const std::string &In : Ins) {
    CheckFormat F;
    auto R = readReport(In, &F, llvm::formatv("input report {0}", ++N).str());
    if (!R) {
      Diag << llvm::toString(R.takeError()) << "\n";
      return 2;
    }
    if (Fmt && *Fmt != F) {
      Diag << In << ": error: is "
           << (F == CheckFormat::Sarif ? "SARIF" : "JSON")
           << " but the reports before it are not: merge reports of one "
              "format\n";
      return 2;
    }
    Fmt = F;
    // Relative paths name files under their report's source root: reports
    // of different roots would mix different files under one name.
    bool HasRelative = llvm::any_of(
        R->Findings, [](const GateFinding &G) { return G.Relative; });
    if (HasRelative || !R->SrcRoot.empty()) {
      if (All.SrcRoot.empty()) {
        All.SrcRoot = R->SrcRoot;
        RootOf = In;
      } else if (!R->SrcRoot.empty() && R->SrcRoot != All.SrcRoot) {
        Diag << In << ": error: its source root "
             << showControls(R->SrcRoot) << " differs from "
             << showControls(All.SrcRoot) << " of " << RootOf
             << ": reports of different trees cannot be merged (run check "
                "with one --src-root)\n";
        return 2;
      }
    }
    for (GateFinding &G : R->Findings)
      All.Findings.push_back(std::move(G));
  }
  // OUT is checked once every input is registered as read: an OUT that is
  // an input is named as such.
  WritePlan Plan;
  if (Out != "-") {
    Plan.add(Out, "OUT (the merged report)");
    if (llvm::Error E = Plan.check()) {
      Diag << llvm::toString(std::move(E)) << "\n";
      return 2;
    }
  }
  // `merge-reports s1.json s2.json` (OUT forgotten) would replace shard 1
  // with shard 2: an existing OUT that is itself a report is refused.
  if (Out != "-" && llvm::sys::fs::exists(Out)) {
    // Looked at, not read: OUT is not an input (Role "").
    auto Existing = readReport(Out, nullptr, /*Role=*/"");
    if (Existing && !Existing->MergedFrom) {
      Diag << Out << ": error: OUT is the report of a check run, not of a "
                     "merge; merge-reports takes OUT first, then the reports "
                     "to merge (was OUT forgotten?): remove it or choose "
                     "another OUT [PK9001]\n";
      return 2;
    }
    if (!Existing)
      llvm::consumeError(Existing.takeError());
  }
  sortAndDedupe(All.Findings);
  All.MergedFrom = Ins.size();
  std::string S;
  llvm::raw_string_ostream OS(S);
  if (*Fmt == CheckFormat::Sarif)
    OS << llvm::formatv("{0:2}", reportToSarif(All, ToolVersion, RulesUriBase));
  else
    writeReportJson(All, OS);
  OS << "\n";
  if (Out == "-") {
    llvm::outs() << S;
    return 0;
  }
  Plan.outputs()[0].Text = std::move(S);
  return Plan.write(Diag);
}

std::string pk::progressLine(size_t Done, size_t Total, llvm::StringRef File,
                             unsigned Width) {
  std::string Head = llvm::formatv("[{0}/{1}] ", Done, Total).str();
  if (Width && Head.size() + File.size() > Width) {
    size_t Keep = Width > Head.size() + 3 ? Width - Head.size() - 3 : 0;
    return Head + "..." + File.take_back(Keep).str();
  }
  return Head + File.str();
}

void pk::writeRuleCatalogue(llvm::raw_ostream &OS) {
  OS << "# Rule catalogue\n\n"
        "Every rule and diagnostic ID of port-kernel, from the rule table "
        "(`lib/Core/include/pk/RuleTable.def`).\nGenerated by `port-kernel "
        "--help-markdown=rules`: do not edit; the test `gate.docs_rules` "
        "fails when\nthis page and the table differ "
        "(`scripts/gen-docs.sh` rewrites it).\n\n"
        "Kinds: **rename** (a YAML table under `rules/` holds the entries), "
        "**rewrite** (a C++ pass\nedits the code), **diagnostic** (a "
        "finding only; `check` reports these).\n\n"
        "| ID | kind | targets | title |\n|---|---|---|---|\n";
  for (const RuleSpec &R : ruleTable()) {
    std::string Title;
    for (char C : llvm::StringRef(R.Title)) {
      if (C == '|')
        Title += '\\';
      Title += C;
    }
    OS << llvm::formatv("| [{0}]({0}.md) | {1} | {2} | {3} |\n", R.Name,
                        ruleKindName(R.Kind), R.Targets, Title);
  }
}

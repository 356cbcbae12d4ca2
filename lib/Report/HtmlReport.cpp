//===- HtmlReport.cpp - the self-contained HTML report --------------------===//
// Rules: none (reports on what the rules did)
//
// One file: styles, the filter script and the documentation of every rule
// it mentions are inline; nothing is fetched.  Text is escaped with
// llvm::printHTMLEscaped; code is highlighted by Highlight.cpp.
//
//===----------------------------------------------------------------------===//
#include "Highlight.h"
#include "pk/Escape.h"
#include "ReportModel.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace pk;

namespace {

const char *Style = R"css(
:root{--bg:#fff;--fg:#1f2328;--muted:#59636e;--border:#d1d9e0;--panel:#f6f8fa;
--add:#dafbe1;--del:#ffebe9;--diag:#fff8c5;--err:#cf222e;--warn:#9a6700;--note:#0969da;
--kw:#cf222e;--gpu:#8250df;--com:#59636e;--str:#0a3069;--num:#0550ae;--pp:#953800;--link:#0969da}
@media (prefers-color-scheme: dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;
--border:#3d444d;--panel:#151b23;--add:#12261e;--del:#25171c;--diag:#2e2a14;--err:#ff7b72;
--warn:#d29922;--note:#58a6ff;--kw:#ff7b72;--gpu:#d2a8ff;--com:#9198a1;--str:#a5d6ff;
--num:#79c0ff;--pp:#ffa657;--link:#58a6ff}}
*{box-sizing:border-box}[hidden]{display:none!important}
body{margin:0;background:var(--bg);color:var(--fg);font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:1280px;margin:0 auto;padding:16px 20px 48px}
a{color:var(--link)}h1{font-size:24px;margin:8px 0}h2{font-size:19px;margin:28px 0 8px;border-bottom:1px solid var(--border);padding-bottom:4px}
h3{font-size:15px;margin:16px 0 6px}
code,pre,.code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:12.5px}
table{border-collapse:collapse;margin:6px 0}th,td{border:1px solid var(--border);padding:3px 8px;text-align:left;vertical-align:top}
th{background:var(--panel)}
#filters{position:sticky;top:0;z-index:2;background:var(--panel);border:1px solid var(--border);border-radius:6px;padding:6px 10px;display:flex;flex-wrap:wrap;gap:14px;align-items:center}
select{background:var(--bg);color:var(--fg);border:1px solid var(--border);border-radius:4px}
.badge{display:inline-block;padding:0 6px;margin:0 3px 0 0;border-radius:10px;border:1px solid var(--border);background:var(--panel);font-family:ui-monospace,monospace;font-size:12px;text-decoration:none}
.sev-error{color:var(--err);font-weight:600}.sev-warning{color:var(--warn);font-weight:600}.sev-note{color:var(--note)}
.pass{color:#1a7f37;font-weight:600}.fail{color:var(--err);font-weight:600}.skip{color:var(--muted)}
@media (prefers-color-scheme: dark){.pass{color:#3fb950}}
details.file{border:1px solid var(--border);border-radius:6px;margin:10px 0;background:var(--bg)}
details.file>summary{cursor:pointer;padding:6px 10px;background:var(--panel);border-radius:6px;font-weight:600}
.filebody{padding:6px 10px}
.hunk{margin:10px 0;border:1px solid var(--border);border-radius:4px}
.hunkhead{padding:4px 8px;background:var(--panel);border-bottom:1px solid var(--border)}
.hunkhead ul{margin:4px 0 0;padding-left:20px}.hunkhead li{margin:0}
.diffwrap{overflow-x:auto}
table.diff{border:0;margin:0;width:100%}table.diff td{border:0;padding:0 6px;white-space:pre}
td.ln{color:var(--muted);text-align:right;user-select:none;width:1%;font-family:ui-monospace,monospace;font-size:12px}
tr.add td.code{background:var(--add)}tr.del td.code{background:var(--del)}
tr.add td.ln{background:var(--add)}tr.del td.ln{background:var(--del)}
tr.diag td{background:var(--diag);white-space:normal;font-family:system-ui,sans-serif;font-size:13px;padding:2px 8px}
.tk-kw{color:var(--kw)}.tk-gpu{color:var(--gpu)}.tk-com{color:var(--com);font-style:italic}.tk-str{color:var(--str)}.tk-num{color:var(--num)}.tk-pp{color:var(--pp)}
.ruledoc{border:1px solid var(--border);border-radius:6px;padding:4px 12px;margin:10px 0}
.ruledoc pre{background:var(--panel);padding:6px;overflow-x:auto}
.muted{color:var(--muted)}
)css";

const char *Script = R"js(
(function(){
  var q=function(s){return Array.prototype.slice.call(document.querySelectorAll(s));};
  var rank={note:1,warning:2,error:3};
  function apply(){
    var ts={};q('.f-target').forEach(function(c){if(c.checked)ts[c.value]=1;});
    var rule=document.getElementById('f-rule').value;
    var sev=document.getElementById('f-sev').value;
    function sevOk(s){if(!sev)return true;return (s||'').split(' ').some(function(x){return rank[x]>=rank[sev];});}
    q('[data-target]').forEach(function(e){e.hidden=!ts[e.getAttribute('data-target')];});
    q('[data-rules]').forEach(function(e){
      var t=e.closest('[data-target]');
      var ok=!t||!!ts[t.getAttribute('data-target')];
      if(rule&&e.getAttribute('data-rules').split(' ').indexOf(rule)<0)ok=false;
      if(!sevOk(e.getAttribute('data-sevs')))ok=false;
      e.hidden=!ok;});
    q('.file').forEach(function(f){
      if(!f.hidden&&(rule||sev))f.hidden=!f.querySelector('[data-rules]:not([hidden])');});
    var n=q('.hunk:not([hidden])').filter(function(h){return !h.closest('[hidden]');}).length;
    document.getElementById('f-count').textContent=n+' hunk'+(n==1?'':'s')+' shown';
  }
  q('#filters input, #filters select').forEach(function(e){e.addEventListener('change',apply);});
  // Initial filters from the address: #target=hip,cuda&rule=PK2010&sev=warning
  location.hash.replace(/^#/,'').split('&').forEach(function(kv){
    var p=kv.split('='),k=p[0],v=decodeURIComponent(p[1]||'');
    if(k=='target'){var w=v.split(',');q('.f-target').forEach(function(c){c.checked=w.indexOf(c.value)>=0;});}
    else if(k=='rule')document.getElementById('f-rule').value=v;
    else if(k=='sev')document.getElementById('f-sev').value=v;});
  apply();
})();
)js";

// Every piece of text goes through pk::htmlEscape (pk/Escape.h):
// invisible and bidirectional controls are shown as <U+XXXX>.
void esc(llvm::raw_ostream &OS, llvm::StringRef S) { OS << htmlEscape(S); }
std::string escStr(llvm::StringRef S) {
  std::string R;
  llvm::raw_string_ostream OS(R);
  esc(OS, S);
  return R;
}

void ruleLink(llvm::raw_ostream &OS, llvm::StringRef Rule) {
  OS << "<a class=\"badge\" href=\"#rule-" << escStr(Rule) << "\">"
     << escStr(Rule) << "</a>";
}

/// Inline Markdown: `code`, **bold**, [text](link) as text.
void inlineMd(llvm::raw_ostream &OS, llvm::StringRef S) {
  while (!S.empty()) {
    if (S.starts_with("`")) {
      size_t E = S.find('`', 1);
      if (E != llvm::StringRef::npos) {
        OS << "<code>";
        esc(OS, S.slice(1, E));
        OS << "</code>";
        S = S.drop_front(E + 1);
        continue;
      }
    }
    if (S.starts_with("**")) {
      size_t E = S.find("**", 2);
      if (E != llvm::StringRef::npos) {
        OS << "<b>";
        inlineMd(OS, S.slice(2, E));
        OS << "</b>";
        S = S.drop_front(E + 2);
        continue;
      }
    }
    if (S.starts_with("[")) {
      size_t Mid = S.find("](");
      size_t E = Mid == llvm::StringRef::npos ? Mid : S.find(')', Mid);
      if (E != llvm::StringRef::npos) {
        inlineMd(OS, S.slice(1, Mid)); // links lead out of the page: text
        S = S.drop_front(E + 1);
        continue;
      }
    }
    size_t N = S.find_first_of("`*[", 1);
    if (N == llvm::StringRef::npos)
      N = S.size();
    esc(OS, S.take_front(N));
    S = S.drop_front(N);
  }
}

/// A rule page (docs/rules/<ID>.md) as HTML: paragraphs, lists, code blocks,
/// headings below the title.
void renderDoc(llvm::raw_ostream &OS, llvm::StringRef Doc) {
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  Doc.split(Lines, '\n');
  bool InCode = false, InList = false, InPara = false;
  auto Close = [&] {
    if (InList)
      OS << "</ul>";
    if (InPara)
      OS << "</p>";
    InList = InPara = false;
  };
  for (llvm::StringRef L : Lines) {
    if (L.starts_with("```")) {
      if (!InCode)
        Close();
      OS << (InCode ? "</pre>" : "<pre>");
      InCode = !InCode;
      continue;
    }
    if (InCode) {
      esc(OS, L);
      OS << "\n";
      continue;
    }
    llvm::StringRef T = L.trim();
    if (T.empty()) {
      Close();
      continue;
    }
    if (T.starts_with("# "))
      continue; // the title is the section's heading
    if (T.starts_with("#")) {
      Close();
      OS << "<h4>";
      inlineMd(OS, T.ltrim('#').trim());
      OS << "</h4>";
      continue;
    }
    if (T.starts_with("- ") || T.starts_with("* ")) {
      if (InPara)
        OS << "</p>";
      InPara = false;
      if (!InList)
        OS << "<ul>";
      InList = true;
      OS << "<li>";
      inlineMd(OS, T.drop_front(2));
      OS << "</li>";
      continue;
    }
    if (InList && L.starts_with(" ")) { // continuation of a list item
      inlineMd(OS, T);
      OS << " ";
      continue;
    }
    if (!InPara) {
      Close();
      OS << "<p>";
      InPara = true;
    }
    inlineMd(OS, T);
    OS << " ";
  }
  if (InCode)
    OS << "</pre>";
  Close();
}

std::string ruleTitle(llvm::StringRef ID) {
  if (const RuleInfo *R = RuleRegistry::get().find(ID))
    return R->Title;
  return "";
}

std::string sevList(llvm::ArrayRef<const Finding *> Fs) {
  std::set<std::string> S;
  for (const Finding *F : Fs)
    S.insert(severityName(F->Sev).str());
  return llvm::join(S, " ");
}

std::string diagId(size_t Target, size_t File, size_t N) {
  return llvm::formatv("d-{0}-{1}-{2}", Target, File, N).str();
}

void diagRow(llvm::raw_ostream &OS, const Finding &F, const std::string &Id) {
  std::string Sev = severityName(F.Sev).str();
  OS << "<tr class=\"diag\" id=\"" << Id << "\" data-rules=\""
     << escStr(F.RuleID) << "\" data-sevs=\"" << Sev
     << "\"><td class=\"ln\"></td><td class=\"ln\"></td><td><span class=\"sev-"
     << Sev << "\">" << Sev << "</span> ";
  ruleLink(OS, F.RuleID);
  OS << "line " << F.Line << ":" << F.Col << ": ";
  esc(OS, F.Message);
  OS << "</td></tr>\n";
}

class Html {
public:
  Html(const ReportModel &M, llvm::raw_ostream &OS) : M(M), OS(OS) {
    // Anchors of every finding, in the order the files render them.
    for (size_t T = 0; T < M.Targets.size(); ++T)
      for (size_t F = 0; F < M.Targets[T].Files.size(); ++F)
        for (size_t N = 0; N < M.Targets[T].Files[F].Findings.size(); ++N)
          Anchor[&M.Targets[T].Files[F].Findings[N]] = diagId(T, F, N);
  }
  void run();

private:
  const ReportModel &M;
  llvm::raw_ostream &OS;
  std::map<const Finding *, std::string> Anchor;

  void filters();
  void summary();
  void kernels();
  void validation();
  void file(size_t TI, size_t FI);
  void hunk(const FileReport &F, const HunkReport &H,
            const std::vector<TokClass> &OldC,
            const std::vector<TokClass> &NewC);
  void docs();
  void line(const FileReport &F, const DiffLine &L,
            const std::vector<TokClass> &OldC,
            const std::vector<TokClass> &NewC);
};

void Html::run() {
  OS << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, "
        "initial-scale=1\"><meta name=\"color-scheme\" content=\"light "
        "dark\">"
        // The page loads nothing and runs only its own inline script: even
        // markup that escaped escaping could not fetch or send anything.
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "
        "'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
        "img-src data:; form-action 'none'; base-uri 'none'\">"
        "<title>port-kernel report</title><style>"
     << Style << "</style></head><body><main>\n";
  OS << "<h1>port-kernel report</h1>\n";
  filters();
  summary();
  kernels();
  if (M.Validated)
    validation();
  for (size_t T = 0; T < M.Targets.size(); ++T) {
    const TargetReport &TR = M.Targets[T];
    OS << "<section class=\"target\" data-target=\"" << escStr(TR.Name)
       << "\"><h2 id=\"target-" << escStr(TR.Name) << "\">Target "
       << escStr(TR.Name) << "</h2>\n";
    unsigned Same = 0;
    for (size_t F = 0; F < TR.Files.size(); ++F) {
      const FileReport &FR = TR.Files[F];
      if (FR.Old == FR.New && FR.Findings.empty()) {
        ++Same;
        continue;
      }
      file(T, F);
    }
    if (Same)
      OS << "<p class=\"muted\">" << Same << " file" << (Same == 1 ? "" : "s")
         << " unchanged (copied or renamed only).</p>\n";
    OS << "</section>\n";
  }
  docs();
  OS << "</main><script>" << Script << "</script></body></html>\n";
}

void Html::filters() {
  OS << "<div id=\"filters\"><span><b>Targets</b> ";
  for (const TargetReport &T : M.Targets)
    OS << "<label><input type=\"checkbox\" class=\"f-target\" value=\""
       << escStr(T.Name) << "\" checked> " << escStr(T.Name) << "</label> ";
  OS << "</span><label><b>Rule</b> <select id=\"f-rule\"><option "
        "value=\"\">all rules</option>";
  for (const std::string &R : M.Rules)
    OS << "<option value=\"" << escStr(R) << "\">" << escStr(R) << " "
       << escStr(ruleTitle(R)) << "</option>";
  OS << "</select></label><label><b>Severity</b> <select id=\"f-sev\">"
        "<option value=\"\">everything</option><option "
        "value=\"error\">errors</option><option value=\"warning\">warnings "
        "and errors</option><option value=\"note\">any diagnostic</option>"
        "</select></label><span id=\"f-count\" class=\"muted\"></span>"
        "</div>\n";
}

void Html::summary() {
  OS << "<h2 id=\"summary\">Summary</h2>\n<table class=\"summary\">";
  OS << "<tr><th>Input files</th><td>" << M.Inputs.size() << "</td></tr>";
  OS << "<tr><th>Kernels</th><td>" << M.Kernels.size() << "</td></tr>";
  OS << "<tr><th>Targets</th><td>";
  for (const TargetReport &T : M.Targets)
    OS << "<a href=\"#target-" << escStr(T.Name) << "\">" << escStr(T.Name)
       << "</a> ";
  OS << "</td></tr><tr><th>Validation</th><td id=\"validation-status\">";
  if (!M.Validated)
    OS << "<span class=\"muted\">not run (use --validate)</span>";
  else
    OS << "<span class=\"" << (M.ValFailed ? "fail" : "pass") << "\">"
       << (M.ValFailed ? "FAILED" : "passed") << "</span>: " << M.ValPassed
       << " passed, " << M.ValFailed << " failed, " << M.ValSkipped
       << " skipped";
  OS << "</td></tr>";
  if (!M.NotPorted.empty())
    OS << "<tr><th>Not ported</th><td class=\"sev-error\">"
       << M.NotPorted.size() << " input(s) do not parse (below)</td></tr>";
  OS << "</table>\n";

  OS << "<table class=\"targets\"><tr><th>target</th><th>files "
        "changed</th><th>edits</th><th>errors</th><th>warnings</th>"
        "<th>notes</th></tr>";
  for (const TargetReport &T : M.Targets) {
    unsigned Changed = 0;
    for (const FileReport &F : T.Files)
      Changed += F.Old != F.New;
    OS << "<tr data-target=\"" << escStr(T.Name) << "\"><td>" << escStr(T.Name)
       << "</td><td>" << Changed << "</td><td>" << T.Edits
       << "</td><td class=\"sev-error\">" << T.Errors
       << "</td><td class=\"sev-warning\">" << T.Warnings << "</td><td>"
       << T.Notes << "</td></tr>";
  }
  OS << "</table>\n";

  // Edits by rule: one row per rule, one column per target.
  std::set<std::string> EditRules;
  for (const TargetReport &T : M.Targets)
    for (const auto &[R, N] : T.EditsByRule)
      EditRules.insert(R);
  OS << "<h3>Edits by rule</h3>\n";
  if (EditRules.empty())
    OS << "<p class=\"muted\">No edits.</p>\n";
  else {
    OS << "<table class=\"byrule\"><tr><th>rule</th><th>title</th>";
    for (const TargetReport &T : M.Targets)
      OS << "<th data-target=\"" << escStr(T.Name) << "\">" << escStr(T.Name)
         << "</th>";
    OS << "</tr>";
    for (const std::string &R : EditRules) {
      OS << "<tr data-rules=\"" << escStr(R) << "\" data-sevs=\"\"><td>";
      ruleLink(OS, R);
      OS << "</td><td>" << escStr(ruleTitle(R)) << "</td>";
      for (const TargetReport &T : M.Targets) {
        auto It = T.EditsByRule.find(R);
        OS << "<td data-target=\"" << escStr(T.Name) << "\">"
           << (It == T.EditsByRule.end() ? 0 : It->second) << "</td>";
      }
      OS << "</tr>";
    }
    OS << "</table>\n";
  }

  // Flagged constructs: every warning and error, linked to its line.
  OS << "<h3>Flagged constructs</h3>\n";
  bool Any = false;
  for (const TargetReport &T : M.Targets)
    for (const FileReport &F : T.Files)
      for (const Finding &Fi : F.Findings)
        if (Fi.Sev != Severity::Note) {
          if (!Any)
            OS << "<table class=\"flagged\"><tr><th>target</th><th>where</th>"
                  "<th>severity</th><th>rule</th><th>message</th></tr>";
          Any = true;
          std::string Sev = severityName(Fi.Sev).str();
          OS << "<tr data-target=\"" << escStr(T.Name) << "\"><td>"
             << escStr(T.Name) << "</td><td><a href=\"#" << Anchor[&Fi]
             << "\"><code>" << escStr(F.RelIn) << ":" << Fi.Line << ":"
             << Fi.Col << "</code></a></td><td class=\"sev-" << Sev << "\">"
             << Sev << "</td><td>";
          ruleLink(OS, Fi.RuleID);
          OS << "</td><td>";
          esc(OS, Fi.Message);
          OS << "</td></tr>";
        }
  OS << (Any ? "</table>\n" : "<p class=\"muted\">None.</p>\n");

  if (!M.NotPorted.empty()) {
    OS << "<h3>Not ported</h3><table><tr><th>input</th><th>why</th></tr>";
    for (const auto &[P, Why] : M.NotPorted) {
      OS << "<tr><td><code>";
      esc(OS, P);
      OS << "</code></td><td><pre>";
      esc(OS, Why);
      OS << "</pre></td></tr>";
    }
    OS << "</table>\n";
  }
}

void Html::kernels() {
  OS << "<h2 id=\"kernels\">Kernels and their wave-64 strategy</h2>\n";
  if (M.Kernels.empty()) {
    OS << "<p class=\"muted\">No __global__ functions in the inputs.</p>\n";
    return;
  }
  OS << "<table class=\"kernels\"><tr><th>kernel</th><th>defined at</th>";
  for (const TargetReport &T : M.Targets)
    OS << "<th data-target=\"" << escStr(T.Name) << "\">" << escStr(T.Name)
       << "</th>";
  OS << "</tr>";
  for (const KernelReport &K : M.Kernels) {
    OS << "<tr><td><code>" << escStr(K.Name) << "</code></td><td><code>"
       << escStr(K.RelFile) << ":" << K.Line << "</code></td>";
    for (const TargetReport &T : M.Targets) {
      OS << "<td data-target=\"" << escStr(T.Name) << "\">";
      auto It = K.Strategy.find(T.Name);
      if (It != K.Strategy.end()) {
        llvm::StringRef Msg = It->second->Message;
        Msg.consume_front("kernel " + K.Name + ": ");
        esc(OS, Msg);
        OS << " ";
        ruleLink(OS, It->second->RuleID);
      } else if (T.Name == "hip") {
        OS << "<span class=\"muted\">no strategy note: nothing in it "
              "depends on the warp width</span>";
      } else {
        OS << "<span class=\"muted\">not applicable: no 64-lane waves</span>";
      }
      OS << "</td>";
    }
    OS << "</tr>";
  }
  OS << "</table>\n";
}

void Html::validation() {
  OS << "<h2 id=\"validation\">Validation on the SIMT emulator</h2>\n"
        "<p class=\"muted\">Each case's driver launches one kernel: the "
        "verdict of a row is that kernel's.</p>\n"
        "<table class=\"validation\"><tr><th>case</th><th>kernel</th>"
        "<th>variant</th>"
        "<th>result</th><th>largest abs error</th><th>largest rel "
        "error</th><th>detail</th></tr>";
  for (const ValidationCell &C : M.Validation) {
    bool IsTarget = llvm::any_of(
        M.Targets, [&](const TargetReport &T) { return T.Name == C.Variant; });
    OS << "<tr";
    if (IsTarget)
      OS << " data-target=\"" << escStr(C.Variant) << "\"";
    OS << "><td><code>" << escStr(C.Case) << "</code></td><td><code>"
       << escStr(C.Kernel) << "</code>";
    if (!C.Where.empty())
      OS << " <span class=\"muted\">" << escStr(C.Where) << "</span>";
    OS << "</td><td>" << escStr(C.Variant) << "</td><td class=\""
       << escStr(C.Status) << "\">" << escStr(C.Status) << "</td><td>"
       << (C.HaveError ? escStr(C.MaxAbs) : "-") << "</td><td>"
       << (C.HaveError ? escStr(C.MaxRel) : "-") << "</td><td>";
    esc(OS, C.Detail);
    OS << "</td></tr>";
  }
  OS << "</table>\n";
  if (!M.NotValidated.empty()) {
    OS << "<p id=\"not-validated\"><b>Not validated</b> (no verdict):</p><ul>";
    for (const auto &[K, Why] : M.NotValidated)
      OS << "<li><code>" << escStr(K) << "</code>: " << escStr(Why) << "</li>";
    OS << "</ul>\n";
  }
}

void Html::file(size_t TI, size_t FI) {
  const TargetReport &T = M.Targets[TI];
  const FileReport &F = T.Files[FI];
  unsigned NEdits = 0;
  for (const Edit &E : F.Edits)
    NEdits += E.Why != "diagnostic";
  OS << "<details class=\"file\" open data-file=\"" << escStr(F.RelIn)
     << "\"><summary><code>" << escStr(F.RelIn) << "</code> &rarr; <code>"
     << escStr(F.RelOut) << "</code> <span class=\"muted\">(" << NEdits
     << " edits, " << F.Findings.size() << " diagnostics, " << F.Hunks.size()
     << " hunks)</span></summary><div class=\"filebody\">\n";
  if (!F.Needs.empty())
    OS << "<p>Needs " << escStr(llvm::join(F.Needs, ", ")) << "; runs on "
       << escStr(llvm::join(F.Gpus, ", ")) << ".</p>\n";
  if (F.Generated)
    OS << "<p class=\"muted\">The " << escStr(T.Name)
       << " target generates this output whole; its hunks carry no edit of "
          "their own.</p>\n";
  // Which source lines became which generated operations.
  if (!F.Origins.empty()) {
    OS << "<table class=\"origins\"><tr><th>kernel</th><th>source "
          "lines</th><th>output line</th><th>operation</th><th>rule</th>"
          "<th>why</th></tr>\n";
    for (const GeneratedLine &G : F.Origins) {
      OS << "<tr><td><code>" << escStr(G.Kernel) << "</code></td><td>"
         << escStr(originLines(G)) << "</td><td>" << G.OutLine
         << "</td><td><code>" << escStr(G.What) << "</code></td><td>";
      ruleLink(OS, G.RuleID.str());
      OS << "</td><td>" << escStr(G.Why) << "</td></tr>\n";
    }
    OS << "</table>\n";
  }
  std::vector<TokClass> OldC = highlightFile(F.RelIn, F.Old);
  std::vector<TokClass> NewC = highlightFile(F.RelOut, F.New);
  // Findings no hunk shows (e.g. when a target generates its output).
  std::set<const Finding *> Shown;
  for (const HunkReport &H : F.Hunks)
    Shown.insert(H.Findings.begin(), H.Findings.end());
  bool Header = false;
  for (const Finding &Fi : F.Findings)
    if (!Shown.count(&Fi)) {
      if (!Header)
        OS << "<table class=\"diff\">";
      Header = true;
      diagRow(OS, Fi, Anchor[&Fi]);
    }
  if (Header)
    OS << "</table>\n";
  for (const HunkReport &H : F.Hunks)
    hunk(F, H, OldC, NewC);
  OS << "</div></details>\n";
}

void Html::line(const FileReport &F, const DiffLine &L,
                const std::vector<TokClass> &OldC,
                const std::vector<TokClass> &NewC) {
  bool New = L.K == DiffLine::Insert;
  llvm::StringRef Text = New ? F.New : F.Old;
  llvm::StringRef Ln = New ? F.NewLines[L.New] : F.OldLines[L.Old];
  size_t Begin = Ln.data() - Text.data();
  size_t End = Begin + Ln.rtrim("\r\n").size();
  OS << "<tr class=\""
     << (L.K == DiffLine::Insert   ? "add"
         : L.K == DiffLine::Delete ? "del"
                                   : "ctx")
     << "\"><td class=\"ln\">";
  if (L.K != DiffLine::Insert)
    OS << L.Old + 1;
  OS << "</td><td class=\"ln\">";
  if (L.K != DiffLine::Delete)
    OS << L.New + 1;
  OS << "</td><td class=\"code\">" << char(L.K);
  writeHighlighted(OS, Text, New ? NewC : OldC, Begin, End);
  OS << "</td></tr>\n";
}

void Html::hunk(const FileReport &F, const HunkReport &H,
                const std::vector<TokClass> &OldC,
                const std::vector<TokClass> &NewC) {
  OS << "<div class=\"hunk\" data-rules=\"" << escStr(llvm::join(H.Rules, " "))
     << "\" data-sevs=\"" << sevList(H.Findings)
     << "\"><div class=\"hunkhead\">";
  OS << llvm::formatv("<code>@@ -{0},{1} +{2},{3} @@</code> ", H.H.OldStart + 1,
                      H.H.OldLen, H.H.NewStart + 1, H.H.NewLen);
  for (const std::string &R : H.Rules)
    ruleLink(OS, R);
  // Why: each rule's explanations, once each.
  std::set<std::pair<std::string, std::string>> Whys;
  std::vector<const Edit *> List;
  for (const Edit *E : H.Edits)
    if (E->Why != "diagnostic" && Whys.insert({E->RuleID.str(), E->Why.str()}).second)
      List.push_back(E);
  if (!List.empty()) {
    OS << "<ul class=\"why\">";
    for (const Edit *E : List) {
      OS << "<li>";
      ruleLink(OS, E->RuleID);
      OS << "<span class=\"muted\">line " << E->Line << ":</span> ";
      esc(OS, E->Why);
      OS << "</li>";
    }
    OS << "</ul>";
  } else if (H.Generated)
    OS << "<span class=\"muted\">generated output</span>";
  else if (H.Findings.empty())
    OS << "<span class=\"muted\">no recorded edit at these lines</span>";
  OS << "</div><div class=\"diffwrap\"><table class=\"diff\">\n";
  // Each finding goes above the first row at or after its line.
  std::vector<const Finding *> Pending(H.Findings.begin(), H.Findings.end());
  std::stable_sort(
      Pending.begin(), Pending.end(),
      [](const Finding *A, const Finding *B) { return A->Line < B->Line; });
  size_t Next = 0;
  // The old position of each row: its own old line, or the next one's.
  std::vector<unsigned> OldPos(H.H.Lines.size());
  unsigned Pos = H.H.OldStart + H.H.OldLen;
  for (size_t I = H.H.Lines.size(); I-- > 0;) {
    if (H.H.Lines[I].K != DiffLine::Insert)
      Pos = H.H.Lines[I].Old;
    OldPos[I] = Pos;
  }
  for (size_t I = 0; I < H.H.Lines.size(); ++I) {
    while (Next < Pending.size() && Pending[Next]->Line &&
           Pending[Next]->Line - 1 <= OldPos[I]) {
      diagRow(OS, *Pending[Next], Anchor[Pending[Next]]);
      ++Next;
    }
    line(F, H.H.Lines[I], OldC, NewC);
  }
  for (; Next < Pending.size(); ++Next)
    diagRow(OS, *Pending[Next], Anchor[Pending[Next]]);
  OS << "</table></div></div>\n";
}

void Html::docs() {
  OS << "<h2 id=\"rules\">Rules in this report</h2>\n";
  for (const std::string &R : M.Rules) {
    OS << "<section class=\"ruledoc\" id=\"rule-" << escStr(R) << "\"><h3>"
       << escStr(R) << ": " << escStr(ruleTitle(R)) << "</h3>";
    llvm::StringRef Doc = ruleDoc(R);
    if (Doc.empty())
      OS << "<p class=\"muted\">A rule of a user rename table (--rules); no "
            "documentation page.</p>";
    else
      renderDoc(OS, Doc);
    OS << "</section>\n";
  }
}

} // namespace

std::string pk::renderHtml(const ReportModel &M) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  Html(M, OS).run();
  return S;
}

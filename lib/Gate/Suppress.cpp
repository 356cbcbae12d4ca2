//===- Suppress.cpp - inline suppressions: NOPK comments ------------------===//
// Rules: PK9005
//
// As clang-tidy's NOLINT:
//   code;  // NOPK(PK2010)              findings of PK2010 on this line
//   // NOPK-NEXTLINE(PK2010, PK21*)     on the next line
//   // NOPK-BEGIN(PK2010)  ...  // NOPK-END(PK2010)   on the lines between
// A rule list is required (globs allowed).  A suppression that names no
// rule, names a rule that never fires where it stands, or is not closed is
// itself a finding (PK9005), and an error is never suppressed: it says the
// output is wrong, which no comment changes.
//
//===----------------------------------------------------------------------===//
#include "pk/Gate.h"
#include "pk/Escape.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/MemoryBuffer.h"
#include <map>

using namespace pk;

namespace {

struct Suppression {
  unsigned Line = 0, Col = 0;    ///< where the comment is
  unsigned From = 0, To = 0;     ///< the lines it covers
  std::string Spelling;          ///< "NOPK-NEXTLINE(PK2010)"
  std::vector<std::string> Globs;
  std::vector<bool> Used;
};

GateFinding problem(const GateFinding &Where, unsigned Line, unsigned Col,
                    const std::string &Msg) {
  GateFinding G;
  G.Target = Where.Target;
  G.Rule = ruleName(RuleId::PK9005).str();
  G.Level = "warning";
  G.File = Where.File;
  G.Relative = Where.Relative;
  G.Line = Line;
  G.Col = Col;
  G.Message = Msg;
  return G;
}

/// Every NOPK comment of \p Text; malformed ones become \p Problems.
std::vector<Suppression> parse(llvm::StringRef Text, const GateFinding &Where,
                               std::vector<GateFinding> &Problems) {
  std::vector<Suppression> Out;
  std::vector<Suppression> Open; // NOPK-BEGIN without its END yet
  unsigned LineNo = 0;
  llvm::StringRef Rest = Text;
  while (!Rest.empty()) {
    auto [Line, Next] = Rest.split('\n');
    Rest = Next;
    ++LineNo;
    size_t At = Line.find("NOPK");
    // Only in a comment: a "//" or "/*" before it on the line.
    while (At != llvm::StringRef::npos) {
      llvm::StringRef Before = Line.take_front(At);
      bool InComment = Before.contains("//") || Before.contains("/*");
      bool Word = At == 0 || !(llvm::isAlnum(Line[At - 1]) ||
                               Line[At - 1] == '_');
      if (!InComment || !Word) {
        At = Line.find("NOPK", At + 4);
        continue;
      }
      llvm::StringRef S = Line.drop_front(At);
      std::string Kind = "NOPK";
      for (llvm::StringRef K : {"NOPK-NEXTLINE", "NOPK-BEGIN", "NOPK-END"})
        if (S.starts_with(K)) {
          Kind = K.str();
          break;
        }
      llvm::StringRef After = S.drop_front(Kind.size());
      if (!After.empty() && (llvm::isAlnum(After[0]) || After[0] == '_')) {
        At = Line.find("NOPK", At + 4); // NOPKX: another word
        continue;
      }
      Suppression Sup;
      Sup.Line = LineNo;
      Sup.Col = At + 1;
      std::string List;
      if (After.starts_with("(")) {
        size_t Close = After.find(')');
        if (Close != llvm::StringRef::npos) {
          List = After.slice(1, Close).str();
          After = After.drop_front(Close + 1);
        }
      }
      llvm::SmallVector<llvm::StringRef, 4> Parts;
      llvm::StringRef(List).split(Parts, ',', -1, false);
      for (llvm::StringRef P : Parts)
        if (!P.trim().empty())
          Sup.Globs.push_back(P.trim().str());
      Sup.Used.assign(Sup.Globs.size(), false);
      Sup.Spelling = Kind + (List.empty() ? "" : "(" + List + ")");
      if (Kind == "NOPK-END") {
        if (Open.empty()) {
          Problems.push_back(problem(
              Where, LineNo, Sup.Col,
              showControls(Sup.Spelling) +
                  " closes no NOPK-BEGIN; it suppresses nothing"));
        } else {
          Suppression B = std::move(Open.back());
          Open.pop_back();
          B.To = LineNo;
          Out.push_back(std::move(B));
        }
      } else if (Sup.Globs.empty()) {
        Problems.push_back(problem(
            Where, LineNo, Sup.Col,
            showControls(Sup.Spelling) +
                " names no rule and suppresses nothing: name the rules, e.g. " +
                Kind + "(PK2010)"));
      } else if (Kind == "NOPK-BEGIN") {
        Sup.From = LineNo;
        Open.push_back(std::move(Sup));
      } else {
        Sup.From = Sup.To = Kind == "NOPK" ? LineNo : LineNo + 1;
        Out.push_back(std::move(Sup));
      }
      At = Line.find("NOPK", At + 4);
    }
  }
  for (const Suppression &B : Open)
    Problems.push_back(problem(Where, B.Line, B.Col,
                               showControls(B.Spelling) +
                                   " has no NOPK-END; it suppresses nothing"));
  return Out;
}

bool matches(llvm::StringRef Glob, llvm::StringRef Rule) {
  auto P = llvm::GlobPattern::create(Glob);
  if (!P) {
    llvm::consumeError(P.takeError());
    return Glob == Rule;
  }
  return P->match(Rule);
}

} // namespace

unsigned pk::applySuppressions(
    std::vector<GateFinding> &Findings, llvm::ArrayRef<std::string> Files,
    const std::function<std::string(const std::string &)> &RelOf,
    const std::function<std::string(const std::string &)> &ContentsOf) {
  // The suppressions of every file the run read that has any.
  std::map<std::string, std::vector<Suppression>> Of; // by report path
  std::vector<GateFinding> Problems;
  std::map<std::string, GateFinding> WhereOf;
  for (const std::string &F : Files) {
    std::string Text = ContentsOf(F);
    if (!llvm::StringRef(Text).contains("NOPK"))
      continue;
    GateFinding Where;
    Where.File = RelOf(F);
    Where.Relative = Where.File != F;
    Where.Target = Findings.empty() ? "" : Findings.front().Target;
    auto S = parse(Text, Where, Problems);
    if (!S.empty()) {
      WhereOf[Where.File] = Where;
      Of[Where.File] = std::move(S);
    }
  }
  unsigned Suppressed = 0;
  for (GateFinding &G : Findings) {
    auto It = Of.find(G.File);
    if (It == Of.end())
      continue;
    for (Suppression &S : It->second) {
      if (G.Line < S.From || G.Line > S.To)
        continue;
      for (size_t I = 0; I < S.Globs.size(); ++I) {
        if (!matches(S.Globs[I], G.Rule))
          continue;
        S.Used[I] = true;
        if (G.Disabled)
          continue; // not reported anyway; the comment is not stale
        if (G.Level == "error") {
          Problems.push_back(problem(
              G, S.Line, S.Col,
              llvm::formatv("{0} cannot suppress the error {1} at line {2}: "
                            "an error says the output is wrong; fix the code "
                            "instead",
                            showControls(S.Spelling), G.Rule, G.Line)
                  .str()));
          continue;
        }
        if (G.Suppressed.empty()) {
          G.Suppressed = "inSource";
          ++Suppressed;
        }
      }
    }
  }
  for (auto &[File, Sups] : Of)
    for (const Suppression &S : Sups)
      for (size_t I = 0; I < S.Globs.size(); ++I)
        if (!S.Used[I])
          Problems.push_back(problem(
              WhereOf[File], S.Line, S.Col,
              llvm::formatv("{0}: no {1} finding {2}; the suppression is "
                            "stale (remove it)",
                            showControls(S.Spelling), showControls(S.Globs[I]),
                            S.From == S.To
                                ? llvm::formatv("on line {0}", S.From).str()
                                : llvm::formatv("on lines {0}-{1}", S.From,
                                                S.To)
                                      .str())
                  .str()));
  for (GateFinding &P : Problems)
    Findings.push_back(std::move(P));
  return Suppressed;
}

//===- Render.cpp - applying a file's edits and writing its findings ------===//
// Rules: none (shared infrastructure)
//
// renderFile applies the edits of a file and writes each finding as a
// comment line above the line it is about.  The output must mean what the
// edits say and nothing else, so:
//
//  * A comment line goes at the start of the first line at or above the
//    finding's line that is a token boundary: not inside a raw string, a
//    string or a block comment that spans lines, and not a continuation
//    line (after a backslash-newline, e.g. the body of a multi-line
//    #define).  The file is lexed once with clang's raw lexer.
//  * Inserted lines use the line ending of the line they are inserted at
//    (CRLF files get CRLF comments, helper blocks and other inserted text).
//  * `#line N` directives (and GNU line markers `# N "file"`) keep mapping
//    every later line to the same place: where an edit after such a
//    directive adds or removes lines, a `#line K` directive is inserted at
//    the next safe line start after it, K being the line number that line
//    had in the input.  Lines between the edit and that point (the rest of
//    a raw string, say) keep the shifted numbers; after a `#line` whose
//    number is not a literal nothing can be computed and nothing is added.
//
// Every step is linear in the size of the file (plus O(log n) per finding
// and edit).
//
//===----------------------------------------------------------------------===//
#include "pk/Escape.h"
#include "pk/TargetContext.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <set>

using namespace pk;
using namespace clang;

namespace {

/// The lines of a file and where text may be inserted between them.
class LineMap {
public:
  explicit LineMap(llvm::StringRef Text);

  unsigned lines() const { return Starts.size(); }
  /// The line holding byte \p Off (0-based).
  unsigned lineOf(unsigned Off) const {
    return std::upper_bound(Starts.begin(), Starts.end(), Off) -
           Starts.begin() - 1;
  }
  /// The last line at or above \p Q whose start is a token boundary.
  unsigned safeAtOrAbove(unsigned Q) const { return SafeUp[Q]; }
  /// The first line at or below \p Q whose start is a token boundary, or
  /// lines() when there is none.
  unsigned safeAtOrBelow(unsigned Q) const {
    return Q < lines() ? SafeDown[Q] : lines();
  }
  /// Where text inserted above line \p Q goes (after a byte-order mark).
  unsigned insertionPoint(unsigned Q) const {
    return Q == 0 && Text.starts_with("\xEF\xBB\xBF") ? 3 : Starts[Q];
  }
  llvm::StringRef line(unsigned Q) const {
    return Text.slice(Starts[Q], Q + 1 < lines() ? Starts[Q + 1] : Text.size());
  }
  /// The line ending of line \p Q ("\r\n" or "\n"); the last line, which
  /// has none, takes the one above it.
  llvm::StringRef eol(unsigned Q) const {
    if (Q + 1 >= lines()) {
      if (Q == 0)
        return "\n";
      --Q;
    }
    unsigned NL = Starts[Q + 1] - 1;
    return NL > 0 && Text[NL - 1] == '\r' ? "\r\n" : "\n";
  }
  /// The line number line \p Q has in the input under the `#line`
  /// directive in force there, if any (and if it is known).
  std::optional<unsigned> presumed(unsigned Q) const;
  /// The line at which the `#line` directive governing line \p Q takes
  /// effect (none before the first one).
  std::optional<unsigned> scopeStart(unsigned Q) const;
  /// True when line \p Q is (part of) a `#line` directive.
  bool isLineDirective(unsigned Q) const;

private:
  struct LineDirective {
    unsigned Line = 0;  ///< the line of its '#'
    unsigned After = 0; ///< the first line after it (continuations included)
    std::optional<unsigned> Number; ///< the number it gives line After
  };
  llvm::StringRef Text;
  std::vector<unsigned> Starts;
  std::vector<unsigned> SafeUp, SafeDown;
  std::vector<LineDirective> Directives; // in file order
  const LineDirective *governing(unsigned Q) const;
};

LineMap::LineMap(llvm::StringRef Text) : Text(Text) {
  Starts.push_back(0);
  for (size_t I = Text.find('\n'); I != llvm::StringRef::npos;
       I = Text.find('\n', I + 1))
    Starts.push_back(I + 1);
  unsigned N = Starts.size();
  std::vector<char> Safe(N, 1), Continued(N, 0);
  // A backslash-newline (blanks may sit between them) splices the next line
  // onto this one.
  for (unsigned Q = 1; Q < N; ++Q) {
    llvm::StringRef Prev = Text.slice(Starts[Q - 1], Starts[Q] - 1);
    if (Prev.rtrim(" \t\r\v\f").ends_with("\\"))
      Safe[Q] = 0, Continued[Q] = 1;
  }
  // Tokens that span lines (raw strings, spliced strings, block comments).
  LangOptions LO;
  LO.CPlusPlus = LO.CPlusPlus11 = LO.CPlusPlus14 = LO.CPlusPlus17 = 1;
  LO.LineComment = 1;
  Lexer L(SourceLocation::getFromRawEncoding(1), LO, Text.begin(), Text.begin(),
          Text.end());
  L.SetCommentRetentionState(true);
  Token T;
  unsigned Q = 1;
  int State = 0; // 1: after a '#' that starts a line, 2: after "# line"
  unsigned HashLine = 0;
  auto AddDirective = [&](std::optional<unsigned> Number) {
    LineDirective D;
    D.Line = HashLine;
    D.After = HashLine + 1;
    while (D.After < N && Continued[D.After])
      ++D.After;
    D.Number = Number;
    Directives.push_back(D);
  };
  for (bool AtEnd = false; !AtEnd;) {
    AtEnd = L.LexFromRawLexer(T);
    if (T.is(tok::eof))
      break;
    unsigned B = T.getLocation().getRawEncoding() - 1;
    unsigned E = B + T.getLength();
    while (Q < N && Starts[Q] <= B)
      ++Q;
    for (; Q < N && Starts[Q] < E; ++Q)
      Safe[Q] = 0;
    llvm::StringRef Spelling = Text.slice(B, E);
    if (State && T.isAtStartOfLine()) {
      if (State == 2)
        AddDirective(std::nullopt);
      State = 0;
    }
    if (State == 1 && T.is(tok::raw_identifier) &&
        T.getRawIdentifier() == "line") {
      State = 2;
      continue;
    }
    if (State && T.is(tok::numeric_constant)) {
      unsigned V;
      AddDirective(Spelling.getAsInteger(10, V) ? std::nullopt
                                                : std::optional<unsigned>(V));
      State = 0;
      continue;
    }
    if (State == 2)
      AddDirective(std::nullopt); // `#line` with a macro or nothing
    State = 0;
    if (T.is(tok::hash) && T.isAtStartOfLine()) {
      State = 1;
      HashLine = lineOf(B);
    }
  }
  if (State == 2)
    AddDirective(std::nullopt);
  SafeUp.resize(N);
  SafeDown.resize(N);
  for (unsigned I = 0; I < N; ++I)
    SafeUp[I] = I == 0 || Safe[I] ? I : SafeUp[I - 1];
  for (unsigned I = N; I-- > 0;)
    SafeDown[I] = Safe[I] ? I : I + 1 < N ? SafeDown[I + 1] : N;
}

const LineMap::LineDirective *LineMap::governing(unsigned Q) const {
  auto It = std::upper_bound(
      Directives.begin(), Directives.end(), Q,
      [](unsigned Q, const LineDirective &D) { return Q < D.After; });
  if (It == Directives.begin())
    return nullptr;
  return &*std::prev(It);
}

std::optional<unsigned> LineMap::presumed(unsigned Q) const {
  const LineDirective *D = governing(Q);
  if (!D || !D->Number || isLineDirective(Q))
    return std::nullopt;
  return *D->Number + (Q - D->After);
}

std::optional<unsigned> LineMap::scopeStart(unsigned Q) const {
  const LineDirective *D = governing(Q);
  if (!D)
    return std::nullopt;
  return D->After;
}

bool LineMap::isLineDirective(unsigned Q) const {
  auto It = std::upper_bound(
      Directives.begin(), Directives.end(), Q,
      [](unsigned Q, const LineDirective &D) { return Q < D.Line; });
  return It != Directives.begin() && Q < std::prev(It)->After;
}

/// \p Text with every line feed not preceded by a carriage return turned
/// into CRLF.
std::string toCRLF(llvm::StringRef Text) {
  std::string Out;
  Out.reserve(Text.size() + Text.count('\n'));
  for (size_t I = 0; I < Text.size(); ++I) {
    if (Text[I] == '\n' && (I == 0 || Text[I - 1] != '\r'))
      Out += '\r';
    Out += Text[I];
  }
  return Out;
}

/// A finding's message on one line (a line break would end the comment).
/// A message as one comment line of an output: line ends as spaces, and no
/// invisible or bidirectional control from quoted code carried into it.
std::string oneLine(llvm::StringRef Msg) {
  std::string S = showControls(Msg);
  std::replace_if(
      S.begin(), S.end(), [](char C) { return C == '\n' || C == '\r'; }, ' ');
  return S;
}

} // namespace

std::string pk::renderFile(llvm::StringRef File, llvm::StringRef Original,
                           const FileEdits *Edits,
                           const std::vector<Finding> &Findings,
                           llvm::StringRef CommentPrefix) {
  // The raw lexer reads up to a terminating NUL, which a StringRef need
  // not have.
  std::string Text = Original.str();
  LineMap Lines(Text);
  FileEdits All;
  if (Edits)
    for (Edit E : Edits->edits()) {
      if (llvm::StringRef(E.Replacement).contains('\n') &&
          Lines.eol(Lines.lineOf(E.Offset)) == "\r\n")
        E.Replacement = toCRLF(E.Replacement);
      llvm::consumeError(All.add(std::move(E)));
    }
  std::set<std::pair<unsigned, std::string>> Placed;
  for (const Finding &F : Findings) {
    if (F.File != File)
      continue;
    unsigned Off = std::min<unsigned>(F.Offset, Original.size());
    unsigned Q = Lines.safeAtOrAbove(Lines.lineOf(Off));
    unsigned At = Lines.insertionPoint(Q);
    llvm::StringRef Indent =
        Lines.line(Q).take_while([](char C) { return C == ' ' || C == '\t'; });
    std::string Msg = llvm::formatv("{0}{1} port-kernel: {2}: {3} [{4}]{5}",
                                    Indent, CommentPrefix, severityName(F.Sev),
                                    oneLine(F.Message), F.RuleID, Lines.eol(Q))
                          .str();
    if (!Placed.insert({At, Msg}).second)
      continue;
    Edit E;
    E.File = File.str();
    E.Offset = At;
    E.Replacement = Msg;
    E.RuleID = F.RuleID;
    E.Why = "diagnostic";
    llvm::consumeError(All.add(std::move(E)));
  }

  // `#line` directives: after an edit that adds or removes lines, restate
  // the input's line number at the next line start that is a token boundary
  // (when no other `#line` comes first).
  struct Pending {
    unsigned EditLine, Q;
    std::string Rule;
  };
  std::vector<Pending> Restate;
  for (const Edit &E : All.edits()) {
    unsigned Old = Original.substr(E.Offset, E.Length).count('\n');
    if (llvm::StringRef(E.Replacement).count('\n') == Old)
      continue;
    unsigned End = E.Offset + E.Length;
    unsigned Q = Lines.lineOf(End);
    if (Lines.insertionPoint(Q) != End)
      ++Q; // the edit ends inside line Q: restate from the next line
    Restate.push_back({Lines.lineOf(E.Offset), Q, E.RuleID.str()});
  }
  // Added last, so each follows the other insertions at its line start.
  std::set<unsigned> Restated;
  for (auto [EditLine, Q, Rule] : Restate) {
    for (Q = Lines.safeAtOrBelow(Q); Q < Lines.lines();
         Q = Lines.safeAtOrBelow(Q + 1)) {
      if (Lines.insertionPoint(Q) >= Original.size())
        break; // nothing follows
      std::optional<unsigned> Scope = Lines.scopeStart(Q);
      std::optional<unsigned> K = Lines.presumed(Q);
      if (!Scope || !K || EditLine < *Scope || Restated.count(Q))
        break; // before any `#line`, a later one resets the count, or done
      Edit L;
      L.File = File.str();
      L.Offset = Lines.insertionPoint(Q);
      L.Replacement = ("#line " + llvm::Twine(*K) + Lines.eol(Q)).str();
      L.RuleID = Rule;
      L.Why = "diagnostic";
      if (llvm::Error X = All.add(std::move(L))) {
        llvm::consumeError(std::move(X)); // inside a replaced range: go on
        continue;
      }
      Restated.insert(Q);
      break;
    }
  }
  return All.apply(Original);
}

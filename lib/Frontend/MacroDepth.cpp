//===- MacroDepth.cpp - a bound on nested macro arguments -----------------===//
// Rules: PK9001
//
// A raw-lexer pre-scan (pk/MacroDepth.h): every token is looked at once, no
// macro is expanded, so the scan is linear however deep the nesting.
//
//===----------------------------------------------------------------------===//
#include "pk/MacroDepth.h"
#include "pk/Rules.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <atomic>
#include <functional>
#include <vector>

using namespace clang;

namespace {

/// The deepest invocation seen so far and where it starts.
struct Deepest {
  unsigned Depth = 0;
  size_t Offset = 0;
};

class Scanner {
public:
  Scanner(llvm::ArrayRef<std::string> IncludeDirs, unsigned Limit)
      : IncludeDirs(IncludeDirs), Limit(Limit) {
    LO.CPlusPlus = LO.CPlusPlus11 = LO.CPlusPlus14 = LO.CPlusPlus17 = true;
    LO.CUDA = true;
  }

  /// Scans \p Text (one file): returns the deepest invocation over
  /// the limit (Depth 0 when none); \p Include is called for each quoted
  /// #include in order.
  Deepest scan(llvm::StringRef Text,
               const std::function<bool(llvm::StringRef)> &Include) {
    Lexer L(SourceLocation(), LO, Text.begin(), Text.begin(), Text.end());
    Token T;
    int Depth = 0, Base = -1;
    bool Pending = false;
    size_t PendingOff = 0;
    Deepest Inv, None;
    for (L.LexFromRawLexer(T); T.isNot(tok::eof);) {
      size_t Off = T.getLocation().getRawEncoding();
      if (T.isAtStartOfLine() && T.is(tok::hash)) {
        if (directive(L, T, Include))
          return None;
        continue; // T is the first token after the directive
      }
      if (T.is(tok::raw_identifier)) {
        Pending = Base < 0 && FnMacros.count(T.getRawIdentifier());
        PendingOff = Off;
      } else if (T.is(tok::l_paren)) {
        if (Pending) {
          Base = Depth;
          Inv = {0, PendingOff};
        }
        Pending = false;
        ++Depth;
        if (Base >= 0)
          Inv.Depth = std::max(Inv.Depth, unsigned(Depth - Base));
      } else {
        Pending = false;
        if (T.is(tok::r_paren) && Depth > 0 && --Depth <= Base) {
          Base = -1;
          if (Limit && Inv.Depth > Limit)
            return Inv;
        }
      }
      L.LexFromRawLexer(T);
    }
    if (Base >= 0 && Limit && Inv.Depth > Limit)
      return Inv; // unbalanced to the end of the file
    return None;
  }

  std::vector<std::string> Stack; ///< files being scanned
  llvm::StringSet<> Seen;

private:
  llvm::ArrayRef<std::string> IncludeDirs;
  unsigned Limit;
  LangOptions LO;
  llvm::StringSet<> FnMacros;

  /// A directive starting at '#' (\p T): records function-like #defines,
  /// follows quoted #includes; leaves \p T at the first token of the next
  /// line.  True when an included file failed the check.
  bool directive(Lexer &L, Token &T,
                 const std::function<bool(llvm::StringRef)> &Include) {
    L.LexFromRawLexer(T);
    if (!T.isAtStartOfLine() && T.is(tok::raw_identifier)) {
      llvm::StringRef D = T.getRawIdentifier();
      if (D == "define") {
        L.LexFromRawLexer(T);
        if (!T.isAtStartOfLine() && T.is(tok::raw_identifier)) {
          llvm::StringRef Name = T.getRawIdentifier();
          L.LexFromRawLexer(T);
          if (!T.isAtStartOfLine() && T.is(tok::l_paren) &&
              !T.hasLeadingSpace())
            FnMacros.insert(Name);
        }
      } else if (D == "include" || D == "include_next" || D == "import") {
        L.LexFromRawLexer(T);
        if (!T.isAtStartOfLine() && T.is(tok::string_literal)) {
          llvm::StringRef S(T.getLiteralData(), T.getLength());
          if (S.size() >= 2 && Include(S.drop_front().drop_back()))
            return true;
        }
      }
    }
    while (T.isNot(tok::eof) && !T.isAtStartOfLine())
      L.LexFromRawLexer(T);
    return false;
  }
};

unsigned lineOf(llvm::StringRef Text, size_t Off, unsigned &Col) {
  llvm::StringRef Before = Text.take_front(Off);
  size_t NL = Before.rfind('\n');
  Col = unsigned(NL == llvm::StringRef::npos ? Off + 1 : Off - NL);
  return unsigned(Before.count('\n')) + 1;
}

} // namespace

static std::atomic<unsigned> Limit{pk::DefaultMaxMacroDepth};

unsigned pk::macroDepthLimit() { return Limit; }
void pk::setMacroDepthLimit(unsigned L) { Limit = L; }

llvm::Error pk::checkMacroDepth(llvm::StringRef File,
                                llvm::ArrayRef<std::string> CompileArgs,
                                llvm::StringRef WorkDir, unsigned Limit) {
  if (!Limit)
    return llvm::Error::success();
  std::vector<std::string> IncludeDirs;
  for (size_t I = 0; I < CompileArgs.size(); ++I) {
    llvm::StringRef A = CompileArgs[I], D;
    for (llvm::StringRef Flag : {"-iquote", "-isystem", "-I"})
      if (A.consume_front(Flag)) {
        D = !A.empty()                   ? A
            : I + 1 < CompileArgs.size() ? llvm::StringRef(CompileArgs[++I])
                                         : A;
        break;
      }
    if (D.empty())
      continue;
    llvm::SmallString<256> P(D);
    llvm::sys::fs::make_absolute(WorkDir, P);
    IncludeDirs.push_back(std::string(P.str()));
  }
  Scanner S(IncludeDirs, Limit);
  std::string Msg;
  // One file: true when it (or a header it includes) fails the check.
  std::function<bool(const std::string &)> ScanFile =
      [&](const std::string &Path) {
        if (!S.Seen.insert(Path).second || S.Stack.size() > 200)
          return false;
        // NUL-terminated, as the lexer needs.
        auto Buf = llvm::MemoryBuffer::getFile(Path);
        if (!Buf)
          return false; // clang reports unreadable files
        llvm::StringRef Text = (*Buf)->getBuffer();
        S.Stack.push_back(Path);
        llvm::StringRef Dir = llvm::sys::path::parent_path(Path);
        Deepest D = S.scan(Text, [&](llvm::StringRef Name) {
          llvm::SmallString<256> P;
          if (llvm::sys::path::is_absolute(Name))
            P = Name;
          else {
            P = Dir;
            llvm::sys::path::append(P, Name);
            for (size_t I = 0;
                 !llvm::sys::fs::is_regular_file(P) && I < IncludeDirs.size();
                 ++I) {
              P = IncludeDirs[I];
              llvm::sys::path::append(P, Name);
            }
          }
          llvm::sys::path::remove_dots(P, true);
          return llvm::sys::fs::is_regular_file(P) &&
                 ScanFile(std::string(P.str()));
        });
        S.Stack.pop_back();
        if (!D.Depth)
          return !Msg.empty();
        unsigned Col, Line = lineOf(Text, D.Offset, Col);
        Msg = llvm::formatv("{0}:{1}:{2}: error: macro arguments nested {3} "
                            "deep, more than the limit {4} "
                            "(--max-macro-depth); the file is not parsed "
                            "(clang's memory grows with the square of the "
                            "depth) [{5}]",
                            Path, Line, Col, D.Depth, Limit,
                            ruleName(RuleId::PK9001))
                  .str();
        return true;
      };
  if (ScanFile(File.str()))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
  return llvm::Error::success();
}

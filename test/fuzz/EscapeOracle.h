//===- EscapeOracle.h - what each escaping function must guarantee ---------===//
//
// The properties of pk/Escape.h, checked on any input by the fuzz target
// pk-fuzz-escape and on fixed and seeded random inputs by unit.Escape*:
// each output language's escaped text, read back as that language's reader
// reads it, gives the original text (with invisible controls shown) and
// nothing else.  Returns "" when every property holds, else what failed.
//
//===----------------------------------------------------------------------===//
#ifndef PK_TEST_ESCAPEORACLE_H
#define PK_TEST_ESCAPEORACLE_H

#include "pk/Escape.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/JSON.h"
#include <cctype>
#include <string>

namespace pk::oracle {

inline std::string lineEndsAsSpaces(std::string S) {
  for (char &C : S)
    if (C == '\n' || C == '\r' || C == '\t')
      C = ' ';
  return S;
}

inline std::string removeWordJoiners(llvm::StringRef S) {
  std::string Out;
  const std::string WJ = "\u2060";
  for (size_t I = 0; I < S.size();) {
    if (S.substr(I).starts_with(WJ)) {
      I += WJ.size();
      continue;
    }
    Out += S[I++];
  }
  return Out;
}

/// Reads HTML text back: the five entities htmlEscape writes.
inline std::string htmlUnescape(llvm::StringRef S, bool &Ok) {
  std::string Out;
  Ok = true;
  for (size_t I = 0; I < S.size(); ++I) {
    if (S[I] != '&') {
      Out += S[I];
      continue;
    }
    bool Hit = false;
    for (auto [E, C] : {std::pair<llvm::StringRef, char>{"&amp;", '&'},
                        {"&lt;", '<'},
                        {"&gt;", '>'},
                        {"&quot;", '"'},
                        {"&#39;", '\''}})
      if (S.substr(I).starts_with(E)) {
        Out += C;
        I += E.size() - 1;
        Hit = true;
        break;
      }
    if (!Hit)
      Ok = false; // a bare '&' would start an entity
  }
  return Out;
}

inline std::string check(llvm::StringRef X) {
  std::string Shown = showControls(X);
  if (!findInvisibleControls(Shown).empty())
    return "showControls left an invisible control";
  if (!llvm::json::isUTF8(Shown))
    return "showControls output is not UTF-8";

  // HTML: no markup character survives; entities read back to the text.
  std::string H = htmlEscape(X);
  if (H.find_first_of("<>\"'") != std::string::npos)
    return "htmlEscape left a markup character";
  bool Ok;
  if (htmlUnescape(H, Ok) != Shown || !Ok)
    return "htmlEscape does not read back to the text";

  // Markdown text: every markup character escaped, one line, reads back.
  std::string M = markdownText(X);
  if (M.find_first_of("\n\r") != std::string::npos)
    return "markdownText kept a line end";
  std::string Back;
  for (size_t I = 0; I < M.size(); ++I) {
    char C = M[I];
    if (C == '\\') {
      if (I + 1 >= M.size() || !llvm::isASCII(M[I + 1]) ||
          !std::ispunct(static_cast<unsigned char>(M[I + 1])))
        return "markdownText: a backslash that escapes nothing";
      Back += M[++I];
      continue;
    }
    if (llvm::StringRef("`*_[]<!|~$&").contains(C))
      return std::string("markdownText left '") + C + "' unescaped";
    Back += C;
  }
  if (removeWordJoiners(Back) != lineEndsAsSpaces(Shown))
    return "markdownText does not read back to the text";
  for (size_t I = 0; I + 2 < Back.size(); ++I)
    if (Back.compare(I, 3, "://") == 0)
      return "markdownText left a scheme:// an autolink would start at";

  // Markdown code span in a table cell.
  std::string Code = markdownCode(X, /*InTable=*/true);
  size_t Fence = 0;
  while (Fence < Code.size() && Code[Fence] == '`')
    ++Fence;
  if (Fence == 0 || Code.size() < 2 * Fence ||
      Code.substr(Code.size() - Fence) != std::string(Fence, '`'))
    return "markdownCode is not fenced";
  std::string Inner = Code.substr(Fence, Code.size() - 2 * Fence);
  if (Inner.find(std::string(Fence, '`')) != std::string::npos)
    return "markdownCode: the fence occurs inside";
  if (Inner.find_first_of("\n\r") != std::string::npos)
    return "markdownCode kept a line end";
  // CommonMark strips one space from each end when both are spaces and the
  // content is not all spaces.
  if (Inner.size() >= 2 && Inner.front() == ' ' && Inner.back() == ' ' &&
      Inner.find_first_not_of(' ') != std::string::npos)
    Inner = Inner.substr(1, Inner.size() - 2);
  std::string Cell;
  for (size_t I = 0; I < Inner.size(); ++I) {
    if (Inner[I] == '|')
      return "markdownCode left a '|' that splits a table cell";
    if (Inner[I] == '\\' && I + 1 < Inner.size() && Inner[I + 1] == '|')
      ++I;
    Cell += Inner[I];
  }
  std::string Want = lineEndsAsSpaces(Shown);
  if (!Want.empty() && Want.find_first_not_of(' ') != std::string::npos &&
      Cell != Want)
    return "markdownCode does not read back to the text";

  // URIs: only unreserved characters, '/' and escapes; decoding inverts.
  std::string U = uriEncode(X);
  for (char C : U)
    if (!(llvm::isAlnum(C) || llvm::StringRef("-._~/%").contains(C)))
      return "uriEncode left a reserved character";
  if (uriDecode(U) != X)
    return "uriDecode(uriEncode(x)) != x";
  if (llvm::StringRef(U).contains("%0x"))
    return "uriEncode wrote a malformed escape";

  // Depfiles: what make and ninja unescape is the path.
  auto D = depfileEscape(X);
  if (D) {
    std::string P;
    for (size_t I = 0; I < D->size(); ++I) {
      char C = (*D)[I];
      if (C == '\\' && I + 1 < D->size() &&
          llvm::StringRef(" \t#:").contains((*D)[I + 1])) {
        P += (*D)[++I];
        continue;
      }
      if (C == '$') {
        if (I + 1 >= D->size() || (*D)[I + 1] != '$')
          return "depfileEscape: a lone '$'";
        P += '$';
        ++I;
        continue;
      }
      if (llvm::StringRef(" \t#:;|=%\n\r").contains(C))
        return std::string("depfileEscape left '") + C + "' unescaped";
      P += C;
    }
    if (P != X)
      return "depfileEscape does not read back to the path";
  } else {
    llvm::consumeError(D.takeError());
  }
  return "";
}

} // namespace pk::oracle
#endif

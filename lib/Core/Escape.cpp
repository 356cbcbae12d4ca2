//===- Escape.cpp - one escaping function per output language --------------===//
// Rules: PK9004
#include "pk/Escape.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <cctype>

using namespace pk;

/// \p V in upper-case hex, at least \p Digits digits (utohexstr pads a zero
/// to one digit too many).
static std::string hex(uint32_t V, unsigned Digits) {
  std::string S;
  do {
    S.insert(S.begin(), "0123456789ABCDEF"[V & 15]);
    V >>= 4;
  } while (V);
  while (S.size() < Digits)
    S.insert(S.begin(), '0');
  return S;
}

bool pk::isBidiControl(uint32_t C) {
  return (C >= 0x202A && C <= 0x202E) || (C >= 0x2066 && C <= 0x2069) ||
         C == 0x200E || C == 0x200F || C == 0x061C;
}

bool pk::isInvisibleControl(uint32_t C) {
  // Tab, line ends and the page breaks of old sources are whitespace.
  if (C == '\t' || C == '\n' || C == '\r' || C == '\f' || C == '\v')
    return false;
  return C < 0x20 || C == 0x7F || (C >= 0x80 && C <= 0x9F) ||
         isBidiControl(C) || (C >= 0x200B && C <= 0x200D) || C == 0x2060 ||
         C == 0xFEFF || C == 0x180E || C == 0x00AD;
}

/// Decodes the UTF-8 character at \p I; returns its length, 0 when the byte
/// there does not start a valid character.
static unsigned decode(llvm::StringRef Text, size_t I, uint32_t &CP) {
  const auto *B = reinterpret_cast<const llvm::UTF8 *>(Text.data() + I);
  unsigned Len = llvm::getNumBytesForUTF8(*B);
  if (I + Len > Text.size() || !llvm::isLegalUTF8Sequence(B, B + Len))
    return 0;
  llvm::UTF32 Out;
  llvm::UTF32 *OutP = &Out;
  const llvm::UTF8 *In = B;
  if (llvm::ConvertUTF8toUTF32(&In, B + Len, &OutP, OutP + 1,
                               llvm::strictConversion) != llvm::conversionOK)
    return 0;
  CP = Out;
  return Len;
}

std::vector<ControlChar> pk::findInvisibleControls(llvm::StringRef Text) {
  std::vector<ControlChar> V;
  for (size_t I = 0; I < Text.size();) {
    unsigned char B = Text[I];
    if (B < 0x80) { // ASCII: the common case
      if (isInvisibleControl(B))
        V.push_back({I, B});
      ++I;
      continue;
    }
    uint32_t CP;
    unsigned Len = decode(Text, I, CP);
    if (!Len) {
      ++I;
      continue;
    }
    if (isInvisibleControl(CP) && !(CP == 0xFEFF && I == 0)) // a BOM
      V.push_back({I, CP});
    I += Len;
  }
  return V;
}

std::string pk::codePointName(uint32_t CP) {
  return "U+" + hex(CP, 4);
}

std::string pk::controlCharMessage(uint32_t CP) {
  std::string Name = codePointName(CP);
  if (isBidiControl(CP))
    return "bidirectional control character " + Name +
           " in the source: the text may display in another order than the "
           "compiler reads it (Trojan Source); reports show it as <" +
           Name + ">";
  return "invisible character " + Name +
         " in the source: what is displayed differs from what is compiled; "
         "reports show it as <" +
         Name + ">";
}

std::string pk::showControls(llvm::StringRef Text) {
  std::string Out;
  Out.reserve(Text.size());
  for (size_t I = 0; I < Text.size();) {
    unsigned char B = Text[I];
    if (B < 0x80) {
      if (isInvisibleControl(B))
        Out += "<" + codePointName(B) + ">";
      else
        Out += char(B);
      ++I;
      continue;
    }
    uint32_t CP;
    unsigned Len = decode(Text, I, CP);
    if (!Len) {
      Out += "<0x" + hex(B, 2) + ">";
      ++I;
      continue;
    }
    if (isInvisibleControl(CP))
      Out += "<" + codePointName(CP) + ">";
    else
      Out.append(Text.data() + I, Len);
    I += Len;
  }
  return Out;
}

std::string pk::htmlEscape(llvm::StringRef Text) {
  std::string Shown = showControls(Text);
  std::string Out;
  Out.reserve(Shown.size());
  for (char C : Shown) {
    switch (C) {
    case '&': Out += "&amp;"; break;
    case '<': Out += "&lt;"; break;
    case '>': Out += "&gt;"; break;
    case '"': Out += "&quot;"; break;
    case '\'': Out += "&#39;"; break;
    default: Out += C;
    }
  }
  return Out;
}

std::string pk::markdownText(llvm::StringRef Text) {
  std::string Shown = showControls(Text);
  std::string Out;
  Out.reserve(Shown.size() * 2);
  for (size_t I = 0; I < Shown.size(); ++I) {
    char C = Shown[I];
    if (C == '\n' || C == '\r' || C == '\t') {
      Out += ' ';
      continue;
    }
    // The characters that start inline markup (CommonMark and GitHub's
    // extensions): code, emphasis, links and images, raw HTML and
    // autolinks, entities, table cells, strikethrough, math.  An escaped
    // ASCII punctuation character is always literal.  Block markup (#, -,
    // >, 1.) only starts a line, and user text never does.
    if (llvm::StringRef("\\`*_[]<!|~$&").contains(C))
      Out += '\\';
    Out += C;
    // Extended autolinks (www., scheme:) and @mentions: a word joiner
    // (U+2060, invisible, not a control) keeps them text.
    bool Www = I >= 2 && (C == 'w' || C == 'W') &&
               llvm::StringRef(Shown).substr(I - 2, 3).equals_insensitive(
                   "www");
    if (C == ':' || C == '@' || Www)
      Out += "\u2060";
  }
  return Out;
}

std::string pk::markdownCode(llvm::StringRef Text, bool InTable) {
  std::string Shown = showControls(Text);
  for (char &C : Shown)
    if (C == '\n' || C == '\r' || C == '\t')
      C = ' ';
  if (InTable) {
    std::string T;
    for (char C : Shown) {
      if (C == '|')
        T += '\\';
      T += C;
    }
    Shown = std::move(T);
  }
  // A fence one backtick longer than the longest run inside.
  size_t Longest = 0, Run = 0;
  for (char C : Shown) {
    Run = C == '`' ? Run + 1 : 0;
    Longest = std::max(Longest, Run);
  }
  std::string Fence(Longest + 1, '`');
  bool Pad = Shown.empty() || Shown.front() == '`' || Shown.back() == '`' ||
             (Shown.front() == ' ' && Shown.back() == ' ');
  std::string Out = Fence;
  if (Pad)
    Out += ' ';
  Out += Shown;
  if (Pad)
    Out += ' ';
  Out += Fence;
  return Out;
}

std::string pk::uriEncode(llvm::StringRef Text, llvm::StringRef Keep) {
  std::string U;
  U.reserve(Text.size());
  for (char C : Text) {
    if (llvm::isAlnum(C) || llvm::StringRef("-._~").contains(C) ||
        Keep.contains(C))
      U += C;
    else
      U += "%" + hex((unsigned char)C, 2);
  }
  return U;
}

std::string pk::uriDecode(llvm::StringRef U) {
  std::string Out;
  Out.reserve(U.size());
  for (size_t I = 0; I < U.size(); ++I) {
    if (U[I] == '%' && I + 2 < U.size() && llvm::isHexDigit(U[I + 1]) &&
        llvm::isHexDigit(U[I + 2])) {
      Out += char(llvm::hexFromNibbles(U[I + 1], U[I + 2]));
      I += 2;
    } else {
      Out += U[I];
    }
  }
  return Out;
}

llvm::Expected<std::string> pk::depfileEscape(llvm::StringRef P) {
  auto Bad = [&](const char *Why) {
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "%s: error: cannot be written in a depfile: %s [PK9001]",
        showControls(P).c_str(), Why);
  };
  std::string E;
  E.reserve(P.size());
  for (size_t I = 0; I < P.size(); ++I) {
    char C = P[I];
    if (C == '\n' || C == '\r' || C == '\0')
      return Bad("the path holds a line end or NUL");
    // make reads these as syntax wherever they stand (a recipe after ';',
    // order-only prerequisites after '|', a variable assignment at '=', a
    // pattern rule at '%'), and no escape of them is read back by both
    // make and ninja.
    if (C == ';' || C == '|' || C == '=' || C == '%')
      return Bad(llvm::formatv("the path holds '{0}', which make reads as "
                               "rule syntax; rename it or drop --depfile",
                               C)
                     .str()
                     .c_str());
    if (C == '\\') {
      char N = I + 1 < P.size() ? P[I + 1] : '\0';
      if (N == '\0' || N == ' ' || N == '#' || N == ':' || N == '\\' ||
          N == '\t')
        return Bad("a '\\' before a space, '#', ':', '\\' or the end");
    }
    if (C == ' ' || C == '\t' || C == '#' || C == ':')
      E += '\\';
    else if (C == '$')
      E += '$';
    E += C;
  }
  return E;
}

std::string pk::shellQuote(llvm::StringRef Arg) {
  if (!Arg.empty() && llvm::all_of(Arg, [](char C) {
        return llvm::isAlnum(C) || llvm::StringRef("@%+=:,./-_").contains(C);
      }))
    return Arg.str();
  std::string Q = "'";
  for (char C : Arg) {
    if (C == '\'')
      Q += "'\\''";
    else
      Q += C;
  }
  Q += "'";
  return Q;
}

//===- Escape.h - one escaping function per output language ----------------===//
// Rules: PK9004
//
// Renderers never concatenate user text (file names, source lines, messages
// that quote code) into an output language: they pass it through the
// function of that language here.  Each function's result, rendered by a
// conforming reader, shows the original text and nothing else: no element,
// link, image, heading, table cell or line break comes from user text
// (test/unit/EscapeTest.cpp and the fuzz target pk-fuzz-escape check that
// property, rendering back and comparing).
//
// Invisible and bidirectional control characters (the "Trojan Source"
// characters: U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C; the
// zero-width ones; C0 and C1 controls other than tab and line ends) are
// shown as a visible <U+XXXX> in every human-facing output, and the source
// lines that hold them get a PK9004 warning.
//
//===----------------------------------------------------------------------===//
#ifndef PK_ESCAPE_H
#define PK_ESCAPE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>
#include <vector>

namespace pk {

/// A character that changes how text displays without being visible.
bool isInvisibleControl(uint32_t CodePoint);
/// Whether \p CodePoint reorders text (the bidirectional controls).
bool isBidiControl(uint32_t CodePoint);

struct ControlChar {
  size_t Offset;      ///< byte offset in the text
  uint32_t CodePoint; ///< the character
};
/// Every invisible control of \p Text (decoded as UTF-8; bytes that are not
/// UTF-8 are not characters and are skipped).  Tab, LF and CR are not
/// reported.
std::vector<ControlChar> findInvisibleControls(llvm::StringRef Text);

/// "U+202E"
std::string codePointName(uint32_t CodePoint);

/// The message of a PK9004 finding for \p CodePoint.
std::string controlCharMessage(uint32_t CodePoint);

/// \p Text with each invisible control written as "<U+XXXX>" and each byte
/// that is not UTF-8 as "<0xXX>" (tab, LF and CR kept).
std::string showControls(llvm::StringRef Text);

/// HTML text or attribute value (showControls first).
std::string htmlEscape(llvm::StringRef Text);

/// Markdown (CommonMark/GFM) inline text: every character that can start
/// inline markup backslash-escaped, line ends as spaces, a word joiner after
/// ':', '@' and "www" (no autolinks, no mentions); showControls first.  Safe
/// in a table cell and a list item, not at the start of a line.
std::string markdownText(llvm::StringRef Text);

/// A Markdown inline code span showing \p Text exactly (line ends as
/// spaces; a fence longer than any run of backticks inside).  \p InTable:
/// '|' escaped for GFM table cells, which split on it even in code spans.
std::string markdownCode(llvm::StringRef Text, bool InTable);

/// Percent-encoding (RFC 3986) of every byte but the unreserved characters
/// and those in \p Keep.
std::string uriEncode(llvm::StringRef Text, llvm::StringRef Keep = "/");
/// Its inverse; malformed escapes are kept as written.
std::string uriDecode(llvm::StringRef Text);

/// A path in a Makefile-syntax depfile (make and ninja): spaces, '#', ':'
/// escaped with '\', '$' as '$$'.  A path no depfile can hold is an error:
/// line ends, NUL, a '\' before a character that needs escaping, and the
/// characters make reads as syntax anywhere (';', '|', '=', '%').
llvm::Expected<std::string> depfileEscape(llvm::StringRef Path);

/// \p Arg as one word of a POSIX shell command line (single-quoted unless
/// it is made only of safe characters).
std::string shellQuote(llvm::StringRef Arg);

} // namespace pk
#endif

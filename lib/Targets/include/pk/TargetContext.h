//===- TargetContext.h - what a target's rules see and produce
//-------------===//
// Rules: none (what a pass sees and records)
#ifndef PK_TARGETCONTEXT_H
#define PK_TARGETCONTEXT_H

#include "pk/Edit.h"
#include "pk/Frontend.h"
#include "pk/PortService.h"
#include "pk/Rules.h"
#include "pk/UserSource.h"
#include "pk/Wave64Strategy.h"
#include "clang/Basic/SourceLocation.h"
#include "clang/Basic/TokenKinds.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace clang {
class LangOptions;
class Lexer;
class SourceManager;
class ASTContext;
class FunctionDecl;
class Expr;
} // namespace clang

namespace pk {

class Wave64Analysis;

enum class MfmaShape { Auto, M16N16K16, M32N32K8 };

/// --lds-padding (PK3017): re-plan the row pitch of shared-memory tiles that
/// fragments are loaded from or stored to unless fewer workgroups would fit
/// in a CU (Auto), even then (Always), or keep it as written (Keep).
enum class LdsPadding { Auto, Always, Keep };

struct TargetOptions {
  Wave64Strategy Wave64 = Wave64Strategy::Auto;
  MfmaShape Mfma = MfmaShape::Auto;      ///< --mfma-shape
  LdsPadding Padding = LdsPadding::Auto; ///< --lds-padding
  /// --in-place: files keep their names, so includes of local headers keep
  /// theirs too (PK1006 does not apply).
  bool KeepNames = false;
  /// --rocm-version: the ROCm major version HIP output is for (PK1016:
  /// bfloat16 types, headers and conversions differ between 5 and 6).
  unsigned RocmMajor = 6;
};

/// Output name of a translated file for a target (foo.cu -> foo.hip,
/// foo.cuh -> foo.hpp for HIP; foo.hip -> foo.cu for CUDA): the target's
/// TargetBackend::outputName.
std::string outputName(llvm::StringRef Path, Target T);

/// The key of a generated helper block: the rule that needs it and a part
/// name.  Blocks are inserted in key order (rule name, then part).
struct HelperKey {
  RuleId Rule;
  std::string Part;
  bool operator<(const HelperKey &O) const {
    int C = ruleName(Rule).compare(ruleName(O.Rule));
    return C < 0 || (C == 0 && Part < O.Part);
  }
};

/// An #include of a header with no counterpart on the target (the header
/// table's `unsupported` entries), found by the include pass.  A later pass
/// that makes the header unnecessary (a lowering that replaces what it
/// declares) removes the line and sets Handled; the others are reported as
/// PK1010 by reportUnportedIncludes at the end of the target's passes.
struct UnportedInclude {
  std::string File;
  unsigned Begin = 0, End = 0; ///< the directive's line
  std::string Header;          ///< as spelled between <> or ""
  std::string Reason;          ///< the table's reason
  bool Handled = false;
};

/// An edit a rule asked for that cannot be made where the construct is
/// written without changing other expansions of a macro (TargetEdits.cpp):
/// the place it was asked for (the macro's use in the user's file), its
/// rule and reason.  reportRefusedEdits reports each one its rule did not.
struct RefusedEdit {
  std::string File;
  unsigned Offset = 0;
  std::string Rule;
  std::string Why;
};

/// Typed facts that a target's passes produce once and later passes read
/// (no pass reads another pass's message text).
struct TargetFacts {
  /// The warp strategy the wave-64 pass chose for each kernel (canonical
  /// declarations): logical 32-lane warps or native 64-lane warps.
  std::map<const clang::FunctionDecl *, Wave64Strategy> KernelStrategy;
  std::vector<UnportedInclude> UnportedIncludes;
  std::vector<RefusedEdit> RefusedEdits;
  /// Headers of the source API whose names the output defines itself (a
  /// rule replaced their include by definitions: math_constants.h, PK1014),
  /// by file name; PK1033 does not report their names.
  std::set<std::string> ProvidedHeaders;
  /// The wave-64 analysis of the translation unit, run by the first pass of
  /// the HIP target (`wave64-analysis`) and read by the wave-64 rewrites or
  /// hazard report, which free it: its walk state (a large file's largest
  /// working set) is freed before the other passes' edits exist, so the two
  /// never add up (docs/reliability.md, "Bounded resources").
  std::shared_ptr<const Wave64Analysis> Wave64;
};

/// Per-TU, per-target state: the parsed file (read-only), the rename tables,
/// and the edits and findings the target's rules produce.
/// A TargetContext is a UserSource (the user's files of the TU: SM(), Ctx(),
/// isUserLoc(), fileOf(), contents(), text()) plus what the passes record.
class TargetContext : public UserSource {
public:
  TargetContext(ParsedFile &PF, const RenameDB &DB, Target T,
                const TargetOptions &Opts);

  ParsedFile &PF;
  const RenameDB &DB;
  Target T;
  const TargetOptions &Opts;
  EditSet Edits;
  std::vector<Finding> Findings;
  /// Counters for the report: rule ID -> number of edits / findings.
  llvm::StringMap<unsigned> Counts;
  /// Hardware features the output of a user file needs (NeedMfmaF16,
  /// NeedMfmaBF16); the report lists the GPUs that have them.
  std::map<std::string, std::set<std::string>> Needs;
  /// The origins of the lines of outputs generated whole
  /// (TargetBackend::generate), by input file.
  std::map<std::string, std::vector<GeneratedLine>> GenLines;
  /// Facts shared between this target's passes.
  TargetFacts Facts;
  /// Helper blocks to insert once per file (key -> text), after includes,
  /// in key order.
  std::map<std::string, std::map<HelperKey, std::string>> Helpers;

  /// Replaces the characters of \p R (file locations, or macro argument
  /// spellings) with \p Text.  A range strictly inside one macro's body is
  /// edited in the definition; a range that is a whole nested expansion
  /// (FULL in `#define B() __syncwarp(FULL)`) is edited where that macro is
  /// named, so other expansions of it never change (TargetEdits.cpp).
  /// Returns false when the range cannot be edited safely: nothing is
  /// edited, and the request is kept in Facts.RefusedEdits (reported by
  /// reportRefusedEdits unless the rule reports it itself).
  bool replace(clang::CharSourceRange R, llvm::StringRef Text, RuleRef Rule,
               llvm::StringRef Why);
  bool replace(clang::SourceRange TokenRange, llvm::StringRef Text,
               RuleRef Rule, llvm::StringRef Why) {
    return replace(clang::CharSourceRange::getTokenRange(TokenRange), Text,
                   Rule, Why);
  }
  bool insert(clang::SourceLocation Loc, llvm::StringRef Text, RuleRef Rule,
              llvm::StringRef Why);
  /// Raw edit by file offset.
  void edit(llvm::StringRef File, unsigned Offset, unsigned Length,
            llvm::StringRef Text, RuleRef Rule, llvm::StringRef Why);

  void finding(clang::SourceLocation Loc, RuleRef Rule, Severity S,
               llvm::StringRef Msg);
  void finding(llvm::StringRef File, unsigned Offset, RuleRef Rule, Severity S,
               llvm::StringRef Msg);

  /// True when an edit of rule \p R starts at \p Offset of \p File.
  bool editedBy(llvm::StringRef File, unsigned Offset, RuleId R) const;
  /// The same at the place a finding at \p Loc would be reported.
  bool editedBy(clang::SourceLocation Loc, RuleId R) const;

  /// The first error (conflicting edits) if any.
  llvm::Error takeError() { return std::move(Err); }

private:
  llvm::Error Err = llvm::Error::success();
  void lineCol(llvm::StringRef File, unsigned Offset, unsigned &Line,
               unsigned &Col) const;
  /// Offsets of the line starts of each file, built once (lineCol).
  mutable llvm::StringMap<std::vector<unsigned>> LineStarts;
  /// (file, offset, rule, message) of every finding, for de-duplication.
  std::set<std::tuple<std::string, unsigned, std::string, std::string>>
      FindingKeys;
};

/// A preprocessor directive line of a file's text.
struct Directive {
  unsigned Begin = 0; ///< offset of the line
  unsigned End = 0;   ///< offset past its newline (or the end of the text)
  llvm::StringRef
      Keyword;          ///< "include", "ifdef", ... (the identifier after '#')
  llvm::StringRef Rest; ///< the text after the keyword, blanks trimmed left
  /// For #include: the header name between <> or "" (empty otherwise), the
  /// offset of its first character, and whether it is in angle brackets.
  llvm::StringRef Header;
  unsigned HeaderOffset = 0;
  bool Angled = false;
};
/// A token of a user file's text as the raw lexer sees it (no macro
/// expansion, no preprocessing): passes that rewrite spellings wherever they
/// are written, directives and macro bodies included.
struct RawToken {
  unsigned Offset, Length;
  bool StartOfLine;
  clang::tok::TokenKind Kind;
  llvm::StringRef Text; ///< identifier spelling (raw identifiers only)
};
/// The raw tokens of \p Buf (comments skipped), in order, lexed as they are
/// read: a pass walks a file through a window of a few tokens around the
/// current one instead of holding all of them (a 20 MB file has about six
/// million tokens: 200 MB as a vector, twice that while it grew).
///
///   for (RawTokenCursor C(TC, Buf); !C.done(); C.advance())
///     if (C[0].Text == "x" && C[1].Kind == tok::l_paren) ...
///
/// Past the end, C[K] is an end-of-file token: Kind tok::eof, StartOfLine
/// true (it ends every line), no text, at the end of the buffer; so a
/// lookahead needs no separate bounds check. Before the beginning, C[K] is
/// the same end token.
class RawTokenCursor {
public:
  RawTokenCursor(const TargetContext &TC, llvm::StringRef Buf);
  RawTokenCursor(const clang::LangOptions &LO, llvm::StringRef Buf);
  ~RawTokenCursor();
  RawTokenCursor(const RawTokenCursor &) = delete;
  RawTokenCursor &operator=(const RawTokenCursor &) = delete;
  /// The token \p K places after the current one (before it when \p K is
  /// negative, at most Behind back).
  const RawToken &operator[](int K);
  /// At the end of the buffer.
  bool done() { return (*this)[0].Kind == clang::tok::eof; }
  /// Moves \p N tokens on.
  void advance(unsigned N = 1) { Cur += N; }
  /// How many tokens before the current one stay readable.
  static constexpr unsigned Behind = 4;

private:
  bool lexOne();
  llvm::StringRef Buf;
  std::unique_ptr<clang::Lexer> L;
  std::deque<RawToken> Window; ///< tokens Base, Base + 1, ...
  size_t Base = 0, Cur = 0;
  bool Ended = false;
  RawToken End;
};
/// Calls \p F for every line of \p Text that starts (after blanks) with '#'.
void forEachDirective(llvm::StringRef Text,
                      llvm::function_ref<void(const Directive &)> F);

/// Features of TargetContext::Needs.
inline constexpr const char *NeedMfmaF16 = "mfma-f16"; ///< v_mfma_f32_*f16
inline constexpr const char *NeedMfmaBF16 =
    "mfma-bf16"; ///< v_mfma_f32_*bf16_1k
/// The AMD GPUs (gfx names) that have every feature in \p Needs.
std::vector<std::string> gpusWith(const std::set<std::string> &Needs);

/// Tensor-core rules of the HIP target (WMMA and inline-PTX mma.sync ->
/// MFMA, fragment-layout findings); HIP/Mfma.cpp.
llvm::Error runMfmaRules(TargetContext &TC);

/// Runs the wave-64 analysis of \p TC's translation unit (with the
/// strategy of --wave64) into TC.Facts.Wave64 (HIP/Wave64Rewrite.cpp).
void runWave64Analysis(TargetContext &TC);
/// Warp-32 code on 64-lane waves (HIP/Wave64Rewrite.cpp): applies the
/// logical32 / native rewrites per kernel of the analysis in
/// TC.Facts.Wave64 (run first if no pass did), with a PK2000 note per
/// kernel.
void runWave64Rewrites(TargetContext &TC);
/// The same analysis for `check`: one finding per hazard (PK2101-PK2111,
/// the classes of docs/wave64.md) and the strategy each kernel would get.
void runWave64Check(TargetContext &TC);

/// Rewrites for the emulator (an internal target): launches and __shared__.
llvm::Error runEmuPrep(TargetContext &TC);

/// The names the user's files declare (functions, variables, types,
/// enumerators, templates, members of their classes; fields only with
/// \p WithFields), at any depth of the user's top-level declarations.
void collectUserDeclaredNames(const TargetContext &TC, llvm::StringSet<> &Names,
                              bool WithFields);

/// Shared rule passes (TargetCommon.cpp).
/// Renames identifiers of the tables in every user file (lexer pass, so
/// macro bodies are edited where they are written); flags unsupported names.
void runRenamePass(TargetContext &TC, bool ToHip);
/// Rewrites #include directives: header table entries, and local headers
/// translated to the target's file names.
void runIncludePass(TargetContext &TC, bool ToHip);
/// Reports the UnportedIncludes no pass handled (PK1010).
void reportUnportedIncludes(TargetContext &TC);
/// PK1033: each use of a name of the source API's headers (CUDA's when
/// \p FromCuda, else HIP's) that no table or rule translated
/// (UnknownApi.cpp).  Runs after every rewrite pass.
void reportUnknownApiNames(TargetContext &TC, bool FromCuda);
/// Reports each refused edit (Facts.RefusedEdits) at the macro use it was
/// asked for, under its rule, unless the rule reported that line itself: a
/// construct inside a macro is never left untranslated silently.
void reportRefusedEdits(TargetContext &TC);
/// Inserts the registered helper blocks after the includes of each file.
void insertHelpers(TargetContext &TC);
/// Applies the edits of \p File and inserts the findings of that file as
/// comments above their lines.
std::string renderFile(llvm::StringRef File, llvm::StringRef Original,
                       const FileEdits *Edits,
                       const std::vector<Finding> &Findings,
                       llvm::StringRef CommentPrefix = "//");

} // namespace pk
#endif

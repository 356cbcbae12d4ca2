//===- CheckRewrites.cpp - `check`: the rewrites a HIP port would make ----===//
// Rules: PK1014, PK1015, PK1016
//
// `port-kernel check --to hip` runs the toolkit-header, host-math and
// bfloat16 passes like `port` does; their flags (PK1015 host calls that stay,
// PK1016's note on outputs that depend on --rocm-version) are findings as
// they are.  What those passes would rewrite is not written by `check`, so
// each such edit is reported as a note at its place with its reason: the
// <math_constants.h> include (PK1014), a host rsqrtf/rcbrtf (PK1015) and,
// under --rocm-version=5, every implicit bfloat16 conversion written out
// (PK1016; the renames of the bfloat16 spellings are covered by the file's
// PK1016 note).
//
//===----------------------------------------------------------------------===//
#include "HipPasses.h"

#include "llvm/Support/FormatVariadic.h"

using namespace pk;

void pk::hip::reportRewritesAsFindings(TargetContext &TC) {
  const std::string R1014 = ruleName(RuleId::PK1014).str();
  const std::string R1015 = ruleName(RuleId::PK1015).str();
  const std::string R1016 = ruleName(RuleId::PK1016).str();
  struct Note {
    std::string File;
    unsigned Offset;
    RuleId Rule;
    std::string Msg;
  };
  std::vector<Note> Notes;
  for (const auto &[File, FE] : TC.Edits.files())
    for (const Edit &E : FE.edits()) {
      RuleId R;
      if (E.RuleID == R1014 || E.RuleID == R1015)
        R = E.RuleID == R1014 ? RuleId::PK1014 : RuleId::PK1015;
      else if (E.RuleID == R1016 && E.Length == 0 &&
               llvm::StringRef(E.Replacement).ends_with("("))
        R = RuleId::PK1016; // the opening half of a written-out conversion
      else
        continue;
      llvm::StringRef Text = E.Replacement;
      std::string Msg;
      if (Text.contains('\n'))
        Msg = llvm::formatv("{0} (`port` rewrites this)", E.Why).str();
      else if (R == RuleId::PK1016)
        Msg = llvm::formatv("{0}; `port` writes `{1}...)` around the value",
                            E.Why, Text)
                  .str();
      else
        Msg = llvm::formatv("{0}; `port` writes `{1}`", E.Why, Text).str();
      Notes.push_back({File, E.Offset, R, std::move(Msg)});
    }
  for (const Note &N : Notes)
    TC.finding(N.File, N.Offset, N.Rule, Severity::Note, N.Msg);
}

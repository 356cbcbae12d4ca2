//===- CliDoc.cpp - docs/cli.md from llvm::cl's option definitions --------===//
// Rules: none (documentation)
#include "pk/GateCheck.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>

using namespace pk;
namespace cl = llvm::cl;

/// Markdown text with '|' and '<' '>' kept literal.
static std::string md(llvm::StringRef S) {
  std::string Out;
  for (char C : S) {
    if (C == '<')
      Out += "&lt;";
    else if (C == '>')
      Out += "&gt;";
    else if (C == '|')
      Out += "\\|";
    else
      Out += C;
  }
  return Out;
}

void pk::writeCliReference(
    llvm::raw_ostream &OS, const cl::OptionCategory &Cat,
    const std::function<std::vector<std::pair<std::string, std::string>>(
        const cl::Option &)> &Values) {
  OS << "# Command-line reference\n\n"
        "Generated from the option definitions "
        "(`tools/port-kernel/main.cpp`) by `port-kernel "
        "--help-markdown=cli`:\ndo not edit; the test `gate.docs_cli` fails "
        "when this page and the options differ\n(`scripts/gen-docs.sh` "
        "rewrites it).  `port-kernel <command> --help` prints the same.\n\n"
        "## Exit codes\n\n"
        "| exit | meaning |\n|---:|---|\n"
        "| 0 | success; `check`: no findings (with `--baseline`: no new "
        "ones) |\n"
        "| 1 | `check`: findings (with `--baseline`: findings not in the "
        "baseline); `validate`: failed cases |\n"
        "| 2 | usage or input error (unknown option, bad value, unreadable "
        "or unparsable input, bad baseline, bad configuration file); "
        "nothing written |\n"
        "| 3 | `port` wrote outputs that carry error diagnostics (warnings "
        "that WarningsAsErrors promotes included) |\n"
        "| 4 | `port` wrote every file that parses; at least one input does "
        "not parse (PK9100) |\n"
        "| 130 | interrupted (nothing written) |\n";
  std::vector<cl::SubCommand *> Subs;
  for (cl::SubCommand *S : cl::getRegisteredSubcommands())
    if (!S->getName().empty())
      Subs.push_back(S);
  std::sort(Subs.begin(), Subs.end(), [](cl::SubCommand *A, cl::SubCommand *B) {
    return A->getName() < B->getName();
  });
  auto InCat = [&](const cl::Option *O) {
    return llvm::is_contained(O->Categories, &Cat) &&
           O->getOptionHiddenFlag() == cl::NotHidden;
  };
  for (cl::SubCommand *S : Subs) {
    std::vector<const cl::Option *> Opts;
    llvm::SmallPtrSet<const cl::Option *, 32> Seen;
    for (const auto &E : S->OptionsMap)
      if (InCat(E.getValue()) && Seen.insert(E.getValue()).second)
        Opts.push_back(E.getValue());
    std::sort(Opts.begin(), Opts.end(),
              [](const cl::Option *A, const cl::Option *B) {
                return A->ArgStr < B->ArgStr;
              });
    std::string Usage = "port-kernel " + S->getName().str();
    if (!Opts.empty())
      Usage += " [options]";
    for (const cl::Option *P : S->PositionalOpts)
      Usage += " " + P->HelpStr.str();
    OS << "\n## port-kernel " << S->getName() << "\n\n"
       << S->getDescription() << ".\n\n```\n"
       << Usage << "\n```\n";
    if (Opts.empty())
      continue;
    OS << "\n";
    for (const cl::Option *O : Opts) {
      std::string Name = (O->ArgStr.size() == 1 ? "-" : "--") + O->ArgStr.str();
      auto Vals = Values(*O);
      if (O->getValueExpectedFlag() != cl::ValueDisallowed &&
          !(O->getValueExpectedFlag() == cl::ValueOptional)) {
        if (!Vals.empty()) {
          std::vector<std::string> Names;
          for (const auto &V : Vals)
            Names.push_back(V.first);
          Name += "=" + llvm::join(Names, "|");
        } else {
          Name += O->ArgStr.size() == 1 ? " " : "=";
          Name += O->ValueStr.empty() ? "<value>" : O->ValueStr.str();
        }
      }
      OS << "- `" << Name << "`: " << md(O->HelpStr) << "\n";
      for (const auto &V : Vals)
        OS << "  - `" << V.first << "`: " << md(V.second) << "\n";
    }
  }
}

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
        "(`tools/port-kernel/Options.cpp`) by `port-kernel "
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

//===----------------------------------------------------------------------===//
// The man page and the shell completions, from the same definitions.
//===----------------------------------------------------------------------===//

namespace {

struct OptDoc {
  std::string Name; ///< "to" or "o"
  std::string Flag; ///< "--to" or "-o"
  bool TakesValue = false;
  std::string ValueName; ///< "DIR", "<value>"
  std::vector<std::pair<std::string, std::string>> Values;
  std::string Help;
  bool Repeatable = false;
};

struct SubDoc {
  std::string Name, Desc, Positional;
  std::vector<OptDoc> Opts;
};

std::vector<SubDoc>
collectCli(const cl::OptionCategory &Cat,
           const std::function<std::vector<std::pair<std::string, std::string>>(
               const cl::Option &)> &Values) {
  std::vector<SubDoc> Out;
  std::vector<cl::SubCommand *> Subs;
  for (cl::SubCommand *S : cl::getRegisteredSubcommands())
    if (!S->getName().empty())
      Subs.push_back(S);
  std::sort(Subs.begin(), Subs.end(), [](cl::SubCommand *A, cl::SubCommand *B) {
    return A->getName() < B->getName();
  });
  for (cl::SubCommand *S : Subs) {
    SubDoc D;
    D.Name = S->getName().str();
    D.Desc = S->getDescription().str();
    for (const cl::Option *P : S->PositionalOpts)
      D.Positional += (D.Positional.empty() ? "" : " ") + P->HelpStr.str();
    std::vector<const cl::Option *> Opts;
    llvm::SmallPtrSet<const cl::Option *, 32> Seen;
    for (const auto &E : S->OptionsMap)
      if (llvm::is_contained(E.getValue()->Categories, &Cat) &&
          E.getValue()->getOptionHiddenFlag() == cl::NotHidden &&
          Seen.insert(E.getValue()).second)
        Opts.push_back(E.getValue());
    std::sort(Opts.begin(), Opts.end(),
              [](const cl::Option *A, const cl::Option *B) {
                return A->ArgStr < B->ArgStr;
              });
    for (const cl::Option *O : Opts) {
      OptDoc X;
      X.Name = O->ArgStr.str();
      X.Flag = (O->ArgStr.size() == 1 ? "-" : "--") + X.Name;
      X.TakesValue = O->getValueExpectedFlag() != cl::ValueDisallowed &&
                     O->getValueExpectedFlag() != cl::ValueOptional;
      X.ValueName = O->ValueStr.empty() ? "value" : O->ValueStr.str();
      X.Values = Values(*O);
      X.Help = O->HelpStr.str();
      X.Repeatable = O->getNumOccurrencesFlag() == cl::ZeroOrMore ||
                     O->getNumOccurrencesFlag() == cl::OneOrMore;
      D.Opts.push_back(std::move(X));
    }
    Out.push_back(std::move(D));
  }
  return Out;
}

/// roff text: backslashes, hyphens and leading control characters escaped.
std::string roff(llvm::StringRef S) {
  std::string Out;
  bool LineStart = true;
  for (char C : S) {
    if (LineStart && (C == '.' || C == '\''))
      Out += "\\&";
    LineStart = C == '\n';
    if (C == '\\')
      Out += "\\e";
    else if (C == '-')
      Out += "\\-";
    else
      Out += C;
  }
  return Out;
}

void writeMan(llvm::raw_ostream &OS, const std::vector<SubDoc> &Subs) {
  OS << ".\\\" Generated from the option definitions by `port-kernel "
        "--help-markdown=man`:\n"
        ".\\\" do not edit; the test gate.docs_man fails when this page and "
        "the options differ.\n"
        ".TH PORT\\-KERNEL 1 \"\" \"port-kernel\" \"User Commands\"\n"
        ".SH NAME\n"
        "port\\-kernel \\- port CUDA tile kernels to HIP (wave\\-64, MFMA), "
        "modern CUDA and NKI\n"
        ".SH SYNOPSIS\n";
  for (const SubDoc &S : Subs) {
    OS << ".B port\\-kernel " << roff(S.Name) << "\n";
    std::string Args;
    if (!S.Opts.empty())
      Args = "[\\fIoptions\\fR]";
    if (!S.Positional.empty())
      Args +=
          (Args.empty() ? "" : " ") + ("\\fI" + roff(S.Positional) + "\\fR");
    if (!Args.empty())
      OS << Args << "\n";
    OS << ".br\n";
  }
  OS << ".B port\\-kernel\n\\-\\-help | \\-\\-version\n"
        ".SH DESCRIPTION\n"
        "port\\-kernel is a source\\-to\\-source translator of CUDA tile "
        "kernels (shared\\-memory tiles, barriers, warp intrinsics, tensor "
        "cores) to HIP for 64\\-lane AMD waves, to modern CUDA and to NKI, "
        "and a validator that runs each port on a lane\\-exact SIMT CPU "
        "emulator against a reference.\n"
        "`port\\-kernel \\fIcommand\\fR \\-\\-help' lists a command's "
        "options.\n"
        ".SH COMMANDS\n";
  for (const SubDoc &S : Subs) {
    OS << ".SS port\\-kernel " << roff(S.Name) << "\n" << roff(S.Desc) << ".\n";
    for (const OptDoc &O : S.Opts) {
      OS << ".TP\n.B " << roff(O.Flag);
      if (O.TakesValue) {
        OS << (O.Name.size() == 1 ? " " : "=");
        if (!O.Values.empty()) {
          std::vector<std::string> Names;
          for (const auto &V : O.Values)
            Names.push_back(roff(V.first));
          OS << "\\fR" << llvm::join(Names, "|");
        } else {
          OS << "\\fI" << roff(O.ValueName) << "\\fR";
        }
      }
      OS << "\n" << roff(O.Help) << "\n";
      for (const auto &V : O.Values)
        OS << ".RS\n.TP\n.B " << roff(V.first) << "\n"
           << roff(V.second) << "\n.RE\n";
    }
  }
  OS << ".SH EXIT STATUS\n"
        ".TP\n.B 0\nsuccess; check: no findings (with \\-\\-baseline: no new "
        "ones)\n"
        ".TP\n.B 1\ncheck: findings (with \\-\\-baseline: findings not in the "
        "baseline); validate: failed cases\n"
        ".TP\n.B 2\nusage or input error (unknown option, bad value, "
        "unreadable or unparsable input, bad baseline); nothing written\n"
        ".TP\n.B 3\nport wrote outputs that carry error diagnostics\n"
        ".TP\n.B 4\nport wrote every file that parses; at least one input "
        "does not parse (PK9100)\n"
        ".TP\n.B 130\ninterrupted (nothing written)\n"
        ".SH ENVIRONMENT\n"
        ".TP\n.B PORT_KERNEL_DATA_DIR\n"
        "The data directory (bundled CUDA declarations, shims, rename tables, "
        "emulator runtime, NKI simulator).  Default: "
        "\\fIprefix\\fR/share/port\\-kernel next to "
        "\\fIprefix\\fR/bin/port\\-kernel.\n"
        ".TP\n.B PORT_KERNEL_CACHE_DIR\n"
        "Where validate keeps compiled emulator objects, and where the parse "
        "cache lives (its parse/ directory).\n"
        ".TP\n.B PORT_KERNEL_PARSE_CACHE\n"
        "off: parse without the parse cache.  Otherwise the prelude of a "
        "parse (the toolkit's headers) is precompiled the second time a "
        "configuration is seen and loaded from then on, in "
        "$PORT_KERNEL_CACHE_DIR/parse, else $XDG_CACHE_HOME/port\\-kernel/parse "
        "or ~/.cache/port\\-kernel/parse.\n"
        ".SH FILES\n"
        ".TP\n.I /usr/share/port\\-kernel\n"
        "The data directory of the package.\n"
        ".SH SEE ALSO\n"
        "\\fBclang\\fR(1); `port\\-kernel explain \\fIID\\fR' prints the "
        "documentation of a rule; `port\\-kernel rules' lists them.\n";
}

/// A word for a single-quoted shell string.
std::string shq(llvm::StringRef S) {
  std::string Out = "'";
  for (char C : S) {
    if (C == '\'')
      Out += "'\\''";
    else
      Out += C;
  }
  return Out + "'";
}

/// A shell identifier made of \p S ("merge-reports" -> "merge_reports").
std::string ident(llvm::StringRef S) {
  std::string Out;
  for (char C : S)
    Out += llvm::isAlnum(C) ? C : '_';
  return Out;
}

void writeBash(llvm::raw_ostream &OS, const std::vector<SubDoc> &Subs) {
  std::vector<std::string> Names;
  for (const SubDoc &S : Subs)
    Names.push_back(S.Name);
  OS << "# bash completion for port-kernel.\n"
        "# Generated from the option definitions by `port-kernel "
        "--help-markdown=bash`:\n"
        "# do not edit; the test gate.docs_bash fails when this file and the "
        "options differ.\n"
        "_port_kernel() {\n"
        "  local cur=${COMP_WORDS[COMP_CWORD]} prev=\n"
        "  ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD-1]}\n"
        "  local cmd= i\n"
        "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
        "    case ${COMP_WORDS[i]} in\n"
        "      "
     << llvm::join(Names, "|")
     << ") cmd=${COMP_WORDS[i]}; break ;;\n"
        "    esac\n"
        "  done\n"
        "  COMPREPLY=()\n"
        "  if [[ -z $cmd ]]; then\n"
        "    if [[ $cur == -* ]]; then\n"
        "      mapfile -t COMPREPLY < <(compgen -W '--help --version' -- "
        "\"$cur\")\n"
        "    else\n"
        "      mapfile -t COMPREPLY < <(compgen -W "
     << shq(llvm::join(Names, " "))
     << " -- \"$cur\")\n"
        "    fi\n"
        "    return 0\n"
        "  fi\n"
        "  # The option whose value is being completed: --opt=VALUE is split "
        "at '='.\n"
        "  local opt= val=$cur\n"
        "  if [[ $cur == = ]]; then\n"
        "    opt=$prev val=\n"
        "  elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then\n"
        "    opt=${COMP_WORDS[COMP_CWORD-2]}\n"
        "  elif [[ $cur == --*=* ]]; then\n"
        "    opt=${cur%%=*} val=${cur#*=}\n"
        "  elif [[ $prev == -? ]]; then\n"
        "    opt=$prev\n"
        "  fi\n"
        "  local opts= values= takes=\n"
        "  case $cmd in\n";
  for (const SubDoc &S : Subs) {
    std::vector<std::string> Flags, Takes;
    for (const OptDoc &O : S.Opts) {
      Flags.push_back(O.Flag + (O.TakesValue && O.Name.size() > 1 ? "=" : ""));
      if (O.TakesValue)
        Takes.push_back(O.Flag);
    }
    Flags.push_back("--help");
    OS << "    " << S.Name << ")\n"
       << "      opts=" << shq(llvm::join(Flags, " ")) << "\n"
       << "      takes=" << shq(" " + llvm::join(Takes, " ") + " ") << "\n";
    bool Any = false;
    for (const OptDoc &O : S.Opts)
      if (!O.Values.empty()) {
        if (!Any)
          OS << "      case $opt in\n";
        Any = true;
        std::vector<std::string> V;
        for (const auto &P : O.Values)
          V.push_back(P.first);
        OS << "        " << O.Flag << ") values=" << shq(llvm::join(V, " "))
           << " ;;\n";
      }
    if (Any)
      OS << "      esac\n";
    OS << "      ;;\n";
  }
  OS << "  esac\n"
        "  if [[ -n $opt && $takes == *\" $opt \"* ]]; then\n"
        "    if [[ -n $values ]]; then\n"
        "      mapfile -t COMPREPLY < <(compgen -W \"$values\" -- \"$val\")\n"
        "    else\n"
        "      compopt -o filenames 2>/dev/null\n"
        "      mapfile -t COMPREPLY < <(compgen -f -- \"$val\")\n"
        "    fi\n"
        "    return 0\n"
        "  fi\n"
        "  if [[ $cur == -* ]]; then\n"
        "    mapfile -t COMPREPLY < <(compgen -W \"$opts\" -- \"$cur\")\n"
        "    [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]] && "
        "compopt -o nospace 2>/dev/null\n"
        "    return 0\n"
        "  fi\n"
        "  compopt -o filenames 2>/dev/null\n"
        "  mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")\n"
        "  return 0\n"
        "}\n"
        "complete -F _port_kernel port-kernel\n";
}

/// Text for a zsh _arguments description: in single quotes, with '[', ']'
/// and ':' escaped.
std::string zdesc(llvm::StringRef S) {
  std::string Out;
  for (char C : S) {
    if (C == '[' || C == ']' || C == ':' || C == '\\')
      Out += '\\';
    if (C == '\'')
      Out += "'\\''";
    else
      Out += C;
  }
  return Out;
}

void writeZsh(llvm::raw_ostream &OS, const std::vector<SubDoc> &Subs) {
  OS << "#compdef port-kernel\n"
        "# zsh completion for port-kernel.\n"
        "# Generated from the option definitions by `port-kernel "
        "--help-markdown=zsh`:\n"
        "# do not edit; the test gate.docs_zsh fails when this file and the "
        "options differ.\n";
  for (const SubDoc &S : Subs) {
    OS << "\n_port_kernel_" << ident(S.Name) << "() {\n"
       << "  _arguments -s -S \\\n";
    for (const OptDoc &O : S.Opts) {
      OS << "    '" << (O.Repeatable ? "*" : "") << O.Flag;
      if (O.TakesValue)
        OS << (O.Name.size() == 1 ? "+" : "=");
      OS << "[" << zdesc(O.Help) << "]";
      if (O.TakesValue) {
        OS << ":" << zdesc(O.ValueName) << ":";
        if (!O.Values.empty()) {
          std::vector<std::string> V;
          for (const auto &P : O.Values)
            V.push_back(zdesc(P.first));
          OS << "(" << llvm::join(V, " ") << ")";
        } else if (O.ValueName.find("DIR") != std::string::npos) {
          OS << "_files -/";
        } else if (O.ValueName.find("FILE") != std::string::npos ||
                   O.Name == "rules" || O.Name == "program") {
          OS << "_files";
        } else {
          OS << " "; // a value to type: the message only
        }
      }
      OS << "' \\\n";
    }
    OS << "    '(- *)--help[Show the options of " << zdesc(S.Name) << "]' \\\n";
    if (!S.Positional.empty())
      OS << "    '*:" << zdesc(S.Positional) << ":_files'\n";
    else
      OS << "    && return 0\n";
    OS << "}\n";
  }
  OS << "\n_port_kernel() {\n"
        "  local curcontext=$curcontext state line\n"
        "  local -a commands\n"
        "  commands=(\n";
  for (const SubDoc &S : Subs)
    OS << "    '" << zdesc(S.Name) << ":" << zdesc(S.Desc) << "'\n";
  OS << "  )\n"
        "  _arguments -C \\\n"
        "    '(- *)--help[Show the commands and options]' \\\n"
        "    '(- *)--version[Print the version]' \\\n"
        "    '1:command:->command' \\\n"
        "    '*::argument:->argument' && return 0\n"
        "  case $state in\n"
        "    command) _describe -t commands 'port-kernel command' commands ;;\n"
        "    argument)\n"
        "      case $line[1] in\n";
  for (const SubDoc &S : Subs)
    OS << "        " << S.Name << ") _port_kernel_" << ident(S.Name) << " ;;\n";
  OS << "      esac ;;\n"
        "  esac\n"
        "}\n"
        "\n"
        "_port_kernel \"$@\"\n";
}

} // namespace

bool pk::writeCliDoc(
    llvm::StringRef Format, llvm::raw_ostream &OS,
    const cl::OptionCategory &Cat,
    const std::function<std::vector<std::pair<std::string, std::string>>(
        const cl::Option &)> &Values) {
  if (Format == "cli") {
    writeCliReference(OS, Cat, Values);
    return true;
  }
  if (Format != "man" && Format != "bash" && Format != "zsh")
    return false;
  std::vector<SubDoc> Subs = collectCli(Cat, Values);
  if (Format == "man")
    writeMan(OS, Subs);
  else if (Format == "bash")
    writeBash(OS, Subs);
  else
    writeZsh(OS, Subs);
  return true;
}

#!/usr/bin/env bash
# Regenerates the generated pages from a built port-kernel:
#   docs/cli.md          (port-kernel --help-markdown=cli: the option definitions)
#   docs/rules/README.md (port-kernel --help-markdown=rules: the rule table)
#   docs/man/port-kernel.1, completions/port-kernel.bash, completions/_port-kernel
#                        (--help-markdown=man|bash|zsh: the man page and the
#                        bash and zsh completions, from the option definitions)
# Usage: scripts/gen-docs.sh [BUILD_DIR]   (default: build)
# The tests gate.docs_{cli,rules,man,bash,zsh} fail when these files are stale.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${1:-$ROOT/build}"
PK="$BUILD_DIR/bin/port-kernel"
[ -x "$PK" ] || { echo "gen-docs: $PK not built" >&2; exit 2; }
"$PK" --help-markdown=cli >"$ROOT/docs/cli.md.tmp"
mv "$ROOT/docs/cli.md.tmp" "$ROOT/docs/cli.md"
"$PK" --help-markdown=rules >"$ROOT/docs/rules/README.md.tmp"
mv "$ROOT/docs/rules/README.md.tmp" "$ROOT/docs/rules/README.md"
mkdir -p "$ROOT/docs/man" "$ROOT/completions"
for pair in "man|docs/man/port-kernel.1" "bash|completions/port-kernel.bash" \
            "zsh|completions/_port-kernel"; do
  page=${pair%%|*} file=$ROOT/${pair#*|}
  "$PK" --help-markdown="$page" >"$file.tmp"
  mv "$file.tmp" "$file"
done
echo "gen-docs: wrote docs/cli.md, docs/rules/README.md, docs/man/port-kernel.1 and completions/"

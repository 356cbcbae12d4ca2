#!/usr/bin/env bash
# Regenerates the generated pages from a built port-kernel:
#   docs/cli.md          (port-kernel --help-markdown=cli: the option definitions)
#   docs/rules/README.md (port-kernel --help-markdown=rules: the rule table)
# Usage: scripts/gen-docs.sh [BUILD_DIR]   (default: build)
# The tests gate.docs_cli and gate.docs_rules fail when these pages are stale.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${1:-$ROOT/build}"
PK="$BUILD_DIR/bin/port-kernel"
[ -x "$PK" ] || { echo "gen-docs: $PK not built" >&2; exit 2; }
"$PK" --help-markdown=cli >"$ROOT/docs/cli.md.tmp"
mv "$ROOT/docs/cli.md.tmp" "$ROOT/docs/cli.md"
"$PK" --help-markdown=rules >"$ROOT/docs/rules/README.md.tmp"
mv "$ROOT/docs/rules/README.md.tmp" "$ROOT/docs/rules/README.md"
echo "gen-docs: wrote docs/cli.md and docs/rules/README.md"

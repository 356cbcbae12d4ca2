#!/usr/bin/env bash
# Checks (default) or applies (--fix) the project's C++ style (.clang-format,
# LLVM style) on lib/ and tools/. Bundled CUDA declarations and the rule and
# target tables (.def, laid out as tables) are left as written.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CF="${CLANG_FORMAT:-clang-format-19}"
command -v "$CF" >/dev/null || { echo "format.sh: $CF not found (scripts/setup.sh installs it)" >&2; exit 2; }
cd "$ROOT"
mapfile -t FILES < <(git ls-files lib tools 2>/dev/null | grep -E '\.(cpp|h|hpp|cc|inc)$' |
                     grep -v -E '^lib/Frontend/(cuda-decls|cuda13-shim)/' || true)
if ((${#FILES[@]} == 0)); then   # not a git checkout: walk the tree
  mapfile -t FILES < <(find lib tools -type f \( -name '*.cpp' -o -name '*.h' -o -name '*.hpp' \
                       -o -name '*.cc' -o -name '*.inc' \) -not -path 'lib/Frontend/cuda-decls/*' \
                       -not -path 'lib/Frontend/cuda13-shim/*' | sort)
fi
if [[ "${1:-}" == "--fix" ]]; then
  "$CF" -i "${FILES[@]}"
  echo "format.sh: formatted ${#FILES[@]} files"
else
  if ! "$CF" --dry-run --Werror "${FILES[@]}"; then
    echo "format.sh: files above differ from .clang-format; run scripts/format.sh --fix" >&2
    exit 1
  fi
  echo "format.sh: ${#FILES[@]} files follow .clang-format"
fi

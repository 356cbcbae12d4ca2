#!/usr/bin/env bash
# No pass derives from clang's RecursiveASTVisitor: each class that does
# instantiates the whole traversal again (6 to 10 s of build each; 43 of
# them were over half of the cold build).  Passes derive from
# pk::DynamicASTVisitor (pk/DynamicVisitor.h), the traversal instantiated
# once; only the parent index, which overrides more of it, keeps its own,
# and so does its test's oracle.
# Usage: check_ast_visitors.sh SRC_ROOT
set -euo pipefail
SRC="$1"
HITS="$(grep -rnE 'RecursiveASTVisitor *<' "$SRC/lib" "$SRC/tools" "$SRC/test" --include='*.cpp' --include='*.h' |
        grep -v '^[^:]*:[0-9]*: *//' |
        grep -vE '^[^:]*/(lib/Frontend/(ParentIndex|DynamicVisitor)|test/unit/ParentIndexTest)\.cpp:' || true)"
if [ -n "$HITS" ]; then
  echo "FAIL: these instantiate clang's RecursiveASTVisitor; derive from pk::DynamicASTVisitor (pk/DynamicVisitor.h):"
  echo "$HITS"
  exit 1
fi
echo "RecursiveASTVisitor is instantiated only by pk/DynamicVisitor.h and the parent index"

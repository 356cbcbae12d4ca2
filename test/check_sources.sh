#!/usr/bin/env bash
# Source rules that keep the build and the passes cheap; each is a ctest
# (suite.<RULE>) that fails naming the lines that break it.
#
#   parent-map    No pass builds clang's parent map: ASTContext::getParents
#                 and the matchers that walk upwards (hasParent, hasAncestor,
#                 forFunction, forCallable) build it over the whole traversal
#                 scope, TypeLocs included (about half the heap of a large
#                 file).  Passes ask UserSource::parents (pk/ParentIndex.h),
#                 which gives the same parents (unit test ParentIndex.*).
#   ast-visitors  No pass derives from clang's RecursiveASTVisitor: each class
#                 that does instantiates the whole traversal again (6 to 10 s
#                 of build each; 43 of them were over half of the cold build).
#                 Passes derive from pk::DynamicASTVisitor (pk/DynamicVisitor.h),
#                 the traversal instantiated once; only the parent index, which
#                 overrides most of it, keeps its own, and so does its test's
#                 oracle.
#
# Usage: check_sources.sh SRC_ROOT RULE
set -euo pipefail
SRC="$1"; RULE="$2"
case "$RULE" in
parent-map)
  PATTERN='(\.|->)getParents\(|\b(hasParent|hasAncestor|forFunction|forCallable|forEachAncestor)\('
  DIRS=("$SRC/lib" "$SRC/tools")
  ALLOWED='^[^:]*/lib/Frontend/(ParentIndex\.cpp|include/pk/ParentIndex\.h):'
  WHY="these build clang's parent map; use UserSource::parents (pk/ParentIndex.h)"
  OK="no use of clang's parent map outside pk/ParentIndex.h" ;;
ast-visitors)
  PATTERN='RecursiveASTVisitor *<'
  DIRS=("$SRC/lib" "$SRC/tools" "$SRC/test")
  ALLOWED='^[^:]*/(lib/Frontend/(ParentIndex|DynamicVisitor)|test/unit/ParentIndexTest)\.cpp:'
  WHY="these instantiate clang's RecursiveASTVisitor; derive from pk::DynamicASTVisitor (pk/DynamicVisitor.h)"
  OK="RecursiveASTVisitor is instantiated only by pk/DynamicVisitor.h and the parent index" ;;
*) echo "usage: $0 SRC_ROOT parent-map|ast-visitors" >&2; exit 2 ;;
esac
# Comment lines do not count.
HITS="$(grep -rnE "$PATTERN" "${DIRS[@]}" --include='*.cpp' --include='*.h' |
        grep -v '^[^:]*:[0-9]*: *//' | grep -vE "$ALLOWED" || true)"
if [ -n "$HITS" ]; then
  echo "FAIL: $WHY:"
  echo "$HITS"
  exit 1
fi
echo "$OK"

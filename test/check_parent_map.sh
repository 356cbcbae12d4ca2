#!/usr/bin/env bash
# No pass builds clang's parent map: ASTContext::getParents and the matchers
# that walk upwards (hasParent, hasAncestor, forFunction, forCallable) build
# it over the whole traversal scope, TypeLocs included (about half the heap
# of a large file).  Passes ask UserSource::parents (pk/ParentIndex.h)
# instead, which gives the same parents (unit test ParentIndex.*).
# Usage: check_parent_map.sh SRC_ROOT
set -euo pipefail
SRC="$1"
HITS="$(grep -rnE '(\.|->)getParents\(|\b(hasParent|hasAncestor|forFunction|forCallable|forEachAncestor)\(' \
          "$SRC/lib" "$SRC/tools" --include='*.cpp' --include='*.h' |
        grep -v '^[^:]*:[0-9]*: *//' |
        grep -vE '^[^:]*/lib/Frontend/(ParentIndex\.cpp|include/pk/ParentIndex\.h):' || true)"
if [ -n "$HITS" ]; then
  echo "FAIL: these build clang's parent map; use UserSource::parents (pk/ParentIndex.h):"
  echo "$HITS"
  exit 1
fi
echo "no use of clang's parent map outside pk/ParentIndex.h"

#!/usr/bin/env bash
# check_docs.sh PK PAGE DOC: DOC equals `PK --help-markdown=PAGE`.
set -u
pk=$1 page=$2 doc=$3
gen=$(mktemp)
trap 'rm -f "$gen"' EXIT
"$pk" --help-markdown="$page" >"$gen" || { echo "FAIL: --help-markdown=$page failed"; exit 1; }
if ! diff -u "$doc" "$gen"; then
  echo "FAIL: $doc is not what 'port-kernel --help-markdown=$page' generates;"
  echo "      run scripts/gen-docs.sh BUILD_DIR and commit the result"
  exit 1
fi
echo "PASS: $doc is up to date"

#!/bin/sh
# rules.nvcc_legacy_outputs: the CUDA outputs of the legacy-CUDA rule tests
# (test/rules/lit/PK6001-PK6029) compile with nvcc for sm_90.  An output that
# still calls a function the toolkit removed (flagged "is no longer declared
# by the CUDA toolkit", PK6010) must fail, naming it.  Skipped (exit 77)
# where nvcc is not installed.
# Usage: nvcc_legacy_outputs.sh PORT_KERNEL SOURCE_DIR [NVCC]
set -u
PK=$1
SRC=$2
NVCC=${3:-/usr/local/cuda/bin/nvcc}
if [ ! -x "$NVCC" ]; then
  echo "SKIP: no nvcc at $NVCC"
  exit 77
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0
for f in "$SRC"/test/rules/lit/PK60[0-2][0-9].cu; do
  name=$(basename "$f")
  if ! "$PK" port -q --to cuda -o "$TMP/out" "$f" >"$TMP/port.log" 2>&1; then
    rc=$?
    # exit 3: outputs with error diagnostics are written; anything else is a failure
    if [ $rc -ne 3 ]; then
      echo "FAIL: $name: port exited $rc"; cat "$TMP/port.log"; fail=1; continue
    fi
  fi
  out="$TMP/out/cuda/$name"
  removed=$(sed -n 's|^ *// port-kernel: warning: \([A-Za-z_0-9]*\) is no longer declared by the CUDA toolkit.*|\1|p' "$out")
  if "$NVCC" -arch=sm_90 -std=c++17 -c -o "$TMP/o.o" "$out" >"$TMP/nvcc.log" 2>&1; then
    if [ -n "$removed" ]; then
      echo "FAIL: $name: nvcc accepted an output that calls $removed"; fail=1
    else
      echo "ok: $name"
    fi
  else
    if [ -n "$removed" ]; then
      for r in $removed; do
        grep -q "$r" "$TMP/nvcc.log" || { echo "FAIL: $name: nvcc failed, not on $r"; cat "$TMP/nvcc.log"; fail=1; }
      done
      # Every error must be about a flagged function.
      if grep "error:" "$TMP/nvcc.log" | grep -v -e "$(echo $removed | sed 's/ /\\|/g')" | grep -q .; then
        echo "FAIL: $name: nvcc errors beyond the flagged functions"; cat "$TMP/nvcc.log"; fail=1
      else
        echo "ok: $name (rejects $removed, as flagged)"
      fi
    else
      echo "FAIL: $name: nvcc -arch=sm_90 rejects the CUDA output"; cat "$TMP/nvcc.log"; fail=1
    fi
  fi
  rm -rf "$TMP/out"
done
exit $fail

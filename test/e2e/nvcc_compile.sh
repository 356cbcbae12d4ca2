#!/usr/bin/env bash
# Every CUDA output compiles with nvcc for sm_90: the CUDA outputs of
# corpus/ (CUDA and HIP cases), of test/programs/, and of the corpus round
# trip (CUDA -> HIP -> CUDA).  Without nvcc the test is skipped (exit 77,
# SKIP_RETURN_CODE) with a message.
# Usage: nvcc_compile.sh BIN SRC_ROOT SET   (SET: corpus, programs, roundtrip)
set -euo pipefail
BIN="$1"; SRC="$2"; SET="$3"
NVCC="${NVCC:-/usr/local/cuda/bin/nvcc}"
if [ ! -x "$NVCC" ]; then
  echo "SKIP: $NVCC not found (no CUDA toolkit): CUDA outputs not compiled"
  exit 77
fi
TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT

port() { # port DEST ARGS... (the CUDA outputs land under DEST/cuda)
  local dest="$1"; shift
  if ! "$BIN" port -q --to cuda -o "$dest" "$@" 2>"$TMP/port.err"; then
    echo "FAIL: port --to cuda $*"; cat "$TMP/port.err"; exit 1
  fi
}

case "$SET" in
corpus)
  port "$TMP/out" "$SRC/corpus"
  dirs=("$TMP/out/cuda") ;;
programs)
  # program.conf (optional) gives PORT_ARGS and CC_ARGS (e.g. -DWARP_SIZE=32).
  dirs=()
  for p in "$SRC"/test/programs/*/; do
    [ -e "$p/main.cu" ] || continue
    name=$(basename "$p")
    PORT_ARGS=""; CC_ARGS=""
    if [ -f "$p/program.conf" ]; then . "$p/program.conf"; fi
    # shellcheck disable=SC2086
    port "$TMP/out/$name" $PORT_ARGS "$p"
    echo "$CC_ARGS" > "$TMP/out/$name/cuda/.cc_args"
    dirs+=("$TMP/out/$name/cuda")
  done ;;
roundtrip)
  # ROCm 5's bf16 type: the HIP outputs are parsed with Debian's ROCm 5.2
  # headers when they are ported back.
  if ! "$BIN" port -q --to hip --rocm-version=5 -o "$TMP/hip" "$SRC/corpus" 2>"$TMP/port.err"; then
    echo "FAIL: port --to hip corpus/"; cat "$TMP/port.err"; exit 1
  fi
  port "$TMP/out" "$TMP/hip/hip"
  dirs=("$TMP/out/cuda") ;;
*) echo "usage: $0 BIN SRC_ROOT corpus|programs|roundtrip"; exit 2 ;;
esac

# Files that another output includes (main.cu including kernels.cu) are
# compiled through it: compile only the files no other output includes.
fails=0; n=0
while IFS= read -r f; do
  base=$(basename "$f")
  if grep -rqs --include='*.cu' --include='*.cuh' "#include \"$base\"" "$(dirname "$f")"; then
    continue
  fi
  n=$((n+1))
  cc_args=""
  for d in "${dirs[@]}"; do
    case "$f" in "$d"/*) [ -f "$d/.cc_args" ] && cc_args=$(cat "$d/.cc_args") ;; esac
  done
  # shellcheck disable=SC2086
  if ! "$NVCC" -arch=sm_90 -c -O0 -w $cc_args -o "$TMP/x.o" "$f" >"$TMP/cc.err" 2>&1; then
    echo "FAIL: nvcc ${f#$TMP/}"; grep -m5 error "$TMP/cc.err" || tail -5 "$TMP/cc.err"
    fails=$((fails+1))
  fi
done < <(for d in "${dirs[@]}"; do find "$d" -name '*.cu'; done | sort)
echo "$SET: $n CUDA outputs compiled with nvcc -arch=sm_90, $fails failures"
[ "$n" -gt 0 ] && [ "$fails" -eq 0 ]

#!/usr/bin/env bash
# Sharded checking of a large repository: `check --shard K/N` over a generated
# tree of FILES translation units (default 10,000; each one copy of the
# block-reduction kernel of scripts/bench-scale.sh with its own names, 100
# files per directory), every shard one after the other at -j 1, in ROUNDS
# rounds (default 2) that alternate the order (1..N, then N..1) so that a
# drift of the machine's speed over the run falls on every shard alike; each
# shard's time is its fastest round.  Then `merge-reports` of the first 8,
# 16, 32 and all N shard reports.
#
# Prints, per shard, its files, wall and CPU seconds and its time share over
# its file share (1.00 = the shard took exactly its share of the time); the
# spread of that ratio over the shards (the goal: every shard within
# 0.90-1.10); and, per merge, the input size, the time and the time per MB
# of input (linear: the same per MB at every size; the last line is the
# ratio of the largest merge's time per MB to the smallest's). The merged
# report must hold every shard's findings: the script fails otherwise.
#
# Usage: scripts/bench-shards.sh [-b BIN] [-n FILES] [-s SHARDS] [-r ROUNDS] [-w WORKDIR] [-k]
#   -b  the port-kernel binary (default: $BUILD_DIR/bin/port-kernel, BUILD_DIR
#       defaulting to build)
#   -n  translation units in the tree (default 10000)
#   -s  shards (default 64)
#   -r  rounds over all shards (default 2; the fastest of each shard's counts)
#   -w  where the tree, the reports and the parse cache go (default: a
#       temporary directory)
#   -k  keep the work directory
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="${BUILD_DIR:-$ROOT/build}/bin/port-kernel"
NFILES=10000
SHARDS=64
WORK=""
KEEP=0
ROUNDS=2
while getopts "b:n:s:r:w:k" opt; do
  case "$opt" in
  b) BIN="$OPTARG" ;;
  n) NFILES="$OPTARG" ;;
  s) SHARDS="$OPTARG" ;;
  r) ROUNDS="$OPTARG" ;;
  w) WORK="$OPTARG" ;;
  k) KEEP=1 ;;
  *) sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
  esac
done
[[ -x "$BIN" ]] || { echo "bench-shards: error: no port-kernel binary at $BIN (use -b)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "bench-shards: error: /usr/bin/time is needed (scripts/setup.sh installs it)" >&2; exit 2; }
[[ "$NFILES" =~ ^[1-9][0-9]*$ ]] || { echo "bench-shards: error: -n needs a positive number" >&2; exit 2; }
[[ "$SHARDS" =~ ^[1-9][0-9]*$ && "$SHARDS" -ge 8 ]] || { echo "bench-shards: error: -s needs a number >= 8" >&2; exit 2; }
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || { echo "bench-shards: error: -r needs a positive number" >&2; exit 2; }
if [[ -z "$WORK" ]]; then
  WORK="$(mktemp -d "${TMPDIR:-/tmp}/pk-bench-shards.XXXXXX")"
  [[ "$KEEP" == 1 ]] || trap 'rm -rf "$WORK"' EXIT
fi
mkdir -p "$WORK"
# A parse cache of the run's own, warmed before the shards so that no shard
# pays for building the precompiled prelude.
export PORT_KERNEL_CACHE_DIR="$WORK/cache"

# The tree: scripts/bench-scale.sh writes enough copies into one file, which
# is cut at its copy markers, one translation unit per copy.
TREE="$WORK/tree"
rm -rf "$TREE"
mkdir -p "$TREE"
# One copy is about 2.6 KB.
MB="$(awk -v n="$NFILES" 'BEGIN { printf "%.3f", n * 2700 / 1048576 }')"
"$ROOT/scripts/bench-scale.sh" --generate "$MB" "$WORK/all.cu"
awk -v tree="$TREE" -v max="$NFILES" '
  BEGIN { n = -1 }
  /^\/\/ ---- copy / {
    if (f != "") close(f)
    if (++n >= max) exit
    d = sprintf("%s/d%03d", tree, int(n / 100))
    if (n % 100 == 0) system("mkdir -p " d)
    f = sprintf("%s/k%05d.cu", d, n)
    print "#include <cuda_runtime.h>\n" > f
  }
  n >= 0 { print >> f }' "$WORK/all.cu"
rm -f "$WORK/all.cu"
MADE="$(find "$TREE" -name '*.cu' | wc -l)"
[[ "$MADE" -eq "$NFILES" ]] || { echo "bench-shards: error: generated $MADE files, not $NFILES" >&2; exit 1; }

# Warm the parse cache: its PCH is built on the second sighting of a
# configuration.
mkdir -p "$WORK/warm"
for i in 1 2 3; do
  "$BIN" check -q --to hip --format=json --output="$WORK/warm/r.json" "$TREE/d000/k00000.cu" \
    >/dev/null 2>&1 || true
done

seconds() { # time -v output: wall seconds
  sed -n 's/^.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$1" |
    awk -F: '{ s = 0; for (i = 1; i <= NF; ++i) s = s * 60 + $i; printf "%.2f", s }'
}
cpu() { awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.2f", s }' "$1"; }

echo "port-kernel sharded check: $NFILES files, $SHARDS shards, check --to hip -j 1 per shard, fastest of $ROUNDS rounds"
echo "cores: $(nproc)  cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
mkdir -p "$WORK/shards"
: >"$WORK/rounds.txt"
for ((r = 1; r <= ROUNDS; ++r)); do
for ((i = 1; i <= SHARDS; ++i)); do
  k=$i
  (( r % 2 == 0 )) && k=$((SHARDS + 1 - i))
  OUT="$WORK/shards/s$k.json"
  RC=0
  /usr/bin/time -v -o "$WORK/shards/t$k.txt" \
    "$BIN" check -q -j 1 --to hip --shard "$k/$SHARDS" --src-root "$TREE" --format=json \
      --output="$OUT" "$TREE" >"$WORK/shards/log$k.txt" 2>&1 || RC=$?
  # check exits 1 when it finds something: anything else is a failure.
  [[ "$RC" -le 1 && -s "$OUT" ]] || {
    echo "bench-shards: error: shard $k/$SHARDS failed (exit $RC):" >&2; tail -5 "$WORK/shards/log$k.txt" >&2; exit 1; }
  FILES="$(/usr/bin/python3 -c 'import json, sys; print(len({f["file"] for f in json.load(open(sys.argv[1]))["findings"]}))' "$OUT")"
  echo "$k $FILES $(seconds "$WORK/shards/t$k.txt") $(cpu "$WORK/shards/t$k.txt")" >>"$WORK/rounds.txt"
done
done
# Each shard's fastest round (wall and CPU separately).
awk '{ k = $1; f[k] = $2
       if (!(k in w) || $3 < w[k]) w[k] = $3
       if (!(k in c) || $4 < c[k]) c[k] = $4 }
     END { for (k in f) print k, f[k], w[k], c[k] }' "$WORK/rounds.txt" | sort -n >"$WORK/shards.txt"
awk -v nfiles="$NFILES" '
  { k[NR] = $1; f[NR] = $2; w[NR] = $3; c[NR] = $4; F += $2; W += $3; C += $4 }
  END {
    if (F != nfiles) { printf "bench-shards: error: the shards checked %d files, not %d\n", F, nfiles > "/dev/stderr"; exit 1 }
    printf "%6s %6s %8s %8s %12s %12s\n", "shard", "files", "wall s", "CPU s", "wall share", "CPU share"
    lo = 1e9; hi = 0; clo = 1e9; chi = 0
    for (i = 1; i <= NR; ++i) {
      # A shard without files (a small tree) has no share to compare.
      if (f[i] == 0) { r = "-"; q = "-" }
      else {
        r = (w[i] / W) / (f[i] / F); q = (c[i] / C) / (f[i] / F)
        if (r < lo) lo = r; if (r > hi) hi = r; if (q < clo) clo = q; if (q > chi) chi = q
        r = sprintf("%.3f", r); q = sprintf("%.3f", q)
      }
      if (i <= 4 || i > NR - 2) printf "%6d %6d %8.2f %8.2f %12s %12s\n", k[i], f[i], w[i], c[i], r, q
      else if (i == 5) printf "%6s\n", "..."
    }
    printf "all %d shards: %d files, wall %.1f s, CPU %.1f s; files per shard %d to %d\n", NR, F, W, C, fmin(f), fmax(f)
    printf "time share / file share over the shards: wall %.3f to %.3f, CPU %.3f to %.3f (goal: within 0.90-1.10)\n", lo, hi, clo, chi
  }
  function fmin(a,  i, m) { m = a[1]; for (i in a) if (a[i] < m) m = a[i]; return m }
  function fmax(a,  i, m) { m = a[1]; for (i in a) if (a[i] > m) m = a[i]; return m }' "$WORK/shards.txt"

# merge-reports of the first 8, 16, 32, ... and all shards.
echo
printf '%8s %10s %12s %8s %10s\n' "shards" "findings" "input MB" "wall s" "s per MB"
FIRST=""; LAST=""
COUNTS=()
for ((n = 8; n < SHARDS; n *= 2)); do COUNTS+=("$n"); done
COUNTS+=("$SHARDS")
for n in "${COUNTS[@]}"; do
  INS=()
  for ((k = 1; k <= n; ++k)); do INS+=("$WORK/shards/s$k.json"); done
  rm -f "$WORK/merged-$n.json"
  /usr/bin/time -v -o "$WORK/merge-t$n.txt" "$BIN" merge-reports "$WORK/merged-$n.json" "${INS[@]}" \
    >"$WORK/merge-log$n.txt" 2>&1 || {
    echo "bench-shards: error: merge-reports of $n shards failed:" >&2; tail -5 "$WORK/merge-log$n.txt" >&2; exit 1; }
  BYTES="$(cat "${INS[@]}" | wc -c)"
  WANT="$(/usr/bin/python3 -c 'import json, sys; print(sum(len(json.load(open(p))["findings"]) for p in sys.argv[1:]))' "${INS[@]}")"
  GOT="$(/usr/bin/python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["findings"]))' "$WORK/merged-$n.json")"
  [[ "$GOT" -eq "$WANT" ]] || { echo "bench-shards: error: merged $GOT findings of $n shards, which hold $WANT" >&2; exit 1; }
  WALL="$(seconds "$WORK/merge-t$n.txt")"
  PER="$(awk -v w="$WALL" -v b="$BYTES" 'BEGIN { printf "%.3f", w / (b / 1048576) }')"
  printf '%8s %10s %12.2f %8s %10s\n' "$n" "$GOT" "$(awk -v b="$BYTES" 'BEGIN { print b / 1048576 }')" "$WALL" "$PER"
  [[ -n "$FIRST" ]] || FIRST="$PER"
  LAST="$PER"
done
awk -v a="$FIRST" -v b="$LAST" -v s="$SHARDS" 'BEGIN {
  printf "merge time per MB, %d shards / 8 shards: %.2f (1.00 = linear)\n", s, (a > 0 ? b / a : 0) }'

#!/usr/bin/env bash
# Translation speed of `port-kernel port --to hip,cuda`: files per second and
# peak memory (/usr/bin/time -v) on corpus/ and on a generated large tree
# (corpus kernels copied under new names, their headers kept next to them),
# at -j 1 and -j 2; the tree also to all three targets (hip,cuda,nki) and
# without the parse cache (PORT_KERNEL_PARSE_CACHE=off); and the ratio of
# each -j 1 port of the tree to a bare `clang++-19 -fsyntax-only` of the same
# files with the flags port-kernel parses CUDA with (one clang process per
# file, one after the other, like `port -j 1`).  The parse cache starts
# empty (a directory of the work directory): the runs include building its
# PCH.  Prints a short table and the figures last recorded in
# docs/performance.md ("Translation speed") next to today's.
#
# Usage: scripts/bench-translate.sh [-b BIN] [-n FILES] [-w WORKDIR] [-k] [--quick|--scaling]
#   -b       the port-kernel binary (default: $BUILD_DIR/bin/port-kernel,
#            BUILD_DIR defaulting to build)
#   -n       files in the generated tree (default 500; 2000 with --scaling)
#   -w       where the tree and the outputs go (default: a temporary directory)
#   -k       keep the work directory
#   --quick  a smoke run: a 3-file tree at -j 1 only, no corpus/ runs
#   --scaling  parallel scaling only: the tree also holds the programs of
#            test/programs/ (those that parse without extra flags), ported
#            at -j 1 and -j 2; prints the -j 2 / -j 1 throughput (goal
#            >= 1.8) and the peak memory of each
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="${BUILD_DIR:-$ROOT/build}/bin/port-kernel"
NFILES=500
WORK=""
KEEP=0
QUICK=0
SCALING=0
while (($#)); do
  case "$1" in
    -b) BIN="$2"; shift 2 ;;
    -n) NFILES="$2"; shift 2 ;;
    -w) WORK="$2"; shift 2 ;;
    -k) KEEP=1; shift ;;
    --quick) QUICK=1; NFILES=3; shift ;;
    --scaling) SCALING=1; [[ "$NFILES" == 500 ]] && NFILES=2000; shift ;;
    -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench-translate: error: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[ -x "$BIN" ] || { echo "bench-translate: error: no port-kernel at $BIN (-b BIN)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench-translate: error: /usr/bin/time missing (apt-get install time; scripts/setup.sh installs it)" >&2; exit 2; }
CLANGXX="$(command -v clang++-19 || echo /usr/lib/llvm-19/bin/clang++)"
[ -x "$CLANGXX" ] || { echo "bench-translate: error: clang++-19 not found" >&2; exit 2; }
[[ "$NFILES" =~ ^[1-9][0-9]*$ ]] || { echo "bench-translate: error: -n needs a positive number" >&2; exit 2; }

if [ -z "$WORK" ]; then
  WORK="$(mktemp -d "${TMPDIR:-/tmp}/pk-bench-translate.XXXXXX")"
  ((KEEP)) || trap 'rm -rf "$WORK"' EXIT
fi
mkdir -p "$WORK"

# The large tree: set NNN holds a copy of every corpus kernel, renamed
# <case>_NNN.cu, with corpus/common beside it so that "../common/..." works.
TREE="$WORK/tree"
rm -rf "$TREE"
mapfile -t KERNELS < <(cd "$ROOT/corpus" && ls -1 */*.cu | sort)
made=0; set_no=0
while ((made < NFILES)); do
  s="$(printf 'set%03d' "$set_no")"
  mkdir -p "$TREE/$s"
  cp -r "$ROOT/corpus/common" "$TREE/$s/common"
  for k in "${KERNELS[@]}"; do
    ((made < NFILES)) || break
    d="$(dirname "$k")"; b="$(basename "$k" .cu)"
    mkdir -p "$TREE/$s/$d"
    cp "$ROOT/corpus/$k" "$TREE/$s/$d/${b}_$set_no.cu"
    made=$((made + 1))
  done
  # --scaling: the multi-file programs too (a program's directory whole,
  # its .cu files counted), those whose port needs no extra flags.
  if ((SCALING)); then
    for p in "$ROOT"/test/programs/*/; do
      ((made < NFILES)) || break
      [ -e "$p/main.cu" ] || continue
      if [ -f "$p/program.conf" ] && grep -q '^PORT_ARGS=' "$p/program.conf"; then continue; fi
      name="$(basename "$p")"
      mkdir -p "$TREE/$s/programs"
      cp -r "$p" "$TREE/$s/programs/$name"
      made=$((made + $(find "$p" -maxdepth 1 -name '*.cu' | wc -l)))
    done
  fi
  set_no=$((set_no + 1))
done

# The flags port-kernel parses CUDA with: FLAGS and DECLS (scripts/clang-cuda-flags.sh).
# shellcheck source=scripts/clang-cuda-flags.sh
source "$ROOT/scripts/clang-cuda-flags.sh"
clang_cuda_flags "$BIN" "$CLANGXX" "$WORK" "$ROOT"

# measure NAME CMD...: wall seconds and peak RSS (MB) of CMD into $SECS, $PEAK.
measure() {
  local log="$WORK/time.$1.log"; shift
  if ! /usr/bin/time -v -o "$log" "$@" >"$log.out" 2>&1; then
    echo "bench-translate: error: failed: $*" >&2
    tail -n 20 "$log.out" >&2
    exit 1
  fi
  local wall
  wall="$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$log")"
  SECS="$(awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.2f", s }' <<<"$wall")"
  PEAK="$(awk '/Maximum resident set size/ { printf "%.0f", $NF / 1024 }' "$log")"
}

ROWS=()
row() { # tree files jobs secs peak
  local fps
  fps="$(awk -v n="$2" -v s="$4" 'BEGIN { printf "%.1f", (s > 0 ? n / s : 0) }')"
  ROWS+=("$1|$2|$3|$4|$fps|$5")
}

# The parse cache of these runs: empty at the start, its own.
export PORT_KERNEL_CACHE_DIR="$WORK/cache"
rm -rf "$PORT_KERNEL_CACHE_DIR"
unset PORT_KERNEL_PARSE_CACHE

port_run() { # name dir files jobs [targets] [env...]
  local targets="${5:-hip,cuda}"
  rm -rf "$WORK/out"
  measure "port-$1-j$4" env "${@:6}" "$BIN" port --to "$targets" -q -j "$4" -o "$WORK/out" "$2"
  row "$1" "$3" "$4" "$SECS" "$PEAK"
}

CORPUS_FILES="$(cd "$ROOT/corpus" && find . -name '*.cu' -o -name '*.hip' -o -name '*.cuh' | wc -l)"
if ((SCALING)); then
  # The parse cache warmed first, so that neither run pays for its PCH.
  port_run warm "$ROOT/corpus/saxpy" 1 1
  port_run warm "$ROOT/corpus/saxpy" 1 1
  ROWS=()
  TREE_FILES="$(find "$TREE" -name '*.cu' -o -name '*.cuh' | wc -l)"
  for j in 1 2; do port_run "tree-$NFILES" "$TREE" "$TREE_FILES" "$j"; done
  echo "port-kernel port --to hip,cuda, parallel scaling; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
  printf '%-18s %6s %3s %9s %9s %8s\n' tree files -j seconds files/s "peak MB"
  for r in "${ROWS[@]}"; do
    IFS='|' read -r tree files jobs secs fps peak <<<"$r"
    printf '%-18s %6s %3s %9s %9s %8s\n' "$tree" "$files" "$jobs" "$secs" "$fps" "$peak"
  done
  IFS='|' read -r _ _ _ s1 _ p1 <<<"${ROWS[0]}"
  IFS='|' read -r _ _ _ s2 _ p2 <<<"${ROWS[1]}"
  awk -v a="$s1" -v b="$s2" -v p="$p1" -v q="$p2" 'BEGIN {
    printf "throughput -j 2 / -j 1: %.2f (goal >= 1.8); peak memory -j 1 %d MB, -j 2 %d MB (%.2fx)\n",
           (b > 0 ? a / b : 0), p, q, (p > 0 ? q / p : 0) }'
  ((KEEP)) && echo "work: $WORK"
  exit 0
fi
JOBS=(1 2)
((QUICK)) && JOBS=(1)
if ((!QUICK)); then
  for j in "${JOBS[@]}"; do port_run corpus "$ROOT/corpus" "$CORPUS_FILES" "$j"; done
fi
TREE_FILES="$(find "$TREE" -name '*.cu' -o -name '*.cuh' | wc -l)"
for j in "${JOBS[@]}"; do port_run "tree-$NFILES" "$TREE" "$TREE_FILES" "$j"; done
PORT_J1_SECS="$(IFS='|' read -r _ _ _ s _ _ <<<"${ROWS[-${#JOBS[@]}]}"; echo "$s")"
secs_of_last() { IFS='|' read -r _ _ _ s _ _ <<<"${ROWS[-1]}"; echo "$s"; }
port_run "tree-$NFILES-nki" "$TREE" "$TREE_FILES" 1 hip,cuda,nki
PORT3_J1_SECS="$(secs_of_last)"
port_run "tree-$NFILES-nocache" "$TREE" "$TREE_FILES" 1 hip,cuda PORT_KERNEL_PARSE_CACHE=off
NOCACHE_J1_SECS="$(secs_of_last)"

# Bare clang on the same translation units (the .cu files of the tree).
find "$TREE" -name '*.cu' | sort >"$WORK/tus.txt"
measure clang xargs -a "$WORK/tus.txt" -n 1 "$CLANGXX" -fsyntax-only "${FLAGS[@]}"
CLANG_SECS="$SECS"; CLANG_PEAK="$PEAK"
row "clang-syntax-$NFILES" "$(wc -l <"$WORK/tus.txt")" 1 "$CLANG_SECS" "$CLANG_PEAK"
ratio() { awk -v p="$1" -v c="$CLANG_SECS" 'BEGIN { printf "%.2f", (c > 0 ? p / c : 0) }'; }
RATIO="$(ratio "$PORT_J1_SECS")"
RATIO3="$(ratio "$PORT3_J1_SECS")"
RATIO_NOCACHE="$(ratio "$NOCACHE_J1_SECS")"

# The figures recorded in docs/performance.md, by tree and -j.
declare -A RECORDED
DOC="$ROOT/docs/performance.md"
if [ -f "$DOC" ]; then
  while IFS='|' read -r _ tree files jobs secs fps peak _; do
    tree="$(xargs <<<"$tree")"; jobs="$(xargs <<<"$jobs")"; fps="$(xargs <<<"$fps")"; peak="$(xargs <<<"$peak")"
    [[ "$jobs" =~ ^[0-9]+$ ]] || continue
    RECORDED["$tree|$jobs"]="$fps files/s, $peak MB"
  done < <(awk '/^## Translation speed/ { on = 1; next } /^## / { on = 0 } on && /^\| *(corpus|tree-|clang-)/' "$DOC")
  RECORDED_RATIO="$(awk '/^## Translation speed/ { on = 1; next } /^## / { on = 0 } on' "$DOC" | sed -n 's/.*port \/ clang ratio: \([0-9.]*\).*/\1/p' | head -1)"
fi

echo "port-kernel port --to hip,cuda ($DECLS); $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-18s %6s %3s %9s %9s %8s   %s\n' tree files -j seconds files/s "peak MB" "recorded (docs/performance.md)"
for r in "${ROWS[@]}"; do
  IFS='|' read -r tree files jobs secs fps peak <<<"$r"
  printf '%-18s %6s %3s %9s %9s %8s   %s\n' "$tree" "$files" "$jobs" "$secs" "$fps" "$peak" "${RECORDED[$tree|$jobs]:--}"
done
echo "port / clang ratio: $RATIO (port -j 1 of tree-$NFILES over clang++ -fsyntax-only of its $(wc -l <"$WORK/tus.txt") translation units; recorded: ${RECORDED_RATIO:--})"
echo "port / clang ratio, --to hip,cuda,nki: $RATIO3"
echo "port / clang ratio, without the parse cache: $RATIO_NOCACHE"
((KEEP)) && echo "work: $WORK"
exit 0

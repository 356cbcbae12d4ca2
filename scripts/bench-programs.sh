#!/usr/bin/env bash
# The emulator on realistic programs at realistic sizes: for each benchmark
# program of test/bench-programs/ (row softmax over a 50,257-wide vocabulary,
# layer norm, tiled SGEMM, tiled transpose, a 64 Mi-element reduction), build
# it with `port-kernel validate --program` (the original at 32 lanes, the HIP
# port at 64), then run each build alone and print
#   - the emulated time of its kernel (launch to synchronize, all workers),
#   - the time of the same computation as native host code (one thread,
#     no memory hooks: the program's BENCH_NATIVE reference),
#   - the slowdown (emulated / native),
#   - the work: the instructions one run of the native reference retires,
#     counted under valgrind's cachegrind as the difference between runs of
#     the program's native-only mode with one and two repetitions
#     (BENCH_NATIVE_REPS; startup and input generation cancel out),
#   - emulated thread-instructions per second: that work / the emulated time
#     (the kernels' threads do at least the reference's work between them).
# With --llmc DIR (a checkout of llm.c), also the wall time of
# `validate --program --to none --stop-at 'All results match'` for each
# program of DIR/dev/cuda at its default size (the program as written, built
# and run on the emulator with all cores up to its self-check; with
# --extra-arg=-fopenmp where its compile example names -fopenmp), against the
# 60-second goal.
# Usage: scripts/bench-programs.sh [--quick] [--inline-hooks] [--reps N]
#          [--llmc DIR [--llmc-programs A,B,...] [--no-bench]] [NAME...]
#   --quick  smaller sizes (a smoke run: the numbers are not the benchmark's)
#   --inline-hooks  build with validate --inline-hooks (the memory checks'
#            fast path inlined into kernels)
#   NAME     only these programs (softmax_rows, layernorm_rows, ...)
#   --llmc-programs  only these programs of DIR/dev/cuda; --no-bench: only llm.c
# Environment: BUILD_DIR (default build), PK (default $BUILD_DIR/bin/port-kernel),
# PKEMU_WORKERS (default: all cores).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-build}"
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR="$ROOT/$BUILD_DIR" ;; esac
PK="${PK:-$BUILD_DIR/bin/port-kernel}"
[ -x "$PK" ] || { echo "bench-programs: $PK not found (build first)" >&2; exit 1; }
QUICK=0; REPS=1; LLMC=""; LLMC_ONLY=""; NO_BENCH=0; NAMES=(); VFLAGS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) QUICK=1 ;;
    --inline-hooks) VFLAGS+=(--inline-hooks) ;;
    --reps) REPS="$2"; shift ;;
    --llmc) LLMC="$2"; shift ;;
    --llmc-programs) LLMC_ONLY=",$2,"; shift ;;
    --no-bench) NO_BENCH=1 ;;
    -h|--help) sed -n '2,31p' "$0"; exit 0 ;;
    -*) echo "bench-programs: unknown option $1" >&2; exit 2 ;;
    *) NAMES+=("$1") ;;
  esac
  shift
done
SRC="$ROOT/test/bench-programs"
declare -A QUICK_ARGS=(
  [softmax_rows]="64 50257" [layernorm_rows]="1024" [matmul_tiled]="128 256 256"
  [transpose_tiles]="1024 1024" [reduce_sum]="4194304")
if [ ${#NAMES[@]} -eq 0 ] && [ "$NO_BENCH" = 0 ]; then
  for f in "$SRC"/*.cu; do NAMES+=("$(basename "$f" .cu)"); done
fi
TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT

[ "$NO_BENCH" = 1 ] || echo "bench-programs: ${VFLAGS[*]:-default build}, $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')), workers ${PKEMU_WORKERS:-$(nproc)}, best of $REPS"
[ "$NO_BENCH" = 1 ] || printf '%-16s %-9s %11s %10s %9s %12s %14s\n' program variant "emulated s" "native s" slowdown "work Minstr" "Mthread-ins/s"
fails=0
for name in ${NAMES[@]+"${NAMES[@]}"}; do
  [ -f "$SRC/$name.cu" ] || { echo "bench-programs: no $SRC/$name.cu" >&2; exit 2; }
  args=""
  [ "$QUICK" = 1 ] && args="${QUICK_ARGS[$name]:-}"
  # Build (and validate) the original and the HIP port.
  # shellcheck disable=SC2086
  if ! "$PK" validate "${VFLAGS[@]}" --program "$SRC/$name.cu" --to hip --work-dir "$TMP/$name" --keep-work \
       --timeout 0 --expect-output PASS -- $args > "$TMP/$name.validate" 2>&1; then
    cat "$TMP/$name.validate"; echo "bench-programs: $name failed validation"; fails=$((fails+1)); continue
  fi
  # The work, once per program (the reference is the same in both builds).
  work=-1
  orig="$(find "$TMP/$name" -path "*/original/program" -type f | head -1)"
  if [ -n "$orig" ] && command -v valgrind >/dev/null; then
    irefs() { # REPS
      # shellcheck disable=SC2086
      (cd "$(dirname "$orig")" && BENCH_NATIVE_REPS="$1" valgrind --tool=cachegrind --cache-sim=no \
         --cachegrind-out-file=/dev/null ./program $args 2>&1 >/dev/null) |
        sed -nE 's/^==[0-9]+== I +refs: +([0-9,]+).*/\1/p' | tr -d ,
    }
    one="$(irefs 1)"; two="$(irefs 2)"
    [ -n "$one" ] && [ -n "$two" ] && work=$((two - one))
  fi
  for variant in original hip; do
    exe="$(find "$TMP/$name" -path "*/$variant/program" -type f | head -1)"
    [ -n "$exe" ] || { echo "bench-programs: no $variant build of $name" >&2; fails=$((fails+1)); continue; }
    best=""
    for _ in $(seq "$REPS"); do
      # shellcheck disable=SC2086
      (cd "$(dirname "$exe")" && ./program $args) > "$TMP/out" 2>&1 || { cat "$TMP/out"; fails=$((fails+1)); continue 2; }
      line="$(grep '^bench ' "$TMP/out")"
      emu="$(sed -E 's/.*emulated ([0-9.]+) s.*/\1/' <<<"$line")"
      if [ -z "$best" ] || awk "BEGIN{exit !($emu < ${best%% *})}"; then
        nat="$(sed -E 's/.*native ([0-9.]+) s.*/\1/' <<<"$line")"
        best="$emu $nat"
      fi
    done
    read -r emu nat <<<"$best"
    lanes=32; [ "$variant" = hip ] && lanes=64
    awk -v p="$name" -v v="$variant/$lanes" -v e="$emu" -v n="$nat" -v w="$work" 'BEGIN {
      slow = n > 0 ? sprintf("%.0fx", e / n) : "n/a";
      gw = w >= 0 ? sprintf("%.1f", w / 1e6) : "n/a";
      rate = (w >= 0 && e > 0) ? sprintf("%.0f", w / e / 1e6) : "n/a";
      printf "%-16s %-9s %11.2f %10.3f %9s %12s %14s\n", p, v, e, n, slow, gw, rate }'
  done
done

if [ -n "$LLMC" ]; then
  echo
  echo "llm.c dev/cuda at default sizes: validate --program --to none --stop-at 'All results match' ${VFLAGS[*]} (wall s, goal 60)"
  printf '%-32s %8s %9s %9s  %s\n' program "wall s" "kernels s" "host s" verdicts
  for f in "$LLMC"/dev/cuda/*.cu; do
    name="$(basename "$f" .cu)"
    case "$name" in nccl_all_reduce) continue ;; esac   # MPI + NCCL
    [ -z "$LLMC_ONLY" ] || [[ "$LLMC_ONLY" == *",$name,"* ]] || continue
    # Built as the program's own compile example says: OpenMP host code where it names -fopenmp.
    omp=()
    head -30 "$f" | grep -qE '^nvcc .*-fopenmp' && omp=(--extra-arg=-fopenmp)
    t0=$(date +%s.%N)
    rc=0
    (cd "$(dirname "$f")" && "$PK" validate "${VFLAGS[@]}" ${omp[@]+"${omp[@]}"} --program "$name.cu" --to none \
       --timeout 600 --stop-at 'All results match' > "$TMP/llmc.out" 2>&1) || rc=$?
    t1=$(date +%s.%N)
    verdict="$(grep -E '^\[[0-9]/[0-9]\]' "$TMP/llmc.out" | sed -E 's/^\[[0-9]\/[0-9]\] [^ ]+ //' | tr '\n' ' ')"
    # The emulator's split of each run (validate's "time:" note): seconds in kernels and
    # outside them (the program's host code), summed over the variants.
    split="$(sed -nE 's/.*: time: ([0-9.]+) s in .* kernel launch.*, ([0-9.]+) s outside kernels.*/\1 \2/p' "$TMP/llmc.out" \
             | awk '{k += $1; h += $2; n++} END {if (n) printf "%.1f %.1f", k, h; else printf "- -"}')"
    printf '%-32s %8.1f %9s %9s  %s%s\n' "$name" "$(awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}')" \
      ${split} "$verdict" "$([ $rc = 0 ] || echo "(exit $rc)")"
  done
fi
[ "$fails" = 0 ] || { echo "bench-programs: $fails failures"; exit 1; }

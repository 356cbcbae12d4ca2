#!/usr/bin/env bash
# End-to-end checks of the command line.  Usage: e2e.sh BIN SRC_ROOT TEST
set -euo pipefail
BIN="$1"; SRC="$2"; TEST="$3"
TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
GOLD="$SRC/test/golden"

case "$TEST" in
refuse-out-inside-input)
  cp -r "$GOLD/launch" "$TMP/in"
  before=$(find "$TMP/in" -type f | sort | xargs md5sum)
  if "$BIN" port --to hip -o "$TMP/in/out" "$TMP/in" 2>"$TMP/err"; then fail "accepted OUT inside input"; fi
  grep -q "inside the input.*\[PK9001\]" "$TMP/err" || fail "message: $(cat "$TMP/err")"
  [ ! -e "$TMP/in/out" ] || fail "wrote into the input tree"
  after=$(find "$TMP/in" -type f | sort | xargs md5sum)
  [ "$before" = "$after" ] || fail "input tree changed" ;;
jobs-deterministic)
  cp -r "$GOLD" "$TMP/tree"; find "$TMP/tree" -name expected -type d -prune -exec rm -rf {} +
  "$BIN" port -q --to hip,cuda -j 1 -o "$TMP/o1" "$TMP/tree" 2>"$TMP/e1"
  "$BIN" port -q --to hip,cuda -j 4 -o "$TMP/o4" "$TMP/tree" 2>"$TMP/e4"
  diff -r "$TMP/o1" "$TMP/o4" || fail "-j 4 output differs from -j 1"
  diff "$TMP/e1" "$TMP/e4" || fail "diagnostics differ with -j"
  [ -f "$TMP/o1/hip/warp_intrinsics/input.hip" ] || fail "tree not mirrored"
  [ -f "$TMP/o1/hip/headers_macros/include/util.hpp" ] || fail "header not renamed" ;;
in-place-backup)
  cp "$GOLD/streams_events/input.cu" "$TMP/k.cu"
  cp "$TMP/k.cu" "$TMP/orig.cu"
  "$BIN" port -q --to hip --in-place "$TMP/k.cu"
  cmp -s "$TMP/k.cu.orig" "$TMP/orig.cu" || fail "backup differs from the original"
  grep -q hipStreamCreate "$TMP/k.cu" || fail "not translated in place"
  # A second run must refuse to overwrite the backup.
  if "$BIN" port -q --to hip --in-place "$TMP/k.cu" 2>"$TMP/err"; then fail "overwrote a backup"; fi
  grep -q "already exists" "$TMP/err" || fail "message: $(cat "$TMP/err")"
  cmp -s "$TMP/k.cu.orig" "$TMP/orig.cu" || fail "backup was modified" ;;
unknown-target)
  if "$BIN" port --to hip,tpu -o "$TMP/o" "$GOLD/launch/input.cu" 2>"$TMP/err"; then fail "tpu accepted"; fi
  grep -q "unknown target 'tpu' (targets: cuda, hip, nki)" "$TMP/err" || fail "message: $(cat "$TMP/err")"
  [ ! -e "$TMP/o" ] || fail "partial output written" ;;
bad-input)
  printf '#include <cuda_runtime.h>\n__global__ void k(float *p) {\n  p[0] = undefined_thing;\n}\n' > "$TMP/bad.cu"
  cp "$GOLD/launch/input.cu" "$TMP/good.cu"
  # --strict: all or nothing.
  if "$BIN" port --strict --to hip -o "$TMP/o" "$TMP/bad.cu" "$TMP/good.cu" 2>"$TMP/err"; then fail "bad input accepted"; fi
  grep -q "bad.cu:3:10: error: use of undeclared identifier 'undefined_thing'" "$TMP/err" || fail "message: $(cat "$TMP/err")"
  grep -q "bad.cu: error: cannot parse as CUDA.*\[PK9001\]" "$TMP/err" || fail "no PK9001: $(cat "$TMP/err")"
  [ ! -e "$TMP/o" ] || fail "partial output written"
  # By default the file that parses is ported, the other reported (exit 4).
  rc=0; "$BIN" port --to hip -o "$TMP/o" "$TMP/bad.cu" "$TMP/good.cu" 2>"$TMP/err" || rc=$?
  [ "$rc" = 4 ] || fail "exit $rc, expected 4: $(cat "$TMP/err")"
  grep -q "bad.cu:3:10: error: use of undeclared identifier 'undefined_thing'" "$TMP/err" || fail "message: $(cat "$TMP/err")"
  grep -q "bad.cu: note: not ported.*\[PK9100\]" "$TMP/err" || fail "no PK9100: $(cat "$TMP/err")"
  [ -f "$TMP/o/hip/good.hip" ] && [ ! -e "$TMP/o/hip/bad.hip" ] && [ ! -e "$TMP/o/hip/bad.cu" ] || fail "outputs: $(find "$TMP/o")" ;;
missing-input)
  if "$BIN" port --to hip -o "$TMP/o" "$TMP/nope.cu" 2>"$TMP/err"; then fail "missing input accepted"; fi
  grep -q "nope.cu: error: no such file or directory" "$TMP/err" || fail "message: $(cat "$TMP/err")" ;;
no-toolkit)
  # Hide the CUDA toolkit: the bundled declarations must give the same output.
  "$BIN" port -q --to hip -o "$TMP/with" "$GOLD/runtime_memory/input.cu" "$GOLD/warp_intrinsics/input.cu" 2>/dev/null
  CUDA_PATH=/nonexistent "$BIN" port -v -q --to hip -o "$TMP/without" "$GOLD/runtime_memory/input.cu" "$GOLD/warp_intrinsics/input.cu" 2>"$TMP/err"
  grep -q "bundled CUDA declarations" "$TMP/err" || fail "did not use the bundled declarations: $(cat "$TMP/err")"
  diff -r "$TMP/with" "$TMP/without" || fail "output differs without the toolkit" ;;
explain)
  "$BIN" explain PK2001 > "$TMP/doc" || fail "explain PK2001"
  grep -q "^# PK2001" "$TMP/doc" || fail "no title"
  if "$BIN" explain PK0000 2>"$TMP/err"; then fail "unknown ID accepted"; fi
  grep -q "unknown rule ID" "$TMP/err" || fail "message" ;;
rule-docs)
  # Every registered rule has a page and every page a rule.
  "$BIN" rules | awk '{print $1}' | sort > "$TMP/ids"
  ls "$SRC/docs/rules" | sed -n 's/^\(PK[0-9]*\)\.md$/\1/p' | sort > "$TMP/docs"
  diff "$TMP/ids" "$TMP/docs" || fail "rule IDs and docs/rules disagree (< registered only, > doc only)"
  while read -r id; do "$BIN" explain "$id" >/dev/null || fail "explain $id"; done < "$TMP/ids" ;;
forced-native)
  # Forcing native 64-lane warps over what the analysis cannot prove safe is
  # flagged at each unsafe construct (PK2012), and on tensor-core kernels (PK3014).
  "$BIN" port -q --to hip --wave64=native -o "$TMP/a" "$SRC/corpus/warp_softmax" 2>"$TMP/e1" || true
  grep -q "warning: .*\[PK2012\]" "$TMP/e1" || fail "no PK2012: $(cat "$TMP/e1")"
  "$BIN" port -q --to hip --wave64=native -o "$TMP/b" "$SRC/corpus/wmma_hgemm" 2>"$TMP/e2" || true
  grep -q "warning: .*\[PK3014\]" "$TMP/e2" || fail "no PK3014: $(cat "$TMP/e2")" ;;
mfma-early-exit)
  # wmma_hgemm returns early for warps past the edge: PK3003 keeps the wave
  # running and masks that warp's fragment loads and stores.
  "$BIN" port -q --to hip --report "$TMP/r.json" -o "$TMP/o" "$SRC/corpus/wmma_hgemm" 2>/dev/null
  python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); sys.exit(0 if any(e["rule"]=="PK3003" for t in r["targets"] for e in t["edits"]) else 1)' "$TMP/r.json" || fail "no PK3003 edit" ;;
report-gpus)
  # The report names the matrix-core features each HIP output needs and the
  # GPUs that have them: f16 MFMA from gfx908, bf16_1k from gfx90a; plain
  # outputs and CUDA outputs need nothing.
  "$BIN" port -q --to hip,cuda --report "$TMP/r.json" -o "$TMP/o" "$SRC/corpus/wmma_hgemm" \
    "$SRC/corpus/wmma_bf16_gemm" "$SRC/corpus/saxpy" "$SRC/test/mfma/cases/ptx_mma_gemm" 2>/dev/null
  python3 - "$TMP/r.json" <<'PY' || fail "report gpus"
import json, sys
r = json.load(open(sys.argv[1]))
got = {(t["target"], f["input"].split("/")[-1]): (f.get("needs"), f.get("gpus"))
       for t in r["targets"] for f in t["files"]}
f16 = ["gfx908", "gfx90a", "gfx940", "gfx941", "gfx942"]
want = {("hip", "wmma_hgemm.cu"): (["mfma-f16"], f16),
        ("hip", "ptx_mma_gemm.cu"): (["mfma-f16"], f16),
        ("hip", "wmma_bf16_gemm.cu"): (["mfma-bf16"], f16[1:]),
        ("hip", "saxpy.cu"): (None, None),
        ("cuda", "wmma_bf16_gemm.cu"): (None, None)}
bad = {k: (got.get(k), v) for k, v in want.items() if got.get(k) != v}
print(bad)
sys.exit(1 if bad else 0)
PY
  # The summary says it too.
  "$BIN" port --to hip -o "$TMP/s" "$SRC/corpus/wmma_bf16_gemm" "$SRC/corpus/saxpy" 2>"$TMP/sum" >/dev/null
  grep -qx "port-kernel: hip: 1 file needs mfma-bf16 (gfx90a, gfx940, gfx941, gfx942)" "$TMP/sum" \
    || fail "summary: $(grep '^port-kernel' "$TMP/sum")"
  [ "$(grep -c ' needs \| need ' "$TMP/sum")" = 1 ] || fail "saxpy needs nothing: $(cat "$TMP/sum")"
  ;;
emu-device-asm)
  # Inline assembly in device code (here PTX mma.sync) cannot run on the
  # emulator: the original is refused before compiling, naming the line;
  # the HIP port, which replaces it, runs.  No compiler crash reproducer is
  # left in the temporary directory.
  mkdir -p "$TMP/t"
  TMPDIR="$TMP/t" "$BIN" validate --json --to hip "$SRC/test/mfma/cases/ptx_mma_gemm" >"$TMP/a.json" 2>/dev/null || true
  python3 - "$TMP/a.json" <<'PY' || fail "device asm"
import json, sys
r = {x["variant"]: x for c in json.load(open(sys.argv[1]))["cases"] for x in c["results"]}
o = r["original"]
print(o.get("status"), o.get("kind"), o.get("reason"))
ok = (o.get("status") == "fail" and o.get("kind") == "prepare"
      and "ptx_mma_gemm.cu:29:5: inline assembly in device code ('mma.sync.aligned.m16n8k16" in o.get("reason", "")
      and "(in 'ptx_mma_gemm')" in o.get("reason", "")
      and r["hip"].get("status") == "pass")
sys.exit(0 if ok else 1)
PY
  [ -z "$(ls -A "$TMP/t")" ] || fail "left in TMPDIR: $(ls "$TMP/t")"
  # Host inline assembly (rdtsc) is the host's and runs.
  "$BIN" validate --program "$SRC/test/e2e/programs/host_asm.cu" --to hip \
    --expect-output PASS >"$TMP/h.out" 2>&1 || { cat "$TMP/h.out"; fail "host asm"; }
  ;;
emu-prep)
  # PK9901: before emulation, launches become pkemu::launch and __shared__
  # arrays per-block storage, in the original and in the HIP output.
  "$BIN" validate --to hip --keep-work --work-dir "$TMP/w" "$SRC/corpus/transpose" >/dev/null 2>&1 || fail "validate transpose"
  grep -q "PKEMU_SHARED(tile, float\[32\]\[33\])" "$TMP/w/transpose/original/prep/transpose.cu" || fail "shared array not prepared"
  grep -q "PKEMU_SHARED(tile" "$TMP/w/transpose/hip/prep/transpose.hip" || fail "HIP shared array not prepared"
  grep -q '^#line 1 ' "$TMP/w/transpose/original/prep/transpose.cu" || fail "no #line to the original file"
  # Host-only functions run without memory hooks (PKEMU_HOST_FN); the others keep them.
  "$BIN" validate --program "$SRC/test/e2e/programs/host_functions.cu" --to hip --keep-work \
    --work-dir "$TMP/h" --expect-output PASS >"$TMP/h.out" 2>&1 || { cat "$TMP/h.out"; fail "host_functions"; }
  for variant in original/prep/host_functions.cu hip/prep/host_functions.hip; do
    f="$TMP/h/host_functions/$variant"
    for fn in '\[\[nodiscard\]\] PKEMU_HOST_FN static inline int expected' 'template <class T> PKEMU_HOST_FN T sumOf' \
              'PKEMU_HOST_FN explicit Checker' 'PKEMU_HOST_FN void check' 'PKEMU_HOST_FN virtual ~Checker' \
              'PKEMU_HOST_FN int run' 'PKEMU_HOST_FN int main'; do
      grep -q "$fn" "$f" || fail "$variant: no PKEMU_HOST_FN: $fn"
    done
    [ "$(grep -v "^//" "$f" | grep -c PKEMU_HOST_FN)" = 7 ] || fail "$variant: PKEMU_HOST_FN on a function that can run on the device"
  done ;;
rule-tests)
  # Moved to test/rules/check_rule_tests.py (ctest rules.every_rule_has_a_test):
  # every ID of RuleTable.def has exactly one focused test test/rules/lit/<ID>.*
  # whose check lines assert the ID.  Kept here as the same check.
  python3 "$SRC/test/rules/check_rule_tests.py" --source-dir "$SRC" || fail "rule IDs without a focused test" ;;
help-version)
  # Read whole: grep -q stopping early would make the writer's SIGPIPE fail the pipe.
  grep -q "EXAMPLES" <<<"$("$BIN" --help)" || fail "--help has no examples"
  grep -q "port-kernel" <<<"$("$BIN" --version)" || fail "--version" ;;
diag-comments)
  "$BIN" port -q --to hip -o "$TMP/o" "$GOLD/warp_intrinsics/input.cu" 2>"$TMP/err"
  grep -q "input.cu:26:25: warning: .*\[PK2010\]" "$TMP/err" || fail "no clang-style diagnostic"
  grep -B1 "__shfl(x, (lane + 1) & 31, 32)" "$TMP/o/hip/input.hip" | grep -q "// port-kernel: warning: .*\[PK2010\]" || fail "no comment above the line" ;;
user-rules)
  printf 'rule: PK8001\ntitle: user table\nentries:\n  - { cuda: myCudaAlloc, hip: myHipAlloc }\n' > "$TMP/user.yaml"
  printf '#include <cuda_runtime.h>\nint myCudaAlloc(void**, size_t);\nvoid f(void **p) { myCudaAlloc(p, 4); cudaFree(*p); }\n' > "$TMP/u.cu"
  "$BIN" port -q --to hip --rules "$TMP/user.yaml" -o "$TMP/o" "$TMP/u.cu" 2>"$TMP/err"
  # Declared in the user's code: left alone and noted.
  grep -q "myCudaAlloc(p, 4)" "$TMP/o/hip/u.hip" || fail "renamed a user declaration"
  grep -q "PK1011" "$TMP/err" || fail "no shadowing note"
  printf 'rule: PK8001\ntitle: broken\nentries:\n  - { cuda: a }\n' > "$TMP/bad.yaml"
  if "$BIN" port -q --to hip --rules "$TMP/bad.yaml" -o "$TMP/o2" "$TMP/u.cu" 2>"$TMP/err"; then fail "bad rule file accepted"; fi
  grep -q "bad.yaml:4:7: error: entry 'a' needs either 'hip' or 'unsupported'" "$TMP/err" || fail "message: $(cat "$TMP/err")" ;;
extra-arg)
  printf '#include <cuda_runtime.h>\nvoid f() { MY_T s; cudaStreamCreate(&s); }\n' > "$TMP/x.cu"
  if "$BIN" port -q --to hip -o "$TMP/o0" "$TMP/x.cu" 2>/dev/null; then fail "parsed without the macro"; fi
  "$BIN" port -q --to hip --extra-arg=-DMY_T=cudaStream_t -o "$TMP/o" "$TMP/x.cu" || fail "--extra-arg not used"
  "$BIN" port -q --to hip --extra-arg-before=-DMY_T=cudaStream_t -o "$TMP/o2" "$TMP/x.cu" || fail "--extra-arg-before not used"
  grep -q "hipStreamCreate" "$TMP/o/hip/x.hip" || fail "not translated" ;;
compdb)
  mkdir -p "$TMP/proj/inc"
  printf '#define MY_STREAM cudaStream_t\n' > "$TMP/proj/inc/defs.h"
  printf '#include <cuda_runtime.h>\n#include "defs.h"\nvoid f() { MY_STREAM s; cudaStreamCreate(&s); }\n' > "$TMP/proj/a.cu"
  printf '[{"directory":"%s","command":"/usr/local/cuda/bin/nvcc -I%s/inc -arch=sm_90 -c a.cu -o a.o","file":"a.cu"}]\n' "$TMP/proj" "$TMP/proj" > "$TMP/proj/compile_commands.json"
  if "$BIN" port -q --to hip -o "$TMP/o0" "$TMP/proj/a.cu" 2>/dev/null; then fail "parsed without the include path"; fi
  "$BIN" port -q --to hip -p "$TMP/proj" -o "$TMP/o" "$TMP/proj/a.cu" || fail "compilation database not used"
  grep -q "hipStreamCreate" "$TMP/o/hip/a.hip" || fail "not translated" ;;
validate-program-compdb)
  # The compile command's flags reach the emulator builds of the original
  # and of each port (the parse saw them already), in nvcc's long forms and
  # through an options file; the -I into the program's tree is remapped to
  # the translated tree for the ports and to the prepared tree for every
  # build (kern.cuh has a launch and warp code: the CUDA header would not
  # build, and the HIP port includes kern.hpp); -isystem stays.
  mkdir -p "$TMP/proj/inc" "$TMP/proj/sys"
  printf '#define OFFSET_OF(i) ((i) * SCALE)\n' > "$TMP/proj/inc/scale.h"
  printf '#define BIAS 1\n' > "$TMP/proj/sys/sysdefs.h"
  cat > "$TMP/proj/inc/kern.cuh" <<'EOS'
#pragma once
#include <scale.h>
__global__ void k(int *o) {
  int v = threadIdx.x % 32;
  for (int s = 16; s > 0; s /= 2)
    v += __shfl_down_sync(0xffffffff, v, s);
  if (threadIdx.x % 32 == 0)
    o[64 + threadIdx.x / 32] = v;
  o[threadIdx.x] = OFFSET_OF(threadIdx.x) + BIAS;
}
inline void launch(int *d) { k<<<1, 64>>>(d); }
EOS
  cat > "$TMP/proj/main.cu" <<'EOS'
#include <cstdio>
#include <sysdefs.h>
#include <kern.cuh>
int main() {
  int *d, h[66];
  cudaMalloc(&d, sizeof h);
  launch(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 64; ++i)
    if (h[i] != i * SCALE + BIAS) { printf("element %d: %d\n", i, h[i]); return 1; }
  if (h[64] != 496 || h[65] != 496) { printf("warp sums %d %d\n", h[64], h[65]); return 1; }
  return 0;
}
EOS
  printf -- '--include-path=inc\n--define-macro=SCALE=3\n' > "$TMP/proj/opts.rsp"
  printf '[{"directory":"%s","command":"/usr/local/cuda/bin/nvcc --options-file opts.rsp -isystem sys --std=c++17 -Xcompiler -fopenmp,-Wall -MD -MT main.o -MF main.d -arch=sm_90 -c main.cu -o main.o","file":"main.cu"}]\n' "$TMP/proj" > "$TMP/proj/compile_commands.json"
  if "$BIN" validate --program "$TMP/proj/main.cu" --to hip,cuda > "$TMP/out0" 2>&1; then fail "passed without the compilation database"; fi
  W="$TMP/work"
  "$BIN" validate --program "$TMP/proj/main.cu" -p "$TMP/proj" --to hip,cuda --work-dir "$W" > "$TMP/out" 2>"$TMP/err" || { cat "$TMP/out" "$TMP/err"; fail "the compilation database's flags did not reach the emulator builds"; }
  grep -q "3 passed, 0 failed" "$TMP/out" || fail "summary: $(cat "$TMP/out")"
  grep -q "flags of its compile command that the emulator builds do not use: -Wall$" "$TMP/err" || fail "no note on the unused flags: $(cat "$TMP/err")"
  for v in original hip cuda; do
    cmd="$W/main/$v/compile.cmd"
    grep -qF -- "-I$W/main/$v/prep/inc -DSCALE=3 -isystem $TMP/proj/sys -std=c++17 -fopenmp " "$cmd" || fail "$v: -I not remapped to the prepared tree, or flags lost: $(head -1 "$cmd")"
    # -Xcompiler -fopenmp: OpenMP host code is compiled and linked with clang's runtime.
    tail -1 "$cmd" | grep -q -- " -fopenmp$" || fail "$v: not linked with -fopenmp: $(tail -1 "$cmd")"
  done
  # ... and a GPU bundle's nvcc command gets it back as -Xcompiler -fopenmp.
  "$BIN" validate --program "$TMP/proj/main.cu" -p "$TMP/proj" --gpu-bundle "$TMP/bundle" > "$TMP/bout" 2>&1 || { cat "$TMP/bout"; fail "bundle"; }
  python3 - "$TMP/bundle/manifest.json" <<'PY' || fail "nvcc flags of the bundle: $(cat "$TMP/bundle/manifest.json")"
import json, sys
m = json.load(open(sys.argv[1]))
flags = [v["nvcc_flags"] for e in m["entries"] for v in e["variants"]]
assert flags and all(f[-2:] == ["-Xcompiler", "-fopenmp"] for f in flags), flags
PY
  [ -f "$W/main/hip/prep/inc/kern.hpp" ] || fail "the HIP build did not use the translated header" ;;
validate-program)
  P="$SRC/test/e2e/programs/reduce_check.cu"
  "$BIN" validate --program "$P" --to hip,cuda -- 32 > "$TMP/out" 2>&1 || { cat "$TMP/out"; fail "program did not pass on every target"; }
  grep -q "3 passed, 0 failed" "$TMP/out" || fail "summary: $(cat "$TMP/out")"
  # Each run's time, split into its launches and the rest (PKEMU_STATS_FILE), in the JSON
  # (a note too where a run takes a second or more): one launch of 8 blocks of 128 threads.
  "$BIN" validate --json --program "$P" --to hip,cuda -- 32 > "$TMP/stats.json" 2>/dev/null || fail "stats run"
  python3 - "$TMP/stats.json" <<'PY' || fail "launch statistics: $(cat "$TMP/stats.json")"
import json, sys
d = json.load(open(sys.argv[1]))
cells = [c for p in d["programs"] for c in p["results"]]
assert len(cells) == 3, cells
for c in cells:
    assert c["launches"] == 1 and c["threads"] == 1024, c
    assert 0 <= c["kernel_seconds"] <= c["run_seconds"], c
    assert "running_launch_seconds" not in c, c
PY
  # A run that ends inside a launch (here a kernel that never finishes, at --timeout): the time
  # of the launch in flight is kernel time, in the JSON and in the note.
  if "$BIN" validate --json --program "$SRC/test/e2e/programs/endless_kernel.cu" --to none --timeout 3 \
       > "$TMP/endless.json" 2>"$TMP/endless.err"; then fail "an endless kernel passed"; fi
  python3 - "$TMP/endless.json" <<'PY' || fail "launch in flight: $(cat "$TMP/endless.json")"
import json, sys
d = json.load(open(sys.argv[1]))
c = d["programs"][0]["results"][0]
assert c["launches"] == 0 and c["running_launch_seconds"] >= 0.25, c
assert c["kernel_seconds"] >= c["running_launch_seconds"] and c["kernel_seconds"] <= c["run_seconds"], c
assert any("s in a kernel launch still running when the run ended (" in n for n in c.get("notes", [])), c
PY
  # The original assumes 32-lane warps: forced to 64 lanes it must fail, with the emulator's report.
  if "$BIN" validate --program "$P" --to none --lanes 64 -- 32 > "$TMP/out64" 2>&1; then fail "original passed at 64 lanes"; fi
  grep -q "inconsistent participation" "$TMP/out64" || fail "no emulator report: $(cat "$TMP/out64")"
  "$BIN" validate --json --program "$P" --to hip -- 32 > "$TMP/json" 2>/dev/null || fail "hip at 64 (json)"
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d)" "$TMP/json" >/dev/null || fail "--json output is not JSON"
  # Device printf, __trap and 16-bit pair atomics, in every variant.
  "$BIN" validate --program "$SRC/test/e2e/programs/device_calls.cu" --to hip,cuda --expect-output PASS > "$TMP/dc" 2>&1 \
    || { cat "$TMP/dc"; fail "device_calls"; }
  grep -q "3 passed, 0 failed" "$TMP/dc" || fail "device_calls summary: $(cat "$TMP/dc")"
  # Tiles of several warps (tiled_partition<128> with block_tile_memory): the original at 32
  # and at 64 lanes (HIP has no such tiles: the port flags them, PK1013).
  for l in 32 64; do
    "$BIN" validate --program "$SRC/test/e2e/programs/multi_warp_tiles.cu" --to none --lanes $l --expect-output PASS \
      > "$TMP/mw$l" 2>&1 || fail "multi-warp tiles at $l lanes: $(cat "$TMP/mw$l")"
  done
  # Several case paths in one call.
  "$BIN" validate --to hip "$SRC/corpus/saxpy" "$SRC/corpus/transpose" > "$TMP/two" 2>&1 || fail "two cases: $(cat "$TMP/two")"
  grep -q "4 passed, 0 failed" "$TMP/two" || fail "two cases: $(tail -2 "$TMP/two")" ;;
validate-program-units)
  # A program of several translation units (validate --program MAIN OTHER...):
  # each compiled on its own and linked; a unit's failure names it; the
  # cache keys every unit; what cannot be a unit is refused.
  cp -r "$SRC/test/programs/units_option_pricing" "$TMP/p"
  U=("$TMP/p/main.cpp" "$TMP/p/pricing.cu" "$TMP/p/pricing_gold.cpp")
  C=(--cache-dir "$TMP/cache" --keep-work)
  "$BIN" validate "${C[@]}" --work-dir "$TMP/w1" --program "${U[@]}" --to none --expect-output PASS \
    > "$TMP/one" 2>&1 || fail "three units: $(cat "$TMP/one")"
  for o in program.o program.2.o program.3.o; do
    [ -f "$TMP/w1/main/original/$o" ] || fail "no object $o: $(ls "$TMP/w1/main/original")"; done
  [ "$(grep -c -- ' -c -o ' "$TMP/w1/main/original/compile.cmd")" = 3 ] || fail "not three compiles: $(cat "$TMP/w1/main/original/compile.cmd")"
  # Again: the linked program of the three objects is reused.
  "$BIN" validate "${C[@]}" --work-dir "$TMP/w2" --program "${U[@]}" --to none --expect-output PASS \
    > "$TMP/two" 2>&1 || fail "second run: $(cat "$TMP/two")"
  grep -q "^program [0-9a-f]* reused from $TMP/cache (objects [0-9a-f]*, [0-9a-f]*, [0-9a-f]*)$" "$TMP/w2/main/original/compile.log" \
    || fail "program not reused: $(cat "$TMP/w2/main/original/compile.log")"
  # A change to the third unit only (the reference off by one): not taken from the cache.
  sed -i 's/call\[i\] = blocksFor(s/call[i] = 1.0 + blocksFor(s/' "$TMP/p/pricing_gold.cpp"
  if "$BIN" validate "${C[@]}" --work-dir "$TMP/w3" --program "${U[@]}" --to none --expect-output PASS \
    > "$TMP/three" 2>&1; then fail "a changed unit was not rebuilt: $(cat "$TMP/three")"; fi
  grep -q "FAIL" "$TMP/three" || fail "changed unit: $(cat "$TMP/three")"
  # A unit that does not parse: the cell names it, with the line.
  printf 'int broken( {\n' >> "$TMP/p/pricing_gold.cpp"
  if "$BIN" validate --program "${U[@]}" --to none > "$TMP/cc" 2>&1; then fail "a broken unit passed"; fi
  grep -q "FAIL prepare" "$TMP/cc" && grep -q "pricing_gold.cpp:[0-9]*:[0-9]*: error: expected expression" "$TMP/cc" \
    || fail "compile error without its unit: $(cat "$TMP/cc")"
  # A unit left out: the link fails on the symbol it defines.
  if "$BIN" validate --program "$TMP/p/main.cpp" "$TMP/p/pricing.cu" --to none > "$TMP/ld" 2>&1; then
    fail "a program without its reference linked"; fi
  grep -q "FAIL link" "$TMP/ld" && grep -q "priceOnHost" "$TMP/ld" || fail "link error: $(cat "$TMP/ld")"
  # Not units: a directory, a file twice, a missing file; the GPU modes take one source.
  for bad in "$TMP/p" "$TMP/p/pricing.cu $TMP/p/pricing.cu" "$TMP/p/nothere.cu"; do
    # shellcheck disable=SC2086
    if "$BIN" validate --program "$TMP/p/main.cpp" $bad --to none > "$TMP/bad" 2>&1; then
      fail "accepted as units: $bad"; fi
    [ "$(head -c 1 "$TMP/bad")" != "" ] || fail "no message for $bad"
  done
  "$BIN" validate --program "$TMP/p/main.cpp" "$TMP/p" --to none > "$TMP/dir" 2>&1 || true
  grep -q "^$TMP/p: error: is a directory; --program takes the source files" "$TMP/dir" \
    || fail "directory message: $(cat "$TMP/dir")"
  "$BIN" validate --program "$TMP/p/main.cpp" "$TMP/p/pricing.cu" "$TMP/p/pricing.cu" --to none > "$TMP/dup" 2>&1 || true
  grep -q "pricing.cu: error: given twice" "$TMP/dup" || fail "duplicate message: $(cat "$TMP/dup")"
  set +e; "$BIN" validate --gpu-bundle "$TMP/bundle" --program "${U[@]}" > "$TMP/gpu" 2>&1; rc=$?; set -e
  [ "$rc" = 2 ] && grep -q "is validated on the emulator only" "$TMP/gpu" && [ ! -e "$TMP/bundle" ] \
    || fail "--gpu-bundle with units (exit $rc): $(cat "$TMP/gpu")" ;;
validate-inline-hooks)
  # --inline-hooks: the memory checks' fast path inlined into kernels (clang
  # to bitcode, opt, llc); the slow path still reports races and
  # out-of-bounds accesses at the access's file:line.
  P="$SRC/test/e2e/programs/flag_race.cu"
  L=$(grep -n RACE_LINE "$P" | cut -d: -f1)
  if "$BIN" validate --inline-hooks --program "$P" --to none > "$TMP/race" 2>&1; then
    fail "the race passed with --inline-hooks: $(cat "$TMP/race")"; fi
  grep -q "emulator: data race: kernel 'anyNegative(int const\*, int, int\*)' at $P:$L: " "$TMP/race" \
    || fail "race without the access's location: $(cat "$TMP/race")"
  P="$SRC/test/e2e/programs/oob_read.cu"
  L=$(grep -n OOB_LINE "$P" | cut -d: -f1)
  if "$BIN" validate --inline-hooks --program "$P" --to none > "$TMP/oob" 2>&1; then
    fail "the out-of-bounds read passed with --inline-hooks: $(cat "$TMP/oob")"; fi
  grep -q "emulator: out-of-bounds device memory access: kernel 'shiftLeft(float const\*, float\*, int)' at $P:$L: .*reads 4 bytes at 0 bytes past the end of device buffer #1 (1024 bytes, allocated at $P:15)" "$TMP/oob" \
    || fail "out-of-bounds read without its location: $(cat "$TMP/oob")"
  "$BIN" validate --inline-hooks --program "$SRC/test/bench-programs/layernorm_rows.cu" --to hip --keep-work \
    --work-dir "$TMP/w" --expect-output PASS -- 512 > "$TMP/ln" 2>&1 || fail "layernorm_rows: $(cat "$TMP/ln")"
  for v in original hip; do
    grep -q "/opt -passes=always-inline" "$TMP/w/layernorm_rows/$v/compile.cmd" || fail "$v: no opt step"
    grep -q "/llc -O2 -filetype=obj" "$TMP/w/layernorm_rows/$v/compile.cmd" || fail "$v: no llc step"
    grep -q -- "-DPKEMU_INLINE_HOOKS" "$TMP/w/layernorm_rows/$v/compile.cmd" || fail "$v: hooks not inlined"
  done ;;
validate-allow)
  # A program with a benign shared-memory race: strict, the race fails it
  # with the access's file:line; --allow=race-shared passes it, marked.
  P="$SRC/test/e2e/programs/flag_race.cu"
  L=$(grep -n RACE_LINE "$P" | cut -d: -f1)
  C=(--cache-dir "$TMP/cache")
  if PKEMU_ALLOW=race-shared "$BIN" validate "${C[@]}" --program "$P" --to none > "$TMP/strict" 2>&1; then
    fail "the race passed without --allow (PKEMU_ALLOW of the environment must not relax): $(cat "$TMP/strict")"; fi
  grep -q "emulator: data race: kernel 'anyNegative(int const\*, int, int\*)' at $P:$L: " "$TMP/strict" \
    || fail "strict failure without the access's location: $(cat "$TMP/strict")"
  "$BIN" validate "${C[@]}" --allow=race-shared --program "$P" --to hip > "$TMP/allow" 2>&1 \
    || fail "--allow=race-shared: $(cat "$TMP/allow")"
  grep -q "^flag_race.cu  *PASS\*  *PASS\*" "$TMP/allow" || fail "PASS* cells: $(cat "$TMP/allow")"
  grep -q "^(PASS\*: passed only because --allow=race-shared relaxed a check that fired: not a strict pass)" "$TMP/allow" \
    || fail "legend: $(cat "$TMP/allow")"
  grep -q "^Relaxed checks that fired (--allow=race-shared):" "$TMP/allow" || fail "relaxed section: $(cat "$TMP/allow")"
  grep -q "^  flag_race.cu \[original\]: allowed (race-shared): data race: kernel 'anyNegative(int const\*, int, int\*)' at $P:$L: " "$TMP/allow" \
    || fail "relaxed report: $(cat "$TMP/allow")"
  grep -q "^2 passed (2 only with --allow=race-shared), 0 failed" "$TMP/allow" || fail "summary: $(cat "$TMP/allow")"
  "$BIN" validate "${C[@]}" --json --allow race-shared --program "$P" --to hip > "$TMP/json" 2>/dev/null || fail "--json --allow"
  python3 - "$TMP/json" "$P:$L" <<'PY' || fail "JSON: $(cat "$TMP/json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["allow"] == ["race-shared"], d["allow"]
assert d["summary"]["passed_relaxed"] == 2, d["summary"]
for r in d["programs"][0]["results"]:
    assert r["status"] == "pass" and r["relaxed"], r
assert sys.argv[2] in d["programs"][0]["results"][0]["relaxed"][0]
PY
  # Only the named check is relaxed.
  if "$BIN" validate "${C[@]}" --allow=uninit-shared --program "$P" --to none > "$TMP/other" 2>&1; then
    fail "--allow=uninit-shared relaxed a race"; fi
  grep -q "emulator: data race" "$TMP/other" || fail "other check: $(cat "$TMP/other")"
  set +e
  "$BIN" validate --allow=race-shared,races --program "$P" > "$TMP/bad" 2>&1; rc=$?
  "$BIN" validate --allow=race-shared --gpu --program "$P" > "$TMP/gpu" 2>&1; rc2=$?
  set -e
  [ $rc = 2 ] || fail "unknown check: exit $rc"
  grep -q "port-kernel: error: --allow: unknown check 'races' (checks that can be relaxed: race-shared (data races on shared memory), uninit-shared (" "$TMP/bad" \
    || fail "unknown check: $(cat "$TMP/bad")"
  [ $rc2 = 2 ] || fail "--allow with --gpu: exit $rc2"
  grep -q "port-kernel: error: --allow relaxes the emulator's checks; --gpu and --gpu-bundle run no emulator" "$TMP/gpu" \
    || fail "--allow with --gpu: $(cat "$TMP/gpu")" ;;
validate-corpus)
  "$BIN" validate --to hip,cuda -j 2 "$SRC/corpus" > "$TMP/out" 2>&1 || { cat "$TMP/out"; fail "corpus validation failed"; }
  n=$(ls -d "$SRC"/corpus/*/case.yaml | wc -l)
  grep -q "$((n * 3)) passed, 0 failed" "$TMP/out" || fail "summary: $(tail -3 "$TMP/out")"
  cat "$TMP/out" | sed -n '/^case/,/^(PASS/p' ;;
validate-corpus-strategies)
  # Every corpus kernel's HIP output at 64 lanes with 32-lane logical warps forced
  # (auto is covered by validate-corpus; native applies only where auto picks it).
  n=$(ls -d "$SRC"/corpus/*/case.yaml | wc -l)
  "$BIN" validate --to hip --wave64=logical32 -j 2 "$SRC/corpus" > "$TMP/out" 2>&1 || { cat "$TMP/out"; fail "logical32 corpus validation failed"; }
  grep -q "$((n * 2)) passed, 0 failed" "$TMP/out" || fail "summary: $(tail -3 "$TMP/out")" ;;
*) fail "unknown test $TEST" ;;
esac
echo "ok: $TEST"

#!/usr/bin/env bash
# The MFMA ports of the tensor-core cases compute the same results as the CPU
# reference in the SIMT emulator at 64 lanes:
#   port-kernel validate --to hip --mfma-shape=SHAPE <cases>
# Only the hip cells are required to pass (the original of the inline-PTX
# case cannot run on the emulator).  Usage: validate.sh BIN SRC_ROOT SHAPE
set -euo pipefail
BIN="$1"; SRC="$2"; SHAPE="$3"
TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT
cases=("$SRC/corpus/wmma_hgemm" "$SRC/corpus/wmma_gemm_smem"
       "$SRC/corpus/wmma_bf16_gemm" "$SRC/corpus/attention_wmma"
       "$SRC/corpus/wmma_gemm_warptile"
       "$SRC/test/mfma/cases/wmma_layouts" "$SRC/test/mfma/cases/warp_tile_layouts"
       "$SRC/test/mfma/cases/warp_tile_exit" "$SRC/test/mfma/cases/wmma_exit_epilogue"
       "$SRC/test/mfma/cases/lds_padding" "$SRC/test/mfma/cases/ptx_mma_gemm")
# One directory holding the cases (validate searches it recursively).
# The cases are validated where they are: the compile cache (--cache-dir)
# keys on the preprocessed source, which names the case's directory, so the
# three shapes' runs share the originals' objects and the ports that come
# out the same (auto is one of the two shapes).
"$BIN" validate -j 2 --json --to hip --mfma-shape="$SHAPE" "${cases[@]}" \
  >"$TMP/out.json" 2>"$TMP/err" || true
python3 - "$TMP/out.json" "$TMP/err" "${#cases[@]}" <<'PY'
import json, sys
try:
    doc = json.load(open(sys.argv[1]))
except Exception as e:
    print("FAIL: no JSON from validate:", e)
    print(open(sys.argv[2]).read()[-4000:])
    sys.exit(1)
fails, seen = 0, 0
for c in doc.get("cases", []):
    for r in c.get("results", []):
        if r.get("variant") != "hip":
            continue
        seen += 1
        ok = r.get("status") == "pass"
        print(f"{'PASS' if ok else 'FAIL'}: {c['name']} (hip, {r.get('lanes', 64)} lanes) "
              f"max_abs={r.get('max_abs')} {r.get('kind', '')} {r.get('reason', '')}")
        if not ok:
            fails += 1
            print(r.get("detail", "")[-3000:])
if seen != int(sys.argv[3]):
    print(f"FAIL: {seen} hip results for {sys.argv[3]} cases")
    print(open(sys.argv[2]).read()[-4000:])
    fails += 1
sys.exit(1 if fails else 0)
PY

#!/usr/bin/env bash
# The MFMA rules report what they cannot port: inline PTX other than the
# ported mma.sync form is flagged with PK3011 naming the instruction, and
# fragment elements read by position are flagged with PK3010 (while the
# element-wise loop over num_elements is not).  Usage: check_findings.sh BIN SRC_ROOT
set -euo pipefail
BIN="$1"; SRC="$2"
TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
M="$SRC/test/mfma"

"$BIN" port -q --to hip -o "$TMP/ptx" "$M/diag/ptx_other/input.cu" 2>"$TMP/ptx.err" || true
for ins in prmt.b32 cp.async.ca.shared.global cp.async.wait_all \
           ldmatrix.sync.aligned.m8n8.x4.shared.b16 \
           mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32; do
  grep -q "warning: inline PTX .*'$ins'.* \[PK3011\]" "$TMP/ptx.err" || fail "no PK3011 naming $ins: $(cat "$TMP/ptx.err")"
done
[ "$(grep -c '\[PK3011\]' "$TMP/ptx.err")" = 5 ] || fail "expected 5 PK3011 findings"
grep -q "input.cu:26:3: warning: inline PTX 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32' is left in place: %0 is read but is a write-only output \[PK3011\]" "$TMP/ptx.err" \
  || fail "malformed mma.sync not reported with its reason"
grep -B1 'ldmatrix.sync' "$TMP/ptx/hip/input.hip" | grep -q '// port-kernel: warning: .*\[PK3011\]' \
  || fail "no comment above the ldmatrix statement"

# The ported form: no PK3011, a call of the generated helper.
"$BIN" port -q --to hip -o "$TMP/mma" "$M/ptx_mma/input.cu" 2>"$TMP/mma.err"
! grep -q PK3011 "$TMP/mma.err" || fail "ported mma.sync flagged: $(cat "$TMP/mma.err")"
[ "$(grep -c '__pk_mma_m16n8k16_f16f32(' "$TMP/mma/hip/input.hip")" = 3 ] || fail "mma.sync not replaced"
! grep -q 'asm' "$TMP/mma/hip/input.hip" || fail "asm left in the ported file"

"$BIN" port -q --to hip -o "$TMP/pos" "$M/positional/input.cu" 2>"$TMP/pos.err"
lines=$(sed -n 's/^.*input.cu:\([0-9]*:[0-9]*\): warning: .*\[PK3010\]$/\1/p' "$TMP/pos.err" | tr '\n' ' ')
[ "$lines" = "20:14 23:10 25:20 27:5 29:5 30:23 " ] || fail "PK3010 at '$lines': $(cat "$TMP/pos.err")"
grep -q "input.cu:29:5: .*(the loop variable is also used in 'out\[i\]')" "$TMP/pos.err" || fail "reason of 29:5"

# --lds-padding=keep: the shared tiles keep the pitch the kernel wrote, and
# nothing is said about them (auto re-plans all three: golden lds_padding and
# the validated case).
C="$M/cases/lds_padding/lds_padding.cu"
"$BIN" port -q --to hip --lds-padding=keep -o "$TMP/keep" "$C" 2>"$TMP/keep.err"
! grep -q PK3017 "$TMP/keep.err" || fail "PK3017 with --lds-padding=keep: $(cat "$TMP/keep.err")"
diff <(grep -E '__shared__|matrix_sync' "$C" | sed -e 's/wmma::/pk_mfma::/g' -e "s/__nv_bfloat16/__hip_bfloat16/g") \
     <(grep -E '__shared__|matrix_sync\(' "$TMP/keep/hip/lds_padding.hip" | grep -v '^__device__\|^load_matrix_sync\|^ *detail::\|^    fragment_ref') \
  || fail "--lds-padding=keep changed the tiles"
"$BIN" port -q --to hip -o "$TMP/auto" "$C" 2>"$TMP/auto.err"
[ "$(grep -c '\[PK3017\]' "$TMP/auto.err")" = 3 ] || fail "expected 3 PK3017 notes: $(cat "$TMP/auto.err")"
! "$BIN" port -q --to hip --lds-padding=wide -o "$TMP/bad" "$C" 2>/dev/null || fail "bad --lds-padding accepted"
# --lds-padding=always: re-planned even where fewer workgroups fit ('Oc',
# 'Y'), never past 64 KiB ('Big').
"$BIN" port -q --to hip --lds-padding=always -o "$TMP/always" "$M/lds_padding/input.cu" 2>"$TMP/always.err"
for a in Oc Y; do
  grep -q "note: row pitch of '$a' 24 -> 28 elements" "$TMP/always.err" || fail "'$a' not re-planned with always"
done
grep -q "'Big': the row pitch is kept: .* exceed the 64 KiB" "$TMP/always.err" || fail "'Big' re-planned past 64 KiB"
echo "ok"

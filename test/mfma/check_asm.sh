#!/usr/bin/env bash
# The MFMA ports of the tensor-core corpus cases compile for gfx90a and
# gfx942 with every --mfma-shape value; the assembly of every kernel uses
# v_mfma instructions of the expected shape and no scratch memory (no spills,
# no stack arrays).  Expected shapes: warp-tile kernels (2x2 groups of
# fragments, PK3005) use only 32x32x8 with auto and 32x32x8; single
# fragments use 16x16x16 with auto; inline-PTX mma always uses 16x16x16.
# The LDS instructions of lds_padding have the widths PK3017's model uses.
# Prints a table of VGPRs and LDS bytes per kernel, shape and target.
# Usage: check_asm.sh BIN SRC_ROOT [CLANGXX]
set -euo pipefail
BIN="$1"; SRC="$2"; CXX="${3:-clang++-19}"
# The HIP runtime header precompiled where that cannot change the verdict.
. "$SRC/test/lib/hip_pch.sh"
TMP="$(mktemp -d)"; trap 'rm -rf "$TMP"' EXIT
# ROCm 5.2's device libraries lack the gfx942 ISA file: alias gfx940's
# (compile checks only; never a runnable build).
BC=/usr/lib/x86_64-linux-gnu/amdgcn/bitcode
mkdir -p "$TMP/devlibs942"
for f in "$BC"/*.bc; do ln -s "$f" "$TMP/devlibs942/"; done
ln -sf "$BC/oclc_isa_version_940.bc" "$TMP/devlibs942/oclc_isa_version_942.bc"

# case:kind (tiles: 32x32 warp tiles; single: one fragment per warp; ptx)
cases=("$SRC/corpus/wmma_hgemm:single" "$SRC/corpus/wmma_gemm_smem:single"
       "$SRC/corpus/wmma_bf16_gemm:single" "$SRC/corpus/attention_wmma:single"
       "$SRC/corpus/wmma_gemm_warptile:tiles"
       "$SRC/test/mfma/cases/wmma_layouts:single"
       "$SRC/test/mfma/cases/warp_tile_layouts:tiles"
       "$SRC/test/mfma/cases/wmma_exit_epilogue:single"
       "$SRC/test/mfma/cases/lds_padding:single"
       "$SRC/test/mfma/cases/ptx_mma_gemm:ptx")
fails=0
declare -A compiled
printf '| kernel | --mfma-shape | target | VGPRs | AGPRs | LDS bytes | v_mfma 16x16x16 | v_mfma 32x32x8 | scratch |\n'
printf '|---|---|---|---|---|---|---|---|---|\n'
for ck in "${cases[@]}"; do
  c="${ck%:*}"; kind="${ck##*:}"
  name=$(basename "$c")
  for shape in auto 16x16x16 32x32x8; do
    # The instruction shape the kernel must use.
    want=16
    if [ "$kind" = tiles ] && [ "$shape" != 16x16x16 ]; then want=32; fi
    if [ "$kind" = single ] && [ "$shape" = 32x32x8 ]; then want=32; fi
    out="$TMP/$name.$shape"
    # Compiled against Debian's ROCm 5.2 (--rocm-path=/usr): its bf16 type.
    if ! "$BIN" port -q --to hip --rocm-version=5 --mfma-shape="$shape" -o "$out" "$c/$name.cu" 2>"$TMP/port.err"; then
      echo "FAIL: port $name ($shape)"; cat "$TMP/port.err"; fails=$((fails+1)); continue
    fi
    sum=$(cd "$out/hip" && find . -type f | LC_ALL=C sort | xargs md5sum | md5sum | cut -d' ' -f1)
    for arch in gfx90a gfx942; do
      lib="$BC"; [ "$arch" = gfx942 ] && lib="$TMP/devlibs942"
      s="$out/$arch.s"
      # A shape whose port is byte-identical to one already compiled (auto
      # picks one of the two shapes; inline PTX always gets 16x16x16) reuses
      # that assembly: the same input, flags and compiler.
      if [ -n "${compiled[$sum.$arch]:-}" ]; then
        cp "${compiled[$sum.$arch]}" "$s"
      elif ! pk_hip_cc "$CXX" "$out/hip/$name.hip" -x hip --offload-arch="$arch" --cuda-device-only -O2 -S \
           --rocm-path=/usr --rocm-device-lib-path="$lib" \
           -o "$s" 2>"$TMP/cc.err"; then
        echo "FAIL: compile $name ($shape, $arch)"; grep error "$TMP/cc.err" | head -5
        fails=$((fails+1)); continue
      else
        compiled[$sum.$arch]="$s"
      fi
      mfma=$(grep -cE '^\s+v_mfma_' "$s" || true)
      m16=$(grep -cE '^\s+v_mfma_f32_16x16x16' "$s" || true)
      m32=$(grep -cE '^\s+v_mfma_f32_32x32x8' "$s" || true)
      agpr=$(sed -n 's/^\s*-\{0,1\}\s*\.agpr_count:\s*\([0-9]*\)/\1/p' "$s" | head -1)
      vgpr=$(sed -n 's/^\s*\.vgpr_count:\s*\([0-9]*\)/\1/p' "$s" | head -1)
      lds=$(sed -n 's/^\s*\.group_segment_fixed_size:\s*\([0-9]*\)/\1/p' "$s" | head -1)
      priv=$(sed -n 's/^\s*\.private_segment_fixed_size:\s*\([0-9]*\)/\1/p' "$s" | head -1)
      scr=$(sed -n 's/^; ScratchSize:\s*\([0-9]*\)/\1/p' "$s" | head -1)
      spill=$(grep -cE '^\s+(scratch_(load|store)|buffer_(load|store))' "$s" || true)
      bad=""
      [ "$mfma" -gt 0 ] || bad="$bad no-v_mfma"
      if [ "$want" = 32 ]; then
        [ "$m32" -gt 0 ] && [ "$m16" = 0 ] || bad="$bad expected-only-32x32x8"
      else
        [ "$m16" -gt 0 ] && [ "$m32" = 0 ] || bad="$bad expected-only-16x16x16"
      fi
      [ "${priv:-x}" = 0 ] || bad="$bad private_segment=$priv"
      [ "${scr:-x}" = 0 ] || bad="$bad ScratchSize=$scr"
      [ "$spill" = 0 ] || bad="$bad scratch-accesses=$spill"
      # The access widths the LDS bank model of PK3017 assumes (pk/LdsBanks.h):
      # lds_padding's operands are all contiguous (8-byte loads, also paired
      # as ds_read2_b64) and its accumulators go out col-major (16-byte stores).
      if [ "$name" = lds_padding ]; then
        b64=$(grep -cE '^\s+ds_read2?_b64' "$s" || true)
        u16=$(grep -cE '^\s+ds_read_u16' "$s" || true)
        b128=$(grep -cE '^\s+ds_write_b128' "$s" || true)
        [ "$b64" -gt 0 ] && [ "$u16" = 0 ] && [ "$b128" -gt 0 ] \
          || bad="$bad lds-widths(b64=$b64,u16=$u16,b128=$b128)"
      fi
      printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$name" "$shape" "$arch" "$vgpr" "${agpr:-0}" "$lds" "$m16" "$m32" "${priv:-?}"
      if [ -n "$bad" ]; then echo "FAIL: $name ($shape, $arch):$bad"; fails=$((fails+1)); fi
    done
  done
done
echo "$fails failures"
[ "$fails" -eq 0 ]

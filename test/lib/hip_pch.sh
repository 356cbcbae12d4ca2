# Sourced by the tests that compile HIP outputs with clang (e2e.hip-outputs-
# compile, programs.*, mfma.asm): one compile of one side (the host, or the
# device code of one --offload-arch), with the HIP runtime header
# precompiled where that cannot change the verdict.
#
#   pk_hip_cc CXX FILE FLAGS...
#
# runs `CXX FLAGS FILE` (FLAGS name the side: --offload-host-only or
# --offload-device-only/--cuda-device-only with one --offload-arch) and
# returns its exit status, its diagnostics on stderr.
#
# Parsing hip/hip_runtime.h is most of such a compile (0.8 of 0.9 s per side
# here).  When the first preprocessing directive of FILE (after comments,
# blank lines and `#pragma once`) is `#include <hip/hip_runtime.h>`, the
# compile is the same as one that starts from that header precompiled with
# the same flags: the header is the first text either way, under the same
# predefined macros, command-line macros and implicit includes.  Such a file
# is compiled with `-include-pch` of a PCH built once for its flags (the
# key: compiler, its version and every flag but the directory of the device
# libraries, which are linked after parsing) under PK_HIP_PCH_DIR (default
# BUILD/test-cache/hip-pch, BUILD the directory above the port-kernel
# binary's bin/).  Any other file is compiled as is.
#
# A PCH can only speed up a pass: a compile that fails with one is compiled
# again without it, and that verdict stands (a header changed since the PCH
# was built fails the first and passes the second; the PCH is then rebuilt).
# PCHs are written to a temporary name and renamed, so tests running side by
# side never read a partial one.

pk_hip_pch_eligible() { # FILE: 0 if its first directive includes hip_runtime.h
  awk '
    BEGIN { incomment = 0 }
    {
      line = $0
      while (1) {
        if (incomment) {
          p = index(line, "*/"); if (p == 0) { line = ""; break }
          line = substr(line, p + 2); incomment = 0; continue
        }
        sub(/^[ \t\r]+/, "", line)
        if (substr(line, 1, 2) == "/*") { line = substr(line, 3); incomment = 1; continue }
        break
      }
      if (line == "" || substr(line, 1, 2) == "//") next
      if (line ~ /^#[ \t]*pragma[ \t]+once[ \t\r]*(\/\/.*)?$/) next
      if (line ~ /^#[ \t]*include[ \t]*[<"]hip\/hip_runtime\.h[>"][ \t\r]*(\/\/.*)?$/) exit 0
      exit 1
    }
    END { if (NR == 0) exit 1 }' "$1"
}

pk_hip_pch_dir() {
  if [ -n "${PK_HIP_PCH_DIR:-}" ]; then echo "$PK_HIP_PCH_DIR"
  elif [ -n "${BIN:-}" ]; then echo "$(cd "$(dirname "$BIN")/.." && pwd)/test-cache/hip-pch"
  else echo "${TMPDIR:-/tmp}/pk-hip-pch"; fi
}

# pk_hip_pch CXX FLAGS...: prints the path of the PCH for FLAGS (building it
# if absent); prints nothing and returns 1 if it cannot be built.
pk_hip_pch() {
  local cxx="$1"; shift
  local flags=() skip=0 a
  for a in "$@"; do # the flags that make no output: drop the output's
    if [ "$skip" = 1 ]; then skip=0; continue; fi
    case "$a" in
      -o) skip=1 ;;
      -c|-S|-fsyntax-only|-emit-llvm) ;;
      *) flags+=("$a") ;;
    esac
  done
  local dir key pch tmp
  dir=$(pk_hip_pch_dir)
  # The key: every flag but the device libraries' directory (bitcode linked
  # after parsing; each test makes its own).
  key=$( { echo "$cxx"; "$cxx" --version 2>&1
           printf '%s\n' "${flags[@]}" | grep -v '^--rocm-device-lib-path='; } | sha256sum | cut -c1-24)
  pch="$dir/$key.pch"
  if [ ! -s "$pch" ]; then
    mkdir -p "$dir" 2>/dev/null || return 1
    # The PCH names its source file and checks its size and time when it is
    # read: one source, written once (a rename that never replaces it).
    local src="$dir/hip_runtime_pch.h"
    if [ ! -s "$src" ]; then
      tmp=$(mktemp "$dir/.src.XXXXXX") || return 1
      printf '#include <hip/hip_runtime.h>\n' > "$tmp"
      mv -n "$tmp" "$src"; rm -f "$tmp"
    fi
    tmp=$(mktemp "$dir/.build.XXXXXX") || return 1
    if "$cxx" "${flags[@]}" -fsyntax-only -Xclang -emit-pch "$src" > "$tmp" 2>/dev/null && [ -s "$tmp" ]; then
      mv -f "$tmp" "$pch"
    else
      rm -f "$tmp"
    fi
  fi
  [ -s "$pch" ] || return 1
  echo "$pch"
}

pk_hip_cc() { # CXX FILE FLAGS...
  local cxx="$1" file="$2"; shift 2
  local pch=""
  if [ "${PK_HIP_PCH:-1}" != 0 ] && pk_hip_pch_eligible "$file"; then
    pch=$(pk_hip_pch "$cxx" "$@") || pch=""
  fi
  if [ -n "$pch" ]; then
    if "$cxx" "$@" -include-pch "$pch" "$file" 2>/dev/null; then return 0; fi
    # Judged without the PCH; if that passes, the PCH was stale: rebuild it.
    if "$cxx" "$@" "$file"; then rm -f "$pch"; return 0; fi
    return 1
  fi
  "$cxx" "$@" "$file"
}

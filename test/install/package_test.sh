#!/usr/bin/env bash
# package.deb: scripts/package.sh builds port-kernel_<version>_amd64.deb; its
# Depends are the packages of the libraries the binary loads plus the
# toolchain and headers that validate runs; `apt-get install ./FILE.deb`
# installs it; /usr/bin/port-kernel ports and validates a corpus case;
# `apt-get remove` leaves no file behind.
#
#   package_test.sh SOURCE_DIR BUILD_DIR
#
# Needs root (or password-less sudo) and apt: otherwise exit 77 (skipped).
set -u
src=$(cd "$1" && pwd -P) build=$(cd "$2" && pwd -P)
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if sudo -n true 2>/dev/null; then SUDO="sudo -n"
  else echo "SKIP: package.deb installs a package: it needs root or password-less sudo"; exit 77; fi
fi
command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null \
  || { echo "SKIP: package.deb needs apt-get and dpkg-deb (Debian)"; exit 77; }
if dpkg-query -W -f='${Status}' port-kernel 2>/dev/null | grep -q "ok installed"; then
  echo "SKIP: a port-kernel package is installed on this machine; the test would replace and remove it"
  exit 77
fi
T=$(mktemp -d /tmp/pk-package.XXXXXX)
cleanup() {
  if dpkg-query -W -f='${Status}' port-kernel 2>/dev/null | grep -q "ok installed"; then
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq port-kernel >/dev/null 2>&1
  fi
  rm -rf "$T"
}
trap cleanup EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# --- build ------------------------------------------------------------------------
deb=$(BUILD_DIR="$build" "$src/scripts/package.sh" "$T/out" 2>"$T/package.err") \
  || { cat "$T/package.err"; echo "FAIL: scripts/package.sh"; exit 1; }
version=$(sed -n 's/^project(port-kernel VERSION \([0-9.]*\) .*/\1/p' "$src/CMakeLists.txt")
[ "$deb" = "$T/out/port-kernel_${version}_amd64.deb" ] || fail "package name: $deb"
[ -f "$deb" ] || { echo "FAIL: no package"; exit 1; }
[ "$(dpkg-deb -f "$deb" Package)" = port-kernel ] || fail "Package field"
[ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || fail "Version field"
[ "$(dpkg-deb -f "$deb" Architecture)" = amd64 ] || fail "Architecture field"
dpkg-deb -c "$deb" | awk '{print $6}' >"$T/contents"
for f in ./usr/bin/port-kernel ./usr/share/port-kernel/port-kernel-data \
         ./usr/share/port-kernel/emu/lib/libpkemu.a ./usr/share/port-kernel/nkisim/pk_nki_run.py \
         ./usr/share/man/man1/port-kernel.1 ./usr/share/bash-completion/completions/port-kernel \
         ./usr/share/zsh/vendor-completions/_port-kernel; do
  grep -qxF "$f" "$T/contents" || fail "the package lacks $f"
done

# --- Depends: exactly what it needs -----------------------------------------------------
deps=$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/(.*)//; s/^ *//; s/ *$//' | sort -u)
# The packages of the shared libraries the binary loads ...
dpkg-deb -x "$deb" "$T/x"
# (its own NEEDED entries, resolved by ldd; the libraries those load are
# their packages' business)
needed=$(objdump -p "$T/x/usr/bin/port-kernel" | awk '$1 == "NEEDED" {print $2}')
[ -n "$needed" ] || fail "objdump found no NEEDED entries"
need=$(for so in $needed; do
         lib=$(ldd "$T/x/usr/bin/port-kernel" | awk -v so="$so" '$1 == so {print $3} index($1, "/" so) {print $1}' | head -1)
         [ -n "$lib" ] || { echo "NONE: $so"; continue; }
         real=$(readlink -f "$lib")
         dpkg -S "$lib" 2>/dev/null || dpkg -S "$real" 2>/dev/null || echo "NONE: $so"
       done | sed 's/:.*//' | sort -u)
grep -q NONE <<<"$need" && fail "a library the binary loads belongs to no package: $need"
# ... and what validate runs: clang++ with its resource headers, -lboost_context,
# the HIP headers, python3 with NumPy (the NKI simulator), OpenBLAS (the
# emulator's cuBLAS/hipBLAS).
need=$(printf '%s\n' $need clang-19 libclang-common-19-dev libboost-context-dev \
         libamdhip64-dev python3 python3-numpy libopenblas0 | sort -u)
if [ "$deps" != "$need" ]; then
  fail "Depends differ from what the package needs"
  diff <(echo "$deps") <(echo "$need") | sed 's/^</  in Depends only:/; s/^>/  needed, not in Depends:/'
fi
# Each non-library dependency provides what validate uses.
for p in /usr/lib/llvm-19/bin/clang++ /usr/include/hip/hip_runtime.h; do
  [ -e "$p" ] || fail "$p (used by validate) is missing on this machine"
done

# --- install, run, remove -------------------------------------------------------------
cp "$deb" "$T/"
if ! $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$T/$(basename "$deb")" >"$T/apt.log" 2>&1; then
  cat "$T/apt.log"; echo "FAIL: apt-get install ./$(basename "$deb")"; exit 1
fi
dpkg -L port-kernel >"$T/files"
[ "$(command -v port-kernel)" = /usr/bin/port-kernel ] || fail "port-kernel is not /usr/bin/port-kernel"
/usr/bin/port-kernel --version | grep -q "^port-kernel $version " || fail "--version"
mkdir -p "$T/w/in" && cp -r "$src/corpus/saxpy" "$T/w/in/"
( cd "$T/w" && export PORT_KERNEL_CACHE_DIR="$T/w/cache"
  /usr/bin/port-kernel port --to hip,cuda -o out in/ >port.log 2>&1 || { cat port.log; exit 1; }
  [ -f out/hip/saxpy/saxpy.hip ] || exit 1
  /usr/bin/port-kernel validate --to hip,cuda,nki in/saxpy >val.log 2>&1 || { cat val.log; exit 1; }
  ! grep -qi skip val.log || { cat val.log; exit 1; } ) || fail "port and validate from /usr/bin"
man -w port-kernel >/dev/null 2>&1 || [ -f /usr/share/man/man1/port-kernel.1 ] || fail "man page"

if ! $SUDO env DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq port-kernel >"$T/rm.log" 2>&1; then
  cat "$T/rm.log"; fail "apt-get remove port-kernel"
fi
dpkg-query -W -f='${Status}' port-kernel 2>/dev/null | grep -q "ok installed" && fail "still installed after apt-get remove"
left=$(while read -r f; do [ -f "$f" ] || [ -L "$f" ] && echo "$f"; done <"$T/files")
[ -z "$left" ] || fail "files left after apt-get remove: $(head -5 <<<"$left")"
[ ! -e /usr/share/port-kernel ] || fail "/usr/share/port-kernel left after apt-get remove"

[ "$fails" -eq 0 ] || { echo "FAIL: $fails check(s) failed"; exit 1; }
echo "PASS: package.deb ($(basename "$deb"): built, installed, ran port and validate from /usr/bin, removed)"

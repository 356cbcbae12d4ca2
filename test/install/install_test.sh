#!/usr/bin/env bash
# install.relocatable: `cmake --install` gives a tool that runs from any
# prefix and reads nothing of the source or build tree.
#
#   install_test.sh CMAKE BUILD_DIR SOURCE_DIR
#
# 1. installs into a temporary prefix, checks the layout (data, man page,
#    completions; no links, no compiled-in source or build path);
# 2. moves the prefix elsewhere (relocatable) and copies corpus cases next to it;
# 3. with the source tree (and the build tree) hidden -- a private mount
#    namespace with an empty tmpfs over them (unshare -m, or unshare -rm
#    without root), else an strace of every file access (PK_TEST_HIDE=strace
#    forces it) -- runs port, check, validate (hip, cuda, nki), report,
#    explain and rules from the moved copy;
# 4. a binary without its data, or a wrong PORT_KERNEL_DATA_DIR, is a clear
#    error (exit 2); PORT_KERNEL_DATA_DIR names the data of a copied binary.
set -u
cmake=$1 build=$(cd "$2" && pwd -P) src=$(cd "$3" && pwd -P)
T=$(mktemp -d /tmp/pk-install.XXXXXX)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
pass() { echo "ok: $*"; }

# --- 1. install and layout ---------------------------------------------------
if ! "$cmake" --install "$build" --prefix "$T/p" >"$T/install.log" 2>&1; then
  cat "$T/install.log"; echo "FAIL: cmake --install failed"; exit 1
fi
P=$T/p
for f in bin/port-kernel share/port-kernel/port-kernel-data \
         share/port-kernel/cuda-decls/__pk_cuda_prelude.h \
         share/port-kernel/cuda13-shim/__pk_nvcc_compat.h \
         share/port-kernel/emu/shim/pkemu/prelude.h \
         share/port-kernel/emu/include/pkemu/runtime.h \
         share/port-kernel/emu/lib/libpkemu.a \
         share/port-kernel/nkisim/pk_nki_run.py share/port-kernel/nkisim/nki/__init__.py \
         share/port-kernel/rules/cuda2hip/runtime.yaml \
         share/port-kernel/rules/cuda-legacy/runtime.yaml \
         share/man/man1/port-kernel.1 \
         share/bash-completion/completions/port-kernel \
         share/zsh/vendor-completions/_port-kernel \
         share/doc/port-kernel/rules/PK2001.md; do
  [ -f "$P/$f" ] || fail "not installed: $f"
done
links=$(find "$P" -type l)
[ -z "$links" ] || fail "the install holds links (into the build tree?): $links"
pyc=$(find "$P" -name '__pycache__' -o -name '*.pyc')
[ -z "$pyc" ] || fail "the install holds Python caches: $pyc"
# No path of the source or build tree is compiled into the binary.
if grep -aFq "$src/" "$P/bin/port-kernel"; then
  fail "bin/port-kernel names the source tree: $(grep -aoF "$src/" "$P/bin/port-kernel" | head -3)"
fi
if grep -aFq "$build/" "$P/bin/port-kernel"; then
  fail "bin/port-kernel names the build tree"
fi
[ "$fails" -eq 0 ] && pass "layout"

# --- 2. relocate ----------------------------------------------------------------
mkdir -p "$T/elsewhere"
mv "$P" "$T/elsewhere/prefix with space"
P="$T/elsewhere/prefix with space"
mkdir -p "$T/in"
cp -r "$src/corpus/saxpy" "$src/corpus/transpose" "$T/in/"
# The runs' script: everything below reads only $P and $T.
cat >"$T/run.sh" <<'RUN'
set -u
P=$1 T=$2 src=$3
pk="$P/bin/port-kernel"
export PORT_KERNEL_CACHE_DIR="$T/cache" HOME="$T/home"
unset PORT_KERNEL_DATA_DIR
cd "$T"
rc=0
bad() { echo "FAIL: $*"; rc=1; }
if [ -d "$src" ] && [ -n "$(ls -A "$src" 2>/dev/null)" ]; then
  [ "${PK_HIDDEN:-}" = strace ] || bad "the source tree is not hidden"
fi
"$pk" --version | grep -q '^port-kernel ' || bad "--version"
"$pk" port --to hip,cuda,nki -o out in/ >port.log 2>&1 || { cat port.log; bad "port (exit $?)"; }
[ -f out/hip/saxpy/saxpy.hip ] || bad "port: no out/hip/saxpy/saxpy.hip"
[ -f out/cuda/transpose/transpose.cu ] || bad "port: no out/cuda/transpose/transpose.cu"
ls out/nki/saxpy/*.py >/dev/null 2>&1 || bad "port: no NKI output"
"$pk" check --to hip --format sarif --output check.sarif in/ >check.log 2>&1
c=$?; [ $c -le 1 ] || { cat check.log; bad "check (exit $c)"; }
grep -q '"version": *"2.1.0"' check.sarif || bad "check: no SARIF"
"$pk" validate --to hip,cuda in/ >val.log 2>&1 || { cat val.log; bad "validate --to hip,cuda (exit $?)"; }
"$pk" validate --to nki in/saxpy >nki.log 2>&1 || { cat nki.log; bad "validate --to nki (exit $?)"; }
grep -qi "skip" nki.log && { cat nki.log; bad "validate --to nki skipped"; }
"$pk" report --to hip -o r.html --markdown pr.md in/ >report.log 2>&1 || { cat report.log; bad "report (exit $?)"; }
[ -s r.html ] && [ -s pr.md ] || bad "report: no r.html or pr.md"
"$pk" explain PK2001 | grep -q PK2001 || bad "explain PK2001"
"$pk" rules | grep -q PK2001 || bad "rules"
exit $rc
RUN

# PK_TEST_HIDE=strace takes the second way where the first would do.
hide=""
if [ "${PK_TEST_HIDE:-}" = strace ]; then :
elif unshare -m true 2>/dev/null; then hide="unshare -m"
elif unshare -rm true 2>/dev/null; then hide="unshare -rm"
fi
if [ -n "$hide" ]; then
  # An empty tmpfs over the source tree (the default build tree is inside
  # it) and over the build tree, in a mount namespace of this run only.
  $hide bash -c 'case "$2/" in "$1"/*) ;; *) mount -t tmpfs none "$2" || exit 9 ;; esac
                 mount -t tmpfs none "$1" || exit 9
                 exec bash "$3/run.sh" "$4" "$3" "$1"' \
    _ "$src" "$build" "$T" "$P"
  r=$?
  [ $r -eq 0 ] && pass "port, check, validate (hip, cuda, nki), report, explain, rules from the moved install, source tree hidden ($hide)" \
    || fail "runs from the moved install with the source tree hidden"
elif command -v strace >/dev/null; then
  PK_HIDDEN=strace strace -f -qq -e trace=%file -o "$T/strace.log" bash "$T/run.sh" "$P" "$T" "$src"
  r=$?
  [ $r -eq 0 ] || fail "runs from the moved install"
  if grep -F -e "\"$src/" -e "\"$build/" "$T/strace.log" | grep -v ENOENT | head -5 | grep .; then
    fail "the installed binary opened files of the source or build tree (above)"
  else
    pass "runs from the moved install opened nothing of the source tree (strace)"
  fi
else
  echo "SKIP: neither unshare -m nor strace can hide or watch the source tree"
  exit 77
fi

# --- 4. data directory errors ----------------------------------------------------
mkdir -p "$T/lone/bin"
cp "$P/bin/port-kernel" "$T/lone/bin/"
out=$("$T/lone/bin/port-kernel" port --to hip -o "$T/o1" "$T/in/saxpy" 2>&1); r=$?
[ $r -eq 2 ] || fail "a binary without its data: exit $r, want 2"
grep -q "data directory .* is missing" <<<"$out" || fail "a binary without its data: message: $out"
[ ! -e "$T/o1" ] || fail "a binary without its data wrote output"
out=$(PORT_KERNEL_DATA_DIR="$T/nowhere" "$P/bin/port-kernel" check --to hip "$T/in/saxpy" 2>&1); r=$?
[ $r -eq 2 ] || fail "a wrong PORT_KERNEL_DATA_DIR: exit $r, want 2"
grep -q "PORT_KERNEL_DATA_DIR" <<<"$out" || fail "a wrong PORT_KERNEL_DATA_DIR: message: $out"
PORT_KERNEL_DATA_DIR="$P/share/port-kernel" "$T/lone/bin/port-kernel" port --to hip -o "$T/o2" "$T/in/saxpy" >/dev/null 2>&1 \
  && [ -f "$T/o2/hip/saxpy.hip" ] || fail "PORT_KERNEL_DATA_DIR does not name the data of a copied binary"
[ "$fails" -eq 0 ] && pass "data directory errors and PORT_KERNEL_DATA_DIR"

# --- --version names the revision ----------------------------------------------
v=$("$P/bin/port-kernel" --version)
if [ -e "$src/.git" ]; then
  grep -Eq '^port-kernel [0-9]+\.[0-9]+\.[0-9]+ \(git [0-9A-Za-z._+-]+, clang 19' <<<"$v" \
    || fail "--version does not name the git revision: $v"
else
  grep -Eq '^port-kernel [0-9]+\.[0-9]+\.[0-9]+ \(clang 19' <<<"$v" || fail "--version: $v"
fi

[ "$fails" -eq 0 ] || { echo "FAIL: $fails check(s) failed"; exit 1; }
echo "PASS: install.relocatable"

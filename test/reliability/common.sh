# Shared by the reliability scripts (sourced): arguments, scratch directory,
# and the checks every case makes.  Usage of a script: SCRIPT BIN SRC_ROOT TEST
set -uo pipefail
BIN="$1"; SRC="$2"; TEST="$3"
TMP="$(mktemp -d)"; trap 'chmod -R u+rwx "$TMP" 2>/dev/null; rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
GOLD="$SRC/test/golden"

# A listing of everything under $1 (links as links, not followed) with the
# contents of the regular files, to compare before and after a run.
snapshot() {
  (cd "$1" && find . -printf '%y %m %p -> %l\n' | sort &&
   find . -type f -readable -exec md5sum {} + | sort)
}
# Runs port-kernel, keeping its status in $rc and its stderr in $TMP/err;
# gives up after 120 s (a walk that does not end).
run() { timeout 120 "$BIN" "$@" 2>"$TMP/err" >"$TMP/out"; rc=$?; }
expect_rc() {
  [ "$rc" != 124 ] || fail "did not finish in 120 s"
  [ "$rc" -lt 128 ] || [ "$rc" = 130 ] || fail "crashed (status $rc): $(tail -5 "$TMP/err")"
  case " $* " in *" $rc "*) ;; *) fail "exit status $rc, expected $*: $(cat "$TMP/err")" ;; esac
}
expect_err() { grep -qF -- "$1" "$TMP/err" || fail "no message '$1': $(cat "$TMP/err")"; }
same_inputs() { [ "$(snapshot "$1")" = "$2" ] || fail "the input tree changed"; }

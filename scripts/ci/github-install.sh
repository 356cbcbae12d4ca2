#!/usr/bin/env bash
# The install step of the GitHub action (action.yml): installs the port-kernel
# package from PK_DEB (a .deb in the workspace) or PK_RELEASE_URL (downloaded),
# with apt-get so that its Depends come along; with neither, port-kernel must
# already be on PATH.  Exit 2 with the reason on an error.
set -euo pipefail
die() { echo "port-kernel action: error: $*" >&2; exit 2; }
SUDO=()
[ "$(id -u)" -eq 0 ] || SUDO=(sudo -n)
deb=""
if [ -n "${PK_DEB:-}" ]; then
  [ -z "${PK_RELEASE_URL:-}" ] || die "give deb or release-url, not both"
  [ -f "$PK_DEB" ] || die "deb: $PK_DEB is not a file"
  deb=$(cd "$(dirname -- "$PK_DEB")" && pwd)/$(basename -- "$PK_DEB")
elif [ -n "${PK_RELEASE_URL:-}" ]; then
  [[ $PK_RELEASE_URL == https://* ]] || die "release-url: only https:// URLs"
  deb="${RUNNER_TEMP:-/tmp}/port-kernel.deb"
  curl -fsSL --retry 3 -o "$deb" -- "$PK_RELEASE_URL" || die "cannot download $PK_RELEASE_URL"
else
  command -v port-kernel >/dev/null 2>&1 || die "port-kernel is not installed: give deb or release-url"
  port-kernel --version
  exit 0
fi
[[ $deb == *.deb ]] || { cp -- "$deb" "$deb.deb"; deb="$deb.deb"; }
"${SUDO[@]}" apt-get update -qq
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$deb" \
  || die "apt-get install $deb failed"
port-kernel --version

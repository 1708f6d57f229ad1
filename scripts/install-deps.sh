#!/usr/bin/env bash
# Installs the Debian packages the project needs, only those missing.
# As root it runs apt-get; otherwise it prints the apt-get line to run and fails.
set -euo pipefail
PKGS="cmake gcc make pkg-config libsimgrid-dev libxml2-dev libgsl-dev libcunit1-dev libarchive-dev libjansson-dev zlib1g-dev gnuplot-nox python3 clang libclang-rt-dev time"
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "missing Debian packages:$missing" >&2
  echo "run as root:  apt-get update && apt-get install -y$missing" >&2
  exit 1
fi
echo "installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null

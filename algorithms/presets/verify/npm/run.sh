#!/usr/bin/env bash
# make verify-presets: npm hashring 3.2.0 and memcached 2.2.2 client (real packages, offline).
# usage: run.sh OUT_DIR  -> OUT_DIR/<stem>.tsv for each configs.tsv row with system "npm".
# The packages must already be installed (install.sh; default folder build/verify-presets/npm,
# or CHBENCH_VERIFY_NPM_DIR). No network connection is made.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
out=${1:?usage: run.sh OUT_DIR}
pkg=${CHBENCH_VERIFY_NPM_DIR:-$repo/build/verify-presets/npm}

command -v node >/dev/null 2>&1 || { echo "npm/run.sh: missing program 'node' (apt package nodejs)" >&2; exit 2; }
command -v timeout >/dev/null 2>&1 || { echo "npm/run.sh: missing program 'timeout' (coreutils)" >&2; exit 2; }
if [ ! -d "$pkg/node_modules" ] || ! cmp -s "$pkg/package-lock.json" "$here/package-lock.json"; then
  echo "npm/run.sh: pinned npm packages not installed in $pkg (run algorithms/presets/verify/npm/install.sh)" >&2
  exit 2
fi

mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
# The driver must exit by itself (it opens no socket); the timeout catches a regression.
rc=0
timeout 120 node "$here/driver.js" "$pkg" "$here/../configs.tsv" "$repo/algorithms/presets/testdata/keys.txt" "$tmp" || rc=$?
if [ "$rc" -ne 0 ]; then
  echo "npm/run.sh: driver failed (exit $rc)" >&2
  [ "$rc" -eq 2 ] && exit 2
  exit 1
fi
mv "$tmp"/*.tsv "$out"/

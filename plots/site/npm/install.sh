#!/usr/bin/env bash
# Installs the pinned npm packages of package-lock.json (vega, vega-lite,
# vega-embed, playwright-core) into a build folder, never into the
# repository. The site builder copies the chart library from there; the
# browser tests drive Debian's chromium with playwright-core from there.
# usage: install.sh DIR
# Needs node + npm (Debian: apt packages nodejs npm) and the npm registry.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dir=${1:?usage: install.sh DIR}
for p in node npm; do
  command -v "$p" >/dev/null 2>&1 || { echo "site/npm/install.sh: missing program '$p' (apt packages nodejs npm)" >&2; exit 2; }
done
mkdir -p "$dir"
# Up to date when the installed lock file equals the pinned one.
if [ -f "$dir/node_modules/.package-lock.json" ] && cmp -s "$here/package-lock.json" "$dir/package-lock.json"; then
  exit 0
fi
cp "$here/package.json" "$here/package-lock.json" "$dir/"
cd "$dir"
npm ci --ignore-scripts --no-audit --no-fund --loglevel=error

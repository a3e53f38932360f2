#!/usr/bin/env bash
# Install the pinned npm packages of package-lock.json (hashring 3.2.0, memcached 2.2.2,
# cassandra-driver 4.10.0) into a build folder, never into the repository.
# usage: install.sh [DIR]   (default: <repo>/build/verify-presets/npm)
# Needs node + npm (Debian: apt packages nodejs npm) and the npm registry.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
dir=${1:-$repo/build/verify-presets/npm}
for p in node npm; do
  command -v "$p" >/dev/null 2>&1 || { echo "npm/install.sh: missing program '$p' (apt packages nodejs npm)" >&2; exit 2; }
done
mkdir -p "$dir"
cp "$here/package.json" "$here/package-lock.json" "$dir/"
cd "$dir"
npm ci --ignore-scripts --no-audit --no-fund

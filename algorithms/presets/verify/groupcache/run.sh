#!/usr/bin/env bash
# make verify-presets: groupcache consistenthash (Debian golang-github-golang-groupcache-dev,
# golang-go), built in GOPATH mode against the Debian source tree in /usr/share/gocode.
# usage: run.sh OUT_DIR  -> OUT_DIR/<stem>.tsv for each configs.tsv row with system "groupcache".
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
out=${1:?usage: run.sh OUT_DIR}

command -v go >/dev/null 2>&1 || { echo "groupcache/run.sh: missing program 'go' (apt package golang-go)" >&2; exit 2; }
src=/usr/share/gocode/src/github.com/golang/groupcache/consistenthash/consistenthash.go
[ -f "$src" ] || { echo "groupcache/run.sh: missing $src (apt package golang-github-golang-groupcache-dev)" >&2; exit 2; }
ver=$(dpkg-query -W -f='${Version}' golang-github-golang-groupcache-dev 2>/dev/null) || ver=unknown

mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
# Build cache inside the scratch dir unless the caller gives one (keeps $HOME untouched).
export GOCACHE=${GOCACHE:-$tmp/gocache} GOFLAGS= GO111MODULE=off GOPATH=/usr/share/gocode GOTOOLCHAIN=local
(cd "$here" && go build -o "$tmp/driver" driver.go) || { echo "groupcache/run.sh: go build failed" >&2; exit 1; }
mkdir "$tmp/out"
timeout 120 "$tmp/driver" "$ver" "$here/../configs.tsv" "$repo/algorithms/presets/testdata/keys.txt" "$tmp/out"
mv "$tmp"/out/*.tsv "$out"/

#!/usr/bin/env bash
# make verify-presets: groupcache consistenthash (Debian golang-github-golang-groupcache-dev,
# golang-go), built in GOPATH mode against the Debian source tree in /usr/share/gocode.
# usage: run.sh OUT_DIR  -> OUT_DIR/<stem>.tsv for each configs.tsv row with system "groupcache".
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/../lib.sh"
vl_start groupcache "usage: $0 OUT_DIR" 1 1 "$@"

vl_need_prog go golang-go
vl_need_prog timeout coreutils
vl_need_file /usr/share/gocode/src/github.com/golang/groupcache/consistenthash/consistenthash.go \
  golang-github-golang-groupcache-dev
ver=$(vl_pkg_version golang-github-golang-groupcache-dev unknown)

vl_scratch
# Build cache inside the scratch dir unless the caller gives one (keeps $HOME untouched).
export GOCACHE=${GOCACHE:-$SCRATCH/gocache} GOFLAGS= GO111MODULE=off GOPATH=/usr/share/gocode GOTOOLCHAIN=local
(cd "$HERE" && go build -o "$SCRATCH/driver" driver.go) || vl_die 1 "go build failed"
mkdir "$SCRATCH/out"
vl_run_driver timeout 120 "$SCRATCH/driver" "$ver" "$CONFIGS" "$KEYS" "$SCRATCH/out"
vl_publish "$SCRATCH/out"

#!/usr/bin/env bash
# make verify-presets: Cassandra Murmur3Partitioner via npm cassandra-driver 4.10.0 (real
# package, offline; no Client is created, so no connection is made).
# usage: run.sh OUT_DIR  -> OUT_DIR/<stem>.tsv for each configs.tsv row with system "cassandra".
# Uses the npm folder's pinned package.json/package-lock.json, installed by ../npm/install.sh
# (default folder build/verify-presets/npm, or CHBENCH_VERIFY_NPM_DIR).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/../lib.sh"
vl_start cassandra "usage: $0 OUT_DIR" 1 1 "$@"
vl_node_driver

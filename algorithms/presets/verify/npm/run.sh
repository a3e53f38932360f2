#!/usr/bin/env bash
# make verify-presets: npm hashring 3.2.0 and memcached 2.2.2 client (real packages, offline).
# usage: run.sh OUT_DIR  -> OUT_DIR/<stem>.tsv for each configs.tsv row with system "npm".
# The packages must already be installed (install.sh; default folder build/verify-presets/npm,
# or CHBENCH_VERIFY_NPM_DIR). No network connection is made.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/../lib.sh"
vl_start npm "usage: $0 OUT_DIR" 1 1 "$@"
vl_node_driver

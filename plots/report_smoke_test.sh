#!/usr/bin/env bash
# The report generator on real data: runs the smoke tier into a temporary
# results tree, then report_test.py's link, figure and seed-table checks on it.
# Usage: report_smoke_test.sh <chbench binary>
set -euo pipefail
chbench="$1"
here="$(cd "$(dirname "$0")" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
if ! "$chbench" run all --tier smoke --results-dir "$tmp/results" \
    >"$tmp/run.log" 2>&1; then
  cat "$tmp/run.log"
  exit 1
fi
CHBENCH_REPORT_RESULTS="$tmp/results" /usr/bin/python3 "$here/report_test.py"

#!/usr/bin/env bash
# The report generator on real data: report_test.py's link, figure and
# seed-table checks on a smoke-tier results tree: the given one (ctest passes
# the shared smoke run, read only), or a fresh run into a temporary tree.
# Usage: report_smoke_test.sh <chbench binary> [<smoke results dir>]
set -euo pipefail
chbench="$1"
here="$(cd "$(dirname "$0")" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
if [ -n "${2:-}" ] && [ -d "$2" ]; then
  # A copy: the tests must not touch the shared tree.
  cp -r "$2" "$tmp/results"
elif ! "$chbench" run all --tier smoke --results-dir "$tmp/results" \
    >"$tmp/run.log" 2>&1; then
  cat "$tmp/run.log"
  exit 1
fi
CHBENCH_REPORT_RESULTS="$tmp/results" /usr/bin/python3 "$here/report_test.py"

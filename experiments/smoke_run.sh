#!/usr/bin/env bash
# The smoke tier of every experiment, once per `ctest` run, into a fresh
# directory that the end-to-end tests share (ctest fixture "smoke_results":
# the pipeline test reruns it with --force and compares; the report smoke
# test builds figures and the report from it).
# Usage: smoke_run.sh <chbench binary> <results dir>
set -euo pipefail
chbench="$1"
out="$2"
rm -rf "$out"
mkdir -p "$out"
if ! "$chbench" run all --tier smoke --results-dir "$out" >"$out.log" 2>&1; then
  cat "$out.log"
  exit 1
fi

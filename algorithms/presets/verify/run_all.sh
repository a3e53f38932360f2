#!/usr/bin/env bash
# run_all.sh OUT_DIR [SYSTEM...]
# Runs verify/<SYSTEM>/run.sh OUT_DIR for each SYSTEM, one after the other (they use
# distinct 127.0.0.1 ports, but the machine is small). Without SYSTEM arguments: every
# system named in configs.tsv's system column whose run.sh exists (the others are listed
# as skipped). A SYSTEM named explicitly must have a run.sh.
# Exit status: 0 if every run.sh succeeded, else the largest exit status among them
# (2 = a tool or package is missing or a port is busy; 1 = the run failed).
set -uo pipefail
if [ $# -lt 1 ]; then echo "usage: $0 OUT_DIR [SYSTEM...]" >&2; exit 2; fi
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=$1; shift
mkdir -p "$OUT" || exit 2

explicit=1
if [ $# -eq 0 ]; then
  explicit=0
  # systems in order of first appearance in configs.tsv
  mapfile -t systems < <(grep -v '^#' "$HERE/configs.tsv" | tail -n +2 | cut -f2 | awk '!seen[$0]++')
  set -- "${systems[@]}"
fi

worst=0
summary=()
for sys in "$@"; do
  script="$HERE/$sys/run.sh"
  if [ ! -f "$script" ]; then
    if [ "$explicit" -eq 1 ]; then
      echo "run_all: $sys: no $script" >&2; summary+=("FAIL $sys (no run.sh)"); [ "$worst" -ge 2 ] || worst=2
    else
      summary+=("skip $sys (no run.sh yet)")
    fi
    continue
  fi
  echo "== $sys"
  start=$(date +%s.%N)
  bash "$script" "$OUT"
  rc=$?
  secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  if [ "$rc" -eq 0 ]; then
    summary+=("ok   $sys (${secs} s)")
  else
    summary+=("FAIL $sys (exit $rc, ${secs} s)")
    [ "$rc" -le "$worst" ] || worst=$rc
  fi
done
echo "== summary ($OUT)"
printf '%s\n' "${summary[@]}"
exit "$worst"

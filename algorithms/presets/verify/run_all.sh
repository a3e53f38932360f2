#!/usr/bin/env bash
# run_all.sh OUT_DIR [SYSTEM...]
# Runs verify/<SYSTEM>/run.sh OUT_DIR for each SYSTEM, one after the other (they use
# distinct 127.0.0.1 ports, but the machine is small). Without SYSTEM arguments: every
# system named in configs.tsv's system column whose run.sh exists (the others are listed
# as skipped). A SYSTEM named explicitly must have a run.sh.
# Exit status: 0 if every run.sh succeeded, else the largest exit status among them
# (2 = a tool or package is missing or a port is busy; 1 = the run failed; 130 = interrupted).
set -uo pipefail
if [ $# -lt 1 ]; then echo "usage: $0 OUT_DIR [SYSTEM...]" >&2; exit 2; fi
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/lib.sh"   # vl_rows, vl_run_driver, vl_cleanup
# Ctrl-C / SIGTERM: the running run.sh gets SIGTERM (it stops its servers by PID and removes
# its scratch files), then run_all.sh exits 130 without starting the next system.
trap vl_cleanup EXIT
trap 'echo "run_all: interrupted" >&2; exit 130' INT TERM
OUT=$1; shift
mkdir -p "$OUT" || exit 2

explicit=1
if [ $# -eq 0 ]; then
  explicit=0
  # systems in order of first appearance in configs.tsv
  mapfile -t systems < <(vl_rows | cut -d $'\x1f' -f2 | awk '!seen[$0]++')
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
  rc=0
  vl_run_driver bash "$script" "$OUT" || rc=$?
  secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  if [ "$rc" -eq 0 ]; then
    summary+=("ok   $sys (${secs} s)")
  else
    summary+=("FAIL $sys (exit $rc, ${secs} s)")
    [ "$rc" -le "$worst" ] || worst=$rc
    [ "$rc" -ne 130 ] || break   # interrupted
  fi
done
echo "== summary ($OUT)"
printf '%s\n' "${summary[@]}"
exit "$worst"

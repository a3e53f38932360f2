#!/usr/bin/env bash
# make verify-presets: live HAProxy (Debian haproxy) 'balance url_param key' + 'hash-type consistent'.
# usage: run.sh OUT_DIR [--strict]
#   -> OUT_DIR/<stem>.tsv for each configs.tsv row with system "haproxy".
#   --strict: leave out 'option accept-invalid-http-request', send every key once, and only
#             list the keys HAProxy rejects (writes no output files).
# One 'haproxy -db' (nbthread 1) listening on 127.0.0.1 only: the servers are one frontend with
# binds 127.0.0.1:21001..21050 answering "%[dst]:%[dst_port]"; the front 127.0.0.1:21000 routes
# /b<i>?key=... to backend b<i> (one per configs.tsv row). Exactly one request per key per
# config, 5 s timeout each. HAProxy is stopped by PID on every exit path; scratch files live in
# a mktemp -d folder.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/../lib.sh"
vl_start haproxy "usage: $0 OUT_DIR [--strict]" 1 2 "$@"
strict=${2:-}
[ -z "$strict" ] || [ "$strict" = --strict ] || vl_die 2 "usage: run.sh OUT_DIR [--strict]"

vl_need_prog haproxy haproxy
vl_need_prog "$PY" python3
vl_need_prog timeout coreutils
hv=$(haproxy -v | sed -n '1s/^HAProxy version \([^ ]*\).*/\1/p')
dv=$(vl_pkg_version haproxy unknown)
version="HAProxy $hv (Debian haproxy $dv)"

vl_scratch
client() { "$PY" -I -B "$HERE/client.py" "$@"; }
gen_args=()
[ "$strict" = "--strict" ] && gen_args=(--strict)
client gen "$CONFIGS" "$SCRATCH/haproxy.cfg" "$SCRATCH/plan.json" "${gen_args[@]}"
haproxy -c -q -f "$SCRATCH/haproxy.cfg" || vl_die 1 "generated configuration rejected by haproxy -c"
client portcheck

haproxy -db -f "$SCRATCH/haproxy.cfg" >"$SCRATCH/haproxy.log" 2>&1 </dev/null &
vl_track_pid $!
rc=0
client wait "${VL_PIDS[0]}" || rc=$?
if [ "$rc" -ne 0 ]; then
  grep -m1 -i 'alert' "$SCRATCH/haproxy.log" >&2 || true
  exit "$rc"
fi

mkdir "$SCRATCH/out"
vl_run_driver timeout 300 "$PY" -I -B "$HERE/client.py" run "$SCRATCH/plan.json" "$KEYS" "$SCRATCH/out" "$version"
vl_untrack_pids
[ "$strict" = "--strict" ] && exit 0
vl_publish "$SCRATCH/out"

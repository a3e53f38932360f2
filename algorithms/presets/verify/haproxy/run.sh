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
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
out=${1:?usage: run.sh OUT_DIR [--strict]}
strict=${2:-}
py=/usr/bin/python3

command -v haproxy >/dev/null 2>&1 || { echo "haproxy/run.sh: missing program 'haproxy' (apt package haproxy)" >&2; exit 2; }
[ -x "$py" ] || { echo "haproxy/run.sh: missing $py (apt package python3)" >&2; exit 2; }
command -v timeout >/dev/null 2>&1 || { echo "haproxy/run.sh: missing program 'timeout' (coreutils)" >&2; exit 2; }
hv=$(haproxy -v | sed -n '1s/^HAProxy version \([^ ]*\).*/\1/p')
dv=$(dpkg-query -W -f='${Version}' haproxy 2>/dev/null) || dv=unknown
version="HAProxy $hv (Debian haproxy $dv)"

tmp=$(mktemp -d)
hpid=""
stop_haproxy() {
  if [ -n "$hpid" ]; then
    kill -TERM "$hpid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$hpid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$hpid" 2>/dev/null; then kill -KILL "$hpid" 2>/dev/null || true; fi
    wait "$hpid" 2>/dev/null || true
    if kill -0 "$hpid" 2>/dev/null; then echo "haproxy/run.sh: haproxy pid $hpid still running" >&2; fi
    hpid=""
  fi
}
cleanup() { stop_haproxy; rm -rf "$tmp"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

gen_args=()
[ "$strict" = "--strict" ] && gen_args=(--strict)
"$py" "$here/client.py" gen "$here/../configs.tsv" "$tmp/haproxy.cfg" "$tmp/plan.json" "${gen_args[@]}"
haproxy -c -q -f "$tmp/haproxy.cfg" || { echo "haproxy/run.sh: generated configuration rejected by haproxy -c" >&2; exit 1; }
"$py" "$here/client.py" portcheck

haproxy -db -f "$tmp/haproxy.cfg" >"$tmp/haproxy.log" 2>&1 </dev/null &
hpid=$!
rc=0
"$py" "$here/client.py" wait "$hpid" || rc=$?
if [ "$rc" -ne 0 ]; then
  grep -m1 -i 'alert' "$tmp/haproxy.log" >&2 || true
  exit "$rc"
fi

mkdir "$tmp/out"
timeout 300 "$py" "$here/client.py" run "$tmp/plan.json" "$repo/algorithms/presets/testdata/keys.txt" "$tmp/out" "$version"
stop_haproxy
[ "$strict" = "--strict" ] && exit 0
mkdir -p "$out"
mv "$tmp"/out/*.tsv "$out"/

#!/usr/bin/env bash
# run.sh OUT_DIR: run the real twemproxy (Debian nutcracker) on 127.0.0.1 (backends
# 22001-22050, stats 22100, pools 22101..) for every configs.tsv row whose system is
# "twemproxy" and write OUT_DIR/<stem>.tsv. Servers are stopped by PID on every exit path.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 OUT_DIR" >&2; exit 2; }
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
VERIFY=$(dirname "$HERE")
KEYS="$VERIFY/../testdata/keys.txt"
CONFIGS="$VERIFY/configs.tsv"
OUT=$1
PY=/usr/bin/python3

[ -x /usr/sbin/nutcracker ] || { echo "twemproxy: /usr/sbin/nutcracker not found (apt package nutcracker)" >&2; exit 2; }
[ -x "$PY" ] || { echo "twemproxy: $PY not found (apt package python3)" >&2; exit 2; }
PKGVER=$(dpkg-query -W -f='${Version}' nutcracker 2>/dev/null) ||
  { echo "twemproxy: package nutcracker not installed" >&2; exit 2; }
mkdir -p "$OUT"

SCRATCH=$(mktemp -d)
cleanup() {
  # The driver stops its servers itself; this is the backstop (by PID, never by name).
  if [ -s "$SCRATCH/server.pids" ]; then
    while read -r pid; do
      if kill -0 "$pid" 2>/dev/null; then kill "$pid" 2>/dev/null || true; sleep 0.5; kill -9 "$pid" 2>/dev/null || true; fi
    done < "$SCRATCH/server.pids"
  fi
  rm -rf "$SCRATCH"
}
DRIVER=
on_signal() {
  # forward to the driver, which stops its servers by PID before exiting
  if [ -n "$DRIVER" ]; then kill -TERM "$DRIVER" 2>/dev/null || true; wait "$DRIVER" 2>/dev/null || true; fi
  exit 130
}
trap cleanup EXIT
trap on_signal INT TERM

VERSION_TEXT="twemproxy/nutcracker ${PKGVER%%+*} (Debian nutcracker ${PKGVER})"
rc=0
# in the background so that a signal to this script is handled at once (see on_signal)
PYTHONDONTWRITEBYTECODE=1 "$PY" -I "$HERE/twem_verify.py" "$CONFIGS" "$KEYS" "$SCRATCH" "$VERSION_TEXT" &
DRIVER=$!
wait "$DRIVER" || rc=$?
DRIVER=
[ "$rc" -eq 0 ] || exit "$rc"
while read -r pid; do
  if kill -0 "$pid" 2>/dev/null; then echo "twemproxy: server pid $pid still running after the driver" >&2; exit 1; fi
done < "$SCRATCH/server.pids"
for f in "$SCRATCH"/out/*.tsv; do
  [ "$(wc -l < "$f")" -eq $(( $(wc -l < "$KEYS") + 1 )) ] || { echo "twemproxy: $(basename "$f"): wrong line count" >&2; exit 1; }
done
n=0
for f in "$SCRATCH"/out/*.tsv; do mv "$f" "$OUT/"; n=$((n + 1)); done
echo "twemproxy: wrote $n files to $OUT"

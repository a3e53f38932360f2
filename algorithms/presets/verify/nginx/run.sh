#!/usr/bin/env bash
# run.sh OUT_DIR: run the real nginx (Debian nginx-light) `hash $arg_key consistent` on
# 127.0.0.1 (ports 20000-20050) for every configs.tsv row whose system is "nginx" and write
# OUT_DIR/<stem>.tsv. nginx is stopped by PID on every exit path.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 OUT_DIR" >&2; exit 2; }
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
VERIFY=$(dirname "$HERE")
KEYS="$VERIFY/../testdata/keys.txt"
CONFIGS="$VERIFY/configs.tsv"
OUT=$1
PY=/usr/bin/python3

[ -x /usr/sbin/nginx ] || { echo "nginx: /usr/sbin/nginx not found (apt package nginx-light)" >&2; exit 2; }
[ -x "$PY" ] || { echo "nginx: $PY not found (apt package python3)" >&2; exit 2; }
NGVER=$(dpkg-query -W -f='${Version}' nginx 2>/dev/null) ||
  { echo "nginx: package nginx not installed (apt package nginx-light)" >&2; exit 2; }
LIGHTVER=$(dpkg-query -W -f='${Version}' nginx-light 2>/dev/null) || LIGHTVER="not installed"
mkdir -p "$OUT"

SCRATCH=$(mktemp -d)
cleanup() {
  # The driver stops nginx itself; this is the backstop (by PID, never by name).
  if [ -s "$SCRATCH/server.pid" ]; then
    pid=$(cat "$SCRATCH/server.pid")
    if kill -0 "$pid" 2>/dev/null; then kill "$pid" 2>/dev/null || true; sleep 0.5; kill -9 "$pid" 2>/dev/null || true; fi
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

VERSION_TEXT="nginx ${NGVER%%-*} (Debian nginx-light ${LIGHTVER}, nginx ${NGVER})"
rc=0
# in the background so that a signal to this script is handled at once (see on_signal)
PYTHONDONTWRITEBYTECODE=1 "$PY" -I "$HERE/nginx_verify.py" "$CONFIGS" "$KEYS" "$SCRATCH" "$VERSION_TEXT" &
DRIVER=$!
wait "$DRIVER" || rc=$?
DRIVER=
[ "$rc" -eq 0 ] || exit "$rc"
if [ -s "$SCRATCH/server.pid" ] && kill -0 "$(cat "$SCRATCH/server.pid")" 2>/dev/null; then
  echo "nginx: nginx (pid $(cat "$SCRATCH/server.pid")) still running after the driver" >&2; exit 1
fi
n=0
for f in "$SCRATCH"/out/*.tsv; do
  [ "$(wc -l < "$f")" -eq $(( $(wc -l < "$KEYS") + 1 )) ] || { echo "nginx: $(basename "$f"): wrong line count" >&2; exit 1; }
done
for f in "$SCRATCH"/out/*.tsv; do mv "$f" "$OUT/"; n=$((n + 1)); done
echo "nginx: wrote $n files to $OUT"

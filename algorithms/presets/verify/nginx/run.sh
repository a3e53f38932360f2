#!/usr/bin/env bash
# run.sh OUT_DIR: run the real nginx (Debian nginx-light) `hash $arg_key consistent` on
# 127.0.0.1 (ports 20000-20050) for every configs.tsv row whose system is "nginx" and write
# OUT_DIR/<stem>.tsv. nginx is stopped by PID on every exit path.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/../lib.sh"
vl_start nginx "usage: $0 OUT_DIR" 1 1 "$@"

vl_need_prog /usr/sbin/nginx nginx-light
vl_need_prog "$PY" python3
NGVER=$(vl_pkg_version nginx) || exit 2
LIGHTVER=$(vl_pkg_version nginx-light "not installed")

vl_scratch
VERSION_TEXT="nginx ${NGVER%%-*} (Debian nginx-light ${LIGHTVER}, nginx ${NGVER})"
vl_run_driver "$PY" -I -B "$HERE/nginx_verify.py" "$CONFIGS" "$KEYS" "$SCRATCH" "$VERSION_TEXT"
vl_check_servers_gone
vl_publish "$SCRATCH/out"

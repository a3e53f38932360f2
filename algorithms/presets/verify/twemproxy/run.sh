#!/usr/bin/env bash
# run.sh OUT_DIR: run the real twemproxy (Debian nutcracker) on 127.0.0.1 (backends
# 22001-22050, stats 22100, pools 22101..) for every configs.tsv row whose system is
# "twemproxy" and write OUT_DIR/<stem>.tsv. Servers are stopped by PID on every exit path.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/../lib.sh"
vl_start twemproxy "usage: $0 OUT_DIR" 1 1 "$@"

vl_need_prog /usr/sbin/nutcracker nutcracker
vl_need_prog "$PY" python3
PKGVER=$(vl_pkg_version nutcracker) || exit 2

vl_scratch
VERSION_TEXT="twemproxy/nutcracker ${PKGVER%%+*} (Debian nutcracker ${PKGVER})"
vl_run_driver "$PY" -I -B "$HERE/twem_verify.py" "$CONFIGS" "$KEYS" "$SCRATCH" "$VERSION_TEXT"
vl_check_servers_gone
vl_publish "$SCRATCH/out"

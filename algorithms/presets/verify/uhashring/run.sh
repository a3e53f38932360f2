#!/usr/bin/env bash
# run.sh OUT_DIR: run the real uhashring (Debian python3-uhashring, under /usr/bin/python3)
# on every configs.tsv row whose system is "uhashring" and write OUT_DIR/<stem>.tsv.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/../lib.sh"
vl_start uhashring "usage: $0 OUT_DIR" 1 1 "$@"

vl_need_python_module uhashring python3-uhashring
PKGVER=$(vl_pkg_version python3-uhashring) || exit 2
PYVER=$("$PY" -c 'import platform; print(platform.python_version())')

vl_scratch

VERSION_TEXT="uhashring ${PKGVER%%-*} (Debian python3-uhashring ${PKGVER}, /usr/bin/python3 ${PYVER})"
vl_map_rows uhashring uhashring=default uhashring_ketama=ketama -- "$PY" -I -B "$HERE/uhr.py"
# replicas.tsv rows: range(key, size=R, unique=True), the preference list.
while IFS=$'\x1f' read -r stem _system preset options replicas _check remove servers; do
  case $preset in
    uhashring) mode=default ;;
    uhashring_ketama) mode=ketama ;;
    *) vl_die 1 "$stem: unknown preset $preset" ;;
  esac
  [ -z "$options$remove" ] || vl_die 1 "$stem: unexpected options or removal"
  "$PY" -I -B "$HERE/uhr.py" "$mode" "$servers" "$VERSION_TEXT" "$replicas" \
    < "$KEYS" > "$SCRATCH/out/$stem.tsv"
done < <(vl_replica_rows uhashring)
vl_publish "$SCRATCH/out"

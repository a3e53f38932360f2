#!/usr/bin/env bash
# run.sh OUT_DIR: run the real uhashring (Debian python3-uhashring, under /usr/bin/python3)
# on every configs.tsv row whose system is "uhashring" and write OUT_DIR/<stem>.tsv.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 OUT_DIR" >&2; exit 2; }
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
VERIFY=$(dirname "$HERE")
KEYS="$VERIFY/../testdata/keys.txt"
CONFIGS="$VERIFY/configs.tsv"
OUT=$1
PY=/usr/bin/python3

[ -x "$PY" ] || { echo "uhashring: $PY not found (apt package python3)" >&2; exit 2; }
"$PY" -c 'import uhashring' 2>/dev/null ||
  { echo "uhashring: python module uhashring not found for $PY (apt package python3-uhashring)" >&2; exit 2; }
PKGVER=$(dpkg-query -W -f='${Version}' python3-uhashring 2>/dev/null) ||
  { echo "uhashring: package python3-uhashring not installed" >&2; exit 2; }
PYVER=$("$PY" -c 'import platform; print(platform.python_version())')
mkdir -p "$OUT"

SCRATCH=$(mktemp -d)
trap 'rm -rf "$SCRATCH"' EXIT INT TERM

VERSION_TEXT="uhashring ${PKGVER%%-*} (Debian python3-uhashring ${PKGVER}, /usr/bin/python3 ${PYVER})"
n=0
# (tabs become \x1f: a non-whitespace IFS keeps the empty options field)
while IFS=$'\x1f' read -r stem system preset options servers; do
  [ "$system" = uhashring ] || continue
  case "$preset" in
    uhashring) mode=default ;;
    uhashring_ketama) mode=ketama ;;
    *) echo "uhashring: $stem: unknown preset $preset" >&2; exit 1 ;;
  esac
  [ -z "$options" ] || { echo "uhashring: $stem: unexpected options '$options'" >&2; exit 1; }
  PYTHONDONTWRITEBYTECODE=1 "$PY" -I "$HERE/uhr_map.py" "$mode" "$servers" "$VERSION_TEXT" \
    < "$KEYS" > "$SCRATCH/$stem.tsv"
  lines=$(wc -l < "$SCRATCH/$stem.tsv")
  [ "$lines" -eq $(( $(wc -l < "$KEYS") + 1 )) ] || { echo "uhashring: $stem: $lines lines" >&2; exit 1; }
  mv "$SCRATCH/$stem.tsv" "$OUT/$stem.tsv"
  n=$((n + 1))
done < <(grep -v '^#' "$CONFIGS" | tail -n +2 | tr '\t' '\037')
echo "uhashring: wrote $n files to $OUT"

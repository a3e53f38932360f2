#!/usr/bin/env bash
# run.sh OUT_DIR: run the real libmemcached (Debian libmemcached-dev 1.1.4) on every
# configs.tsv row whose system is "libmemcached" and write OUT_DIR/<stem>.tsv.
# No server is contacted: memcached_generate_hash() only consults the continuum.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 OUT_DIR" >&2; exit 2; }
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
VERIFY=$(dirname "$HERE")
KEYS="$VERIFY/../testdata/keys.txt"
CONFIGS="$VERIFY/configs.tsv"
OUT=$1

command -v gcc >/dev/null || { echo "libmemcached: gcc not found (apt package gcc)" >&2; exit 2; }
[ -f /usr/include/libmemcached-1.0/memcached.h ] ||
  { echo "libmemcached: libmemcached headers not found (apt package libmemcached-dev)" >&2; exit 2; }
PKGVER=$(dpkg-query -W -f='${Version}' libmemcached-dev 2>/dev/null) ||
  { echo "libmemcached: package libmemcached-dev not installed" >&2; exit 2; }
LIBVER=$(dpkg-query -W -f='${Version}' libmemcached11 2>/dev/null || echo "?")
mkdir -p "$OUT"

SCRATCH=$(mktemp -d)
trap 'rm -rf "$SCRATCH"' EXIT INT TERM
gcc -O2 -Wall -Wextra -o "$SCRATCH/lmc_map" "$HERE/lmc_map.c" -lmemcached

VERSION_TEXT="libmemcached ${PKGVER%%-*} (Debian libmemcached-dev ${PKGVER}, libmemcached11 ${LIBVER})"
n=0
# (tabs become \x1f: a non-whitespace IFS keeps the empty options field)
while IFS=$'\x1f' read -r stem system preset options servers; do
  [ "$system" = libmemcached ] || continue
  case "$preset" in
    libmemcached_ketama) mode=ketama ;;
    libmemcached_weighted) mode=weighted ;;
    libmemcached_default) mode=default ;;
    *) echo "libmemcached: $stem: unknown preset $preset" >&2; exit 1 ;;
  esac
  [ -z "$options" ] || { echo "libmemcached: $stem: unexpected options '$options'" >&2; exit 1; }
  "$SCRATCH/lmc_map" "$mode" "$servers" "$VERSION_TEXT" < "$KEYS" > "$SCRATCH/$stem.tsv"
  lines=$(wc -l < "$SCRATCH/$stem.tsv")
  [ "$lines" -eq $(( $(wc -l < "$KEYS") + 1 )) ] || { echo "libmemcached: $stem: $lines lines" >&2; exit 1; }
  mv "$SCRATCH/$stem.tsv" "$OUT/$stem.tsv"
  n=$((n + 1))
done < <(grep -v '^#' "$CONFIGS" | tail -n +2 | tr '\t' '\037')
echo "libmemcached: wrote $n files to $OUT"

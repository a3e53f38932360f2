#!/usr/bin/env bash
# compare.sh CHBENCH OUT_DIR
# For every configs.tsv row whose OUT_DIR/<stem>.tsv exists (written by run_all.sh from
# crushtool or osdmaptool), runs the matching `CHBENCH map` (--algorithm crush --crush-map
# on x = 0..9999, or --preset ceph --crush-map on obj-0..obj-299) and compares its output
# with the file's data lines ('#' lines ignored), byte for byte. Prints one line per stem:
#   ok <stem> (<rows> rows)
#   DIFF <stem>: N of M lines differ, first: line L: expected '<a>' got '<b>'
#   DIFF <stem>: chbench map failed (exit N): <its first stderr line>
# Exit status: 0 if all ok; 1 if any DIFF; 2 on a usage error or nothing to compare.
set -uo pipefail
if [ $# -ne 2 ]; then echo "usage: $0 CHBENCH OUT_DIR" >&2; exit 2; fi
CHBENCH=$1
OUT=$2
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
MAPS=$(cd "$HERE/../../../crush/testdata/maps" && pwd)
[ -x "$CHBENCH" ] || command -v "$CHBENCH" >/dev/null 2>&1 || { echo "compare: $CHBENCH is not executable" >&2; exit 2; }
[ -d "$OUT" ] || { echo "compare: no directory $OUT" >&2; exit 2; }
export LC_ALL=C
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
seq 0 9999 > "$TMP/xs"
for i in $(seq 0 299); do echo "obj-$i"; done > "$TMP/objects"

status=0
count=0
# Tabs become \x1f first: read collapses runs of a whitespace IFS (empty columns).
while IFS=$'\x1f' read -r stem tool map rule replicas reweight options; do
  case "$stem" in ''|'#'*|stem) continue ;; esac
  file="$OUT/$stem.tsv"
  [ -f "$file" ] || continue
  count=$((count + 1))
  grep -v '^#' "$file" > "$TMP/expected"
  if [ "$tool" = crushtool ]; then
    args=(map --algorithm crush --crush-map "$MAPS/$map.txt" --rule "$rule" --replicas "$replicas" --key-format u64)
    [ -z "$reweight" ] || args+=(--reweight "$reweight")
    input="$TMP/xs"
  else
    args=(map --preset ceph --crush-map "$MAPS/$map.txt" --preset-options "$options" --replicas "$replicas")
    input="$TMP/objects"
  fi
  rc=0
  "$CHBENCH" "${args[@]}" < "$input" > "$TMP/got" 2> "$TMP/err" || rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "DIFF $stem: chbench map failed (exit $rc): $(head -1 "$TMP/err")"; status=1; continue
  fi
  if cmp -s "$TMP/expected" "$TMP/got"; then
    echo "ok $stem ($(wc -l < "$TMP/got") rows)"
  else
    awk -v stem="$stem" '
      NR == FNR { a[FNR] = $0; na = FNR; next }
      { b[FNR] = $0; nb = FNR }
      END {
        n = (na > nb ? na : nb); d = 0; first = ""
        for (i = 1; i <= n; i++) if (a[i] != b[i]) { d++; if (first == "") first = "line " i ": expected \x27" a[i] "\x27 got \x27" b[i] "\x27" }
        printf "DIFF %s: %d of %d lines differ, first: %s\n", stem, d, n, first
      }' "$TMP/expected" "$TMP/got"
    status=1
  fi
done < <(tr '\t' '\037' < "$HERE/configs.tsv")
[ "$count" -gt 0 ] || { echo "compare: no <stem>.tsv of configs.tsv in $OUT" >&2; exit 2; }
exit "$status"

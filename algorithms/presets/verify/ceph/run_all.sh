#!/usr/bin/env bash
# run_all.sh OUT_DIR [STEM...]
# Runs Ceph 16.2's own tools offline (no daemon is started: crushtool and osdmaptool only
# read and write files) for every configs.tsv row (or the STEMs given) and writes
# OUT_DIR/<stem>.tsv in `chbench map`'s output format, so that compare.sh can compare byte
# for byte:
#   crushtool  "CRUSH rule R x X [a,b,c]"              -> X<TAB>a<TAB>b<TAB>c
#   osdmaptool " object 'obj-0' -> 1.29 -> [8,5,9]"    -> obj-0<TAB>1.29<TAB>8<TAB>5<TAB>9
# with CRUSH_ITEM_NONE (2147483647) as `none`. Each file starts with '#' lines naming the
# tool, its version and the commands.
# The tools: crushtool and osdmaptool on PATH, or in $CEPH_BIN. On Debian 12 (as root):
#   apt-get install -y --no-install-recommends ceph-common      # libceph-common.so.2
#   d=$(mktemp -d) && cd "$d" && apt-get download ceph-base && dpkg-deb -x ceph-base_*.deb x
#   CEPH_BIN=$d/x/usr/bin run_all.sh OUT_DIR
# (the project's CRUSH design notes, §13: ceph-base's maintainer scripts are not run).
# Exit status: 0 if every row ran; 2 if a tool is missing or on a usage error; 1 if a tool
# failed.
set -uo pipefail
if [ $# -lt 1 ]; then echo "usage: $0 OUT_DIR [STEM...]" >&2; exit 2; fi
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
MAPS=$(cd "$HERE/../../../crush/testdata/maps" && pwd)
OUT=$1; shift
[ -z "${CEPH_BIN:-}" ] || PATH="$CEPH_BIN:$PATH"
for t in crushtool osdmaptool; do
  command -v "$t" >/dev/null 2>&1 || {
    echo "ceph: missing $t (Debian package ceph-base; see the header of $0)" >&2; exit 2; }
done
mkdir -p "$OUT" || exit 2
export LC_ALL=C
# crushtool has no --version; the same build's `ceph --version` (ceph-common) says it.
version=$(ceph --version 2>/dev/null | head -1)
[ -n "$version" ] || version="ceph-common $(dpkg-query -W -f='${Version}' ceph-common 2>/dev/null || echo unknown)"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

wanted() {  # wanted STEM: true when no STEMs were given or STEM is one of them
  [ ${#STEMS[@]} -eq 0 ] && return 0
  local s; for s in "${STEMS[@]}"; do [ "$s" = "$1" ] && return 0; done; return 1
}
STEMS=("$@")
status=0
# Tabs become \x1f first: read collapses runs of a whitespace IFS (empty columns).
while IFS=$'\x1f' read -r stem tool map rule replicas reweight options; do
  case "$stem" in ''|'#'*|stem) continue ;; esac
  wanted "$stem" || continue
  src="$MAPS/$map.txt"
  bin="$TMP/$map.bin"
  if [ ! -f "$bin" ]; then
    crushtool -c "$src" -o "$bin" || { echo "ceph: $stem: crushtool -c $src failed" >&2; status=1; continue; }
  fi
  out="$OUT/$stem.tsv"
  if [ "$tool" = crushtool ]; then
    args=(-i "$bin" --test --show-mappings --rule "$rule" --num-rep "$replicas" --min-x 0 --max-x 9999)
    if [ -n "$reweight" ]; then
      IFS=',' read -r -a pairs <<< "$reweight"
      for p in "${pairs[@]}"; do args+=(--weight "${p%%:*}" "${p#*:}"); done
    fi
    {
      echo "# system: $version"
      echo "# command: crushtool -c $map.txt -o $map.bin; crushtool ${args[*]/#$TMP\//}"
      crushtool "${args[@]}" 2>/dev/null | awk '
        $1 == "CRUSH" && $2 == "rule" && $4 == "x" {
          v = $6; gsub(/[][]/, "", v); n = split(v, o, ",")
          line = $5
          for (i = 1; i <= n; i++) line = line "\t" (o[i] == "2147483647" ? "none" : o[i])
          print line
        }'
    } > "$out" || { echo "ceph: $stem: crushtool failed" >&2; status=1; continue; }
  else
    om="$TMP/om-$map"
    osdmaptool "$om" --createsimple 25 --with-default-pool --pg-bits 2 --pgp-bits 2 --clobber >/dev/null 2>&1 &&
      osdmaptool "$om" --import-crush "$bin" >/dev/null 2>&1 ||
      { echo "ceph: $stem: osdmaptool --createsimple/--import-crush failed" >&2; status=1; continue; }
    {
      echo "# system: $version"
      echo "# command: osdmaptool om --createsimple 25 --with-default-pool --pg-bits 2 --pgp-bits 2 --clobber; osdmaptool om --import-crush $map.bin; osdmaptool om --mark-up-in --test-map-object obj-<i> --pool 1 (i = 0..299)"
      for i in $(seq 0 299); do
        osdmaptool "$om" --mark-up-in --test-map-object "obj-$i" --pool 1 2>/dev/null
      done | awk '
        $1 == "object" {
          name = $2; gsub(/\x27/, "", name); v = $6; gsub(/[][]/, "", v)
          n = split(v, o, ","); line = name "\t" $4
          for (i = 1; i <= n; i++) line = line "\t" (o[i] == "2147483647" ? "none" : o[i])
          print line
        }'
    } > "$out" || { echo "ceph: $stem: osdmaptool failed" >&2; status=1; continue; }
  fi
  echo "ceph: $stem: $(grep -vc '^#' "$out") rows -> $out"
done < <(tr '\t' '\037' < "$HERE/configs.tsv")
exit "$status"

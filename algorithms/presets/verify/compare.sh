#!/usr/bin/env bash
# compare.sh CHBENCH OUT_DIR
# For every configs.tsv row whose OUT_DIR/<stem>.tsv exists (written by run_all.sh from the
# real system), runs
#   CHBENCH map --preset <preset> [--preset-options <options>] --servers <servers> < keys.txt
# (output lines key<TAB>server) and compares it with the file's key lines ('#' lines ignored).
# Prints one line per stem:
#   ok <stem>
#   DIFF <stem>: N of 6300 keys differ, first: <key> <expected> <got>
#   DIFF <stem>: chbench map failed (exit N): <its first stderr line>
# and, comparing OUT_DIR/<stem>.tsv with the committed testdata/<stem>.tsv:
#   CHANGED <stem>: N of 6300 keys differ from testdata/<stem>.tsv, first: <key> <committed> <now>
#       (the real system's mapping changed: update testdata after review)
#   NOTE <stem>: header differs from testdata/<stem>.tsv: <new header>   (mappings equal)
#   NEW <stem>: no committed testdata/<stem>.tsv
# Then the same for every replicas.tsv row (replica preference lists, key<TAB>owner<TAB>...):
#   CHBENCH map --preset <preset> [--preset-options <options>] --replicas <R> [--remove <host>]
#       --servers <servers> | --topology topologies/<file>
# compared by the row's check: exact (the lines byte for byte), set (per line the same owners)
# or driver-repeats (per line the same owners, except that where the real driver lists a host
# twice, chbench's owners must include the driver's).
# Exit status: 0 if all ok; 1 if any DIFF or CHANGED; 2 on a usage error or nothing to compare.
set -uo pipefail
if [ $# -ne 2 ]; then echo "usage: $0 CHBENCH OUT_DIR" >&2; exit 2; fi
CHBENCH=$1
OUT=$2
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"   # TESTDATA, KEYS, vl_rows
[ -x "$CHBENCH" ] || command -v "$CHBENCH" >/dev/null 2>&1 || { echo "compare: $CHBENCH is not executable" >&2; exit 2; }
[ -d "$OUT" ] || { echo "compare: no directory $OUT" >&2; exit 2; }
export LC_ALL=C
NKEYS=$(wc -l < "$KEYS")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# diff_lines A B: A and B hold key<TAB>server lines; prints "N<TAB>first-key<TAB>a<TAB>b"
# (N = positions whose key or server differs; either side missing counts as a difference).
diff_lines() {
  awk -F'\t' -v OFS='\t' '
    NR == FNR { ka[FNR] = $1; sa[FNR] = $2; na = FNR; next }
    { kb[FNR] = $1; sb[FNR] = $2; nb = FNR }
    END {
      n = (na > nb ? na : nb); d = 0; first = ""
      for (i = 1; i <= n; i++) {
        if (i > na || i > nb || ka[i] != kb[i] || sa[i] != sb[i]) {
          d++
          if (first == "") {
            if (i > na) first = kb[i] OFS "(missing)" OFS sb[i]
            else if (i > nb) first = ka[i] OFS sa[i] OFS "(missing)"
            else if (ka[i] != kb[i]) first = ka[i] OFS sa[i] OFS "(key " kb[i] ")"
            else first = ka[i] OFS sa[i] OFS sb[i]
          }
        }
      }
      print d, first
    }' "$1" "$2"
}

status=0
count=0
while IFS=$'\x1f' read -r stem _system preset options servers; do
  file="$OUT/$stem.tsv"
  [ -f "$file" ] || continue
  count=$((count + 1))
  grep -v '^#' "$file" > "$TMP/expected"

  args=(map --preset "$preset")
  [ -z "$options" ] || args+=(--preset-options "$options")
  args+=(--servers "$servers")
  rc=0
  "$CHBENCH" "${args[@]}" < "$KEYS" > "$TMP/got" 2> "$TMP/err" || rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "DIFF $stem: chbench map failed (exit $rc): $(head -n 1 "$TMP/err")"
    status=1
  else
    IFS=$'\t' read -r n key exp got < <(diff_lines "$TMP/expected" "$TMP/got")
    if [ "$n" -eq 0 ]; then
      echo "ok $stem"
    else
      echo "DIFF $stem: $n of $NKEYS keys differ, first: $key $exp $got"
      status=1
    fi
  fi

  committed="$TESTDATA/$stem.tsv"
  if [ ! -f "$committed" ]; then
    echo "NEW $stem: no committed testdata/$stem.tsv"
  elif ! cmp -s "$file" "$committed"; then
    grep -v '^#' "$committed" > "$TMP/committed"
    IFS=$'\t' read -r n key exp got < <(diff_lines "$TMP/committed" "$TMP/expected")
    if [ "$n" -ne 0 ]; then
      echo "CHANGED $stem: $n of $NKEYS keys differ from testdata/$stem.tsv, first: $key $exp $got"
      status=1
    else
      echo "NOTE $stem: header differs from testdata/$stem.tsv: $(head -n 1 "$file" | cut -c1-160)..."
    fi
  fi
done < <(vl_rows)

# diff_replicas MODE A B: A (real) and B (chbench) hold key<TAB>owner<TAB>... lines; prints
# "N<TAB>first-key<TAB>a<TAB>b" like diff_lines, comparing owners as MODE says.
diff_replicas() {
  awk -F'\t' -v OFS='\t' -v mode="$1" '
    function owners(line,   f, n, i, out) {
      n = split(line, f, "\t"); out = ""
      for (i = 2; i <= n; i++) out = out (i > 2 ? "," : "") f[i]
      return out
    }
    # 1 if every owner of line a is an owner of line b; counts repeats of a in rep
    function covered(a, b,   fa, fb, na, nb, i, j, seen, inb) {
      na = split(a, fa, "\t"); nb = split(b, fb, "\t"); rep = 0
      for (j = 2; j <= nb; j++) inb[fb[j]] = 1
      for (i = 2; i <= na; i++) {
        if (fa[i] in seen) rep = 1
        seen[fa[i]] = 1
        if (!(fa[i] in inb)) return 0
      }
      return 1
    }
    function same(a, b,   fa, fb) {
      if (mode == "exact") return a == b
      split(a, fa, "\t"); split(b, fb, "\t")
      if (fa[1] != fb[1]) return 0
      if (!covered(a, b)) return 0
      if (mode == "driver-repeats" && rep) return 1
      if (rep) return 0
      return covered(b, a) && !rep
    }
    NR == FNR { la[FNR] = $0; na = FNR; next }
    { lb[FNR] = $0; nb = FNR }
    END {
      n = (na > nb ? na : nb); d = 0; first = ""
      for (i = 1; i <= n; i++) {
        if (i > na || i > nb || !same(la[i], lb[i])) {
          d++
          if (first == "") {
            split(la[i], ka, "\t"); split(lb[i], kb, "\t")
            first = (i > na ? kb[1] : ka[1]) OFS (i > na ? "(missing)" : owners(la[i])) OFS \
                    (i > nb ? "(missing)" : owners(lb[i]))
          }
        }
      }
      print d, first
    }' "$2" "$3"
}

while IFS=$'\x1f' read -r stem _system preset options replicas check remove servers; do
  file="$OUT/$stem.tsv"
  [ -f "$file" ] || continue
  count=$((count + 1))
  grep -v '^#' "$file" > "$TMP/expected"
  args=(map --preset "$preset" --replicas "$replicas")
  [ -z "$options" ] || args+=(--preset-options "$options")
  [ -z "$remove" ] || args+=(--remove "$remove")
  case $servers in
    topology:*) args+=(--topology "$VERIFY/topologies/${servers#topology:}") ;;
    *) args+=(--servers "$servers") ;;
  esac
  rc=0
  "$CHBENCH" "${args[@]}" < "$KEYS" > "$TMP/got" 2> "$TMP/err" || rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "DIFF $stem: chbench map failed (exit $rc): $(head -n 1 "$TMP/err")"
    status=1
  else
    IFS=$'\t' read -r n key exp got < <(diff_replicas "$check" "$TMP/expected" "$TMP/got")
    if [ "$n" -eq 0 ]; then
      echo "ok $stem ($check)"
    else
      echo "DIFF $stem ($check): $n of $NKEYS keys differ, first: $key $exp $got"
      status=1
    fi
  fi
  committed="$TESTDATA/$stem.tsv"
  if [ ! -f "$committed" ]; then
    echo "NEW $stem: no committed testdata/$stem.tsv"
  elif ! cmp -s "$file" "$committed"; then
    grep -v '^#' "$committed" > "$TMP/committed"
    IFS=$'\t' read -r n key exp got < <(diff_replicas exact "$TMP/committed" "$TMP/expected")
    if [ "$n" -ne 0 ]; then
      echo "CHANGED $stem: $n of $NKEYS keys differ from testdata/$stem.tsv, first: $key $exp $got"
      status=1
    else
      echo "NOTE $stem: header differs from testdata/$stem.tsv: $(head -n 1 "$file" | cut -c1-160)..."
    fi
  fi
done < <(vl_replica_rows)

if [ "$count" -eq 0 ]; then echo "compare: no configs.tsv or replicas.tsv stem has a file in $OUT" >&2; exit 2; fi
exit "$status"

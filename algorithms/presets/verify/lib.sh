# lib.sh: shared by the make verify-presets scripts (verify/<system>/run.sh, run_all.sh,
# compare.sh); sourced, never run. Sourcing only defines the paths and functions below.
#
# A run.sh does, in order:
#   vl_start NAME "usage: run.sh OUT_DIR" 1 1 "$@"   # NAME prefixes every error line; sets OUT
#   vl_need_prog / vl_need_file / vl_pkg_version ...   # one-line error + exit 2 if missing
#   vl_scratch                                         # SCRATCH=$(mktemp -d) + EXIT/INT/TERM traps
#   vl_run_driver CMD...  (or its own loop over vl_rows SYSTEM)
#   vl_publish DIR                                     # check and move DIR/*.tsv into OUT
# Servers the run.sh starts itself are registered with vl_track_pid; the driver's servers are
# listed (one PID a line) in $SCRATCH/server.pids. On every exit path (EXIT, INT, TERM) the
# driver gets SIGTERM, every such PID is stopped by PID (never by name), a half-published
# file is removed and SCRATCH is deleted.

VERIFY=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$VERIFY/../../.." && pwd)
CONFIGS="$VERIFY/configs.tsv"
REPLICAS="$VERIFY/replicas.tsv"
TESTDATA=$(cd "$VERIFY/../testdata" && pwd)
KEYS="$TESTDATA/keys.txt"
PY=/usr/bin/python3
VL_NAME=verify
SCRATCH=
VL_DRIVER=
VL_PIDS=()
VL_PART=

# vl_die CODE MESSAGE: one line "NAME: MESSAGE" on stderr, exit CODE.
vl_die() { echo "$VL_NAME: $2" >&2; exit "$1"; }

# vl_start NAME USAGE MIN MAX ARGS...: check the argument count (exit 2 with USAGE) and set OUT=$1.
vl_start() {
  VL_NAME=$1
  local usage=$2 min=$3 max=$4
  shift 4
  if [ $# -lt "$min" ] || [ $# -gt "$max" ]; then echo "$usage" >&2; exit 2; fi
  OUT=$1
}

# vl_need_prog PROG PACKAGE: PROG on PATH (or an executable path), else exit 2.
vl_need_prog() {
  command -v "$1" >/dev/null 2>&1 || vl_die 2 "missing program '$1' (apt package $2)"
}

# vl_need_file PATH PACKAGE: PATH exists, else exit 2.
vl_need_file() { [ -e "$1" ] || vl_die 2 "missing $1 (apt package $2)"; }

# vl_need_python_module MODULE PACKAGE: $PY can import MODULE, else exit 2.
vl_need_python_module() {
  vl_need_prog "$PY" python3
  "$PY" -c "import $1" 2>/dev/null || vl_die 2 "python module $1 not found for $PY (apt package $2)"
}

# vl_pkg_version PACKAGE [FALLBACK]: print the installed Debian version; without FALLBACK a
# package that is not installed is an exit 2.
vl_pkg_version() {
  local v
  if v=$(dpkg-query -W -f='${Version}' "$1" 2>/dev/null) && [ -n "$v" ]; then
    printf '%s\n' "$v"
  elif [ $# -ge 2 ]; then
    printf '%s\n' "$2"
  else
    vl_die 2 "package $1 not installed (apt package $1)"
  fi
}

# vl_need_npm_packages DIR: the pinned packages of npm/package-lock.json are installed in DIR.
vl_need_npm_packages() {
  vl_need_prog node nodejs
  vl_need_prog timeout coreutils
  if [ ! -d "$1/node_modules" ] || ! cmp -s "$1/package-lock.json" "$VERIFY/npm/package-lock.json"; then
    vl_die 2 "pinned npm packages not installed in $1 (run algorithms/presets/verify/npm/install.sh)"
  fi
}

# vl_rows [SYSTEM]: the configs.tsv data rows (of SYSTEM), tabs turned into \x1f so that
# `IFS=$'\x1f' read -r stem system preset options servers` keeps an empty options field.
vl_rows() {
  grep -v '^#' "$CONFIGS" | tail -n +2 | awk -F'\t' -v sys="${1:-}" 'sys == "" || $2 == sys' | tr '\t' '\037'
}

# vl_replica_rows [SYSTEM]: the replicas.tsv data rows (of SYSTEM), \x1f-separated, for
# `IFS=$'\x1f' read -r stem system preset options replicas check remove servers`.
vl_replica_rows() {
  grep -v '^#' "$REPLICAS" | tail -n +2 | awk -F'\t' -v sys="${1:-}" 'sys == "" || $2 == sys' | tr '\t' '\037'
}

# vl_stop_pid PID: SIGTERM, up to 5 s grace, then SIGKILL; by PID only.
vl_stop_pid() {
  local pid=$1 i
  kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for i in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; fi
  wait "$pid" 2>/dev/null || true
  if kill -0 "$pid" 2>/dev/null; then echo "$VL_NAME: pid $pid still running" >&2; fi
  return 0
}

# vl_track_pid PID: stop PID on exit (a server started by the run.sh itself).
vl_track_pid() { VL_PIDS+=("$1"); }

# vl_untrack_pids: stop the tracked PIDs now and forget them.
vl_untrack_pids() {
  local pid
  for pid in "${VL_PIDS[@]}"; do vl_stop_pid "$pid"; done
  VL_PIDS=()
}

vl_cleanup() {
  local pid
  if [ -n "$VL_DRIVER" ]; then kill -TERM "$VL_DRIVER" 2>/dev/null || true; wait "$VL_DRIVER" 2>/dev/null || true; VL_DRIVER=; fi
  vl_untrack_pids
  # the driver stops its servers itself; this is the backstop
  if [ -n "$SCRATCH" ] && [ -s "$SCRATCH/server.pids" ]; then
    while read -r pid; do vl_stop_pid "$pid"; done < "$SCRATCH/server.pids"
  fi
  [ -z "$VL_PART" ] || rm -f "$VL_PART"
  [ -z "$SCRATCH" ] || rm -rf "$SCRATCH"
}

# vl_scratch: SCRATCH=$(mktemp -d); on EXIT clean up (see above); on INT/TERM exit 130
# (the EXIT trap then forwards SIGTERM to a running driver and stops the servers).
vl_scratch() {
  SCRATCH=$(mktemp -d) || vl_die 2 "mktemp -d failed"
  trap vl_cleanup EXIT
  trap 'exit 130' INT TERM
}

# vl_run_driver CMD...: run CMD in the background (so that a signal to this script is handled
# at once) and return its exit status.
vl_run_driver() {
  local rc=0
  "$@" &
  VL_DRIVER=$!
  wait "$VL_DRIVER" || rc=$?
  VL_DRIVER=
  return "$rc"
}

# vl_check_servers_gone: exit 1 if a PID of $SCRATCH/server.pids still runs after the driver.
vl_check_servers_gone() {
  local pid
  [ -s "$SCRATCH/server.pids" ] || return 0
  while read -r pid; do
    if kill -0 "$pid" 2>/dev/null; then vl_die 1 "server pid $pid still running after the driver"; fi
  done < "$SCRATCH/server.pids"
}

# vl_publish DIR: every DIR/*.tsv must have one header line plus one line per key; then each
# is moved into OUT (copied to a hidden name in OUT, renamed there: no partial file).
vl_publish() {
  local dir=$1 f name n=0 want
  want=$(( $(wc -l < "$KEYS") + 1 ))
  for f in "$dir"/*.tsv; do
    [ -f "$f" ] || vl_die 1 "no output files"
    [ "$(wc -l < "$f")" -eq "$want" ] || vl_die 1 "$(basename "$f"): wrong line count"
  done
  mkdir -p "$OUT" || vl_die 2 "cannot create $OUT"
  for f in "$dir"/*.tsv; do
    name=$(basename "$f")
    VL_PART="$OUT/.$name.part.$$"
    cp "$f" "$VL_PART"
    mv -f "$VL_PART" "$OUT/$name"
    VL_PART=
    n=$((n + 1))
  done
  echo "$VL_NAME: wrote $n files to $OUT"
}

# vl_node_driver: the whole of npm/run.sh and cassandra/run.sh after vl_start: run
# $HERE/driver.js on the pinned npm packages (CHBENCH_VERIFY_NPM_DIR, default
# build/verify-presets/npm, installed by npm/install.sh). The driver opens no socket and must
# exit by itself; the timeout catches a regression. Driver exit 2 (missing package) stays 2.
vl_node_driver() {
  local pkg=${CHBENCH_VERIFY_NPM_DIR:-$REPO/build/verify-presets/npm} rc=0
  vl_need_npm_packages "$pkg"
  vl_scratch
  mkdir "$SCRATCH/out"
  vl_run_driver timeout 120 node "$HERE/driver.js" "$pkg" "$CONFIGS" "$KEYS" "$SCRATCH/out" || rc=$?
  if [ "$rc" -eq 2 ]; then vl_die 2 "driver failed (exit 2)"; fi
  if [ "$rc" -ne 0 ]; then vl_die 1 "driver failed (exit $rc)"; fi
  vl_publish "$SCRATCH/out"
}

# vl_map_rows SYSTEM PRESET=MODE... -- CMD...: for each configs.tsv row of SYSTEM (its preset
# one of the PRESETs, no options) run  CMD MODE SERVERS "$VERSION_TEXT" < KEYS
# into $SCRATCH/out/<stem>.tsv (then vl_publish "$SCRATCH/out").
vl_map_rows() {
  local system=$1 stem _system preset options servers mode pair
  local -a pairs=()
  shift
  while [ "$1" != -- ]; do pairs+=("$1"); shift; done
  shift
  mkdir -p "$SCRATCH/out"
  while IFS=$'\x1f' read -r stem _system preset options servers; do
    mode=
    for pair in "${pairs[@]}"; do [ "${pair%%=*}" != "$preset" ] || mode=${pair#*=}; done
    [ -n "$mode" ] || vl_die 1 "$stem: unknown preset $preset"
    [ -z "$options" ] || vl_die 1 "$stem: unexpected options '$options'"
    "$@" "$mode" "$servers" "$VERSION_TEXT" < "$KEYS" > "$SCRATCH/out/$stem.tsv"
  done < <(vl_rows "$system")
}

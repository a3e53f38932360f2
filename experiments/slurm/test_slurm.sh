#!/usr/bin/env bash
# What `make test-slurm` runs: a real, single-node Slurm cluster on this
# machine (Debian 12's slurmctld, slurmd and munge), the smoke tier submitted
# to it as a job array of 3 shards plus the dependent merge job
# (experiments/slurm/submit.sh), and the merged result checked against an
# unsharded smoke run, row by row (every non-timing row byte for byte).
#
# Usage: test_slurm.sh <chbench binary> <experiments_slow_test binary>
# Env:   CHBENCH_SLURM_TIMEOUT  seconds to wait for the jobs (default 900)
#        CHBENCH_SLURM_SHARDS   number of shards (default 3)
#        CHBENCH_SLURM_KEEP=1   keep the temporary directory (logs, results)
#
# Everything lives in a fresh temporary directory: munge key, munged socket,
# slurm.conf, state, spool, logs, pid files and both results dirs. The daemons
# listen on 127.0.0.1 only, on free ports (not Slurm's defaults), with their
# own munged, so nothing clashes with a system Slurm or munge. Every exit path
# (pass, failure, Ctrl-C) cancels the jobs, stops slurmd, slurmctld and
# munged by PID (TERM, then KILL after a timeout) and removes the directory.
# Needs root: slurmd runs jobs as their submitting user and must be root.
set -euo pipefail
start_s=$(date +%s)

elapsed() { echo "$(($(date +%s) - start_s)) s"; }
die() { echo "test-slurm: FAIL: $* ($(elapsed))" >&2; exit 1; }

[ $# -eq 2 ] || { echo "usage: $0 <chbench> <experiments_slow_test>" >&2; exit 2; }
chbench=$(realpath -m "$1")
slow_test=$(realpath -m "$2")
here=$(cd "$(dirname "$0")" && pwd)
timeout_s=${CHBENCH_SLURM_TIMEOUT:-900}
shards=${CHBENCH_SLURM_SHARDS:-3}

[ "$(id -u)" = 0 ] || die "must run as root (slurmd has to be root to start jobs; munged and slurmctld run as root here too)"
for b in munged mungekey slurmctld slurmd sbatch squeue scancel sinfo setsid python3; do
  command -v "$b" >/dev/null || die "$b not found; install Debian's slurmctld slurmd slurm-client munge (make test-slurm does)"
done
[ -x "$chbench" ] || die "no chbench binary at $1"
[ -x "$slow_test" ] || die "no experiments_slow_test binary at $2"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/chbench-slurm.XXXXXX")
chmod 700 "$tmp"
pids=()        # daemons we started, stopped in reverse order
slurm_up=

# Stops one process by PID: TERM, up to $2 seconds (default 10), then KILL.
stop_pid() {
  local pid=$1 deadline=$(($(date +%s) + ${2:-10}))
  kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  while kill -0 "$pid" 2>/dev/null && [ "$(date +%s)" -lt "$deadline" ]; do
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    echo "test-slurm: pid $pid ignored TERM, killing" >&2
    kill -KILL "$pid" 2>/dev/null || true
  fi
  wait "$pid" 2>/dev/null || true
}

# Job processes (slurmstepd and the job's own) are not our children: they
# are found by the SLURM_CONF of this cluster, which only they carry.
job_pids() {
  local p
  for p in /proc/[0-9]*; do
    [ "${p#/proc/}" = $$ ] && continue
    if { tr '\0' '\n' <"$p/environ"; } 2>/dev/null | grep -qxF "SLURM_CONF=$tmp/slurm.conf"; then
      echo "${p#/proc/}"
    fi
  done
}

cleanup() {
  local rc=$? i p deadline
  trap - EXIT INT TERM
  set +e
  # Jobs first, while slurmctld and slurmd can still end them cleanly.
  if [ -n "$slurm_up" ] && kill -0 "$slurmctld_pid" 2>/dev/null; then
    timeout 15 scancel --quiet --full --user="$(id -un)" 2>/dev/null
    deadline=$(($(date +%s) + 15))
    while [ -n "$(timeout 5 squeue -h -t RUNNING,COMPLETING 2>/dev/null)" ] \
      && [ "$(date +%s)" -lt "$deadline" ]; do
      sleep 0.2
    done
  fi
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do stop_pid "${pids[i]}"; done
  unset SLURM_CONF   # so that only the jobs' processes carry it
  for p in $(job_pids); do stop_pid "$p" 3; done
  if [ "${CHBENCH_SLURM_KEEP:-}" = 1 ]; then
    echo "test-slurm: kept $tmp" >&2
  else
    rm -rf "$tmp"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'echo "test-slurm: interrupted" >&2; exit 130' INT TERM

# Two free TCP ports on 127.0.0.1, asked of the kernel.
read -r ctld_port slurmd_port < <(python3 - <<'EOF'
import socket
socks = [socket.socket() for _ in range(2)]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in socks])
EOF
)

# --- munge -----------------------------------------------------------------
mkdir -p "$tmp/munge"
chmod 700 "$tmp/munge"
mungekey --create --keyfile="$tmp/munge/munge.key" >/dev/null 2>&1 \
  || { dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1 count=1024 status=none; }
chmod 400 "$tmp/munge/munge.key"
munge_socket=$tmp/munge/munge.socket
# The daemons run in their own session (setsid; without job control it execs
# in place, so $! is the daemon's PID): a Ctrl-C on the terminal reaches
# this script, whose trap then cancels the jobs through them and stops them.
# --force: munged as root, and the parent (/tmp) is world-writable.
setsid munged --foreground --force \
  --socket="$munge_socket" --key-file="$tmp/munge/munge.key" \
  --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/munge/munged.log" \
  --seed-file="$tmp/munge/munged.seed" >"$tmp/munge/munged.out" 2>&1 &
pids+=($!)
for i in $(seq 100); do [ -S "$munge_socket" ] && break; sleep 0.1; done
[ -S "$munge_socket" ] || { cat "$tmp/munge/munged.out" "$tmp/munge/munged.log" 2>/dev/null; die "munged did not start"; }

# --- slurm.conf ------------------------------------------------------------
# This machine as slurmd sees it: "NodeName=<host> CPUs=.. Boards=..
# SocketsPerBoard=.. CoresPerSocket=.. ThreadsPerCore=.. RealMemory=..".
node_line=$(slurmd -C | head -1)
hw=${node_line#NodeName=* }
cpus=$(sed -n 's/.*CPUs=\([0-9]*\).*/\1/p' <<<"$hw")
[ -n "$cpus" ] && [[ $hw == *RealMemory=* ]] || die "could not read CPUs/RealMemory from 'slurmd -C': $node_line"
mkdir -p "$tmp/ctld" "$tmp/spool" "$tmp/log"
user=$(id -un)
cat >"$tmp/slurm.conf" <<EOF
# Written by experiments/slurm/test_slurm.sh: a throw-away single-node cluster.
ClusterName=chbench-test
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
CommunicationParameters=NoInAddrAny,NoCtldInAddrAny
SlurmUser=$user
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$munge_socket
CredType=cred/munge
StateSaveLocation=$tmp/ctld
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
PlugStackConfig=$tmp/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
MinJobAge=600
SlurmctldTimeout=30
SlurmdTimeout=60
NodeName=localhost NodeAddr=127.0.0.1 $hw State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
: >"$tmp/plugstack.conf"
export SLURM_CONF=$tmp/slurm.conf

# --- daemons ---------------------------------------------------------------
setsid slurmctld -D -i -f "$SLURM_CONF" >"$tmp/log/slurmctld.out" 2>&1 &
slurmctld_pid=$!
pids+=($!)
slurm_up=1
setsid slurmd -D -N localhost -f "$SLURM_CONF" >"$tmp/log/slurmd.out" 2>&1 &
pids+=($!)

show_logs() {
  local f
  for f in "$tmp"/log/*; do
    echo "---- $f (last 30 lines)"
    tail -n 30 "$f"
  done >&2
}

# The node is idle once slurmd registered with slurmctld (bounded wait).
state=
for i in $(seq 60); do
  for p in "${pids[@]}"; do
    kill -0 "$p" 2>/dev/null || { show_logs; die "a daemon exited during startup (pid $p)"; }
  done
  state=$(sinfo -h -n localhost -o %T 2>/dev/null || true)
  [ "$state" = idle ] && break
  sleep 0.5
done
[ "$state" = idle ] || { show_logs; die "node not idle after 30 s (state: ${state:-none})"; }
echo "test-slurm: single-node cluster up (slurmctld 127.0.0.1:$ctld_port, slurmd 127.0.0.1:$slurmd_port, $cpus CPUs) in $tmp"

# --- the unsharded reference run ---------------------------------------------
echo "test-slurm: unsharded smoke run ($(elapsed))"
if ! "$chbench" run all --tier smoke --results-dir "$tmp/unsharded" >"$tmp/unsharded.log" 2>&1; then
  tail -n 40 "$tmp/unsharded.log" >&2
  die "the unsharded smoke run failed"
fi

# --- the smoke tier through Slurm: N shards and the merge ---------------------
echo "test-slurm: submitting the smoke tier as $shards shards + merge ($(elapsed))"
# The node has $cpus CPUs and little is known of its memory: shrink the
# defaults meant for a real cluster's nodes (command-line options win over
# the #SBATCH lines). --exclusive stays: the shards run one after another.
submit_out=$("$here/submit.sh" --chbench "$chbench" --results-dir "$tmp/sharded" \
  --experiment all --tier smoke --shards "$shards" \
  -- --cpus-per-task="$cpus" --mem=1G --time=00:30:00 2>&1) \
  || { echo "$submit_out" >&2; die "submit.sh failed"; }
echo "$submit_out" | sed 's/^/  /'
array_job=$(awk '$1 == "array" && $2 == "job" {sub(":", "", $3); print $3}' <<<"$submit_out")
merge_job=$(awk '$1 == "merge" && $2 == "job" {sub(":", "", $3); print $3}' <<<"$submit_out")
[ -n "$array_job" ] && [ -n "$merge_job" ] || die "no job ids in submit.sh's output"

show_jobs() {
  local f
  echo "---- jobs" >&2
  timeout 10 squeue -t all -j "$array_job,$merge_job" -o '%.12i %.10T %.12M %r' >&2 || true
  for f in "$tmp"/sharded/slurm-logs/*.out; do
    [ -e "$f" ] || continue
    echo "---- $f (last 30 lines)"
    tail -n 30 "$f"
  done >&2
}

# Bounded wait for the merge job to complete; any failed job, or a merge
# whose dependency can no longer be met, ends the wait at once.
deadline=$((start_s + timeout_s))
last=
while :; do
  states=$(timeout 20 squeue -h -t all -j "$array_job,$merge_job" -o '%i %T %r' 2>&1) \
    || { show_logs; die "squeue failed: $states"; }
  if [ "$states" != "$last" ]; then
    echo "test-slurm: ($(elapsed)) $(tr '\n' ' ' <<<"$states")"
    last=$states
  fi
  merge_state=$(awk -v j="$merge_job" '$1 == j {print $2}' <<<"$states")
  if [ "$merge_state" = COMPLETED ]; then
    break
  fi
  if grep -qE ' (FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE|PREEMPTED) |DependencyNeverSatisfied' <<<"$states"; then
    show_jobs
    die "a Slurm job failed"
  fi
  if [ "$(date +%s)" -ge "$deadline" ]; then
    show_jobs
    die "the jobs did not finish within ${timeout_s} s (CHBENCH_SLURM_TIMEOUT)"
  fi
  sleep 2
done

# --- the check --------------------------------------------------------------
echo "test-slurm: comparing the merged shards with the unsharded run ($(elapsed))"
if ! CHBENCH_SMOKE_RESULTS=$tmp/unsharded CHBENCH_SHARDED_RESULTS=$tmp/sharded \
  "$slow_test" --gtest_filter='PipelineTest.MergedShardsEqualUnsharded' >"$tmp/compare.log" 2>&1; then
  # gtest prints both runs' rows in full; the diff and the verdict suffice.
  grep -v '^ *Which is: ' "$tmp/compare.log" | cut -c1-300 | tail -n 60 >&2
  die "the merged shards differ from the unsharded run"
fi
# A filter that matches nothing, or a skipped test, also exits 0.
if ! grep -q '^\[  PASSED  \] 1 test' "$tmp/compare.log" || grep -q '^\[  SKIPPED' "$tmp/compare.log"; then
  cat "$tmp/compare.log" >&2
  die "the comparison test did not run"
fi
echo "test-slurm: PASS: smoke tier as $shards Slurm shards + merge equals the unsharded run ($(elapsed))"

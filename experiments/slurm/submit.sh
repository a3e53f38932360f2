#!/usr/bin/env bash
# Submits a chbench sweep to Slurm: a job array of N shards (chbench.sbatch,
# array index = shard) and the merge (merge.sbatch) as a dependent job that
# starts only when every shard succeeded (--dependency=afterok:<array job>).
# Prints both job ids. Run it on a login node of the cluster, from a chbench
# checkout built on a filesystem that the compute nodes share.
#
# Usage: experiments/slurm/submit.sh [options] [-- sbatch options]
#   -n, --shards N          number of shards                      (4)
#   -t, --tier TIER         smoke | default | full                (full)
#   -e, --experiment NAME   one experiment or all                 (all)
#   -r, --results-dir DIR   results dir, on the shared filesystem (results/slurm
#                           of this checkout)
#   -c, --chbench PATH      chbench binary                        (build/experiments/
#                           chbench of this checkout)
#   -s, --spec-dir DIR      specs, when not those chbench was built from
#   -a, --array LIST        only these shards, e.g. 3 or 2,5: resubmits failed
#                           shards (with the same -n as before); each resumes
#                           from the cells it had finished        (1-N)
#       --no-merge          do not queue the merge job
#   Everything after `--` is passed to both sbatch calls, e.g.
#     -- --partition=compute --account=proj42 --time=02:00:00
#   (Slurm's SBATCH_PARTITION, SBATCH_ACCOUNT, ... environment works too.)
#
# Job output goes to <results dir>/slurm-logs/ (chbench-<array>_<shard>.out,
# merge-<job>.out). Every shard and the merge must run the same chbench build
# and specs; the merge refuses shard records that disagree.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
shards=4
tier=full
experiment=all
results=$root/results/slurm
chbench=$root/build/experiments/chbench
spec_dir=
array=
merge=1
usage() { sed -n '/^# Usage:/,/^# Job output/p' "$0" | sed 's/^# \{0,1\}//' | head -n -1; }
die() { echo "submit.sh: $*" >&2; exit 2; }

while [ $# -gt 0 ]; do
  case $1 in
    -n|--shards) shards=$2; shift 2 ;;
    -t|--tier) tier=$2; shift 2 ;;
    -e|--experiment) experiment=$2; shift 2 ;;
    -r|--results-dir) results=$2; shift 2 ;;
    -c|--chbench) chbench=$2; shift 2 ;;
    -s|--spec-dir) spec_dir=$2; shift 2 ;;
    -a|--array) array=$2; shift 2 ;;
    --no-merge) merge=; shift ;;
    -h|--help) usage; exit 0 ;;
    --) shift; break ;;
    *) usage >&2; die "unknown option: $1" ;;
  esac
done
extra=("$@")

[[ $shards =~ ^[1-9][0-9]*$ ]] || die "--shards must be a positive integer, got '$shards'"
[ -x "$chbench" ] || die "no chbench binary at $chbench (build it first: make build)"
command -v sbatch >/dev/null || die "sbatch not found: run this on a Slurm login node"
chbench=$(realpath "$chbench")
mkdir -p "$results/slurm-logs"
results=$(realpath "$results")
[ -z "$spec_dir" ] || spec_dir=$(realpath "$spec_dir")
[ -n "$array" ] || array=1-$shards
for v in "$chbench" "$results" "$spec_dir" "$experiment" "$tier"; do
  [[ $v != *,* ]] || die "'$v' contains a comma, which sbatch --export cannot carry"
done

export_vars=ALL,CHBENCH=$chbench,CHBENCH_RESULTS=$results,CHBENCH_EXPERIMENT=$experiment
export_vars+=,CHBENCH_TIER=$tier,CHBENCH_SHARDS=$shards
[ -z "$spec_dir" ] || export_vars+=,CHBENCH_SPEC_DIR=$spec_dir

# --parsable prints "<job id>[;<cluster>]".
array_job=$(sbatch --parsable --array="$array" --export="$export_vars" \
  --output="$results/slurm-logs/chbench-%A_%a.out" "${extra[@]}" "$here/chbench.sbatch")
array_job=${array_job%%;*}
echo "array job $array_job: shards $array of $shards ($experiment, tier $tier) into $results"
if [ -n "$merge" ]; then
  merge_job=$(sbatch --parsable --dependency="afterok:$array_job" --export="$export_vars" \
    --output="$results/slurm-logs/merge-%j.out" "${extra[@]}" "$here/merge.sbatch")
  merge_job=${merge_job%%;*}
  echo "merge job $merge_job: after every shard succeeded (afterok:$array_job)"
fi
echo "logs in $results/slurm-logs/; watch with: squeue -j $array_job${merge:+,$merge_job}"

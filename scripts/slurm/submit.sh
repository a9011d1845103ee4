#!/usr/bin/env bash
# Submits a sharded dagaz tournament to Slurm: an array of N shard tasks (shards.sbatch, requeue-safe) and a
# merge job that runs once they have all ended (merge.sbatch). Resubmits chosen shards alone with --only.
#
#   scripts/slurm/submit.sh RUN_DIR N -- TOURNAMENT-SETTINGS...     first submission
#   scripts/slurm/submit.sh RUN_DIR N --only K[,K...]               resubmit shards K alone, and a new merge
#
# RUN_DIR is the shared folder (every node must see it): the shards write RUN_DIR/s1 .. RUN_DIR/sN, the merge
# RUN_DIR/merged, Slurm's logs go to RUN_DIR/slurm-*.out. The settings are recorded in RUN_DIR/args on the first
# submission and read back by every task, so a resubmission plays the same run (given again, they must be the
# same). N is given here, never taken from the array's size (a resubmitted array of one task would say 1).
# DAGAZ names the binary (default: `dagaz` on PATH, else target/release/dagaz of this checkout); SBATCH_ARGS
# adds sbatch options to both jobs (e.g. "--partition=long --time=12:00:00").
set -euo pipefail
usage() { echo "usage: $0 RUN_DIR N [--only K[,K...]] [-- TOURNAMENT-SETTINGS...]" >&2; exit 2; }
[ $# -ge 2 ] || usage
here="$(cd "$(dirname "$0")" && pwd)"
RUN_DIR="$(realpath -m "$1")"
N="$2"
shift 2
[[ "$N" =~ ^[1-9][0-9]*$ ]] || { echo "N must be a whole number from 1, not '$N'" >&2; exit 2; }
ONLY=""
while [ $# -gt 0 ]; do
    case "$1" in
        --only) [ $# -ge 2 ] || usage; ONLY="$2"; shift 2 ;;
        --) shift; break ;;
        *) usage ;;
    esac
done
if [ -n "$ONLY" ]; then
    for k in ${ONLY//,/ }; do
        [[ "$k" =~ ^[0-9]+$ ]] && [ "$k" -ge 1 ] && [ "$k" -le "$N" ] || { echo "--only: $k is not a shard of 1..$N" >&2; exit 2; }
    done
fi
mkdir -p "$RUN_DIR"
if [ -f "$RUN_DIR/args" ]; then
    if [ $# -gt 0 ] && ! diff -q <(printf '%s\n' "$@") "$RUN_DIR/args" >/dev/null; then
        echo "$RUN_DIR already holds a run with other settings (RUN_DIR/args); give no settings to resubmit it, or another RUN_DIR" >&2
        exit 1
    fi
    if [ "$(cat "$RUN_DIR/shards")" != "$N" ]; then
        echo "$RUN_DIR is a run of $(cat "$RUN_DIR/shards") shards, not $N" >&2
        exit 1
    fi
else
    [ $# -gt 0 ] || { echo "give the tournament's settings after --, e.g. -- games/breakthrough.zrf --bots random mcts-1k --games 400" >&2; exit 2; }
    printf '%s\n' "$@" > "$RUN_DIR/args"
    echo "$N" > "$RUN_DIR/shards"
fi
DAGAZ="${DAGAZ:-$(command -v dagaz || echo "$here/../../target/release/dagaz")}"
DAGAZ="$(realpath "$DAGAZ")"
[ -x "$DAGAZ" ] || { echo "no dagaz binary at $DAGAZ (cargo build --release, or set DAGAZ)" >&2; exit 1; }
export DAGAZ RUN_DIR
export SHARDS="$N"
# Relative paths in the settings are read from the folder of the submission.
export SUBMIT_DIR="$PWD"
# shellcheck disable=SC2086
array=$(sbatch --parsable ${SBATCH_ARGS:-} --array="${ONLY:-1-$N}" --chdir="$PWD" \
    --output="$RUN_DIR/slurm-%A_%a.out" "$here/shards.sbatch")
array="${array%%;*}"
echo "$array" >> "$RUN_DIR/jobs"
# The merge waits for every shard job this run has had to end, however it ended (afterany): it then merges,
# or says which shards are unfinished and how to resubmit them.
deps="afterany:$(paste -sd: "$RUN_DIR/jobs")"
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_ARGS:-} --dependency="$deps" --chdir="$PWD" \
    --output="$RUN_DIR/slurm-merge-%j.out" "$here/merge.sbatch")
merge="${merge%%;*}"
echo "shards: job array $array (tasks ${ONLY:-1-$N} of $N); merge: job $merge (after $deps)"
echo "progress: $DAGAZ status $(for k in $(seq 1 "$N"); do printf '%s ' "$RUN_DIR/s$k"; done)"

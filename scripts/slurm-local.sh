#!/usr/bin/env bash
# The Slurm end-to-end check on this machine (a one-node Slurm from the Debian packages, `slurm-wlm`), with the
# ready scripts of scripts/slurm/:
#  1. a 4-shard run: shard 2 is killed mid-run (its job fails), shard 3 is requeued mid-run (`scontrol requeue`:
#     it restarts and finishes what it had); the dependent merge runs by itself and says which shard to
#     resubmit; shard 2 resubmitted alone (`submit.sh --only 2`) finishes, and the merge after it runs by
#     itself; the merged run is byte-identical to the same run played by one process;
#  2. a 4-shard run with an SPRT that stops early: every shard stops at the decision, the merge runs by itself,
#     and the result is byte-identical to one process's run.
# Exit 0 only if all of that holds. Needs root. It never overwrites a Slurm configuration: with one in place it
# uses that cluster as it is; otherwise it writes a one-node configuration and removes it at the end. It stops
# the daemons it started (and only those). Run from the repository root:
#     sudo bash scripts/slurm-local.sh
# `bash scripts/slurm-local.sh --compare SINGLE MERGED` runs only the comparison of two run folders (exit 1
# when a file differs); tests/slurm_local.rs runs it and the rest with stand-ins for the Slurm commands.
set -euo pipefail
FAILED=0
# The deterministic files of a run, compared with one process's run.
compare() {
    local single="$1" merged="$2"
    for f in games.csv standings.csv end_conditions.csv pairwise.csv results_long.csv report.md report.html games.pgn; do
        if cmp -s "$single/$f" "$merged/$f"; then
            echo "$f: merged = single run"
        else
            echo "FAILED: $f differs between $single and $merged"
            FAILED=1
        fi
    done
}
if [ "${1:-}" = "--compare" ]; then
    compare "$2" "$3"
    exit $FAILED
fi
cd "$(dirname "$0")/.."
ROOT="$PWD"
command -v sbatch >/dev/null || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q slurm-wlm munge; }
cargo build --release -q
BIN="$ROOT/target/release/dagaz"
WORK="$(mktemp -d /tmp/dagaz-slurm.XXXXXX)"
chmod 755 "$WORK"
CONF="${SLURM_CONF:-/etc/slurm/slurm.conf}"
STARTED=()    # pid files of the daemons this script started
WROTE_CONF=""
cleanup() {
    local status=$?
    for f in "${STARTED[@]}"; do
        [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null || true
    done
    [ -n "$WROTE_CONF" ] && rm -f "$WROTE_CONF"
    # A run that stopped before writing anything leaves no empty folder behind (the folders of a run are kept).
    rmdir "$WORK" 2>/dev/null || true
    [ ${#STARTED[@]} -gt 0 ] && echo "stopped the daemons this script started (${#STARTED[@]})"
    exit $status
}
trap cleanup EXIT

if [ -e "$CONF" ]; then
    echo "using the Slurm configuration in place ($CONF); it is not changed"
else
    # A one-node cluster: this host, all its cores, one partition.
    HOST="$(hostname -s)"
    # At least 4 CPUs, so that the 4 shards of a run play at once (the SPRT stops the shards running when it
    # decides; a shard started later stops at once): slurmd takes the configured count (config_overrides).
    CPUS="$(nproc)"
    [ "$CPUS" -ge 4 ] || CPUS=4
    MEM="$(($(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 1024))"
    mkdir -p "$(dirname "$CONF")" /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
    WROTE_CONF="$CONF"
    cat > "$CONF" <<CONF
ClusterName=dagaz-local
SlurmctldHost=$HOST
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ReturnToService=2
JobRequeue=1
SlurmdParameters=config_overrides
NodeName=$HOST CPUs=$CPUS RealMemory=$MEM State=UNKNOWN
PartitionName=local Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
CONF
    echo "wrote a one-node configuration to $CONF (removed at the end)"
fi
if ! pgrep -x munged >/dev/null; then
    [ -f /etc/munge/munge.key ] || /usr/sbin/mungekey --create 2>/dev/null || dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null
    chown munge:munge /etc/munge/munge.key 2>/dev/null || true
    chmod 400 /etc/munge/munge.key
    mkdir -p /run/munge && chown munge:munge /run/munge 2>/dev/null || true
    su -s /bin/sh munge -c /usr/sbin/munged 2>/dev/null || /usr/sbin/munged --force
    STARTED+=(/run/munge/munged.pid)
fi
# The daemons write their pids where the configuration in use says (a configuration in place may say
# another place than the one this script writes).
pid_file() { local f; f="$(sed -n "s/^$1=//p" "$CONF" | tail -1)"; echo "${f:-$2}"; }
if ! pgrep -x slurmctld >/dev/null; then slurmctld; STARTED+=("$(pid_file SlurmctldPidFile /run/slurmctld.pid)"); fi
if ! pgrep -x slurmd >/dev/null; then slurmd; STARTED+=("$(pid_file SlurmdPidFile /run/slurmd.pid)"); fi
for _ in $(seq 60); do sinfo -h -o %T 2>/dev/null | grep -qE 'idle|mix|alloc' && break; sleep 1; done
sinfo

# Waits until a Slurm job (array) has left the queue.
wait_job() { while squeue -h -j "$1" 2>/dev/null | grep -q .; do sleep 1; done; }
rows() { [ -f "$1" ] && echo $(($(wc -l < "$1") - 1)) || echo 0; }
job_of() { sed -n "s/^shards: job array \([0-9]*\).*/\1/p" "$1"; }
merge_of() { sed -n "s/.*merge: job \([0-9]*\).*/\1/p" "$1"; }

echo "== 1. a shard killed mid-run and resubmitted alone, a shard requeued"
RUN="$WORK/run"
SETTINGS=(games/breakthrough.zrf --bots alphabeta:depth=2,name=ab2 "mcts:iterations=300,playout_plies=60,name=m300" random --games 16 --seed 7)
DAGAZ="$BIN" scripts/slurm/submit.sh "$RUN" 4 -- "${SETTINGS[@]}" | tee "$WORK/submit1.txt"
A1="$(job_of "$WORK/submit1.txt")"
M1="$(merge_of "$WORK/submit1.txt")"
# Shard 2 is killed once it has finished two games; shard 3 is requeued once it has finished two.
killed=0 requeued=0
for _ in $(seq 600); do
    if [ $killed = 0 ] && [ "$(rows "$RUN/s2/games.csv")" -ge 2 ]; then
        pid="$(pgrep -f -- "--shard 2/4 --out $RUN/s2" | head -1)"
        if [ -n "$pid" ]; then kill -9 "$pid"; killed=1; echo "killed shard 2 (pid $pid) after $(rows "$RUN/s2/games.csv") games"; fi
    fi
    if [ $requeued = 0 ] && [ "$(rows "$RUN/s3/games.csv")" -ge 2 ]; then
        scontrol requeue "${A1}_3" && requeued=1 && echo "requeued shard 3 (job ${A1}_3) after $(rows "$RUN/s3/games.csv") games"
    fi
    [ $killed = 1 ] && [ $requeued = 1 ] && break
    sleep 0.2
done
[ $killed = 1 ] && [ $requeued = 1 ] || { echo "FAILED: the shards ended before they could be killed and requeued"; exit 1; }
wait_job "$A1"
wait_job "$M1"
sacct -j "$A1,$M1" -n -X -o JobID%14,JobName%12,State%12,ExitCode,Restarts 2>/dev/null || true
echo "-- the first merge's log:"
cat "$RUN"/slurm-merge-"$M1".out || true
[ -d "$RUN/merged" ] && { echo "FAILED: the first merge merged an unfinished run"; FAILED=1; }
grep -q -- "--only 2" "$RUN"/slurm-merge-"$M1".out || { echo "FAILED: the first merge did not name shard 2 to resubmit"; FAILED=1; }
DAGAZ="$BIN" scripts/slurm/submit.sh "$RUN" 4 --only 2 | tee "$WORK/submit2.txt"
A2="$(job_of "$WORK/submit2.txt")"
M2="$(merge_of "$WORK/submit2.txt")"
wait_job "$A2"
wait_job "$M2"
sacct -j "$A2,$M2" -n -X -o JobID%14,JobName%12,State%12,ExitCode,Restarts 2>/dev/null || true
echo "-- the second merge's log:"
cat "$RUN"/slurm-merge-"$M2".out || true
grep -h "restart" "$RUN"/slurm-*_3.out || true
# One process's run at the same depth as RUN/merged (the reports name the game relative to the run's folder).
"$BIN" tournament "${SETTINGS[@]}" --jobs 2 --out "$WORK/single/run" --quiet > /dev/null
if [ -f "$RUN/merged/report.md" ]; then compare "$WORK/single/run" "$RUN/merged"; else echo "FAILED: no merged run"; FAILED=1; fi

echo "== 2. an SPRT that stops early across 4 shards"
RUN="$WORK/sprt"
SETTINGS=(games/breakthrough.zrf --bots alphabeta:depth=2,name=ab2 random --games 400 --sprt 0,300,0.05,0.05 --seed 11)
DAGAZ="$BIN" scripts/slurm/submit.sh "$RUN" 4 -- "${SETTINGS[@]}" | tee "$WORK/submit3.txt"
A3="$(job_of "$WORK/submit3.txt")"
M3="$(merge_of "$WORK/submit3.txt")"
wait_job "$A3"
wait_job "$M3"
sacct -j "$A3,$M3" -n -X -o JobID%14,JobName%12,State%12,ExitCode 2>/dev/null || true
cat "$RUN"/sprt-stop-*.json || { echo "FAILED: no SPRT stop marker"; FAILED=1; }
for k in 1 2 3 4; do
    n="$(rows "$RUN/s$k/games.csv")"
    echo "shard $k: $n games of its 100"
    [ "$n" -lt 100 ] || { echo "FAILED: shard $k did not stop early"; FAILED=1; }
done
"$BIN" tournament "${SETTINGS[@]}" --jobs 2 --out "$WORK/single/sprt" --quiet > /dev/null
echo "one process: $(rows "$WORK/single/sprt/games.csv") games"
if [ -f "$RUN/merged/report.md" ]; then compare "$WORK/single/sprt" "$RUN/merged"; else echo "FAILED: no merged run"; FAILED=1; fi

echo "folders in $WORK"
if [ $FAILED = 0 ]; then echo "slurm end-to-end: ok"; else echo "slurm end-to-end: FAILED"; fi
exit $FAILED

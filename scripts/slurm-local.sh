#!/usr/bin/env bash
# Runs a 4-shard tournament as a Slurm job array on this machine (a one-node Slurm from the Debian packages),
# merges the shards with `dagaz merge`, and checks the merge against the same run played by one process.
# Needs root (it installs and starts munge, slurmctld and slurmd). Run from the repository root:
#     sudo bash scripts/slurm-local.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v sbatch >/dev/null || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q slurm-wlm munge; }
cargo build --release -q
BIN="$PWD/target/release/dagaz"
WORK="$(mktemp -d /tmp/dagaz-slurm.XXXXXX)"
chmod 755 "$WORK"

# A one-node cluster: this host, all its cores, one partition.
HOST="$(hostname -s)"
CPUS="$(nproc)"
MEM="$(($(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 1024))"
mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
cat > /etc/slurm/slurm.conf <<CONF
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
NodeName=$HOST CPUs=$CPUS RealMemory=$MEM State=UNKNOWN
PartitionName=local Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
CONF
[ -f /etc/munge/munge.key ] || /usr/sbin/mungekey --create 2>/dev/null || dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null
chown munge:munge /etc/munge/munge.key 2>/dev/null || true
chmod 400 /etc/munge/munge.key
mkdir -p /run/munge && chown munge:munge /run/munge 2>/dev/null || true
pgrep -x munged >/dev/null || su -s /bin/sh munge -c /usr/sbin/munged 2>/dev/null || /usr/sbin/munged --force
pgrep -x slurmctld >/dev/null || slurmctld
pgrep -x slurmd >/dev/null || slurmd
for _ in $(seq 30); do sinfo -h -o %T 2>/dev/null | grep -qE 'idle|mix' && break; sleep 1; done
sinfo

SETTINGS=(games/breakthrough.zrf --bots random alphabeta:depth=1,name=ab1 "mcts:iterations=50,playout_plies=60,name=m50" --games 8 --seed 7)
cat > "$WORK/shards.sh" <<JOB
#!/bin/sh
#SBATCH --cpus-per-task=1
#SBATCH --output=$WORK/slurm-%A_%a.out
cd "$PWD"
"$BIN" tournament ${SETTINGS[*]} --shard "\$SLURM_ARRAY_TASK_ID/\$SLURM_ARRAY_TASK_COUNT" --jobs 1 --out "$WORK/s\$SLURM_ARRAY_TASK_ID" --quiet
JOB
JOB=$(sbatch --parsable --array=1-4 "$WORK/shards.sh")
echo "submitted job array $JOB"
while squeue -h -j "$JOB" 2>/dev/null | grep -q .; do sleep 1; done
sacct -j "$JOB" -n -o JobID,State,ExitCode 2>/dev/null || true
for k in 1 2 3 4; do echo "shard $k: $(($(wc -l < "$WORK/s$k/games.csv") - 1)) games"; done
"$BIN" merge "$WORK/merged" "$WORK"/s1 "$WORK"/s2 "$WORK"/s3 "$WORK"/s4
"$BIN" tournament "${SETTINGS[@]}" --jobs 2 --out "$WORK/single" --quiet > /dev/null
for f in games.csv standings.csv end_conditions.csv pairwise.csv results_long.csv report.md report.html games.pgn; do
    cmp "$WORK/single/$f" "$WORK/merged/$f" && echo "$f: merged = single run"
done
echo "folders in $WORK"

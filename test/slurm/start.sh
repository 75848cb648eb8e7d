#!/usr/bin/env bash
# A single-host Slurm cluster of several nodes with fake GPUs, for the Slurm test suite (Debian 12, root, no systemd):
# one `slurmd -N nodeK` per node, side by side on this host.
# Idempotent: installs only missing packages, rewrites config only when it changed, starts only daemons
# that are not running, and records the pids it started so stop.sh stops exactly those.
# Env: ORG_SLURM_DIR (state, default /var/lib/org-slurm), ORG_SLURM_NODES (default 4), ORG_SLURM_GPUS (fake GPUs
# per node, default 4), ORG_SLURM_CTLD_PORT (default 6817), ORG_SLURM_NODE_PORT (node1's; nodeK's is +K-1, default
# 17001).
# Partitions: gpu (every node, the default) and nodeK (that node alone, for tests that count one node's GPUs).
# Prints `export SLURM_CONF=...` last: clients need it to find this cluster.
set -euo pipefail

dir="${ORG_SLURM_DIR:-/var/lib/org-slurm}"
nodes="${ORG_SLURM_NODES:-4}"
gpus="${ORG_SLURM_GPUS:-4}"
ctld_port="${ORG_SLURM_CTLD_PORT:-6817}"
node_port="${ORG_SLURM_NODE_PORT:-17001}"
host="$(hostname -s)"
started_at=$(date +%s%N)
log() { echo "slurm-test: $*" >&2; }
elapsed() { echo "$(( ($(date +%s%N) - started_at) / 1000000 )) ms"; }

[ "$(id -u)" = 0 ] || { log "must run as root (it installs packages and starts daemons)"; exit 1; }
[[ "$gpus" =~ ^[1-9][0-9]?$ ]] || { log "ORG_SLURM_GPUS must be 1-99, got $gpus"; exit 1; }
[[ "$nodes" =~ ^[1-9][0-9]?$ ]] || { log "ORG_SLURM_NODES must be 1-99, got $nodes"; exit 1; }
[[ "$ctld_port$node_port" =~ ^[1-9][0-9]{3,4}[1-9][0-9]{3,4}$ ]] \
  || { log "ORG_SLURM_CTLD_PORT and ORG_SLURM_NODE_PORT must be port numbers"; exit 1; }
node_names=()
for ((k = 1; k <= nodes; k++)); do node_names+=("node$k"); done
all_nodes="node[1-$nodes]"
# Every Slurm test file starts the cluster: one at a time, or parallel apt-get installs fail on dpkg's lock. The
# daemons started below get the lock's fd closed (9>&-): holding it, they would hold the lock for their whole life.
mkdir -p "$dir"
exec 9>"$dir/.start.lock"
flock 9

missing=()
for pkg in slurmctld slurmd slurm-client munge; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  log "installing ${missing[*]}"
  # Without a policy-rc.d the postinst would start the packaged daemons with /etc/slurm's config.
  made_policy=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && made_policy=1
  fi
  install() {
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  }
  install || { apt-get update -qq && install; }
  [ -n "$made_policy" ] && rm -f /usr/sbin/policy-rc.d
  log "installed in $(elapsed)"
fi

mkdir -p "$dir"/{etc,spool/ctld,spool/d,log,run,dev} /run/munge
chown munge:munge /run/munge
# Each node's fake GPUs: symlinks to /dev/null (slurmd refuses regular files; a symlink needs no CAP_MKNOD).
find "$dir/dev" -mindepth 1 -maxdepth 1 ! -name 'node*' -exec rm -rf {} +
for node in "${node_names[@]}"; do
  mkdir -p "$dir/dev/$node" "$dir/spool/d/$node"
  for ((i = 0; i < gpus; i++)); do ln -sfn /dev/null "$dir/dev/$node/nvidia$i"; done
  find "$dir/dev/$node" -name 'nvidia*' | while read -r f; do [ "${f##*nvidia}" -lt "$gpus" ] || rm -f "$f"; done
done

cat >"$dir/etc/slurm.conf.new" <<EOF
ClusterName=orgtest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
# 1, not 2: a node a test takes down (scontrol update State=DOWN) stays down until it is resumed.
ReturnToService=1
GresTypes=gpu
MailProg=/bin/true
StateSaveLocation=$dir/spool/ctld
SlurmdSpoolDir=$dir/spool/d/%n
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd-%n.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd-%n.log
SlurmctldPort=$ctld_port
MinJobAge=3600
AccountingStorageType=accounting_storage/none
EOF
{
  for ((k = 1; k <= nodes; k++)); do
    echo "NodeName=node$k NodeHostname=$host NodeAddr=127.0.0.1 Port=$((node_port + k - 1))" \
      "CPUs=$((gpus * 2)) RealMemory=8000 Gres=gpu:$gpus State=UNKNOWN"
  done
  # LLN: each job goes to the least loaded node, so a few jobs already spread over every node (Slurm packs by default).
  echo "PartitionName=gpu Nodes=$all_nodes Default=YES LLN=YES MaxTime=INFINITE State=UP"
  for node in "${node_names[@]}"; do echo "PartitionName=$node Nodes=$node MaxTime=INFINITE State=UP"; done
} >>"$dir/etc/slurm.conf.new"
{
  echo "AutoDetect=off"
  for node in "${node_names[@]}"; do echo "NodeName=$node Name=gpu File=$dir/dev/$node/nvidia[0-$((gpus - 1))]"; done
} >"$dir/etc/gres.conf.new"

changed=""
for f in slurm.conf gres.conf; do
  if cmp -s "$dir/etc/$f.new" "$dir/etc/$f"; then
    rm "$dir/etc/$f.new"
  else
    mv "$dir/etc/$f.new" "$dir/etc/$f"; changed=1
  fi
done
export SLURM_CONF="$dir/etc/slurm.conf"

# pid of a live process named $2 whose pid is in file $1, or nothing.
live() {
  local pid
  pid=$(cat "$1" 2>/dev/null) || return 1
  [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$2" ] && echo "$pid"
}
# Daemons write their pid file after forking: wait for it, then record the pid as ours.
record() {
  local i pid
  for i in $(seq 50); do
    pid=$(live "$1" "$2") && { echo "$pid $2" >>"$dir/run/ours"; started=1; return; }
    sleep 0.1
  done
  log "$2 did not start; see $dir/log"; exit 1
}
touch "$dir/run/ours"
started=""

# Any daemon of ours still running (the record says which, whatever the old config named them) runs the old config.
if [ -n "$changed" ] && [ -s "$dir/run/ours" ]; then
  log "config changed: restarting"
  bash "$(dirname "$0")/stop.sh"
fi

[ -s /etc/munge/munge.key ] || {
  mungekey --create >/dev/null 2>&1 || /usr/sbin/create-munge-key -f >/dev/null
  chown munge:munge /etc/munge/munge.key
}
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
  runuser -u munge -- /usr/sbin/munged 9>&-
  record /run/munge/munged.pid munged
fi
if ! live "$dir/run/slurmctld.pid" slurmctld >/dev/null; then
  /usr/sbin/slurmctld -f "$SLURM_CONF" 9>&-
  record "$dir/run/slurmctld.pid" slurmctld
fi
for node in "${node_names[@]}"; do
  if ! live "$dir/run/slurmd-$node.pid" slurmd >/dev/null; then
    /usr/sbin/slurmd -f "$SLURM_CONF" -N "$node" 9>&-
    record "$dir/run/slurmd-$node.pid" slurmd
  fi
done

deadline=$(( $(date +%s) + 50 ))
# Every node up: idle, mixed or allocated, none down or drained.
until [ "$(sinfo -h -N -p gpu -o '%N %T' 2>/dev/null | grep -cE ' (idle|mixed|allocated)$')" = "$nodes" ]; do
  states=$(sinfo -h -N -p gpu -o '%N %T' 2>/dev/null || true)
  # A node drained by an earlier run (or down after a restart, or taken down by a test) comes back on resume.
  while read -r node state; do
    case "$state" in
      drain*|down*|*drain|*down) scontrol update NodeName="$node" State=RESUME 2>/dev/null || true ;;
    esac
  done <<<"$states"
  [ "$(date +%s)" -lt "$deadline" ] || { log "nodes not idle after 50 s: $(echo $states); see $dir/log"; exit 1; }
  sleep 0.1
done
# A smoke job proves a fresh start schedules and runs; a no-op start (nothing started) skips it.
if [ -n "$started" ]; then
  timeout 30 srun -J org-slurm-smoke --gres=gpu:1 -t 1 true || { log "smoke job failed; see $dir/log"; exit 1; }
fi
log "ready in $(elapsed): $nodes node(s), $all_nodes, with $gpus fake GPUs each"
echo "export SLURM_CONF=$SLURM_CONF"

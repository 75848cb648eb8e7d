#!/usr/bin/env bash
# A single-host Slurm cluster with fake GPUs, for the Slurm test suite (Debian 12, root, no systemd).
# Idempotent: installs only missing packages, rewrites config only when it changed, starts only daemons
# that are not running, and records the pids it started so stop.sh stops exactly those.
# Env: ORG_SLURM_DIR (state, default /var/lib/org-slurm), ORG_SLURM_GPUS (fake GPUs, default 4).
# Prints `export SLURM_CONF=...` last: clients need it to find this cluster.
set -euo pipefail

dir="${ORG_SLURM_DIR:-/var/lib/org-slurm}"
gpus="${ORG_SLURM_GPUS:-4}"
host="$(hostname -s)"
started_at=$(date +%s%N)
log() { echo "slurm-test: $*" >&2; }
elapsed() { echo "$(( ($(date +%s%N) - started_at) / 1000000 )) ms"; }

[ "$(id -u)" = 0 ] || { log "must run as root (it installs packages and starts daemons)"; exit 1; }
[[ "$gpus" =~ ^[1-9][0-9]?$ ]] || { log "ORG_SLURM_GPUS must be 1-99, got $gpus"; exit 1; }
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
  install() { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; }
  install || { apt-get update -qq && install; }
  [ -n "$made_policy" ] && rm -f /usr/sbin/policy-rc.d
  log "installed in $(elapsed)"
fi

mkdir -p "$dir"/{etc,spool/ctld,spool/d,log,run,dev} /run/munge
chown munge:munge /run/munge
for ((i = 0; i < gpus; i++)); do ln -sfn /dev/null "$dir/dev/nvidia$i"; done
find "$dir/dev" -name 'nvidia*' | while read -r f; do [ "${f##*nvidia}" -lt "$gpus" ] || rm -f "$f"; done

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
ReturnToService=2
GresTypes=gpu
MailProg=/bin/true
StateSaveLocation=$dir/spool/ctld
SlurmdSpoolDir=$dir/spool/d
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldPort=${ORG_SLURM_CTLD_PORT:-6817}
MinJobAge=3600
AccountingStorageType=accounting_storage/none
NodeName=node1 NodeHostname=$host NodeAddr=127.0.0.1 Port=${ORG_SLURM_NODE_PORT:-17001} CPUs=$((gpus * 2)) RealMemory=8000 Gres=gpu:$gpus State=UNKNOWN
PartitionName=gpu Nodes=node1 Default=YES MaxTime=INFINITE State=UP
EOF
echo "AutoDetect=off
NodeName=node1 Name=gpu File=$dir/dev/nvidia[0-$((gpus - 1))]" >"$dir/etc/gres.conf.new"

changed=""
for f in slurm.conf gres.conf; do
  if cmp -s "$dir/etc/$f.new" "$dir/etc/$f"; then rm "$dir/etc/$f.new"; else mv "$dir/etc/$f.new" "$dir/etc/$f"; changed=1; fi
done
export SLURM_CONF="$dir/etc/slurm.conf"

# pid of a live process named $2 whose pid is in file $1, or nothing.
live() { local pid; pid=$(cat "$1" 2>/dev/null) || return 1; [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$2" ] && echo "$pid"; }
# Daemons write their pid file after forking: wait for it, then record the pid as ours.
record() {
  local i pid
  for i in $(seq 50); do pid=$(live "$1" "$2") && { echo "$pid $2" >>"$dir/run/ours"; started=1; return; }; sleep 0.1; done
  log "$2 did not start; see $dir/log"; exit 1
}
touch "$dir/run/ours"
started=""

if [ -n "$changed" ] && { live "$dir/run/slurmctld.pid" slurmctld || live "$dir/run/slurmd.pid" slurmd; } >/dev/null; then
  log "config changed: restarting"
  bash "$(dirname "$0")/stop.sh"
fi

[ -s /etc/munge/munge.key ] || { mungekey --create >/dev/null 2>&1 || /usr/sbin/create-munge-key -f >/dev/null; chown munge:munge /etc/munge/munge.key; }
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
  runuser -u munge -- /usr/sbin/munged 9>&-
  record /run/munge/munged.pid munged
fi
if ! live "$dir/run/slurmctld.pid" slurmctld >/dev/null; then
  /usr/sbin/slurmctld -f "$SLURM_CONF" 9>&-
  record "$dir/run/slurmctld.pid" slurmctld
fi
if ! live "$dir/run/slurmd.pid" slurmd >/dev/null; then
  /usr/sbin/slurmd -f "$SLURM_CONF" -N node1 9>&-
  record "$dir/run/slurmd.pid" slurmd
fi

deadline=$(( $(date +%s) + 50 ))
until sinfo -h -N -o '%T' 2>/dev/null | grep -qxE 'idle|mixed|allocated'; do
  state=$(sinfo -h -N -o '%T' 2>/dev/null || true)
  # A node drained by an earlier run (or down after a restart) comes back on resume.
  case "$state" in drain*|down*|*drain) scontrol update NodeName=node1 State=RESUME 2>/dev/null || true ;; esac
  [ "$(date +%s)" -lt "$deadline" ] || { log "node not idle after 50 s (state: $state); see $dir/log"; exit 1; }
  sleep 0.1
done
# A smoke job proves a fresh start schedules and runs; a no-op start (nothing started) skips it.
if [ -n "$started" ]; then
  timeout 30 srun -J org-slurm-smoke --gres=gpu:1 -t 1 true || { log "smoke job failed; see $dir/log"; exit 1; }
fi
log "ready in $(elapsed): node1 with $gpus fake GPUs"
echo "export SLURM_CONF=$SLURM_CONF"

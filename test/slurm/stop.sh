#!/usr/bin/env bash
# Stops only the daemons test/slurm/start.sh started (pid and /proc/PID/comm both match).
# --purge also removes our state directory (config, spool, logs, fake devices).
set -euo pipefail

dir="${ORG_SLURM_DIR:-/var/lib/org-slurm}"
log() { echo "slurm-test: $*" >&2; }
ours="$dir/run/ours"

if [ -f "$ours" ]; then
  export SLURM_CONF="$dir/etc/slurm.conf"
  # Jobs first, so slurmd does not keep orphaned steps; only while our controller answers.
  if grep -q ' slurmctld$' "$ours"; then
    for partition in $(timeout 5 sinfo -h -o '%R' 2>/dev/null); do
      timeout 5 scancel --full --quiet -p "$partition" 2>/dev/null || true
    done
  fi
  pids=()
  while read -r pid comm; do
    [[ "$pid" =~ ^[0-9]+$ && -n "$comm" ]] || continue
    if [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$comm" ]; then kill "$pid" && pids+=("$pid"); fi
  done <"$ours"
  # Daemons take ~2 s to exit; wait for all of them together, then force what is left.
  for _ in $(seq 100); do
    alive=()
    for pid in ${pids[@]+"${pids[@]}"}; do [ -d "/proc/$pid" ] && alive+=("$pid"); done
    [ ${#alive[@]} -eq 0 ] && break
    sleep 0.1
  done
  for pid in ${alive[@]+"${alive[@]}"}; do kill -9 "$pid" 2>/dev/null || true; done
  rm -f "$ours"
  log "stopped ${#pids[@]} daemon(s)"
else
  log "nothing of ours is running"
fi

if [ "${1:-}" = "--purge" ]; then
  case "$dir" in /|/var|/var/lib|/tmp|"") log "refusing to purge $dir"; exit 1 ;; esac
  rm -rf "$dir"
  log "purged $dir"
fi

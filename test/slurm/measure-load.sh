#!/usr/bin/env bash
# The controller's load from an org at rest, and `org up`'s time to all running beside as many bare sbatch calls.
# Usage (root, after `npm run build`): bash test/slurm/measure-load.sh AGENTS NODES [SECONDS]
#   AGENTS researchers with one GPU each on a cluster of its own of NODES nodes × 4 GPUs (state in
#   /var/lib/org-slurm-load, controller port 6837); after all that can run do, `sdiag -r`, SECONDS (default 60) at rest,
#   then `sdiag`'s RPC counts. More agents than GPUs leaves the rest pending: their panes wait in the queue.
# It stops its cluster and removes its org at the end. Not part of `npm test`: a minute or more per figure.
set -euo pipefail
agents="${1:?usage: measure-load.sh AGENTS NODES [SECONDS]}"
nodes="${2:?usage: measure-load.sh AGENTS NODES [SECONDS]}"
seconds="${3:-60}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
gpus=$((nodes * 4))
running=$((agents < gpus ? agents : gpus))
ms() { date +%s%3N; }
log() { echo "measure: $*" >&2; }

# The shared cluster first: munged is then its, and stopping this one leaves it running for the others.
env -u ORG_SLURM_DIR -u ORG_SLURM_NODES -u ORG_SLURM_CTLD_PORT -u ORG_SLURM_NODE_PORT \
  bash "$root/test/slurm/start.sh" >/dev/null
export ORG_SLURM_DIR=/var/lib/org-slurm-load ORG_SLURM_NODES="$nodes" ORG_SLURM_CTLD_PORT=6837 ORG_SLURM_NODE_PORT=17201
eval "$(bash "$root/test/slurm/start.sh")"
dir=$(mktemp -d /tmp/org-load-XXXXXX)
cleanup() {
  (cd "$dir" && node "$root/bin/org.js" down >/dev/null 2>&1) || true
  bash "$root/test/slurm/stop.sh" --purge >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT

count_running() { squeue -h -t R -o %i | wc -l; }
wait_running() { # wait_running N: until N jobs run (at most 300 s)
  local deadline=$(( $(date +%s) + 300 ))
  until [ "$(count_running)" -ge "$1" ]; do
    [ "$(date +%s)" -lt "$deadline" ] || { log "only $(count_running) of $1 running"; exit 1; }
    sleep 0.2
  done
}

t0=$(ms)
for ((i = 1; i <= agents; i++)); do
  sbatch --parsable -J bare -o /dev/null --gres=gpu:1 -t 10 --wrap 'exec sleep infinity' >/dev/null
done
t1=$(ms)
wait_running "$running"
t2=$(ms)
log "bare sbatch: $agents submitted in $((t1 - t0)) ms, $running running after $((t2 - t0)) ms"
scancel -n bare
until [ "$(squeue -h -o %i | wc -l)" = 0 ]; do sleep 0.2; done

cd "$dir"
git init -q -b main && git config user.email m@x && git config user.name m
mkdir prompts && echo "# Researcher" >prompts/researcher.md
cat >org.yaml <<EOF
name: load$agents
gpus: auto
backend: slurm
slurm: { time_limit: "1:00:00" }
runtimes:
  idle: { command: [sleep, "3600"], restart: always }
roles:
  researcher: { prompt: prompts/researcher.md, runtime: idle, count: $agents, gpu: true }
EOF
git add -A && git commit -qm init
t0=$(ms)
node "$root/bin/org.js" up --no-attach >/dev/null
t1=$(ms)
wait_running "$running"
t2=$(ms)
log "org up: returned after $((t1 - t0)) ms, $running running after $((t2 - t0)) ms"

sleep 5
sdiag -r >/dev/null
sleep "$seconds"
stats=$(sdiag)
# Every RPC the controller served, by message type, less sdiag's own (REQUEST_STATS_INFO).
total=$(awk '/by message type/ {on = 1; next} /by user/ {on = 0} on && /count:/ && !/REQUEST_STATS_INFO/ {
  for (i = 1; i <= NF; i++) if ($i ~ /^count:/) { sub("count:", "", $i); n += $i } } END { print n + 0 }' <<<"$stats")
rate=$(awk -v n="$total" -v s="$seconds" 'BEGIN { printf "%.2f", n / s }')
log "at rest for $seconds s: $total RPCs ($rate per second)"
awk '/by message type/ {on = 1; next} /by user/ {on = 0} on && /count:/' <<<"$stats" >&2

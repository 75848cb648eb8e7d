// How long a sandboxed `org` waits for the daemon to take its command before saying the daemon is not answering.
const TAKE_TIMEOUT_S = 30;

/**
 * state/bin/org, the `org` on every agent's PATH. Outside a sandbox it runs this very binary. Inside one
 * ($ORG_OUTBOX set) the org's shared files are read-only, so it hands the command to the daemon through the
 * agent's outbox: <id>.argv (NUL-separated), <id>.cwd and <id>.agent (what $ORG_AGENT claims), then <id>.ready; output comes back through two FIFOs
 * (plain files, polled, under Slurm: $ORG_OUTBOX_POLL, where the daemon runs on another host), <id>.status last.
 * The id is the shim's pid, which the daemon watches. Few programs run here: each fork is time every command pays.
 */
export function renderOrgShim(orgArgv: readonly string[]): string {
  return `#!/bin/sh
[ -n "$ORG_OUTBOX" ] || exec ${orgArgv.map(quote).join(" ")} "$@"
r="$ORG_OUTBOX/$$"
[ -e "$r.argv" ] && r="$r-$(date +%s%N)"
[ -d "$ORG_OUTBOX" ] || mkdir -p "$ORG_OUTBOX" || exit 70
printf '%s\\0' "$@" > "$r.argv" && pwd -P > "$r.cwd" && printf '%s' "$ORG_AGENT" > "$r.agent" || exit 70
out= err= dog=
trap ': > "$r.cancel"; kill $out $err 2>/dev/null; exit 130' INT TERM HUP
gone() { echo "org: the org's daemon did not take this command within ${TAKE_TIMEOUT_S} s: it runs org's commands for sandboxed agents — check it with \\\`org status\\\`" >&2; }
if [ -n "$ORG_OUTBOX_POLL" ]; then
  : > "$r.ready"
  n=0
  while [ ! -e "$r.status" ]; do
    sleep 0.2; n=$((n + 1))
    if [ $n -ge $((${TAKE_TIMEOUT_S} * 5)) ] && [ ! -e "$r.taken" ]; then : > "$r.cancel"; gone; rm -f "$r".*; exit 70; fi
  done
  cat "$r.out" 2>/dev/null; cat "$r.err" >&2 2>/dev/null
else
  mkfifo "$r.out" "$r.err" || exit 70
  # Readers before .ready: the daemon, opening the writers without waiting, finds them there and loses no retry.
  cat "$r.err" >&2 & err=$!
  cat "$r.out" & out=$!
  : > "$r.ready"
  # Not taken in time: the watchdog opens the FIFOs itself, so both readers see their end (read-write: never waits for a reader).
  # Ended once the output is read, it removes the request's files: the shim forks nothing more on its way out.
  ( trap 'kill $s 2>/dev/null; exec rm -f "$r".*' TERM; sleep ${TAKE_TIMEOUT_S} & s=$!; wait $s
    [ -e "$r.taken" ] || { : > "$r.cancel"; gone; : <> "$r.out"; : <> "$r.err"; } ) & dog=$!
  wait $out
  wait $err
fi
status=; [ -e "$r.status" ] && read -r status < "$r.status"
taken=no; [ -e "$r.taken" ] && taken=yes
if ! kill $dog 2>/dev/null; then rm -f "$r".* & fi
[ -n "$status" ] && exit "$status"
[ $taken = yes ] && echo "org: the command ended without an exit status (the daemon stopped?) — see \\\`org status\\\`" >&2
exit 70
`;
}

function quote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

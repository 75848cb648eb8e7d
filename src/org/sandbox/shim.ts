// How long a sandboxed `org` waits for the daemon to take its command before saying the daemon is not answering.
const TAKE_TIMEOUT_S = 30;

/**
 * state/bin/org, the `org` on every agent's PATH. Outside a sandbox it runs this very binary. Inside one
 * ($ORG_OUTBOX set) the org's shared files are read-only, so it hands the command to the daemon through the
 * agent's outbox: argv (NUL-separated), cwd and its pid in a folder renamed into place, output back through two
 * FIFOs (plain files polled under Slurm, $ORG_OUTBOX_POLL, where the daemon runs on another host), the exit status last.
 */
export function renderOrgShim(orgArgv: readonly string[]): string {
  return `#!/bin/sh
[ -n "$ORG_OUTBOX" ] || exec ${orgArgv.map(quote).join(" ")} "$@"
id=$(date +%s%N)-$$
req="$ORG_OUTBOX/.$id"
mkdir -p "$ORG_OUTBOX" && mkdir "$req" || exit 70
printf '%s\\0' "$@" > "$req/argv" && pwd -P > "$req/cwd" && echo $$ > "$req/pid" || exit 70
[ -n "$ORG_OUTBOX_POLL" ] || mkfifo "$req/out" "$req/err" || exit 70
mv "$req" "$ORG_OUTBOX/$id" || exit 70
req="$ORG_OUTBOX/$id"
trap ': > "$req/cancel"; exit 130' INT TERM HUP
gone() { echo "org: the org's daemon did not take this command within ${TAKE_TIMEOUT_S} s: it runs org's commands for sandboxed agents — check it with \\\`org status\\\`" >&2; }
if [ -n "$ORG_OUTBOX_POLL" ]; then
  n=0
  while [ ! -e "$req/status" ]; do
    sleep 0.2; n=$((n + 1))
    if [ $n -ge $((${TAKE_TIMEOUT_S} * 5)) ] && [ ! -e "$req/taken" ]; then : > "$req/cancel"; gone; rm -rf "$req"; exit 70; fi
  done
  cat "$req/out" 2>/dev/null; cat "$req/err" >&2 2>/dev/null
else
  # Not taken in time: the watchdog opens the FIFOs itself, so both readers see their end.
  ( trap 'kill $s 2>/dev/null; exit 0' TERM; sleep ${TAKE_TIMEOUT_S} & s=$!; wait $s
    [ -e "$req/taken" ] || { : > "$req/cancel"; gone; : > "$req/out"; : > "$req/err"; } ) & dog=$!
  cat "$req/err" >&2 & err=$!
  cat "$req/out"
  wait $err
  kill $dog 2>/dev/null
fi
status=$(cat "$req/status" 2>/dev/null)
taken=no; [ -e "$req/taken" ] && taken=yes
rm -rf "$req"
[ -n "$status" ] && exit "$status"
[ $taken = yes ] && echo "org: the command ended without an exit status (the daemon stopped?) — see \\\`org status\\\`" >&2
exit 70
`;
}

function quote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

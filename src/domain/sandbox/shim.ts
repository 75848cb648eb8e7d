import { FULL_BYTES } from "./disk-floor.js";

// The CLI's own threshold, in the KiB df counts.
const FULL_KIB = FULL_BYTES / 1024;
// How long a sandboxed `org` waits for the daemon to take its command before saying the daemon is not answering.
const TAKE_TIMEOUT_S = 30;

/**
 * state/bin/org, the `org` on every agent's PATH. Outside a sandbox it runs this very binary. Inside one
 * ($ORG_OUTBOX set) the org's shared files are read-only, so it hands the command to the daemon through the
 * agent's outbox: <id>.file (what a -f names, read here as the agent may), <id>.argv (NUL-separated), <id>.cwd and
 * <id>.agent (what $ORG_AGENT claims), then <id>.ready; output comes back through two FIFOs (plain files, polled,
 * under Slurm: $ORG_OUTBOX_POLL, where the daemon runs on another host), the exit status in <id>.status.
 * The shim holds <id>.live open while it lives: its pid means nothing outside the sandbox's pid namespace, the end
 * of that FIFO does. Few programs run here: each fork is time every command pays.
 */
export function renderOrgShim(orgArgv: readonly string[]): string {
  return `#!/bin/sh
[ -n "$ORG_OUTBOX" ] || exec ${orgArgv.map(quote).join(" ")} "$@"
r="$ORG_OUTBOX/$$"
[ -e "$r.argv" ] && r="$r-$(date +%s%N)"
${UNWRITTEN}
[ -d "$ORG_OUTBOX" ] || mkdir -p "$ORG_OUTBOX" 2>/dev/null || unwritten
${FILE_OPTION}
{ printf '%s\\0' "$@" > "$r.argv" && pwd -P > "$r.cwd" && printf '%s' "$ORG_AGENT" > "$r.agent"; } 2>/dev/null \\
  || unwritten
out= err= dog=
trap ': > "$r.cancel"; kill $out $err 2>/dev/null; exit 130' INT TERM HUP
gone() {
  echo "org: the org's daemon did not take this command within ${TAKE_TIMEOUT_S} s:" \\
    "it runs org's commands for sandboxed agents — check it with \\\`org status\\\`" >&2
}
if [ -n "$ORG_OUTBOX_POLL" ]; then
  : 2>/dev/null > "$r.ready" || unwritten
  n=0
  while [ ! -e "$r.status" ]; do
    sleep 0.2; n=$((n + 1))
    if [ $n -ge $((${TAKE_TIMEOUT_S} * 5)) ] && [ ! -e "$r.taken" ]; then
      : > "$r.cancel"; gone; rm -f "$r".*; exit 70
    fi
  done
  cat "$r.out" 2>/dev/null; cat "$r.err" >&2 2>/dev/null
else
  mkfifo "$r.out" "$r.err" "$r.live" 2>/dev/null || unwritten
  # Read-write: never waits for a reader. No child keeps it: its end is this shim's.
  exec 9<> "$r.live"
  # Readers before .ready: the daemon, opening the writers without waiting, finds them there and loses no retry.
  cat "$r.err" >&2 9>&- & err=$!
  cat "$r.out" 9>&- & out=$!
  : > "$r.ready"
  # Not taken in time: the watchdog opens the FIFOs itself, so both readers see their end (read-write: never waits
  # for a reader), its message through .err. Ended once the output is read, it removes the request's files (the shim
  # forks no more).
  # It holds none of our outputs: a TERM sent before it has replaced the shim's trap is lost (a quick command on a busy
  # machine), and it sleeps on; then it removes the files itself once the shim is gone.
  ( trap 'kill $s 2>/dev/null; exec rm -f "$r".*' TERM; sleep ${TAKE_TIMEOUT_S} & s=$!; wait $s
    if [ -e "$r.taken" ]; then kill -0 $$ 2>/dev/null || exec rm -f "$r".*
    else : > "$r.cancel"; gone 2<> "$r.err"; : <> "$r.out"; fi ) 9>&- >/dev/null 2>&1 & dog=$!
  wait $out
  wait $err
fi
status=; [ -e "$r.status" ] && read -r status < "$r.status"
taken=no; [ -e "$r.taken" ] && taken=yes
if ! kill $dog 2>/dev/null; then rm -f "$r".* & fi
[ -n "$status" ] && exit "$status"
[ $taken = yes ] && echo "org: the command ended without an exit status (the daemon stopped?)" \\
  "— see \\\`org status\\\`" >&2
exit 70
`;
}

// The file a -f names (the last one, as the CLI takes it), copied into the request: the daemon reads nothing the
// sandbox hides. Which commands take one, and the option's spellings, as decideOutboxRequest finds them.
const FILE_OPTION = `f= next= rest=
case $1 in send|task|contract|review|plan)
  for a do
    if [ -n "$next" ]; then f=$a next=; continue; fi
    [ -n "$rest" ] && continue
    case $a in --) rest=1;; -f|--file) next=1;; --file=*) f=\${a#--file=};; -f?*) f=\${a#-f};; esac
  done;;
esac
if [ -n "$f" ]; then
  [ -f "$f" ] && [ -r "$f" ] || {
    echo "org: cannot read $f in $PWD: give a readable file (nothing was done)" >&2; rm -f "$r".*; exit 2; }
  cat -- "$f" 2>/dev/null > "$r.file" || unwritten
fi`;

// The request could not be written in the outbox (a full disk under state/, the usual cause): one line saying so,
// no shell error, no file left. Only this failure pays for df; its 4th field on the 2nd line is what is free, in KiB.
const UNWRITTEN = `unwritten() {
  rm -f "$r".*
  set -- $(df -Pk -- "$ORG_OUTBOX" 2>/dev/null)
  if [ $# -ge 11 ] && [ "\${11}" -lt ${FULL_KIB} ] 2>/dev/null; then
    echo "org: no space left on the disk holding $ORG_OUTBOX (\${11} KiB free): this command could not be handed" \\
      "to the org's daemon — free some space there and run it again (nothing was done)" >&2
  else
    echo "org: could not write this command's request in $ORG_OUTBOX — check that folder and its disk" \\
      "(nothing was done)" >&2
  fi
  exit 70
}`;

function quote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

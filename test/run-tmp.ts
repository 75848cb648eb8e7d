import { chmodSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mountRunTmpfs, reapStaleRunTmpfs, unmountRunTmpfs } from "./run-tmp-mount.js";

// One folder per `vitest run` holds every temp folder of it: the test processes inherit it as TMPDIR, so a HOME, repo
// or state made with `tmpdir()` goes with it at the run's end, even from a worker the pool killed before its exit
// hook ran.

/**
 * Make the run's folder (a tmpfs where root may mount one), point TMPDIR at it, and return the teardown that removes
 * it with all it holds.
 */
export default function makeRunTmp(): () => void {
  const outer = { TMPDIR: process.env.TMPDIR, TMUX_TMPDIR: process.env.TMUX_TMPDIR };
  const parent = realpathSync(tmpdir());
  const reaped = reapStaleRunTmpfs(parent);
  if (reaped.length > 0) process.stderr.write(`test/run-tmp.ts: removed a killed run's tmpfs: ${reaped.join(" ")}\n`);
  const run = mkdtempSync(join(parent, "org-run-"));
  const mounted = mountRunTmpfs(run);
  // As /tmp: the red team's uid 4242 reaches its home in it, and a process of another uid may make its own folder.
  chmodSync(run, 0o1777);
  // tmux's sockets too: a server killed with its test leaves its socket file in $TMUX_TMPDIR/tmux-<uid>.
  Object.assign(process.env, { TMPDIR: run, TMUX_TMPDIR: run });
  return () => {
    const left = endLeftovers(run);
    const said = `test/run-tmp.ts: ended what the run left running:\n${left.join("\n")}\n`;
    if (left.length > 0) process.stderr.write(said);
    if (mounted) unmountRunTmpfs(run);
    rmSync(run, { recursive: true, force: true });
    for (const [key, value] of Object.entries(outer)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  };
}

/** Kill each process that runs in the run's folder or names it: a daemon, keeper, agent or tmux server a test left. */
function endLeftovers(run: string): string[] {
  const left: string[] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)) {
    try {
      if (/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"))) continue;
      const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ").trim();
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      if (cwd !== run && !cwd.startsWith(`${run}/`) && !argv.includes(run)) continue;
      process.kill(Number(pid), "SIGKILL");
      left.push(`pid ${pid} (${argv.slice(0, 120)}) in ${cwd}`);
    } catch {
      // Gone between the listing and the read.
    }
  }
  return left;
}

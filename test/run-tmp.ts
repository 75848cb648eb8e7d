import { chmodSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// One folder per `vitest run` holds every temp folder of it: the test processes inherit it as TMPDIR, so a HOME, repo
// or state made with `tmpdir()` goes with it at the run's end, even from a worker the pool killed before its exit
// hook ran.

/** Make the run's folder, point TMPDIR at it, and return the teardown that removes it with all it holds. */
export default function makeRunTmp(): () => void {
  const outer = { TMPDIR: process.env.TMPDIR, TMUX_TMPDIR: process.env.TMUX_TMPDIR };
  const run = realpathSync(mkdtempSync(join(tmpdir(), "org-run-")));
  // As /tmp: the red team's uid 4242 reaches its home in it, and a process of another uid may make its own folder.
  chmodSync(run, 0o1777);
  // tmux's sockets too: a server killed with its test leaves its socket file in $TMUX_TMPDIR/tmux-<uid>.
  Object.assign(process.env, { TMPDIR: run, TMUX_TMPDIR: run });
  return () => {
    rmSync(run, { recursive: true, force: true });
    for (const [key, value] of Object.entries(outer)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  };
}

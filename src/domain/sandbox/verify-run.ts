import { SANDBOX_HOST_ARGS } from "./sandbox-host-args.js";

/** Where a verify run may write and what it cannot see; every path absolute. */
export interface VerifyRunLayout {
  bwrap: string;
  /** The verifier's checkout of the candidate commit: the one place the run writes, and its working folder. */
  checkout: string;
  /** The org folder and the repo: shown again over the private /tmp where they lie in it, read-only. */
  tops: string[];
  /** state/, worktrees/ and the repo's git folder: emptied and read-only (the checkout, under state/, comes back). */
  hide: string[];
  /** The user's home when the private /tmp would hide it: readable, as every home is. */
  tmpHome?: string;
  /** node's and org's installs under /tmp, readable again; bound before the org, so what it hides stays hidden. */
  installs?: readonly string[];
  /** sandbox.read and sandbox.write of org.yaml. */
  read: string[];
  write: string[];
  /** A judge's run: the checkout is read-only to it, and its CLI writes its own config folder alone. */
  judgeHome?: string;
}

/**
 * A verify run's argv in bwrap: the candidate's code (an agent wrote it) runs without capabilities, in its own pid
 * namespace (it signals no daemon), on a read-only host where the org's records are out of sight. Later mounts win,
 * so the order is the policy. The environment passes through bwrap as the runner sets it; the runner writes the log.
 */
export function planVerifyRun(layout: VerifyRunLayout, argv: readonly string[]): string[] {
  const ro = (path: string) => ["--ro-bind", path, path];
  const rw = (path: string) => ["--bind", path, path];
  // A parent first, so the child's mount is not covered by it.
  const tops = [...new Set(layout.tops)].sort((a, b) => a.length - b.length);
  return [
    layout.bwrap,
    // No --die-with-parent: a run outlives a killed daemon, as unsandboxed, and the next daemon adopts or ends it.
    ...SANDBOX_HOST_ARGS,
    ...(layout.tmpHome ? ro(layout.tmpHome) : []),
    ...(layout.installs ?? []).flatMap(ro),
    ...tops.flatMap(ro),
    ...layout.hide.flatMap((dir) => ["--tmpfs", dir]),
    ...layout.read.flatMap(ro),
    ...layout.write.flatMap(rw),
    ...(layout.judgeHome ? [...ro(layout.checkout), ...rw(layout.judgeHome)] : rw(layout.checkout)),
    // The emptied folders stay empty: a forged results.tsv made there would fool only the run itself.
    ...layout.hide.flatMap((dir) => ["--remount-ro", dir]),
    "--chdir", layout.checkout,
    "--setenv", "TMPDIR", "/tmp",
    "--", ...argv,
  ];
}

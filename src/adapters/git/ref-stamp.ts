import { stat } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import { runGit } from "./run.js";

// File times tick in jiffies: a ref moved in the same tick as the last look leaves the same time behind.
const RACY_MS = 1000;

/**
 * Whether branches under one ref folder may have moved since the last look, from two stats instead of a git
 * process: a commit rewrites its loose ref by rename (the folder's time changes), a pack rewrites packed-refs.
 */
export class RefStamp {
  private last: string | undefined;
  private common: Promise<string | undefined> | undefined;

  constructor(
    private readonly repo: string,
    /** e.g. refs/heads/org/toy */
    private readonly folder: string,
  ) {}

  /** true the first time, after any change, and while a change could still hide in the clock's granularity. */
  async mayHaveMoved(now = Date.now()): Promise<boolean> {
    const common = await (this.common ??= findCommonDir(this.repo));
    if (common === undefined) return true;
    const times = await Promise.all(
      [
        join(common, this.folder), join(common, "packed-refs"),
      ].map((path) => stat(path).then((info) => info.mtimeMs, () => -1)),
    );
    const stamp = times.join(" ");
    const moved = stamp !== this.last || times.some((time) => now - time < RACY_MS);
    this.last = stamp;
    return moved;
  }
}

// Undefined means "always ask git": no repository, or refs kept in a reftable, where loose-ref times say nothing.
async function findCommonDir(repo: string): Promise<string | undefined> {
  const result = await runGit(["rev-parse", "--git-common-dir"], { cwd: repo, timeoutMs: 30_000 });
  if (result.exitCode !== 0) return undefined;
  const dir = result.stdout.trim();
  const common = isAbsolute(dir) ? dir : join(repo, dir);
  const reftable = await stat(join(common, "reftable")).then(() => true, () => false);
  return reftable ? undefined : common;
}

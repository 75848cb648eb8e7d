import { closeSync, constants, fstatSync, openSync, readFileSync, realpathSync, statSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join, relative } from "node:path";
import { filesPort } from "../fs/files-port.js";

type Git = (cwd: string, args: string[]) => Promise<unknown>;

/**
 * Each slot's checkout under state/verifier, kept between runs and made exactly the commit before each: checked out
 * with --force, every untracked and ignored file cleaned. The clean may start early (beside the admit of the commit
 * it will hold): cleaned against the last commit's index, then checked out, the folder is the same as cleaned after.
 * After a sealed run (its pid namespace died with it: nothing of it writes on) the clean starts as the run ends, off
 * the next request's path; a clean started and not yet taken by a checkout means no run since it began.
 */
export function createSlotCheckouts(opts: {
  dir: string; store: string; repo: string; git: Git;
  /** org.yaml's share: linked or copied in after the clean, afresh each run. */
  shares?: readonly { path: string; mode: "link" | "copy" }[];
}) {
  const { git } = opts;
  // A slot's clean started before its checkout: true once it cleaned a checkout of the store's own.
  const early = new Map<string, Promise<boolean>>();
  // Slots where a run since their last checkout was not sealed: something of it may still write there.
  const unsealed = new Set<string>();
  const clean = async (checkout: string) => {
    // Never a folder whose .git is not the store's: git would read that git dir's config, and run what it names.
    if (!isStoreCheckout(checkout, opts.store)) return false;
    await git(checkout, ["clean", "-ffdx", "--quiet"]);
    return true;
  };
  return {
    /** Starts the slot's clean now, unless one started since its last run; its next prepare waits for it. */
    startClean(slot: string): void {
      if (early.has(slot)) return;
      const next = clean(join(opts.dir, slot));
      next.catch(() => undefined);
      early.set(slot, next);
    },
    /** A run starts in `cwd`; sealed: in a pid namespace of its own, which ends with it. */
    noteRun(cwd: string, sealed: boolean): void {
      const slot = slotOf(opts.dir, cwd);
      if (slot !== undefined && !sealed) unsealed.add(slot);
    },
    /** The slot's request is done: cleaned now, unless a run of it may still write there (then at the next request). */
    cleanAfterRun(slot: string): void {
      if (!unsealed.has(slot)) this.startClean(slot);
    },
    async prepare(slot: string, commit: string): Promise<string> {
      const started = early.get(slot);
      early.delete(slot);
      unsealed.delete(slot);
      let cleaned = started ? await started.catch(() => false) : false;
      const checkout = join(opts.dir, slot);
      // A checkout of the store's own, or none: one left by an older org was a worktree of the shared store.
      if (!isStoreCheckout(checkout, opts.store)) {
        cleaned = false;
        await rm(checkout, { recursive: true, force: true });
        await git(opts.store, ["worktree", "prune"]);
        await git(opts.store, ["worktree", "add", "--quiet", "--force", "--detach", checkout, commit]);
      }
      // Whatever a previous run or an intruder left in the checkout goes: the run sees exactly the commit. Quiet:
      // leaving a detached HEAD, a checkout that says anything walks from every ref, one per commit the store took.
      await git(checkout, ["checkout", "--quiet", "--force", "--detach", commit]);
      if (!cleaned) await git(checkout, ["clean", "-ffdx", "--quiet"]);
      // After the clean, afresh each run: a copy a run changed is not the next run's.
      for (const share of opts.shares ?? []) {
        await filesPort.share(join(opts.repo, share.path), join(checkout, share.path), share.mode, checkout);
      }
      return checkout;
    },
  };
}

// The slot a run's folder is, when it is one of the slots' checkouts.
function slotOf(dir: string, cwd: string): string | undefined {
  const slot = relative(dir, cwd);
  return slot !== "" && !slot.startsWith("..") && !slot.includes("/") ? slot : undefined;
}

/**
 * Whether `checkout` is a worktree of the store: its .git file names a folder under the store's worktrees. Looked at
 * at once (a run's leftovers are read through no FIFO): it stands between the admit and the checkout's start. Through
 * no link, neither to the .git file nor on the path it names: git reads both again after this look, and a link the run
 * left could point where an agent's process changes what git finds then (a git dir whose config runs a program).
 */
function isStoreCheckout(checkout: string, store: string): boolean {
  const text = readSmallFile(join(checkout, ".git"));
  const named = /^gitdir: (.+)$/m.exec(text)?.[1]?.trim();
  // git writes the real path: the org's folder may be reached through a link.
  const real = (path: string | undefined) => {
    try {
      return path ? realpathSync(path) : undefined;
    } catch {
      return undefined;
    }
  };
  const [dir, worktrees] = [real(named), real(join(store, "worktrees"))];
  if (!dir || dir !== named || !worktrees || !dir.startsWith(`${worktrees}/`)) return false;
  try {
    return statSync(join(dir, "HEAD")).isFile();
  } catch {
    return false;
  }
}

// A small regular file's text, "" for anything else: a run may leave a FIFO, a folder or a link where .git was.
function readSmallFile(path: string): string {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
    const info = fstatSync(fd);
    return info.isFile() && info.size <= 64 * 1024 ? readFileSync(fd, "utf8") : "";
  } catch {
    return "";
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

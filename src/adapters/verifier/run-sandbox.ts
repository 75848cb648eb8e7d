import { stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { SandboxConfig } from "../../domain/config/index.js";
import { decideSandbox } from "../../domain/sandbox/decide-sandbox.js";
import { isInsideDir } from "../../domain/paths.js";
import type { VerifyRunLayout } from "../../domain/sandbox/verify-run.js";
import { probeSandbox } from "../probes/sandbox.js";
import { runGit } from "../git/run.js";
import { PACKAGE_ROOT } from "../package-root.js";
import { findInstallsInTmp } from "../../domain/sandbox/prepare-sandboxes.js";

export type VerifySandbox = Omit<VerifyRunLayout, "checkout">;

// One probe for the daemon's life, as org up's: whether bwrap works here does not change under a running org.
let probed: ReturnType<typeof probeSandbox> | undefined;

/**
 * The sandbox of this org's local verify runs, decided as `org up` decides the agents' (sandbox.enabled against what
 * bwrap can do here); undefined when it is off or impossible, and the runs then go unsandboxed, as before.
 */
export async function findVerifySandbox(opts: {
  root: string; state: string; worktrees: string; repo: string; sandbox: SandboxConfig | undefined;
}): Promise<VerifySandbox | undefined> {
  if (opts.sandbox?.enabled === false) return undefined;
  const decision = decideSandbox(opts.sandbox, await (probed ??= probeSandbox()));
  if (decision.kind !== "on") return undefined;
  const asked = ["rev-parse", "--path-format=absolute", "--git-common-dir"];
  const common = await runGit(asked, { cwd: opts.repo, timeoutMs: 30_000 });
  const gitDir = common.exitCode === 0 ? common.stdout.trim() : resolve(opts.repo, ".git");
  // bwrap mounts over folders that exist: a missing one (no worktree made yet) has nothing to hide.
  const hide = await keepFolders([opts.state, opts.worktrees, gitDir]);
  const home = process.env.HOME ?? "";
  // A home in /tmp would vanish under the private /tmp: shown again, read-only.
  const inTmp = home !== "" && home !== "/tmp" && isInsideDir(home, "/tmp");
  const tmpHome = inTmp && (await keepFolders([home])).length ? home : undefined;
  return {
    bwrap: decision.bwrap, tops: [opts.root, opts.repo], hide, ...(tmpHome ? { tmpHome } : {}),
    // node's and org's installs under /tmp, as an agent's sandbox shows them: a command may name a program there.
    installs: findInstallsInTmp([process.execPath, join(PACKAGE_ROOT, "bin", "org.js")]),
    read: await keepFolders((opts.sandbox?.read ?? []).map((path) => resolve(opts.root, path))),
    write: await keepFolders((opts.sandbox?.write ?? []).map((path) => resolve(opts.root, path))),
  };
}

async function keepFolders(paths: string[]): Promise<string[]> {
  const found = await Promise.all(paths.map((path) => stat(path).then(() => true, () => false)));
  return paths.filter((_, i) => found[i]);
}

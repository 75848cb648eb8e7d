import { join, resolve } from "node:path";
import { isInsideDir } from "../paths.js";
import type { ConfigProbe } from "./probe.js";
import type { Problem } from "./locate.js";
import { formatPath } from "./messages.js";
import { asMap, type Raw } from "./raw.js";

// What no sandbox.write entry may open up: each agent changes these only through org's commands or its own folder.
const GUARDED = [
  {
    under: (dir: string) => join(dir, "state"),
    what: "the org's records (results, verdicts, every inbox)",
    fix: "agents write state/ only through org's commands and their own state/agents/<agent> folder",
  },
  {
    under: (dir: string) => join(dir, "worktrees"),
    what: "every agent's worktree",
    fix: "each agent already writes its own worktree",
  },
] as const;

/**
 * sandbox.read and sandbox.write: each entry must exist, and a write entry must not open up state/, the worktrees or
 * the repo's .git. Outside the org an entry counts too: the host is read-only in the sandbox and its /tmp private.
 */
export async function checkSandboxPaths(
  raw: Raw, dir: string, repoDir: string, probe: ConfigProbe,
): Promise<Problem[]> {
  const sandbox = asMap(raw.sandbox);
  if (!sandbox) return [];
  const entries = (["read", "write"] as const).flatMap((list) =>
    (Array.isArray(sandbox[list])
      ? (sandbox[list] as unknown[])
      : []).map((value, index) => ({ list, value, path: ["sandbox", list, index] })));
  const checks = entries.map(async ({ list, value, path }): Promise<Problem[]> => {
    if (typeof value !== "string" || value === "") return [];
    const where = `${formatPath(path)} "${value}"`;
    const abs = resolve(dir, value);
    const guarded = list === "write" ? findGuarded(abs, dir, repoDir) : undefined;
    if (guarded) return [{
      path,
      message: `${where} would let every agent write ${guarded.what}`,
      fix: `remove it: ${guarded.fix}`,
    }];
    // state/ and worktrees/ are org up's to make: `read: [worktrees]` holds before the first `org up`.
    const made = GUARDED.some((area) => isInsideDir(abs, area.under(dir)));
    if (!made && !(await probe.exists(abs))) return [{
      path,
      message: `${where} does not exist (${abs})`,
      fix: "create it first, or give its path relative to this file",
    }];
    return [];
  });
  return (await Promise.all(checks)).flat();
}

function findGuarded(abs: string, dir: string, repoDir: string): { what: string; fix: string } | undefined {
  const git = {
    under: join(repoDir, ".git"),
    what: "the repo's git config, hooks and every branch",
    fix: "each agent already commits to its own branch",
  };
  const areas = [...GUARDED.map((area) => ({ ...area, under: area.under(dir) })), git];
  // An entry above a guarded folder (the org folder itself) opens it up as much as one inside it.
  return areas.find((area) => isInsideDir(abs, area.under) || isInsideDir(area.under, abs));
}

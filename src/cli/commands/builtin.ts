import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { OrgError } from "../../org/errors.js";
import { runHillclimb, type HillclimbWorld } from "../../roles/index.js";
import { readText } from "../../adapters/fs/files.js";
import { PACKAGE_ROOT } from "../../adapters/package-root.js";
import { processRunner, type Runner } from "../../adapters/process.js";
import type { Io } from "../io.js";

/** `org builtin <name>`: a runtime shipped with org, run by a supervisor like any agent program. */
export async function runBuiltin(opts: { name: string }, io: Io): Promise<number> {
  if (opts.name !== "hillclimb") throw new OrgError(`no built-in runtime "${opts.name}" — the built-ins are: hillclimb`, "builtin");
  // The baseline tunes the role's first plain editable file (no glob), as the demo's train.mjs.
  const file = (process.env.ORG_EDITS ?? "").split(":").find((entry) => entry !== "" && !/[*?[\]{}]/.test(entry)) ?? "train.mjs";
  const end = await runHillclimb({ cwd: process.cwd(), submitArgv: defaultSubmitArgv(), log: io.out, file }, hillclimbWorld());
  if (end.kind === "failed") throw new OrgError(end.reason, "hillclimb");
  return 0;
}

/** The real world of the baseline: files on disk and `org submit` as a child process. */
export function hillclimbWorld(runner: Runner = processRunner): HillclimbWorld {
  return {
    readText,
    writeText: (path, text) => writeFile(path, text),
    async submit(argv, cwd) {
      // In the agent's own process group: stopping the agent stops a submit it is waiting on.
      const result = await runner.run(argv, { cwd, sameGroup: true });
      return { spawnError: result.spawnError, output: `${result.stdout}${result.stderr}`.trimEnd(), exit: result.signal ?? result.exitCode };
    },
    delay: (ms) => delay(ms),
  };
}

/** `ORG_SUBMIT` as a JSON argv, else this package's own `org submit` run by the current Node (in a sandbox, the daemon runs it). */
export function defaultSubmitArgv(env: Record<string, string | undefined> = process.env): string[] {
  const configured = env.ORG_SUBMIT;
  if ((configured === undefined || configured === "") && env.ORG_OUTBOX && env.ORG_STATE) return [join(env.ORG_STATE, "bin", "org"), "submit"];
  if (configured === undefined || configured === "") return [process.execPath, join(PACKAGE_ROOT, "bin", "org.js"), "submit"];
  let parsed: unknown;
  try {
    parsed = JSON.parse(configured);
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || parsed.length === 0 || !parsed.every((item) => typeof item === "string" && item !== "")) {
    throw new OrgError(`ORG_SUBMIT must be a JSON array of strings such as ["org","submit"], got ${configured}`, "hillclimb");
  }
  return parsed as string[];
}

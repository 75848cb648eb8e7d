/**
 * The built-in baseline researcher: random local search on the numeric constants of train.mjs.
 *
 * Each iteration re-reads train.mjs, scales one `const NAME = number;` up or down, and hands the change
 * to `org submit`, which commits it and lets the verifier keep or revert it. It reads no results, forms
 * no hypotheses and never touches the model: it is the honest floor a real research agent should beat,
 * and a way to exercise the whole org with no model API at all.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { PACKAGE_ROOT } from "./package-root.js";
import { OrgError } from "../org/errors.js";
import { proposeChange, type Rng } from "../org/hillclimb-step.js";
import { readText } from "./files.js";
import { processRunner, type Runner } from "./process.js";

export interface HillclimbOptions {
  /** The agent's worktree. */
  cwd: string;
  /** The submit command; `-m <description>` is appended. Defaults to defaultSubmitArgv(). */
  submitArgv?: string[];
  rng?: Rng;
  log: (text: string) => void;
  /** Stop after this many submissions; forever when absent. */
  iterations?: number;
  /** Rest between submissions, so a submit that fails at once never turns this into a busy loop. */
  pauseMs?: number;
  file?: string;
  runner?: Runner;
}

/** Propose, write, submit, repeat. Re-reads the file every time because a discard resets the worktree under us. */
export async function runHillclimb(options: HillclimbOptions): Promise<void> {
  const { cwd, log, iterations, pauseMs = 200, rng = Math.random, runner = processRunner } = options;
  const submitArgv = options.submitArgv ?? defaultSubmitArgv();
  const path = join(cwd, options.file ?? "train.mjs");
  for (let done = 0; iterations === undefined || done < iterations; done++) {
    if (done > 0) await delay(pauseMs);
    const source = await readText(path);
    if (source === undefined) throw new OrgError(`hillclimb: ${path} does not exist — the baseline researcher tunes the constants of train.mjs`, "hillclimb");
    const proposal = proposeChange(source, rng);
    if (!proposal) throw new OrgError(`hillclimb: ${path} has no \`const NAME = <positive number>;\` line to tune`, "hillclimb");
    await writeFile(path, proposal.source);
    log(`hillclimb: ${proposal.description}`);
    // In the agent's own process group: stopping the agent stops a submit it is waiting on.
    const result = await runner.run([...submitArgv, "-m", proposal.description], { cwd, sameGroup: true });
    if (result.spawnError !== undefined) throw new OrgError(`hillclimb: could not run ${submitArgv.join(" ")}: ${result.spawnError}`, "hillclimb");
    const output = `${result.stdout}${result.stderr}`.trimEnd();
    if (output !== "") log(output);
    if (result.exitCode !== 0) log(`hillclimb: submit exited ${result.signal ?? result.exitCode}`);
  }
}

/** `ORG_SUBMIT` as a JSON argv, else this package's own `org submit` run by the current Node. */
export function defaultSubmitArgv(env: Record<string, string | undefined> = process.env): string[] {
  const configured = env.ORG_SUBMIT;
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


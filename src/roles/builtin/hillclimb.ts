/**
 * The built-in baseline researcher: random local search on the numeric constants of train.mjs.
 *
 * Each iteration re-reads train.mjs, scales one `const NAME = number;` up or down, and hands the change
 * to `org submit`, which commits it and lets the verifier keep or revert it. It reads no results, forms
 * no hypotheses and never touches the model: it is the honest floor a real research agent should beat,
 * and a way to exercise the whole org with no model API at all. It does follow the org: once its inbox says the org's
 * best advanced it works on that best, and it skips a change the ledger already holds as tried on the same code (the
 * code it stands on, or its best the verifier diffs against), and the change it just submitted.
 * As a junior it takes its chief's task: a `focus: NAME, NAME` line narrows which constants it moves.
 */
import { join } from "node:path";
import { proposeUntried, type Rng } from "./hillclimb-step.js";

/** What the baseline needs of the world; `org builtin` hands it the real one. */
export interface HillclimbWorld {
  readText(path: string): Promise<string | undefined>;
  writeText(path: string, text: string): Promise<void>;
  /** Runs the submit command and waits for its verdict. */
  submit(argv: string[], cwd: string): Promise<{ spawnError?: string; output: string; exit: number | string | null }>;
  delay(ms: number): Promise<void>;
  /** Ids of the inbox's "the org's best advanced" messages; absent: the agent never follows the frontier. */
  listFrontierNews?(): Promise<string[]>;
  /** Moves cwd's branch onto the org best unless it holds it already; says so when it moved. */
  moveOntoBest?(cwd: string): Promise<string | undefined>;
  /** Descriptions of the changes the ledger holds as judged on the code now in cwd; absent: no ledger. */
  listTried?(cwd: string): Promise<Set<string>>;
  /** The constants its task names (a chief's `focus:` line); absent or empty: every constant. */
  readFocus?(): Promise<string[]>;
}

export interface HillclimbOptions {
  /** The agent's worktree. */
  cwd: string;
  /** The submit command; `-m <description>` is appended. */
  submitArgv: string[];
  rng?: Rng;
  log: (text: string) => void;
  /** Stop after this many submissions; forever when absent. */
  iterations?: number;
  /** Rest between submissions, so a submit that fails at once never turns this into a busy loop. */
  pauseMs?: number;
  file?: string;
}

export type HillclimbEnd = { kind: "done"; submitted: number } | { kind: "failed"; reason: string };

/** Propose, write, submit, repeat. Re-reads the file every time because a discard resets the worktree under us. */
export async function runHillclimb(options: HillclimbOptions, world: HillclimbWorld): Promise<HillclimbEnd> {
  const { cwd, log, iterations, submitArgv, pauseMs = 200, rng = Math.random } = options;
  const path = join(cwd, options.file ?? "train.mjs");
  let done = 0;
  const seen = new Set<string>();
  let following = false;
  let focus: string[] = [];
  let last: { source: string; description: string } | undefined;
  for (; iterations === undefined || done < iterations; done++) {
    if (done > 0) await world.delay(pauseMs);
    following = (await hasNews(world, seen)) || following;
    // Once the org's best is ahead, every step starts from it: a discard puts the branch back on the agent's own best.
    const moved = following ? await world.moveOntoBest?.(cwd) : undefined;
    if (moved !== undefined) log(`hillclimb: ${moved}`);
    const source = await world.readText(path);
    if (source === undefined) return {
      kind: "failed",
      reason: `hillclimb: ${path} does not exist — the baseline researcher tunes the constants of train.mjs`,
    };
    const tried = new Set((await world.listTried?.(cwd)) ?? []);
    // The change just submitted on this very code is never the next one, whatever the ledger holds by now.
    if (last?.source === source) tried.add(last.description);
    const nextFocus = (await world.readFocus?.()) ?? [];
    const focusText = nextFocus.length > 0 ? `focus ${nextFocus.join(", ")} (its task)` : "no focus: every constant";
    if (nextFocus.join() !== focus.join()) log(`hillclimb: ${focusText}`);
    focus = nextFocus;
    const proposal = proposeUntried(source, rng, tried, focus.length > 0 ? new Set(focus) : undefined);
    if (!proposal) return {
      kind: "failed",
      reason: `hillclimb: ${path} has no \`const NAME = <positive number>;\` line to tune`,
    };
    if (proposal.skipped > 0) log(`hillclimb: skipped ${proposal.skipped} change(s) `
      + `already tried on this code (org tried)`);
    await world.writeText(path, proposal.source);
    last = { source, description: proposal.description };
    log(`hillclimb: ${proposal.description}`);
    const result = await world.submit([...submitArgv, "-m", proposal.description], cwd);
    if (result.spawnError !== undefined) return {
      kind: "failed",
      reason: `hillclimb: could not run ${submitArgv.join(" ")}: ${result.spawnError}`,
    };
    if (result.output !== "") log(result.output);
    if (result.exit !== 0) log(`hillclimb: submit exited ${result.exit}`);
  }
  return { kind: "done", submitted: done };
}

// New frontier messages since the last look; the ids are remembered, so each message moves the agent once.
async function hasNews(world: HillclimbWorld, seen: Set<string>): Promise<boolean> {
  const ids = (await world.listFrontierNews?.()) ?? [];
  const fresh = ids.filter((id) => !seen.has(id));
  for (const id of fresh) seen.add(id);
  return fresh.length > 0;
}

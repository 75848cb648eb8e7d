/**
 * The built-in chief scientist: it runs no experiment of its own. It reads the org's ledger, scores each numeric
 * constant of train.mjs by what changing it has given (an upper confidence bound, so a constant nobody tried is
 * tried), and gives each junior one constant to work on through `org task`. With built-in juniors (the hillclimb,
 * which follows a task's `focus:` line) it makes a chief-and-juniors org that runs with no model API, to compare
 * against independent researchers on the same task.
 */
import { join } from "node:path";
import { findConstants } from "./hillclimb-step.js";
import { assignFocus, formatFocusTask, scoreConstants, type JudgedChange } from "./chief-plan.js";

/** What the chief needs of the world; `org builtin chief` hands it the real one. */
export interface ChiefWorld {
  readText(path: string): Promise<string | undefined>;
  /** The agents whose role reports to the chief's. */
  listJuniors(): Promise<string[]>;
  /** The judged changes of the chief's org (its half, in an A/B run), oldest first. */
  listJudged(): Promise<JudgedChange[]>;
  /** `org task <junior>` with this body. */
  setTask(junior: string, body: string): Promise<{ ok: boolean; output: string }>;
  delay(ms: number): Promise<void>;
}

export interface ChiefOptions {
  /** The chief's worktree, where it reads the constants. */
  cwd: string;
  file?: string;
  log: (text: string) => void;
  /** Rest between looks at the ledger. */
  pauseMs?: number;
  /** Stop after this many looks; forever when absent. */
  rounds?: number;
}

export type ChiefEnd = { kind: "done"; rounds: number } | { kind: "failed"; reason: string };

/** Look, re-plan once the juniors have a new result each, tell the juniors whose constant changed, rest, repeat. */
export async function runChief(options: ChiefOptions, world: ChiefWorld): Promise<ChiefEnd> {
  const { cwd, log, rounds, pauseMs = 5_000 } = options;
  const file = options.file ?? "train.mjs";
  const current = new Map<string, string>();
  let planned = -1;
  let round = 0;
  for (; rounds === undefined || round < rounds; round++) {
    if (round > 0) await world.delay(pauseMs);
    const juniors = await world.listJuniors();
    if (juniors.length === 0) return {
      kind: "failed",
      reason: "chief: no role reports to this one — give the juniors' role reports_to: <the chief's role> in org.yaml",
    };
    const source = await world.readText(join(cwd, file));
    const constants = source === undefined ? [] : findConstants(source).map((constant) => constant.name);
    if (constants.length === 0) return {
      kind: "failed",
      reason: `chief: ${file} in ${cwd} has no \`const NAME = <positive number>;\` line to hand out`,
    };
    const judged = await world.listJudged();
    const settled = juniors.every((junior) => current.has(junior));
    if (settled && judged.length < planned + juniors.length) continue;
    planned = judged.length;
    for (const assignment of assignFocus(juniors, scoreConstants(constants, judged), current)) {
      if (current.get(assignment.junior) === assignment.focus) continue;
      const sent = await world.setTask(assignment.junior, formatFocusTask(assignment, file));
      if (!sent.ok) {
        log(`chief: could not task ${assignment.junior}, tried again on the next look: ${sent.output}`);
        continue;
      }
      current.set(assignment.junior, assignment.focus);
      log(`chief: ${assignment.junior} → ${assignment.focus} (${assignment.why}, after ${judged.length} judged)`);
    }
  }
  return { kind: "done", rounds: round };
}

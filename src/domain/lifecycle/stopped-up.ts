import type { StopSettings } from "../config/index.js";
import type { StopDecision, StopKey, StopWaivers } from "../experiments/stop.js";
import type { StopRecord } from "../experiments/stop-state.js";

export type StoppedUpDecision =
  | { kind: "go" }
  | { kind: "waive"; waivers: StopWaivers; reason: string }
  | { kind: "refuse"; reason: string };

/**
 * `org up` over the stop section: a condition that holds refuses a plain `org up`, saying why and how to go on;
 * `--resume` goes on past every condition that holds, each waived at its org.yaml value (a new value applies again).
 */
export function decideStoppedUp(input: {
  name: string; stop: StopSettings | undefined; decision: StopDecision; record: StopRecord | undefined; resume: boolean;
  waived: StopWaivers;
}): StoppedUpDecision {
  const { decision } = input;
  if (decision.kind === "running") return { kind: "go" };
  if (input.resume) {
    const waivers = { ...input.waived, ...Object.fromEntries(decision.met.map((key) => [key, input.stop?.[key]])) };
    return {
      kind: "waive",
      waivers,
      reason: `going on past ${decision.met.map((key) => `stop.${key} ${String(input.stop?.[key])}`).join(", ")} `
        + `(${decision.reason})`,
    };
  }
  const what = input.record
    ? `org ${input.name} stopped: ${input.record.reason}`
    : `org ${input.name} would stop at once: ${decision.reason}`;
  return {
    kind: "refuse",
    reason: `${what} — to go on, ${explainGoOn(decision.key, input.stop?.[decision.key])} in org.yaml, `
      + `or run \`org up --resume\` to go on past it`,
  };
}

function explainGoOn(key: StopKey, value: unknown): string {
  const now = `(now ${String(value)})`;
  if (key === "target") return `set a harder stop.target ${now}`;
  if (key === "deadline") return `set a later stop.deadline ${now}`;
  return `raise stop.${key} ${now}`;
}

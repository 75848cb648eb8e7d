import { latestUserTurn, type ModelRequest, type Move, type Script } from "./model-server/index.js";
import { agentOf } from "./real-template-org.js";

/** A shell command, or one chosen from the tool outputs since the latest user turn; null ends the turn. */
export type Step = string | ((outputs: string[], agent: string) => string | null);

/** A cue: when the latest user turn matches, run the steps one per request, then say `done`. */
export interface Cue {
  when: RegExp;
  steps: Step[];
  done: string;
}

/** The line org types into a pane for a message from `from` of `kind`, alone or the latest of several. */
export function notice(from: string, kind: string): RegExp {
  return new RegExp(`\\[org\\] (?:new message|\\d+ new messages, the latest) from ${from} \\(${kind}\\)`);
}

/**
 * Each role's mind as data, told apart by the agent its rendered
 * prompt names. Stateless like `reactions`: the k-th step
 * runs once k tool results followed the latest user turn, so
 * what a step does may depend on what the earlier ones printed.
 */
export function minds(byRole: Record<string, Cue[]>): Script {
  return (request: ModelRequest): Move => {
    const agent = agentOf(request.system);
    const latest = latestUserTurn(request.turns);
    const cue = latest && byRole[agent.replace(/-\d+$/, "")]?.find((candidate) => candidate.when.test(latest.text));
    if (!latest || !cue) return { kind: "text", text: "Nothing to do; waiting for a message." };
    const step = cue.steps[latest.toolResults.length];
    const command = typeof step === "function" ? step(latest.toolResults, agent) : step;
    return command == null ? { kind: "text", text: cue.done } : { kind: "shell", command };
  };
}

/** The command that makes train.py print `value` and submits it. */
export function submitValue(value: string, idea: string): string {
  return `printf "print('val_bpb: ${value}')\\n" > train.py && org submit -m '${idea}'`;
}

/** The ids of the unread messages an `org inbox` printed. */
export function inboxIds(output: string): string[] {
  return [...output.matchAll(/^## (\S+) · from /gm)].map((match) => match[1]!);
}

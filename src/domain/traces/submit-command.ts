// `org submit` as an agent's transcript shows it: the command it ran, what org printed back, where the verdict came.
import type { TraceEvent } from "./events.js";

const SUBMIT = /(?:^|[\s;&|()`'"/])org\s+submit(?:\s|$)/;
const MESSAGE = /(?:^|\s)(?:-m|--message)(?:\s+|=)(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+))/;
const COMMIT = /\b(?:submitted|queued) ([0-9a-f]{7,40})\b|"commit"\s*:\s*"([0-9a-f]{7,40})"/;
const ID = /\bas (\S+-[0-9a-f]{7})\s*$|"id"\s*:\s*"([^"]+-[0-9a-f]{7})"/m;

/** Whether a shell command runs `org submit` (by name or by a path ending in org, alone or in a chain). */
export function isSubmitCommand(command: string): boolean {
  return SUBMIT.test(command);
}

/** The -m/--message text of a submit command, as the shell would pass it; undefined when it has none. */
export function readSubmitMessage(command: string): string | undefined {
  const match = MESSAGE.exec(command);
  if (!match) return undefined;
  return match[1] !== undefined ? match[1].replace(/\\(.)/g, "$1") : (match[2] ?? match[3]);
}

/** What `org submit` printed: the commit it submitted and the experiment id where it says them. */
export function readSubmitAnswer(output: string): { commit?: string; id?: string } {
  const commit = COMMIT.exec(output);
  const id = ID.exec(output);
  return {
    ...(commit ? { commit: commit[1] ?? commit[2] } : {}),
    ...(id ? { id: id[1] ?? id[2] } : {}),
  };
}

/**
 * Where a queued (`--no-wait`) experiment's verdict reached the agent, from `from` on: `org inbox` printing the
 * verdict message ("## verdict discard for abc1234 …"), a typed line saying so, or the output of `org wait <id>`.
 */
export function findVerdictSeen(
  events: readonly TraceEvent[], from: number, commit: string, id: string | undefined,
): number | undefined {
  const title = new RegExp(`verdict [a-z]+ for ${commit}`);
  // The id is read from the agent's transcript: taken as text, never as a pattern.
  const literal = id?.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const wait = literal === undefined ? undefined : new RegExp(`org\\s+wait\\s+${literal}(?:\\s|$)`);
  for (let index = from; index < events.length; index++) {
    const event = events[index]!;
    if ((event.kind === "result" || event.kind === "user") && title.test(event.text)) return index;
    if (event.kind !== "call" || !wait?.test(event.command)) continue;
    const answer = events.findIndex((later, at) => at > index && later.kind === "result");
    if (answer >= 0) return answer;
  }
  return undefined;
}

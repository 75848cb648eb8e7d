// One agent's conversation as a timeline, whatever CLI recorded it: what it was told, said, ran and got back.
import { readObject, readTime } from "../usage/token-counts.js";

/** One moment of a conversation; `at` is epoch milliseconds as the CLI recorded it. */
export type TraceEvent =
  | { kind: "user"; at: number; text: string }
  | { kind: "assistant"; at: number; text: string }
  /** A tool call: a shell tool's command as run, any other tool as its name and arguments. */
  | { kind: "call"; at: number; tool: string; command: string; id?: string }
  | { kind: "result"; at: number; text: string; id?: string };

/** What one CLI's transcript file read into: its events, and how many lines were its own (none: not its transcript). */
export interface FileEvents {
  events: TraceEvent[];
  known: number;
}

/** What an agent's transcript says: its events and what could not be read, or why it has none. */
export type AgentTrace =
  | { kind: "read"; cli: string; events: TraceEvent[]; problems: string[] }
  | { kind: "none"; why: string };

/** Each event's text is cut to this: a transcript is the agent's, and a tool's output can be a disk's worth. */
export const MAX_EVENT_TEXT = 4000;

/** Text as the timeline keeps it: bounded, cut with a mark. */
export function clipText(text: string, max = MAX_EVENT_TEXT): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/** The command a tool call ran: a shell tool's command string (or argv's script), else name and arguments. */
export function describeCall(tool: string, input: unknown): string {
  const args = readObject(input);
  const command = args?.command ?? args?.cmd;
  if (typeof command === "string") return clipText(command);
  if (Array.isArray(command) && command.every((part) => typeof part === "string")) {
    // ["bash", "-lc", "script"]: the script is what the agent wrote.
    const shell = command.length === 3 && /(^|\/)(ba|z)?sh$/.test(command[0]!) && command[1]!.startsWith("-");
    return clipText(shell ? command[2]! : command.join(" "));
  }
  return clipText(`${tool} ${JSON.stringify(input ?? {})}`);
}

/** The text parts of a content list (`{type: "text", text}` and the like), joined; a plain string as it is. */
export function joinTexts(content: unknown, types: readonly string[] = ["text"]): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => readObject(part))
    .filter((part) => part && typeof part.text === "string"
      && (part.type === undefined || types.includes(String(part.type))))
    .map((part) => part!.text as string)
    .join("\n");
}

/** An event's time: the line's own, else the one before it (a line without a time stays in its place). */
export function timeOf(value: unknown, before: number): number {
  return readTime(value) ?? before;
}

import type { ModelRequest, Move, Script, Turn } from "./types.js";

/** A reaction: when the latest user turn matches, run these commands one per request, then say `done`. */
export interface Reaction {
  /** A pattern for the latest user turn, or a test of it and the whole request. */
  when: RegExp | ((text: string, request: ModelRequest) => boolean);
  commands: string[];
  done: string;
}

/** The latest user turn (a kickoff, a typed `[org]` line, a nudge) and the tool results that followed it. */
export function latestUserTurn(turns: Turn[]): { text: string; toolResults: string[] } | null {
  const index = turns.map((turn) => turn.role).lastIndexOf("user");
  if (index < 0) return null;
  const after = turns.slice(index + 1).flatMap((turn) => (turn.role === "tool" ? [turn.output] : []));
  return { text: (turns[index] as { text: string }).text, toolResults: after };
}

/**
 * A researcher's mind as data: the first reaction whose `when` matches the latest user turn decides; its k-th
 * command runs once k tool results followed that turn. Stateless, so a resumed conversation goes on where it was.
 */
export function reactions(list: Reaction[], otherwise = "Nothing to do."): Script {
  return (request: ModelRequest): Move => {
    const latest = latestUserTurn(request.turns);
    const matches = (when: Reaction["when"], text: string) =>
      when instanceof RegExp ? when.test(text) : when(text, request);
    const reaction = latest && list.find((candidate) => matches(candidate.when, latest.text));
    if (!latest || !reaction) return { kind: "text", text: otherwise };
    const next = reaction.commands[latest.toolResults.length];
    return next === undefined ? { kind: "text", text: reaction.done } : { kind: "shell", command: next };
  };
}

/** Every tool output the conversation holds, oldest first. */
export function toolOutputs(request: ModelRequest): string[] {
  return request.turns.flatMap((turn) => (turn.role === "tool" ? [turn.output] : []));
}

/** Tool outputs from before the latest user turn: what a resumed conversation already holds. */
export function earlierToolOutputs(request: ModelRequest): string[] {
  const index = request.turns.map((turn) => turn.role).lastIndexOf("user");
  return request.turns.slice(0, Math.max(index, 0)).flatMap((turn) => (turn.role === "tool" ? [turn.output] : []));
}

/** Every user text the conversation holds, oldest first. */
export function userTexts(request: ModelRequest): string[] {
  return request.turns.flatMap((turn) => (turn.role === "user" ? [turn.text] : []));
}

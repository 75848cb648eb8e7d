// state/claims.md: a Markdown list, one claim per line, that people may read and edit by hand.
import { SAFE_NAME } from "../config/index.js";
import type { ResultStatus } from "../experiments/results-table.js";

const VERDICTS: readonly string[] = ["keep", "discard", "crash", "reject", "fail"];
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z$/;
/** The board's path as messages name it. */
export const CLAIMS_FILE = "state/claims.md";
const CLAIM_FORMAT = "- #<id> <agent> <time> open: <idea>";

/** Why a claim is closed: its agent said so, time ran out, or a verdict of its agent came. */
export type ClaimClosure =
  | { reason: "done" | "dropped" | "expired"; time: string }
  | { reason: "verdict"; time: string; status: ResultStatus; commit: string };

export interface Claim {
  id: number;
  agent: string;
  /** ISO time, to the second. */
  time: string;
  idea: string;
  closed?: ClaimClosure;
}

/** A line that looks like an entry but is not one; `id` when its number could still be read, so it is never reused. */
export interface BoardProblem {
  line: number;
  reason: string;
  fix: string;
  id?: number;
}

/**
 * Every line of the file in order: headings and quotes as text, entries as claims, anything
 * else kept verbatim as bad.
 */
export type BoardLine =
  | { kind: "text"; text: string }
  | { kind: "claim"; claim: Claim }
  | { kind: "bad"; text: string; problem: BoardProblem };

export const BOARD_HEADER = [
  "# Claims board",
  "",
  "> Ideas agents are working on now, one line each, oldest first. `org claim \"idea\"` adds one; "
    + "`org claims` lists the open ones.",
  "> A claim closes with its agent's next verdict, after claims.timeout of org.yaml (2h by default), "
    + "or by `org claim --done <id>` / `--drop <id>`.",
  `> One line per claim: ${CLAIM_FORMAT}; a closed one reads closed <time> done|dropped|expired|<verdict> <commit> `
    + `instead of open. Hand edits are fine: a line that does not read so is reported and kept.`,
  "",
];

/** The board's lines; a problem per bad entry, with its line number. Never throws: a bad line is reported and kept. */
export function parseBoard(text: string | undefined): BoardLine[] {
  const raw = (text ?? "").split("\n");
  if (raw.at(-1) === "") raw.pop();
  const seen = new Map<number, number>();
  return raw.map((text, index): BoardLine => {
    const line = index + 1;
    if (text.trim() === "" || /^(#{1,6}( |$)|>)/.test(text)) return { kind: "text", text };
    const parsed = parseEntry(text);
    if ("reason" in parsed) return { kind: "bad", text, problem: { line, ...parsed } };
    const first = seen.get(parsed.id);
    if (first !== undefined) return {
      kind: "bad",
      text,
      problem: {
        line,
        id: parsed.id,
        reason: `claim #${parsed.id} is already on line ${first}`,
        fix: "give this claim a number no other line has",
      },
    };
    seen.set(parsed.id, line);
    return { kind: "claim", claim: parsed };
  });
}

/** The file's text: every line as it was read, changed claims rewritten. */
export function formatBoard(lines: BoardLine[]): string {
  return `${lines.map((line) => (line.kind === "claim" ? formatClaim(line.claim) : line.text)).join("\n")}\n`;
}

function formatClaim(claim: Claim): string {
  const status = claim.closed ? `closed ${claim.closed.time} ${describeWhy(claim.closed)}` : "open";
  return `- #${claim.id} ${claim.agent} ${claim.time} ${status}: ${claim.idea}`;
}

/** What closed a claim, in the board's words: done, dropped, expired, or the verdict and its commit. */
export function describeWhy(closure: ClaimClosure): string {
  return closure.reason === "verdict" ? `${closure.status} ${closure.commit}` : closure.reason;
}

/** An ISO time to the second, as the board writes it. */
export function formatBoardTime(time: Date): string {
  return time.toISOString().replace(/\.\d+Z$/, "Z");
}

function parseEntry(text: string): Claim | Omit<BoardProblem, "line"> {
  const shown = JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);
  const fix = `write it as ${CLAIM_FORMAT}, or delete the line`;
  const id = /^- #(\d+)\b/.exec(text)?.[1];
  if (id === undefined) return { reason: `${shown} is not a claim`, fix };
  const known = { id: Number(id) };
  const split = text.indexOf(": ");
  const idea = split < 0 ? "" : text.slice(split + 2).trim();
  if (idea === "") return {
    ...known,
    reason: `claim #${id} has no idea after ": "`,
    fix: `write the idea after the colon: ${CLAIM_FORMAT}`,
  };
  const [, , agent = "", time = "", ...status] = text.slice(0, split).split(/\s+/);
  if (!SAFE_NAME.test(agent)) return { ...known, reason: `claim #${id} names no agent ("${agent}")`, fix };
  if (!isBoardTime(time)) return {
    ...known,
    reason: `claim #${id} has no ISO time ("${time}")`,
    fix: "write a time such as 2026-01-07T10:15:00Z after the agent",
  };
  const closed = parseStatus(status);
  if (closed === "bad") return {
    ...known,
    reason: `claim #${id} has status "${status.join(" ")}"`,
    fix: "write open, or closed <time> done|dropped|expired|<verdict> <commit>",
  };
  return { id: known.id, agent, time, idea, ...(closed ? { closed } : {}) };
}

function parseStatus(words: string[]): ClaimClosure | undefined | "bad" {
  if (words.length === 1 && words[0] === "open") return undefined;
  const [word, time = "", why = "", commit, ...rest] = words;
  if (word !== "closed" || !isBoardTime(time) || rest.length > 0) return "bad";
  if (commit === undefined) return why === "done" || why === "dropped" || why === "expired"
    ? { reason: why, time }
    : "bad";
  return VERDICTS.includes(why) && /^[0-9a-f]{4,40}$/.test(commit)
    ? { reason: "verdict", time, status: why as ResultStatus, commit }
    : "bad";
}

function isBoardTime(text: string): boolean {
  return ISO_TIME.test(text) && !Number.isNaN(Date.parse(text));
}

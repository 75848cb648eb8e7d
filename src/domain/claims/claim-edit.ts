import { BOARD_HEADER, CLAIMS_FILE, describeWhy, formatBoardTime, type BoardLine, type Claim } from "./board.js";
import type { SettledBoard } from "./settle.js";
import { cleanLine } from "../safe-text.js";

/** The longest idea: a claim is one line, like a note; details belong in a file. */
const IDEA_MAX_CHARS = 300;

/** The board's lines after the change and the claim it changed, or why the change is refused. */
type ClaimDecision = { ok: true; lines: BoardLine[]; claim: Claim } | { ok: false; reason: string };

/** The idea on one line, or why it cannot be claimed. */
export function prepareIdea(text: string | undefined): { ok: true; idea: string } | { ok: false; reason: string } {
  const idea = cleanLine(text ?? "").replace(/\s+/g, " ").trim();
  if (idea === "") return { ok: false, reason: 'no idea given — say it in one line: org claim "the idea in one line"' };
  if (idea.length > IDEA_MAX_CHARS) return {
    ok: false,
    reason: `the idea is ${idea.length} characters, over ${IDEA_MAX_CHARS} — say it in one short line; `
      + `put details in a file`,
  };
  return { ok: true, idea };
}

/** The board with a new open claim of `agent` at the end, numbered past every number on it, bad lines included. */
export function addClaim(board: SettledBoard, agent: string, idea: string, now: Date): ClaimDecision {
  const ids = board.lines.map((line) =>
    (line.kind === "claim" ? line.claim.id : line.kind === "bad" ? (line.problem.id ?? 0) : 0));
  const claim: Claim = { id: Math.max(0, ...ids) + 1, agent, time: formatBoardTime(now), idea };
  // A missing or emptied file starts with its header, so a person opening it knows the format.
  const head = board.lines.length === 0 ? BOARD_HEADER.map((text): BoardLine => ({ kind: "text", text })) : board.lines;
  return { ok: true, lines: [...head, { kind: "claim", claim }], claim };
}

/** The board with claim `idText` closed as done or dropped by `caller`, or why it cannot be. */
export function closeClaim(
  board: SettledBoard, caller: string, idText: string, how: "done" | "dropped", now: Date,
): ClaimDecision {
  const match = /^#?(\d+)$/.exec(idText.trim());
  if (!match) return {
    ok: false,
    reason: `"${idText}" is not a claim id — give the number \`org claims\` shows, e.g. 3`,
  };
  const id = Number(match[1]);
  const found = board.claims.find((claim) => claim.id === id);
  if (!found) {
    const bad = board.problems.find((problem) => problem.id === id);
    if (bad) return {
      ok: false,
      reason: `claim #${id} is on line ${bad.line} of ${CLAIMS_FILE}, which does not parse — `
        + `fix that line first (${bad.fix})`,
    };
    return { ok: false, reason: `there is no claim #${id} — \`org claims --all\` lists every claim with its number` };
  }
  if (found.agent !== caller) return {
    ok: false,
    reason: `claim #${id} is ${found.agent}'s, not ${caller}'s — only ${found.agent} may close it`,
  };
  if (found.closed) return {
    ok: false,
    reason: `claim #${id} is already closed (${describeWhy(found.closed)} at ${found.closed.time}) — nothing to close`,
  };
  const claim: Claim = { ...found, closed: { reason: how, time: formatBoardTime(now) } };
  return {
    ok: true,
    lines: board.lines.map((line) => (line.kind === "claim" && line.claim.id === id ? { kind: "claim", claim } : line)),
    claim,
  };
}

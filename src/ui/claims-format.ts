import { CLAIMS_FILE, describeWhy, type BoardProblem, type Claim } from "../domain/claims/board.js";
import type { NearIdea } from "../domain/claims/similarity.js";
import { formatUptime } from "./uptime.js";

const CLAIM_HINT = 'claim an idea before you work on it: org claim "the idea in one line"';

/** `org claims`: one line per claim, oldest first, with its age; closed ones too when `all`. */
export function renderClaims(claims: Claim[], opts: { all: boolean; now: Date }): string {
  const shown = opts.all ? claims : claims.filter((claim) => !claim.closed);
  const open = claims.filter((claim) => !claim.closed).length;
  if (shown.length === 0) return opts.all ? `no claims yet — ${CLAIM_HINT}` : `no open claims — ${CLAIM_HINT}`;
  const head = opts.all
    ? `${count(shown.length, "claim")} (${open} open), oldest first:`
    : `${count(open, "open claim")}, oldest first:`;
  const lines = shown.map((claim) => {
    const age = `${formatUptime(Math.max(0, opts.now.getTime() - Date.parse(claim.time)))} ago`;
    return `#${claim.id} ${claim.agent} · ${age} · `
      + `${claim.closed ? describeWhy(claim.closed) : "open"} · ${claim.idea}`;
  });
  return [head, ...lines, ...(open > 0
    ? ["", "close yours when you move on: org claim --done <id> (or --drop <id>)"]
    : [])].join("\n");
}

/** The warning for a claim that repeats an open claim or a tried idea. */
export function describeNear(near: NearIdea): string {
  const score = near.similarity.toFixed(2);
  if (near.kind === "claim") {
    return `warning: near claim #${near.claim.id} by ${near.claim.agent}: '${shorten(near.claim.idea)}' (${score}) — `
      + `pick another idea, or ask ${near.claim.agent} first`;
  }
  const { row } = near;
  return `warning: near tried idea ${row.commit.slice(0, 7)} by ${row.agent} (${row.status}): `
    + `'${shorten(row.description)}' (${score}) — say what is different this time, or pick another idea`;
}

/** A bad line of the board, by file and line: it is reported, skipped and kept as it is. */
export function describeBoardProblem(problem: BoardProblem): string {
  return `org: ${CLAIMS_FILE}:${problem.line}: ${problem.reason} — ${problem.fix} (skipped; the line is kept as it is)`;
}

function shorten(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

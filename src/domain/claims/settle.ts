import { parseResults, type ResultRow } from "../experiments/results-table.js";
import {
  formatBoardTime, parseBoard, type BoardLine, type BoardProblem, type Claim, type ClaimClosure,
} from "./board.js";

/** The board as it stands now: every line, closures due written into its claims, and the tried ideas of results.tsv. */
export interface SettledBoard {
  lines: BoardLine[];
  claims: Claim[];
  problems: BoardProblem[];
  tried: ResultRow[];
  /** Claims this reading closed: the board needs writing when there are any. */
  closed: Claim[];
}

/** Read the board and results.tsv, and close every claim whose verdict came or whose time ran out. */
export function settleBoard(
  board: string | undefined, results: string | undefined, timeoutMs: number, now: Date,
): SettledBoard {
  const rows = parseResults(results ?? "").rows;
  const read = parseBoard(board);
  const closures = settleClaims(
    read.flatMap((line) => (line.kind === "claim" ? [line.claim] : [])),
    rows,
    timeoutMs,
    now,
  );
  const lines = read.map((line): BoardLine => {
    const closed = line.kind === "claim" ? closures.get(line.claim.id) : undefined;
    return line.kind === "claim" && closed ? { kind: "claim", claim: { ...line.claim, closed } } : line;
  });
  const claims = lines.flatMap((line) => (line.kind === "claim" ? [line.claim] : []));
  return {
    lines,
    claims,
    problems: lines.flatMap((line) => (line.kind === "bad" ? [line.problem] : [])),
    tried: listTriedIdeas(rows),
    closed: claims.filter((claim) => closures.has(claim.id)),
  };
}

/** results.tsv rows that judged an agent's idea: the verifier's own baseline runs are no one's idea. */
function listTriedIdeas(rows: ResultRow[]): ResultRow[] {
  return rows.filter((row) => row.description !== "baseline" && row.agent !== "");
}

/**
 * The closures due on the open claims: each verdict of an agent closes its oldest claim still open at that time, made
 * before it, so a claim queued with `org submit --no-wait` behind another waits for its own verdict; a claim with none
 * within `timeoutMs` expires. Verdicts already named by a closed claim close nothing more.
 */
function settleClaims(claims: Claim[], rows: ResultRow[], timeoutMs: number, now: Date): Map<number, ClaimClosure> {
  const closures = new Map<number, ClaimClosure>();
  const used = new Set(claims.flatMap((claim) =>
    (claim.closed?.reason === "verdict" ? [verdictKey(claim.agent, claim.closed.commit, claim.closed.time)] : [])));
  const open = claims.filter((claim) => !claim.closed)
    .sort((a, b) => Date.parse(a.time) - Date.parse(b.time) || a.id - b.id);
  const verdicts = listTriedIdeas(rows)
    .filter((row) =>
      !Number.isNaN(Date.parse(row.time))
        && !used.has(verdictKey(row.agent, row.commit.slice(0, 7), formatBoardTime(new Date(row.time)))))
    .sort((a, b) => Date.parse(a.time) - Date.parse(b.time));
  for (const row of verdicts) {
    const at = Date.parse(row.time);
    const claim = open.find((candidate) =>
      candidate.agent === row.agent && !closures.has(candidate.id) && Date.parse(candidate.time) < at
        && at < Date.parse(candidate.time) + timeoutMs);
    if (claim) {
      const time = formatBoardTime(new Date(at));
      closures.set(claim.id, { reason: "verdict", time, status: row.status, commit: row.commit.slice(0, 7) });
    }
  }
  for (const claim of open) {
    const expires = Date.parse(claim.time) + timeoutMs;
    if (!closures.has(claim.id) && now.getTime() >= expires) {
      closures.set(claim.id, { reason: "expired", time: formatBoardTime(new Date(expires)) });
    }
  }
  return closures;
}

function verdictKey(agent: string, commit: string, time: string): string {
  return `${agent} ${commit} ${time}`;
}

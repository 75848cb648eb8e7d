// state/tried.jsonl, the experiment ledger: every judged change, keyed by its patch-id and the tree it was judged on.
import * as z from "zod";
import type { ResultStatus } from "./results-table.js";

/**
 * A change as git sees it: `git patch-id --stable` of its binary diff, and the tree of the commit it
 * was judged against.
 */
export interface ChangeKey {
  patchId: string;
  tree: string;
}

/** The original a duplicate was answered from, and the GPU seconds its answer saved (the original's). */
export interface DuplicateOf {
  commit: string;
  agent: string;
  status: ResultStatus;
  description: string;
  seconds: number;
  /** The gate that failed, for a fail. */
  gate?: string;
}

export interface TriedEntry {
  /** The judged commit: the rebased one when the verifier moved the change onto the agent's best. */
  commit: string;
  agent: string;
  description: string;
  status: ResultStatus;
  metric?: number;
  /** The metric against the agent's best when judged; none for crashes and rejects. */
  delta?: number;
  reason: string;
  /** The gate of verify.gates that failed, for a fail. */
  gate?: string;
  /** The results row's seconds: 0 for an answer from the ledger. */
  seconds: number;
  /** The results row's time. */
  time: string;
  /** Absent when the change was not judged on its own (a conflicting rebase, an empty change): never an answer. */
  change?: ChangeKey;
  duplicateOf?: DuplicateOf;
}

export interface TriedLedger {
  entries: TriedEntry[];
  /** `file:line: what — how to fix`, one per line that does not parse. */
  problems: string[];
}

const STATUS = z.enum(["keep", "discard", "crash", "reject", "fail"]);
const ENTRY = z.object({
  commit: z.string().regex(/^[0-9a-f]{40,64}$/, "must be a full commit hash"),
  agent: z.string().min(1),
  description: z.string(),
  status: STATUS,
  metric: z.number().optional(),
  delta: z.number().optional(),
  reason: z.string(),
  gate: z.string().optional(),
  seconds: z.number().nonnegative(),
  time: z.string().min(1),
  change: z.object({ patchId: z.string().min(1), tree: z.string().min(1) }).optional(),
  duplicateOf: z.object({
    commit: z.string().min(1), agent: z.string(), status: STATUS, description: z.string(),
    seconds: z.number().nonnegative(), gate: z.string().optional(),
  }).optional(),
});

/**
 * The entries that parse; every other line is a problem naming its line, and is skipped: the org goes on without it.
 */
export function parseTriedLedger(text: string, file: string): TriedLedger {
  const entries: TriedEntry[] = [];
  const problems: string[] = [];
  const lines = text.split("\n");
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    const cut = index === lines.length - 1
      ? " (the last line has no newline: cut short by a write that did not finish?)"
      : "";
    const parsed = ENTRY.safeParse(parseJson(line));
    if (parsed.success) entries.push(parsed.data);
    else problems.push(
      `${file}:${index + 1}: not an experiment-ledger entry${cut}: ${describeIssue(parsed.error.issues[0])} — the line `
        + `is skipped; fix it or delete it`,
    );
  });
  return { entries, problems };
}

/** One line of state/tried.jsonl, without its newline. */
export function formatTriedEntry(entry: TriedEntry): string {
  return JSON.stringify(entry);
}

/** What an entry stands for: a duplicate's original, else itself. */
export function originalOf(entry: TriedEntry): DuplicateOf & { metric?: number } {
  return entry.duplicateOf ? { ...entry.duplicateOf, metric: entry.metric } : { ...entry };
}

function parseJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return Symbol("not json");
  }
}

function describeIssue(issue: z.core.$ZodIssue | undefined): string {
  if (!issue) return "unreadable";
  if (issue.path.length === 0) return "not a JSON object";
  return `${issue.path.join(".")}: ${issue.message}`;
}

import type { LineReader, ReadContext, UsageRecord } from "./token-counts.js";

/** Where a reader stands in one transcript file: lines read, whether any was the CLI's own, the first problem. */
export interface ScanCursor {
  lines: number;
  known: boolean;
  context: ReadContext;
  /** Sticky: once a line could not be read, this file's count may be short, and stays flagged. */
  problem?: string;
}

export const freshCursor = (): ScanCursor => ({ lines: 0, known: false, context: {} });

/** Reads whole lines (the caller holds back a half-written last one) into usage records, advancing the cursor. */
export function scanJsonl(text: string, read: LineReader, cursor: ScanCursor, label: string): {
  records: UsageRecord[]; cursor: ScanCursor;
} {
  const next: ScanCursor = { ...cursor, context: { ...cursor.context } };
  const records: UsageRecord[] = [];
  const flag = (why: string) => (next.problem ??= `${label}:${next.lines}: ${why}`);
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    next.lines++;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      flag(`a line that is not JSON (${JSON.stringify(line.slice(0, 60))}${line.length > 60 ? "…" : ""})`);
      continue;
    }
    const reading = read(value, next.context);
    if (reading.kind !== "foreign") next.known = true;
    if (reading.kind === "usage") records.push(reading.record);
    else if (reading.kind === "malformed") flag(reading.why);
  }
  return { records, cursor: next };
}

/** Why a file's usage cannot be trusted, or undefined: a problem line, or lines none of which is the CLI's. */
export function explainCursor(cursor: ScanCursor, label: string, cli: string): string | undefined {
  if (cursor.problem) return cursor.problem;
  if (cursor.lines > 0 && !cursor.known) return `${label}: an unknown shape — `
    + `none of its ${cursor.lines} lines is a ${cli} transcript line`;
  return undefined;
}

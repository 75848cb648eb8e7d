// log.md entries: one greppable heading per event, so `grep "^## \[" log.md` is the org's timeline.
import { cleanLine, cleanText } from "./safe-text.js";

/** What happened: up, down, baseline, keep, discard, crash, reject, restart, failed, submit, and so on. */
export interface LogEntry {
  date: Date;
  op: string;
  title: string;
  body?: string;
}

/** `## [YYYY-MM-DD] op | title` then the body's lines; the date is UTC, like the ISO times in results.tsv. */
export function formatLogEntry(entry: LogEntry): string {
  const heading = `## [${entry.date.toISOString().slice(0, 10)}] ${flattenLine(entry.op)} `
    + `| ${flattenLine(entry.title)}`;
  const body = cleanText(entry.body ?? "").replace(/\s+$/, "");
  if (body === "") return `${heading}\n`;
  return `${heading}\n${body.split("\n").map(escapeHeading).join("\n")}\n`;
}

// A newline in a title would split the entry and break the one-line-per-event timeline; an escape, reach a reader.
function flattenLine(text: string): string {
  return cleanLine(text).replace(/\s+/g, " ").trim();
}

// A body line that looks like an entry heading would show up in the timeline grep as a fake event.
function escapeHeading(line: string): string {
  return line.startsWith("## [") ? `\\${line}` : line;
}

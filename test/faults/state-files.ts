// After a fault every state file must still read: JSON parses,
// JSONL lines parse, results.tsv rows have the header's columns.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Files under `dir` that would not read back, each with why; [] when nothing was corrupted. */
export function findUnreadable(dir: string): string[] {
  const problems: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    // The verifier's checkouts are git's, not ours.
    if (!entry.isFile() || path.includes("/verifier/")) continue;
    // A writer killed with -9 leaves its half-written tmp file: never read, and never renamed over a real one.
    if (entry.name.endsWith(".json")) problems.push(...check(path, () => JSON.parse(readFileSync(path, "utf8"))));
    else if (entry.name.endsWith(".jsonl"))
      problems.push(...check(path, () => readLines(path).forEach((line) => JSON.parse(line))));
    else if (entry.name === "results.tsv") problems.push(...checkResults(path));
  }
  return problems;
}

function checkResults(path: string): string[] {
  const text = readFileSync(path, "utf8");
  if (text !== "" && !text.endsWith("\n")) return [`${path}: the last line is cut off`];
  const [header, ...rows] = readLines(path);
  const columns = (header ?? "").split("\t").length;
  return rows.flatMap((row, index) =>
    row.split("\t").length === columns
      ? []
      : [`${path}:${index + 2}: ${row.split("\t").length} columns, not ${columns}`],
  );
}

function check(path: string, read: () => unknown): string[] {
  try {
    read();
    return [];
  } catch (error) {
    return [`${path}: ${(error as Error).message}`];
  }
}

function readLines(path: string): string[] {
  return readFileSync(path, "utf8").split("\n").filter(Boolean);
}

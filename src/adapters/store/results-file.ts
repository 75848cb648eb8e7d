// state/results.tsv: the only module that reads or writes it. Only ever appended to: a row whose columns differ from
// the file's header goes under a header of its own.
import { stat } from "node:fs/promises";
import { resultsPath } from "../../domain/experiments/results-table.js";
import { fileSize } from "../fs/dir.js";
import { appendLines, pathExists, readText } from "../fs/files.js";

/** The table's text; "" before the first row. Rows are parsed, and checked against the journal, by the caller. */
export async function readResultsText(state: string): Promise<string> {
  return (await readText(resultsPath(state))) ?? "";
}

/** Whether the org has a results table: one brought from elsewhere is state enough for the views. */
export function hasResults(state: string): Promise<boolean> {
  return pathExists(resultsPath(state));
}

/** Size, time and inode: what changes whenever anything writes the table ("missing" before it exists). */
export async function readResultsStamp(state: string): Promise<string> {
  return stat(resultsPath(state)).then((info) => `${info.size} ${info.mtimeMs} ${info.ino}`, () => "missing");
}

/**
 * The org's appender. Verdicts of parallel runs land together: one at a time, or two of them see an empty file and
 * both write the header. A file from before a column was added (the program) gets the new header once.
 */
export function createResultsAppender(state: string): (header: string, line: string) => Promise<void> {
  const file = resultsPath(state);
  let queue: Promise<void> = Promise.resolve();
  let lastHeader: string | undefined;
  const append = async (header: string, line: string) => {
    if ((await fileSize(file)) === 0) lastHeader = undefined;
    else lastHeader ??= findLastHeader((await readText(file)) ?? "");
    await appendLines(file, lastHeader === header ? [line] : [header, line]);
    lastHeader = header;
  };
  return (header, line) => {
    queue = queue.then(() => append(header, line), () => append(header, line));
    return queue;
  };
}

function findLastHeader(text: string): string | undefined {
  const headers = text.split("\n").filter((line) => line.startsWith("commit\t"));
  return headers[headers.length - 1]?.replace(/\r$/, "");
}

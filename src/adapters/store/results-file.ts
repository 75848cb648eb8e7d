// state/results.tsv is only ever appended to: a row whose columns differ from the file's header goes under a header of its own.
import { fileSize } from "../fs/dir.js";
import { appendLines, readText } from "../fs/files.js";

/**
 * An appender for one results.tsv. Verdicts of parallel runs land together: one at a time, or two of them see an empty
 * file and both write the header. A file from before a column was added (the program) gets the new header once.
 */
export function createResultsAppender(file: string): (header: string, line: string) => Promise<void> {
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

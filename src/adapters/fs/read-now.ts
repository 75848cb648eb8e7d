import { readFileSync } from "node:fs";

/**
 * A small file's text read at once, off the event loop's thread pool: `org status` reads three files an agent, and
 * at 64 agents the ~600 round trips of open, stat, read and close cost more than the reads. Only for files org
 * writes itself (state/): nothing an agent can make a FIFO blocks it. Undefined when missing, as readText.
 */
export function readTextNow(path: string): Promise<string | undefined> {
  try {
    return Promise.resolve(readFileSync(path, "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return Promise.resolve(undefined);
    return Promise.reject(error as Error);
  }
}
